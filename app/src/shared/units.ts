/**
 * Sizes and durations in the person's locale, with the unit names the browser's Intl data
 * gives for that locale (`1,2 Go`, `24 heures`), so that no unit word lives in code.
 * Sizes are decimal (1 GB = 10⁹ bytes), like the drive makers print them.
 */
import { LOCALE, type Lang } from './i18n/types.ts';

const BYTE_UNITS = [
  ['byte', 1],
  ['kilobyte', 1e3],
  ['megabyte', 1e6],
  ['gigabyte', 1e9],
  ['terabyte', 1e12],
  ['petabyte', 1e15],
] as const;

/** `1.2 GB` / `1,2 Go`: the largest decimal unit that keeps the number ≥ 1, two significant digits below 10. */
export function fmtBytes(lang: Lang, bytes: number): string {
  let unit: (typeof BYTE_UNITS)[number] = BYTE_UNITS[0];
  for (const u of BYTE_UNITS) if (bytes >= u[1]) unit = u;
  const v = bytes / unit[1];
  const digits = unit[1] === 1 || v >= 10 ? 0 : 1;
  return new Intl.NumberFormat(LOCALE[lang], { style: 'unit', unit: unit[0], unitDisplay: 'short', maximumFractionDigits: digits }).format(v);
}

/** A count in one time unit: `5 s` (short) or `5 seconds` (long). */
export function fmtUnit(lang: Lang, value: number, unit: 'second' | 'minute' | 'hour' | 'day', display: 'short' | 'long'): string {
  return new Intl.NumberFormat(LOCALE[lang], { style: 'unit', unit, unitDisplay: display, maximumFractionDigits: 2 }).format(value);
}

/** Seconds rounded to whole ones (never below 0) and split into days, hours, minutes and seconds: 3725 s = 1 h 2 min 5 s. */
export function splitSeconds(seconds: number): { d: number; h: number; m: number; s: number } {
  const all = Math.max(0, Math.round(seconds));
  return { d: Math.floor(all / 86400), h: Math.floor((all % 86400) / 3600), m: Math.floor((all % 3600) / 60), s: all % 60 };
}

/**
 * `value` of a unit of `unitSeconds` in whole seconds, or null when it is not a whole number of
 * seconds (within 10⁻⁶ s): 0.5 h = 1800 s; 0.3 s is null.
 */
export function wholeSeconds(value: number, unitSeconds: number): number | null {
  const exact = value * unitSeconds;
  const seconds = Math.round(exact);
  return Math.abs(exact - seconds) > 1e-6 ? null : seconds;
}

/** Milliseconds to seconds. */
export function msToSeconds(ms: number): number {
  return ms / 1000;
}

/** Whole seconds as days, hours, minutes and seconds: `1 hour, 30 minutes` / `1 heure et 30 minutes`. */
export function fmtDuration(lang: Lang, seconds: number, display: 'short' | 'long' = 'long'): string {
  const { d, h, m, s } = splitSeconds(seconds);
  const counts = [[d, 'day'], [h, 'hour'], [m, 'minute'], [s, 'second']] as const;
  const parts = counts.filter(([n]) => n > 0).map(([n, unit]) => fmtUnit(lang, n, unit, display));
  if (parts.length === 0) return fmtUnit(lang, 0, 'second', display);
  return new Intl.ListFormat(LOCALE[lang], { style: display === 'long' ? 'long' : 'narrow', type: 'unit' }).format(parts);
}

/** Names joined the locale's way: `loop6 and loop7` / `loop6 et loop7`. */
export function fmtList(lang: Lang, items: string[]): string {
  return new Intl.ListFormat(LOCALE[lang], { style: 'long', type: 'conjunction' }).format(items);
}

/** `UTC+8:00`, `UTC−5:30` (a minus sign, not a hyphen): an offset from UTC in minutes (local − UTC) as a label. */
export function utcOffsetLabel(offsetMin: number): string {
  const abs = Math.abs(offsetMin);
  return `UTC${offsetMin >= 0 ? '+' : '−'}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * An offset from UTC as typed: `+08:00`, `-5:30`, `+8` or `480` (minutes, local − UTC); null when
 * empty, NaN when it is not one (beyond ±16 h included).
 *
 * @example
 * parseOffset('+08:00') // 480
 * parseOffset('-5:30') // -330
 */
export function parseOffset(text: string): number | null {
  const t = text.trim().replace('−', '-');
  if (t === '') return null;
  const hm = /^([+-])(\d{1,2})(?::?(\d\d))?$/u.exec(t);
  const min = hm !== null ? (hm[1] === '-' ? -1 : 1) * (Number(hm[2]) * 60 + Number(hm[3] ?? 0)) : /^-?\d+$/u.test(t) ? Number(t) : Number.NaN;
  return Number.isFinite(min) && Math.abs(min) <= 16 * 60 ? min : Number.NaN;
}

/** `bytes` in a unit of `unitBytes` (2 GiB = 2 × 2³⁰ bytes: 2). */
export function bytesInUnit(bytes: number, unitBytes: number): number {
  return bytes / unitBytes;
}

/** Whether `bytes` is a whole number of units of `unitBytes`. */
export function isWholeUnits(bytes: number, unitBytes: number): boolean {
  return bytes % unitBytes === 0;
}

/** `value` units of `unitBytes`, rounded to whole bytes (1.5 KiB: 1536). */
export function unitToBytes(value: number, unitBytes: number): number {
  return Math.round(value * unitBytes);
}

/** A share 0…1 as a percent. Example: 0.254 → 25.4. */
export function percentOf(share: number): number {
  return share * 100;
}

/** A percent as a share 0…1. Example: 25 → 0.25. */
export function shareOf(percent: number): number {
  return percent / 100;
}

/** Microseconds as milliseconds. Example: 1500 → 1.5. */
export function usToMs(us: number): number {
  return us / 1000;
}

/** A stored value and its value in the form's unit. */
export interface UnitConv {
  toUi(v: number): number;
  fromUi(x: number): number;
}

/** A share stored 0…1, typed as a percent. */
export const PERCENT_CONV: UnitConv = { toUi: percentOf, fromUi: shareOf };

/** Bytes stored, typed in units of `unitBytes` bytes. */
export function bytesConv(unitBytes: number): UnitConv {
  return { toUi: (v) => bytesInUnit(v, unitBytes), fromUi: (x) => unitToBytes(x, unitBytes) };
}

/**
 * A signed figure written with its sign before the formatted magnitude: '+' above zero, '−'
 * (U+2212) below, and at zero '+' when `plusAtZero`, else nothing.
 * Example: `signedText(-1.5, (x) => x.toFixed(1), true)` → '−1.5'.
 */
export function signedText(v: number, fmt: (magnitude: number) => string, plusAtZero: boolean): string {
  const sign = v > 0 || (v === 0 && plusAtZero) ? '+' : v < 0 ? '−' : '';
  return `${sign}${fmt(Math.abs(v))}`;
}

/** The index `step` places from `at` in a ring of `count` (keyboard moves through tabs). Example: (0, −1, 3) → 2. */
export function ringIndex(at: number, step: number, count: number): number {
  return (((at + step) % count) + count) % count;
}
