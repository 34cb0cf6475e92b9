/**
 * A heatmap cell's shade (engine `TableRow.heat`, 0..1 of the busiest cell): light to dark orange,
 * black text legible on all; one scale of {@link HEAT_LEVELS} steps for HTML/PDF, PPTX and XLSX.
 * HTML draws a step as a class (`heat-N`, rules in {@link heatRules}), not an inline style: the
 * app's preview has a Content Security Policy that refuses inline styles.
 */
const ORANGE = [230, 120, 20] as const;
/** Steps of the scale above 0 (a cell's step is its share of the busiest cell, to the nearest tenth). */
export const HEAT_LEVELS = 10;

/** The step of a share 0..1: 0..HEAT_LEVELS. */
export function heatLevel(h: number): number {
  return Math.round(Math.max(0, Math.min(1, h)) * HEAT_LEVELS);
}

function alpha(level: number): number {
  return 0.06 + 0.54 * (level / HEAT_LEVELS);
}

/** The HTML class of a share's step. */
export function heatClass(h: number): string {
  return `heat-${heatLevel(h)}`;
}

/** The stylesheet rules of every step, as CSS over the page's white. */
export function heatRules(): string {
  return Array.from({ length: HEAT_LEVELS + 1 }, (_, l) => `td.heat-${l} { background: rgba(${ORANGE.join(', ')}, ${alpha(l).toFixed(3)}); }`).join('\n');
}

/** The same shade as an opaque RRGGBB (PPTX, XLSX). */
export function heatHex(h: number): string {
  const a = alpha(heatLevel(h));
  return ORANGE.map((c) => Math.round(255 - a * (255 - c)).toString(16).padStart(2, '0')).join('').toUpperCase();
}
