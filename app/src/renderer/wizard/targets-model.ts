/**
 * Custom latency targets in the wizard's Plan step (issue 17), the draft and its checks (no DOM;
 * the fields are in targets.ts): beside the published presets, the
 * person types a read target, a write target and, optionally, a warning level below them (PAL's
 * kind of rule: warn above W ms, critical above the target), in their language's number format.
 * Each field is checked with a sentence tied to it; the run's plan carries the values
 * (`targets: 'custom'`, `customTargets`), and the run's analysis grades its windows against them
 * (host/runs/supervisor.ts `analyzeOptionsOf`), as `cacheproof analyze --targets FILE` does.
 */
import type { RunPlan } from '../../shared/contract.ts';

/** The largest target accepted, ms (as `--targets FILE`). */
export const MAX_TARGET_MS = 60_000;

/** One field as typed, and its value read in the language it was typed in (null: not a number). */
export interface TargetField {
  text: string;
  ms: number | null;
}

export interface CustomTargetsDraft {
  read: TargetField;
  write: TargetField;
  /** Optional: empty for none. */
  warn: TargetField;
}

export type TargetFieldName = keyof CustomTargetsDraft;
export type TargetError = 'empty' | 'not-a-number' | 'range' | 'warn-above';

export function defaultCustomTargets(): CustomTargetsDraft {
  return { read: { text: '20', ms: 20 }, write: { text: '20', ms: 20 }, warn: { text: '', ms: null } };
}

/** A stored draft's fields, kept only when they are well formed. */
export function customTargetsDraft(v: unknown): CustomTargetsDraft {
  const d = defaultCustomTargets();
  if (v === null || typeof v !== 'object') return d;
  const o = v as Record<string, unknown>;
  const field = (x: unknown, fallback: TargetField): TargetField => {
    if (x === null || typeof x !== 'object') return fallback;
    const f = x as Record<string, unknown>;
    const text = typeof f['text'] === 'string' ? f['text'].slice(0, 32) : fallback.text;
    const ms = typeof f['ms'] === 'number' && Number.isFinite(f['ms']) ? f['ms'] : null;
    return { text, ms };
  };
  return { read: field(o['read'], d.read), write: field(o['write'], d.write), warn: field(o['warn'], d.warn) };
}

/** The targets the fields give, or the error of each field that is wrong. */
export function customTargetsOf(c: CustomTargetsDraft): { ok: true; targets: NonNullable<RunPlan['customTargets']> } | { ok: false; errors: Partial<Record<TargetFieldName, TargetError>> } {
  const errors: Partial<Record<TargetFieldName, TargetError>> = {};
  const check = (name: TargetFieldName, required: boolean): number | undefined => {
    const f = c[name];
    if (f.text.trim() === '') {
      if (required) errors[name] = 'empty';
      return undefined;
    }
    if (f.ms === null) errors[name] = 'not-a-number';
    else if (!(f.ms > 0) || f.ms > MAX_TARGET_MS) errors[name] = 'range';
    else return f.ms;
    return undefined;
  };
  const readMs = check('read', true);
  const writeMs = check('write', true);
  const warnMs = check('warn', false);
  if (warnMs !== undefined && readMs !== undefined && writeMs !== undefined && !(warnMs < readMs && warnMs < writeMs)) errors.warn = 'warn-above';
  if (Object.keys(errors).length > 0 || readMs === undefined || writeMs === undefined) return { ok: false, errors };
  return { ok: true, targets: { readMs, writeMs, ...(warnMs === undefined ? {} : { warnMs }) } };
}
