/**
 * Keeps the wizard's draft while the person moves Back and Next, and in sessionStorage so that
 * a reload of the window loses nothing; forgotten once its run has started.
 */
import { defaultDraft, parseDraft, type Draft } from './state.ts';

const KEY = 'cacheproof.wizard';

let draft: Draft | null = null;

export function getDraft(): Draft {
  if (draft === null) {
    try {
      draft = parseDraft(sessionStorage.getItem(KEY));
    } catch {
      draft = defaultDraft();
    }
  }
  return draft;
}

export function saveDraft(): void {
  if (draft === null) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft still lives in memory for this window.
  }
}

/** Forgets the draft once its run has started. */
export function clearDraft(): void {
  draft = defaultDraft();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
}
