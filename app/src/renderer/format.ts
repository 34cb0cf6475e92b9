/** Locale-aware formatting of the numbers people read. */
import { LOCALE, type Lang } from '../shared/i18n/types.ts';

export function fmtNumber(lang: Lang, value: number, digits = 0): string {
  return new Intl.NumberFormat(LOCALE[lang], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A 0–100 percent: `91.2 %` (en `91.2%`, fr `91,2 %`). */
export function fmtPercent(lang: Lang, value: number, digits = 1): string {
  return new Intl.NumberFormat(LOCALE[lang], { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

export function fmtDateTime(lang: Lang, epochMs: number): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(epochMs)) + ' UTC';
}

export function fmtTime(lang: Lang, epochMs: number): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(epochMs));
}

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
