/**
 * The one formatter of numbers, percentages, durations and dates per language: the dashboard,
 * the Planner, every report format and the CLI's text print through these, so a figure reads the
 * same everywhere (docs/metrics.md, "Display precision").
 */
import { LOCALE, type Lang } from './types.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The locale's number formatter for these options, made once and kept (making one costs tens of
 * microseconds, and a chart's tick labels ask for thousands).
 */
export function numberFormat(lang: Lang, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (f === undefined) {
    f = new Intl.NumberFormat(LOCALE[lang], options);
    numberFormats.set(key, f);
  }
  return f;
}

/** The locale's date formatter for these options, made once and kept (see {@link numberFormat}). */
export function dateFormat(lang: Lang, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(LOCALE[lang], options);
    dateFormats.set(key, f);
  }
  return f;
}

/** A fixed number of decimals with the locale's grouping: `fmtNumber('fr', 18966.1176, 2)` → `18 966,12`. */
export function fmtNumber(lang: Lang, value: number, digits = 0): string {
  return numberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** Up to `maxDigits` decimals, trailing zeros dropped: `fmtDecimal('en', 0.15)` → `0.15`, `fmtDecimal('fr', 1.5)` → `1,5`. */
export function fmtDecimal(lang: Lang, value: number, maxDigits = 4): string {
  return numberFormat(lang, { maximumFractionDigits: maxDigits }).format(value);
}

/** A 0–100 percent: `91.2%` in English, `91,2 %` in French. */
export function fmtPercent(lang: Lang, value: number, digits = 1): string {
  return numberFormat(lang, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

/**
 * A 0–100 percent with up to `maxDigits` decimals, trailing zeros dropped, in the locale's own
 * percent pattern: `100%`, `2.5%` in English, `100 %` in French, Spanish and Russian.
 */
export function fmtPercentUpTo(lang: Lang, value: number, maxDigits = 1): string {
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: maxDigits }).format(value / 100);
}

/**
 * A label and its value with the colon the language's typography asks for: `Host: vm` in
 * English, Spanish and Russian, `Hôte : vm` in French (a narrow no-break space before the colon).
 */
export function fmtLabel(lang: Lang, label: string, value: string): string {
  return lang === 'fr' ? `${label}\u202f: ${value}` : `${label}: ${value}`;
}

/** A 0–100 percent change with its sign: `+3.2%`, `−12.0%` (fr `+3,2 %`). */
export function fmtSignedPercent(lang: Lang, value: number, digits = 1): string {
  return numberFormat(lang, { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

/**
 * A measured value with as many digits as it deserves: three significant digits below 100
 * (0.182, 0.0608, 12.3), whole numbers from 100 (`1 234` with the locale's grouping).
 */
export function fmtSig(lang: Lang, value: number): string {
  if (Math.abs(value) >= 100 || value === 0) return numberFormat(lang, { maximumFractionDigits: 0 }).format(value);
  return numberFormat(lang, { maximumSignificantDigits: 3 }).format(value);
}

/** Decimal byte units by language (powers of 1000, as drive vendors print capacities). */
const BYTE_UNITS: Record<Lang, readonly string[]> = {
  en: ['B', 'kB', 'MB', 'GB', 'TB', 'PB'],
  es: ['B', 'kB', 'MB', 'GB', 'TB', 'PB'],
  fr: ['o', 'ko', 'Mo', 'Go', 'To', 'Po'],
  ru: ['Б', 'кБ', 'МБ', 'ГБ', 'ТБ', 'ПБ'],
};

/**
 * A size in the decimal unit that fits, with {@link fmtSig}'s digits: `369 MB`, `1.2 TB`
 * (`20 To`, `369 МБ`): a small device never reads as `0.0 TB`.
 *
 * @example fmtBytes('en', 369_098_752) // '369 MB'
 */
export function fmtBytes(lang: Lang, bytes: number): string {
  const units = BYTE_UNITS[lang];
  let i = 0;
  let v = Math.abs(bytes);
  while (v >= 999.5 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${fmtSig(lang, Math.sign(bytes) * v)} ${units[i] ?? ''}`;
}

const BINARY_UNITS: Record<Lang, readonly [string, string, string]> = {
  en: ['MiB', 'GiB', 'TiB'],
  es: ['MiB', 'GiB', 'TiB'],
  fr: ['Mio', 'Gio', 'Tio'],
  ru: ['МиБ', 'ГиБ', 'ТиБ'],
};

/**
 * A cache size as it was most likely typed: a whole number of MiB that is no whole number of MB
 * (1 GiB, 512 MiB: sizes typed in a binary unit, as RAM is sold) in the largest binary unit that
 * is at least 1, else {@link fmtBytes}: "1 GiB" is never shown as "1.07 GB", nor 400 GB as "373 GiB".
 *
 * @example fmtCacheBytes('en', 2 ** 30) // '1 GiB'
 * @example fmtCacheBytes('en', 4e11) // '400 GB'
 */
export function fmtCacheBytes(lang: Lang, bytes: number): string {
  if (!(bytes > 0) || bytes % 2 ** 20 !== 0 || bytes % 1e6 === 0) return fmtBytes(lang, bytes);
  const i = bytes >= 2 ** 40 ? 2 : bytes >= 2 ** 30 ? 1 : 0;
  return `${fmtSig(lang, bytes / 2 ** (20 + 10 * i))} ${BINARY_UNITS[lang][i]}`;
}

/** A UTC date and time with the zone said: `Nov 20, 2026, 10:09:10 PM UTC`. */
export function fmtDateTime(lang: Lang, epochMs: number): string {
  return dateFormat(lang, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(epochMs)) + ' UTC';
}

/** A UTC date in words: `November 20, 2026` (ru `20 ноября 2026 г.`). */
export function fmtDate(lang: Lang, epochMs: number): string {
  return dateFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(epochMs));
}

/** A UTC time of day (callers say "UTC" once). */
export function fmtTime(lang: Lang, epochMs: number): string {
  return dateFormat(lang, { timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(epochMs));
}

/** A UTC instant without the zone suffix (callers say "UTC" once, in a title): date and time, or time only. */
export function fmtUtc(lang: Lang, epochMs: number, withDate = true): string {
  const o: Intl.DateTimeFormatOptions = withDate
    ? { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' }
    : { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' };
  return dateFormat(lang, o).format(new Date(epochMs));
}

/** A duration in the locale's own unit words: `90 s`, `1.5 min`, `24 h` (ru `24 ч`). */
export function fmtDuration(lang: Lang, seconds: number): string {
  const [value, unit] = seconds >= 3600 ? [seconds / 3600, 'hour'] : seconds >= 60 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return numberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

/**
 * A number as a form field shows it: the locale's decimal separator and grouping, at most 6
 * significant digits (`1 234,5` in French and Russian, `1.234,5` in Spanish, `1,234.5` in
 * English; a measured 80.0230946 reads 80.0231). {@link parseLocaleNumber} reads it back.
 */
export function fmtInput(lang: Lang, value: number): string {
  return numberFormat(lang, { maximumSignificantDigits: 6, useGrouping: true }).format(value);
}

/**
 * A number typed in a form field, read the way the person's locale writes it, or null when it
 * is not a number. Spaces of any kind (the French and Russian group separator is a narrow or
 * plain no-break space) are ignored; `−` (U+2212) is a minus. With both a comma and a point,
 * the last one is the decimal separator (`1.234,5` → 1234.5, `1,234.5` → 1234.5). With one kind
 * only, a point or comma followed by groups of exactly three digits is grouping when it is the
 * locale's group separator (`12.345` in Spanish → 12345, `12,345` in English → 12345), and a
 * decimal separator otherwise (`0,15` and `0.15` → 0.15 in every language), so a value pasted
 * from another locale is not read a thousand times too large or too small without a sign of it.
 *
 * @example
 * parseLocaleNumber('fr', '1 234,5') // 1234.5
 * parseLocaleNumber('en', '1,234.5') // 1234.5
 * parseLocaleNumber('es', '12.345')  // 12345
 * parseLocaleNumber('en', '12..3')   // null
 */
export function parseLocaleNumber(lang: Lang, text: string): number | null {
  let s = text.trim().replace(/[\s\u00a0\u202f\u2009\u2007]/gu, '').replace(/\u2212/gu, '-');
  if (s === '' || s === '-') return null;
  const group = numberFormat(lang, { useGrouping: true }).formatToParts(1234567).find((p) => p.type === 'group')?.value ?? '';
  const commas = (s.match(/,/gu) ?? []).length;
  const points = (s.match(/\./gu) ?? []).length;
  const cls = (sep: string): string => (sep === '.' ? '\\.' : sep);
  const grouped = (sep: string): boolean => new RegExp(`^-?\\d{1,3}(${cls(sep)}\\d{3})+$`, 'u').test(s);
  if (commas > 0 && points > 0) {
    const dec = s.lastIndexOf(',') > s.lastIndexOf('.') ? ',' : '.';
    const grp = dec === ',' ? '.' : ',';
    const [whole, frac, ...more] = s.split(dec);
    if (more.length > 0 || whole === undefined || frac === undefined || !new RegExp(`^-?\\d{1,3}(${cls(grp)}\\d{3})*$`, 'u').test(whole)) return null;
    s = `${whole.split(grp).join('')}.${frac}`;
  } else if (commas + points > 0) {
    const sep = commas > 0 ? ',' : '.';
    if (grouped(sep) && (sep === group || commas + points > 1)) s = s.split(sep).join('');
    else if (commas + points === 1) s = s.replace(sep, '.');
    else return null;
  }
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/u.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}
