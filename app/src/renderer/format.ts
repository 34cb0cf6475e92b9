/** Locale-aware formatting of the numbers people read: the shared formatter (one per language), and lookups. */
export { fmtDateTime, fmtDuration, fmtNumber, fmtPercent, fmtSig, fmtSignedPercent, fmtTime, fmtUtc } from '../shared/i18n/numbers.ts';

/** Reads a dotted path of a loosely typed object; returns undefined when absent. */
export function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A finite number at `path`, or null. Accepts `{ value }` wrappers. */
export function numAt(obj: unknown, path: string): number | null {
  const v = at(obj, path);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v !== null && typeof v === 'object' && 'value' in v) {
    const inner = (v as { value: unknown }).value;
    if (typeof inner === 'number' && Number.isFinite(inner)) return inner;
  }
  return null;
}

