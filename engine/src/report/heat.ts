/**
 * The one shading of a heatmap cell, for the screen and every report format (the profile's hour ×
 * day IOPS table): a cell's share of the busiest hour (`profile.hours.busiest.iops`), in
 * {@link HEAT_LEVELS} steps rounded to the nearest. The screen once used 5 steps rounded down and
 * the report 10 rounded to the nearest, so one cell shaded differently in two places.
 */

/** Steps of the scale above 0: a cell's step is its share of the busiest hour, to the nearest tenth. */
export const HEAT_LEVELS = 10;

/**
 * A cell's share of the busiest hour, 0..1; null for a cell without data or a table with no busy hour.
 *
 * @example
 * heatShare(250, 1000) // 0.25
 */
export function heatShare(value: number | null, busiest: number | null): number | null {
  if (value === null || busiest === null || !(busiest > 0)) return null;
  return Math.min(1, Math.max(0, value / busiest));
}

/**
 * The step of a share: 0..{@link HEAT_LEVELS}, rounded to the nearest.
 *
 * @example
 * heatLevel(0.25) // 3 (2.5 rounds up)
 */
export function heatLevel(share: number): number {
  return Math.round(Math.max(0, Math.min(1, share)) * HEAT_LEVELS);
}
