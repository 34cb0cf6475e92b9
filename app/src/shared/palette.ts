/**
 * The app's one palette (Okabe–Ito, colour-blind safe), indexed by meaning (engine
 * `COLOR`, engine/src/report/colors.ts): 0 front blue, 1 backing vermillion, 2 cache bluish green,
 * 3 other reddish purple, 4 before (baseline) grey, 5 after (measure) sky blue, 6 orange and 7
 * black for categories (a marked point, a sensitivity bar's side), 8–13 the TCO cost items, 14–19 the TCO configurations. The dashboard, the live screen, the report's
 * SVG charts and its PowerPoint chart all draw from it, so a colour means one thing everywhere.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#7F7F7F', '#56B4E9', '#E69F00', '#000000',
  // 8–13: TCO cost items, light to dark in stack order (a ramp of one hue, told apart by lightness, far from every colour above)
  '#F5E87B', '#E3C551', '#CAA037', '#AD7E2D', '#8F6126', '#704A22',
  // 14–19: TCO configurations by their place in the scenario (Paul Tol's muted hues, none near a colour above)
  '#332288', '#117733', '#882255', '#999933', '#44AA99', '#CC6677'] as const;

/** A target drawn across a chart (the report's 'read target 10 ms' lines): a red no series takes. */
export const TARGET_LINE = '#B00020';

/** Shaded windows on time charts: tints of the before/after colours (the warm-up a neutral grey). */
export const PHASE_TINT = {
  baseline: { light: 'rgba(127, 127, 127, 0.10)', dark: 'rgba(160, 160, 160, 0.14)' },
  warmup: { light: 'rgba(60, 60, 60, 0.16)', dark: 'rgba(200, 200, 200, 0.20)' },
  measure: { light: 'rgba(86, 180, 233, 0.14)', dark: 'rgba(86, 180, 233, 0.18)' },
} as const;

/** The palette colour at an index (wrapping). */
export function paletteColor(i: number, palette: readonly string[] = PALETTE): string {
  return palette[((i % palette.length) + palette.length) % palette.length] as string;
}
