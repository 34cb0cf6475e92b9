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

/**
 * A measured value with as many digits as it deserves: three significant digits below 100
 * (0.182, 12.3), whole numbers from 100 (`0,92` in French, `1 234` with the locale's grouping).
 */
export function fmtSig(lang: Lang, value: number): string {
  if (Math.abs(value) >= 100 || value === 0) return new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 }).format(value);
  return new Intl.NumberFormat(LOCALE[lang], { maximumSignificantDigits: 3 }).format(value);
}

/** A 0–100 percent change with its sign: `+3.2%`, `−12.0%` (fr `+3,2 %`). */
export function fmtSignedPercent(lang: Lang, value: number, digits = 1): string {
  return new Intl.NumberFormat(LOCALE[lang], { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

/** A UTC instant without the zone suffix (callers say "UTC" once, in a title): date and time, or time only. */
export function fmtUtc(lang: Lang, epochMs: number, withDate = true): string {
  const o: Intl.DateTimeFormatOptions = withDate
    ? { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' }
    : { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(LOCALE[lang], o).format(new Date(epochMs));
}

/** A duration in the locale's own unit words: `90 s`, `1.5 min`, `24 h` (ru `24 ч`). */
export function fmtDuration(lang: Lang, seconds: number): string {
  const [value, unit] = seconds >= 3600 ? [seconds / 3600, 'hour'] : seconds >= 60 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(LOCALE[lang], { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}
