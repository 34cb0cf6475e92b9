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
