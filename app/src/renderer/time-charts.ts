/**
 * What the time charts of the dashboard's timeline and of the workload profile share: the zoom
 * controls (Zoom in, Zoom out, Reset and the visible range in words, every chart kept on the range
 * of the one the person zoomed or panned), the UTC time axis's ticks and the plugins' options
 * (legend, decimation, tooltip with the figure's definition, wheel/pinch zoom and pan). One
 * implementation, so that the two screens zoom, reset, word the range and read a point alike.
 */
import type { Chart, Scale, TooltipItem } from 'chart.js';
import { TID } from '../shared/testids.ts';
import { el } from './dom.ts';
import { wrap, type Words } from './dashboard/text.ts';
import { minZoomRangeMs, spansOverHalfDay, ZOOM_OUT } from './draw/time-geometry.ts';

export interface ZoomControls {
  /** The group of buttons and the range in words, to place above the charts. */
  controls: HTMLElement;
  /** Brings every other chart to the range of `source` and words it (a chart's `onRange`). */
  sync: (source: Chart) => void;
  /** Words the range `chart` shows (after its first draw). */
  showRange: (chart: Chart) => void;
}

/** The controls of `charts` (filled by the caller as it draws them; the first one leads the buttons). */
export function zoomControls(charts: readonly Chart[], w: Words): ZoomControls {
  const range = el('p', { class: 'dash-range', 'data-testid': TID.dashZoomRange, 'aria-live': 'polite' });
  const showRange = (c: Chart): void => {
    const x = c.scales['x'];
    if (x) range.textContent = w.d('zoom.range', { from: w.utc(x.min), to: w.utc(x.max) });
  };
  const sync = (source: Chart): void => {
    const x = source.scales['x'];
    if (!x) return;
    for (const c of charts) if (c !== source) c.zoomScale('x', { min: x.min, max: x.max }, 'none');
    showRange(source);
  };
  const button = (label: string, testId: string, act: () => void): HTMLButtonElement => {
    const b = el('button', { type: 'button', 'data-testid': testId }, label);
    b.addEventListener('click', act);
    return b;
  };
  const zoomBy = (factor: number): void => {
    const c = charts[0];
    if (c) { c.zoom(factor, 'none'); sync(c); }
  };
  const controls = el('div', { class: 'dash-zoom', role: 'group', 'aria-label': w.d('zoom.help') },
    button(w.d('zoom.in'), TID.dashZoomIn, () => zoomBy(1.5)),
    button(w.d('zoom.out'), TID.dashZoomOut, () => zoomBy(ZOOM_OUT)),
    button(w.d('zoom.reset'), TID.dashZoomReset, () => { for (const c of charts) c.resetZoom('none'); const c = charts[0]; if (c) showRange(c); }),
    el('span', { class: 'dash-help' }, w.d('zoom.help')),
    range);
  return { controls, sync, showRange };
}

/** The ticks of a time axis in UTC (the date shown when the chart spans more than half a day). */
export function utcTicks(w: Words): { maxRotation: number; autoSkip: boolean; maxTicksLimit: number; callback: (this: Scale, value: number | string) => string } {
  return { maxRotation: 0, autoSkip: true, maxTicksLimit: 8, callback(this: Scale, value) { return w.utc(Number(value), spansOverHalfDay(this.min, this.max)); } };
}

/** The plugins' options every time chart shares (its phase shading is its own). */
export function timePlugins(o: { w: Words; fmt: (v: number | null) => string; definition: string; stepMs: number; onRange: (chart: Chart) => void }) {
  const { w } = o;
  return {
    title: { display: false },
    legend: { position: 'bottom' as const },
    decimation: { enabled: true, algorithm: 'lttb' as const, samples: 800, threshold: 1000 },
    tooltip: {
      callbacks: {
        title: (items: TooltipItem<'line'>[]) => `${w.utc(Number(items[0]?.parsed.x ?? 0))} UTC`,
        label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${o.fmt(item.parsed.y)}`,
        footer: () => wrap(o.definition),
      },
    },
    zoom: {
      limits: { x: { min: 'original' as const, max: 'original' as const, minRange: minZoomRangeMs(o.stepMs) } },
      pan: { enabled: true, mode: 'x' as const, onPanComplete: ({ chart }: { chart: Chart }) => o.onRange(chart) },
      zoom: { wheel: { enabled: true }, pinch: { enabled: true }, mode: 'x' as const, onZoomComplete: ({ chart }: { chart: Chart }) => o.onRange(chart) },
    },
  };
}
