/**
 * What each colour means, everywhere a series is drawn (the dashboard, the live screen, the
 * report's SVG charts and its PowerPoint chart): a chart series carries one of these indices into
 * the app's one palette (app/src/shared/palette.ts, Okabe–Ito), never a hue of its own. A colour is
 * never the only carrier of meaning: every series also has its name in the legend, and a second
 * device of the same role is dashed.
 */
export const COLOR = {
  /** Application-facing (front) devices. */
  front: 0,
  /** Backing drives. */
  backing: 1,
  /** Cache devices. */
  cache: 2,
  /** Devices of no role. */
  other: 3,
  /** The baseline window (cache off): before/after bars and the shaded baseline. */
  before: 4,
  /** The measure window (cache on). */
  after: 5,
  /** Categories that are neither a role nor a window (a marked point, the −20 % side of a sensitivity bar). */
  category1: 6,
  /** A second such category (the chosen size on the miss-ratio curve, the +20 % side). */
  category2: 7,
} as const;

/** The colour index of a device role. */
export function roleColor(role: string): number {
  return role === 'front' ? COLOR.front : role === 'backing' ? COLOR.backing : role === 'cache' ? COLOR.cache : COLOR.other;
}
