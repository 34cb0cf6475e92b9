/**
 * Drawing parameters of the time charts that follow from a series' step: how long a gap may be
 * before a line breaks, and the narrowest zoom. Pixel and drawing choices, not figures.
 */

/** A line breaks over a gap of more than three steps. */
export function gapSpanMs(stepMs: number): number {
  return stepMs * 3;
}

/** The narrowest zoom shows twenty steps. */
export function minZoomRangeMs(stepMs: number): number {
  return stepMs * 20;
}

/** The zoom-out button's factor: the inverse of zoom-in's 1.5. */
export const ZOOM_OUT = 1 / 1.5;

/** True when a time axis spans more than half a day (its ticks then carry the date). */
export function spansOverHalfDay(minMs: number, maxMs: number): boolean {
  return maxMs - minMs > 86_400_000 / 2;
}
