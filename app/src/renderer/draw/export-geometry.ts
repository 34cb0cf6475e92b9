/** Pixel geometry of a chart's SVG and PNG export: legend item widths and the canvas's device-pixel scale. */

/** The width of a legend item in the SVG export: its swatch and name (6.3 px a character), at most the picture's width less 40 px. */
export function legendItemWidth(pictureWidth: number, nameLength: number): number {
  return Math.min(pictureWidth - 40, nameLength * 6.3 + 30);
}

/** Device pixels per CSS pixel of a canvas (its backing width over its laid-out width; 1 when not laid out). */
export function devicePixels(width: number, clientWidth: number): number {
  return width / Math.max(1, clientWidth || width);
}

/** A CSS pixel length in whole device pixels. */
export function scaledPx(cssPx: number, ratio: number): number {
  return Math.round(cssPx * ratio);
}
