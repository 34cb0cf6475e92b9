/** Chart.js plugin (id `phaseShading`): shades the capture's phases behind the data. */
import type { Chart, Plugin } from 'chart.js';

export interface PhaseBand {
  startMs: number;
  endMs: number;
  color: string;
  label: string;
}

export interface PhaseShadingOptions {
  bands: PhaseBand[];
}

export const phaseShading: Plugin<'line', PhaseShadingOptions> = {
  id: 'phaseShading',
  defaults: { bands: [] },
  beforeDatasetsDraw(chart: Chart<'line'>, _args, options) {
    const { ctx, chartArea, scales } = chart;
    const x = scales['x'];
    if (!x || !chartArea) return;
    ctx.save();
    for (const band of options.bands) {
      const left = Math.max(chartArea.left, x.getPixelForValue(band.startMs));
      const right = Math.min(chartArea.right, x.getPixelForValue(band.endMs));
      if (right <= left) continue;
      ctx.fillStyle = band.color;
      ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
      ctx.fillStyle = 'rgba(87,96,106,0.9)';
      ctx.font = '12px system-ui, sans-serif';
      ctx.fillText(band.label, left + 4, chartArea.top + 14);
    }
    ctx.restore();
  },
};
