/**
 * Step 2, Cache engine: how the switch from "cache off" to "cache on" happens. Only the manual
 * switch exists in this version (the person switches, CacheProof records the moment); the
 * step says so plainly and shows, as a dry run, what will happen and what is executed.
 */
import { el } from '../dom.ts';
import type { StepCtx, StepView } from './index.ts';

export function engineStep(s: StepCtx): StepView {
  const { w } = s;
  const node = el('div', { class: 'wiz-engine' },
    el('p', { class: 'intro' }, w('eng.intro')),
    el('section', { class: 'card wiz-method', 'aria-labelledby': 'wiz-manual-title' },
      el('h4', { id: 'wiz-manual-title' }, w('eng.manual')),
      el('p', {}, w('eng.manualWhat')),
      el('h5', {}, w('eng.dryRun')),
      el('ol', { class: 'wiz-dry-run' },
        el('li', {}, w('eng.dry1')),
        el('li', {}, w('eng.dry2')),
        el('li', {}, w('eng.dry3')),
        el('li', {}, w('eng.dry4'))),
      el('p', { class: 'help' }, w('eng.nothingExecuted'))),
    el('p', { class: 'wiz-note' }, w('eng.onlyManual')));
  return { node, blocker: () => null };
}
