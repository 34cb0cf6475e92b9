/**
 * A heatmap cell's shade (engine `TableRow.heat`, 0..1 of the busiest cell): light to dark orange,
 * black text legible on all; one scale of {@link HEAT_LEVELS} steps for HTML/PDF, PPTX and XLSX.
 * HTML draws a step as a class (`heat-N`, rules in {@link heatRules}), not an inline style: the
 * app's preview has a Content Security Policy that refuses inline styles.
 */
const ORANGE = [230, 120, 20] as const;
// the steps and the rounding are the engine's (report/heat.ts), shared with the screen
import { HEAT_LEVELS, heatLevel } from '@cacheproof/engine/report';

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
