/**
 * Headline values on one line: the report's cards print their value unwrapped ("0.182 ms → 0.0608
 * ms", never "0.0608 / ms"), two cards to a row, in the largest of a few font sizes at which every
 * value of the block fits its card. The width is estimated from DejaVu Sans Bold's advance widths
 * (the font the report embeds; units per em 2048: digits 1425, space 713, "%" 2052, "→" 1716), a
 * little generously; the PDF printer's layout check (pdf.ts, `.card` wider than its content) catches
 * an estimate that is short.
 */

/** Font sizes a card value may take (pt), largest first; the class `fit-<n>` sets each (html.ts). */
export const CARD_VALUE_SIZES = { full: [13.5, 12.5, 11.5, 10.5, 9.5], short: [12, 11, 10, 9] } as const;

/** Width a value may take in a card, mm: A4's 180 mm column in two cards with their gap, padding and borders, less a margin. */
export const CARD_VALUE_WIDTH_MM = 79;

const PT_MM = 25.4 / 72;

/** Advance width of a character of DejaVu Sans Bold, em (an upper estimate by class). */
function advanceEm(ch: string): number {
  if (/\d/u.test(ch)) return 0.696;
  if (/[\s\u00a0\u202f\u2009]/u.test(ch)) return 0.348;
  if (/[.,:;·'’]/u.test(ch)) return 0.381;
  if (ch === '%') return 1.002;
  if (ch === '→' || ch === '×') return 0.838;
  if (/[mwMWшщжюмыШЩЖЮМЫ]/u.test(ch)) return 1.04;
  if (/[iljIt/|()[\]]/u.test(ch)) return 0.45;
  if (/\p{Lu}/u.test(ch)) return 0.82;
  return 0.7;
}

/** Estimated width of a text in DejaVu Sans Bold at `pt` points, mm. */
export function textWidthMm(text: string, pt: number): number {
  let em = 0;
  for (const ch of text) em += advanceEm(ch);
  return em * pt * PT_MM;
}

/**
 * The font size (pt) for a block of card values: the largest of the form's sizes at which every
 * value fits {@link CARD_VALUE_WIDTH_MM}, else the smallest.
 *
 * @example cardValueSize(['73.4%', '5,494 IOPS → 16,449 IOPS'], 'full') // 13.5
 */
export function cardValueSize(values: readonly string[], form: 'full' | 'short'): number {
  const sizes = CARD_VALUE_SIZES[form];
  for (const pt of sizes) if (values.every((v) => textWidthMm(v, pt) <= CARD_VALUE_WIDTH_MM)) return pt;
  return sizes[sizes.length - 1] as number;
}
