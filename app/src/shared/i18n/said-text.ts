/**
 * A probe sentence (`said`: a code with values, native/crates/import/src/said.rs) as text in a
 * language, from the catalog probe-said.ts: names and paths as written, numbers in the locale,
 * inner sentences translated. Pure; the Import screen draws it (renderer/import/said.ts).
 */
import type { Said, SaidValue } from '../contract-import.ts';
import { probeSaid } from './probe-said.ts';
import { format, LOCALE, type Lang } from './types.ts';

/** A number of a sentence (a line, a count, a correlation), as the locale writes it. */
export const numberText = (lang: Lang, n: number): string => new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 6 }).format(n);

function valueText(lang: Lang, v: SaidValue): string {
  if (typeof v === 'number') return numberText(lang, v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((x) => saidText(lang, x)).join(', ');
  return saidText(lang, v);
}

/**
 * The sentence of `s` in `lang`. A code this catalog does not have (a newer probe) is shown by its
 * values as written, never as a blank.
 */
export function saidText(lang: Lang, s: Said): string {
  const catalog: Record<string, string> = probeSaid[lang];
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.values)) values[k] = valueText(lang, v);
  const template = catalog[s.code];
  if (template === undefined) return Object.values(values).join(' ') || s.code;
  return format(template, values, lang);
}
