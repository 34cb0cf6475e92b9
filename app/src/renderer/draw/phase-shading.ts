/**
 * Chart.js plugin (id `phaseShading`): shades the capture's phases (baseline, excluded warm-up,
 * measure) behind the data, draws markers (the switch) as dashed vertical lines, and labels
 * them along the top of the plot without overlap, all beneath the lines (a label never hides data): a label that does not fit beside the
 * previous one moves to the next row; one that fits in no row is left out (the chart's text
 * summary and legend still name every phase).
 */
import type { Chart, ChartType, Plugin } from 'chart.js';

export interface PhaseBand {
  startMs: number;
  endMs: number;
  color: string;
  label: string;
  /** Which window it shades (the SVG export draws it with the report's tint). */
  tone?: 'baseline' | 'warmup' | 'measure';
}

export interface PhaseMarker {
  atMs: number;
  label: string;
}

export interface PhaseShadingOptions {
  bands: PhaseBand[];
  markers: PhaseMarker[];
  /** Label text and marker colour (the theme's muted foreground). */
  textColor: string;
  /** Background behind each label, so it stays readable over the shading (the lines are drawn over it). */
  labelBackground: string;
  font: string;
  /** Most label rows before a label is left out. */
  maxRows: number;
}

/** A label to place: its wanted left edge (px) and its width (px). */
export interface LabelRequest {
  x: number;
  width: number;
}

/** Where a label went: its left edge and row (0 = top), or null when it fits nowhere. */
export type LabelPlacement = { x: number; row: number } | null;

/** Horizontal gap kept between two labels of one row, px. */
export const LABEL_GAP = 6;

/**
 * Places labels left to right in rows so that no two overlap: each label keeps its wanted x
 * (moved left when it would pass `right`, never left of `left`) and takes the first row whose
 * last label ends at least {@link LABEL_GAP} px before it. Pure, for testing.
 *
 * @example
 * layoutLabels([{ x: 0, width: 120 }, { x: 40, width: 80 }, { x: 60, width: 90 }], 0, 800, 2)
 * // [{ x: 0, row: 0 }, { x: 40, row: 1 }, { x: 126, row: 0 }]  — the third slides right of the first
 */
export function layoutLabels(requests: readonly LabelRequest[], left: number, right: number, maxRows: number): LabelPlacement[] {
  const rowEnds: number[] = [];
  return requests.map((r) => {
    const wanted = Math.max(left, Math.min(r.x, right - r.width));
    if (r.width > right - left) return null;
    for (let row = 0; row < maxRows; row++) {
      const end = rowEnds[row];
      if (end === undefined || wanted >= end + LABEL_GAP) {
        rowEnds[row] = wanted + r.width;
        return { x: wanted, row };
      }
    }
    // Every row is taken at the wanted x: slide right in the row that frees up first, if it fits.
    let best = -1;
    for (let row = 0; row < maxRows; row++) if (best < 0 || (rowEnds[row] ?? 0) < (rowEnds[best] ?? 0)) best = row;
    const x = (rowEnds[best] ?? left) + LABEL_GAP;
    if (best < 0 || x + r.width > right) return null;
    rowEnds[best] = x + r.width;
    return { x, row: best };
  });
}

const ROW_HEIGHT = 16;
const PAD = 3;

export const phaseShading: Plugin<ChartType, PhaseShadingOptions> = {
  id: 'phaseShading',
  defaults: { bands: [], markers: [], textColor: 'rgba(87,96,106,1)', labelBackground: 'rgba(255,255,255,0.8)', font: '12px system-ui, sans-serif', maxRows: 3 },
  beforeDatasetsDraw(chart: Chart, _args, options) {
    const { ctx, chartArea, scales } = chart;
    const x = scales['x'];
    if (!x || !chartArea || (options.bands.length === 0 && options.markers.length === 0)) return;
    ctx.save();
    for (const band of options.bands) {
      const left = Math.max(chartArea.left, x.getPixelForValue(band.startMs));
      const right = Math.min(chartArea.right, x.getPixelForValue(band.endMs));
      if (right <= left) continue;
      ctx.fillStyle = band.color;
      ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
    }
    ctx.strokeStyle = options.textColor;
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 1;
    for (const m of options.markers) {
      const px = x.getPixelForValue(m.atMs);
      if (px < chartArea.left || px > chartArea.right) continue;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
    }
    ctx.restore();
    // the labels too are drawn beneath the data: a line along the top of the plot (a window at its
    // highest value) runs over a label's box, never hidden behind it
    drawLabels(chart, options);
  },
};

/** The phases' and markers' labels along the top of the plot, in rows that do not overlap ({@link layoutLabels}). */
function drawLabels(chart: Chart, options: PhaseShadingOptions): void {
  const { ctx, chartArea, scales } = chart;
  const x = scales['x'];
  if (!x || !chartArea) return;
  ctx.save();
  ctx.font = options.font;
  const items: { text: string; x: number; width: number }[] = [];
  for (const band of options.bands) {
    const left = Math.max(chartArea.left, x.getPixelForValue(band.startMs));
    const right = Math.min(chartArea.right, x.getPixelForValue(band.endMs));
    if (right <= left) continue;
    items.push({ text: band.label, x: left + 2, width: ctx.measureText(band.label).width + 2 * PAD });
  }
  for (const m of options.markers) {
    const px = x.getPixelForValue(m.atMs);
    if (px < chartArea.left || px > chartArea.right) continue;
    items.push({ text: m.label, x: px + 2, width: ctx.measureText(m.label).width + 2 * PAD });
  }
  items.sort((a, b) => a.x - b.x);
  const placed = layoutLabels(items, chartArea.left + 2, chartArea.right - 2, Math.max(1, options.maxRows));
  ctx.textBaseline = 'middle';
  items.forEach((it, i) => {
    const p = placed[i];
    if (!p) return;
    const top = chartArea.top + 2 + p.row * (ROW_HEIGHT + 2);
    ctx.fillStyle = options.labelBackground;
    ctx.fillRect(p.x, top, it.width, ROW_HEIGHT);
    ctx.fillStyle = options.textColor;
    ctx.fillText(it.text, p.x + PAD, top + ROW_HEIGHT / 2);
  });
  ctx.restore();
}

declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    phaseShading: PhaseShadingOptions;
  }
}
