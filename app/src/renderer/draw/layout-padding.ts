/** Pixel room a line chart keeps around its plot (Chart.js layout), not a figure. */

/** What a line dataset's overflow depends on (Chart.js defaults where left out). */
export interface LineLook {
  borderWidth?: number;
  /** The largest radius a point of the line may take (0: no points). */
  pointRadius?: number;
  pointHoverRadius?: number;
  pointBorderWidth?: number;
}

/**
 * The padding (px) that gives a line chart its final plot area from its first layout. Chart.js
 * keeps room for half of each line's width and of its end points' size (LineController
 * `getMaxOverflow`), but only from the second layout: on the first, the elements' options are not
 * resolved yet. Without this the plot moves by a few pixels on the first update, zoom, legend
 * click or reset. Chart.js takes the larger of this padding and its own room, so an estimate on
 * the high side changes nothing after the first layout.
 *
 * @example
 * firstLayoutPadding([{ borderWidth: 2, pointRadius: 0 }]) // 1
 * firstLayoutPadding([{ pointRadius: 6 }]) // 7: (6 + a 1 px point border) × 2 / 2
 */
export function firstLayoutPadding(lines: readonly LineLook[]): number {
  let room = 0;
  for (const l of lines) {
    const r = l.pointRadius ?? 3;
    // PointElement.size(): a drawn point is as large as its hover radius when that is larger
    const radius = r > 0 ? Math.max(r, l.pointHoverRadius ?? 4) : 0;
    const point = radius > 0 ? (radius + (l.pointBorderWidth ?? 1)) * 2 : 0;
    room = Math.max(room, l.borderWidth ?? 3, point);
  }
  return Math.ceil(room / 2);
}
