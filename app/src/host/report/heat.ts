/** A heatmap cell's shade (engine `TableRow.heat`, 0..1 of the busiest cell): light to dark orange, black text legible on all; one scale for HTML/PDF, PPTX and XLSX. */
const ORANGE = [230, 120, 20] as const;

function alpha(h: number): number {
  return 0.06 + 0.54 * Math.max(0, Math.min(1, h));
}

/** As CSS over the page's white. */
export function heatCss(h: number): string {
  return `rgba(${ORANGE.join(', ')}, ${alpha(h).toFixed(3)})`;
}

/** The same shade as an opaque RRGGBB (PPTX, XLSX). */
export function heatHex(h: number): string {
  const a = alpha(h);
  return ORANGE.map((c) => Math.round(255 - a * (255 - c)).toString(16).padStart(2, '0')).join('').toUpperCase();
}
