/**
 * Where a chart's reference-line labels go (the latency targets, the fleet's p95): at the right of
 * the plot, above their line; a label that would overprint one already placed goes below its line,
 * then, if that is taken too, to the left of the one in its way. Pure; the boxes are what
 * chart-svg.ts draws and what the chart tests check (no two intersect).
 */

/** A label's box in SVG user units (`x`: its right edge, where the text is anchored; `y`: its baseline). */
export interface RefLabel {
  text: string;
  x: number;
  y: number;
  box: { left: number; right: number; top: number; bottom: number };
}

/** A label's font size, px, and the width of one of its characters (DejaVu Sans averages 0.6 em; on the high side). */
export const REF_LABEL_PX = 10;
const CHAR_EM = 0.62;

function boxAt(text: string, right: number, baseline: number): RefLabel['box'] {
  return { left: right - text.length * REF_LABEL_PX * CHAR_EM, right, top: baseline - REF_LABEL_PX, bottom: baseline + 3 };
}

/** Whether two boxes share any area. */
export function boxesIntersect(a: RefLabel['box'], b: RefLabel['box']): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The labels of lines at heights `ys` (px, from the top), right-aligned at `right`, none over another.
 *
 * @example
 * // two lines 3 px apart: the second label goes below its line instead of over the first
 * refLabels([{ y: 100, text: 'reads < 20 ms' }, { y: 103, text: 'writes < 21 ms' }], 600).map((l) => l.y) // [96, 117]
 */
export function refLabels(lines: readonly { y: number; text: string }[], right: number): RefLabel[] {
  const placed: RefLabel[] = [];
  const free = (b: RefLabel['box']): boolean => placed.every((p) => !boxesIntersect(p.box, b));
  for (const l of lines) {
    const above = l.y - 4;
    const below = l.y + 4 + REF_LABEL_PX;
    let x = right;
    const y = free(boxAt(l.text, x, above)) ? above : below;
    // neither above nor below is free: step left past every label in the way
    while (!free(boxAt(l.text, x, y))) x = Math.min(...placed.filter((p) => boxesIntersect(p.box, boxAt(l.text, x, y))).map((p) => p.box.left)) - 8;
    placed.push({ text: l.text, x, y, box: boxAt(l.text, x, y) });
  }
  return placed;
}

/** A bar's value label font size, px. */
export const BAR_LABEL_PX = 9;

/**
 * The value labels of a bar chart, centred on their bars: above a bar that rises, below one that
 * falls; a label that would overprint one already placed moves one line further out (up for a
 * rising bar, down for a falling one), as many lines as it takes.
 *
 * @example
 * // two neighbouring bars of 0.3 and −0.3: one label above the zero line, one below it
 * barLabels([{ x: 100, top: 120, bottom: 125, rises: true, text: '0.3' }, { x: 110, top: 125, bottom: 130, rises: false, text: '-0.3' }]).map((l) => l.y) // [117, 139]
 */
export function barLabels(bars: readonly { x: number; top: number; bottom: number; rises: boolean; text: string }[]): RefLabel[] {
  const placed: RefLabel[] = [];
  const boxOf = (text: string, x: number, y: number): RefLabel['box'] => {
    const half = (text.length * BAR_LABEL_PX * CHAR_EM) / 2;
    return { left: x - half, right: x + half, top: y - BAR_LABEL_PX, bottom: y + 2 };
  };
  for (const b of bars) {
    let y = b.rises ? b.top - 3 : b.bottom + BAR_LABEL_PX;
    while (placed.some((p) => boxesIntersect(p.box, boxOf(b.text, b.x, y)))) y += b.rises ? -(BAR_LABEL_PX + 2) : BAR_LABEL_PX + 2;
    placed.push({ text: b.text, x: b.x, y, box: boxOf(b.text, b.x, y) });
  }
  return placed;
}
