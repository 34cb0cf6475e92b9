/**
 * The fleet view's chart of the fleet as one load over time (issue 27): the engine's per-moment
 * sum of the hosts' IOPS (`FleetView.aggregate.series`), drawn as the workload profile draws its
 * time charts — the dashboard's figure frame with its PNG/SVG/CSV export (dashboard/frame.ts),
 * LTTB decimation, wheel/drag zoom and pan, zoom buttons and the visible range in words
 * (time-charts.ts) — with the 95th percentile a dashed line and the peak moment marked. The chart,
 * its title, its line's names and its summary are the engine's (`fleetChart`, the fleet report's
 * chart at every moment, with the report's words); nothing is computed here but the drawing.
 */
import { Chart, type ChartDataset, type Plugin } from 'chart.js';
import { COLOR, fleetChart, type ChartSpec } from '@cacheproof/engine/report';
import type { FleetView } from '../../shared/contract.ts';
import { fleet as catalog } from '../../shared/i18n/fleet.ts';
import { formatVal, reportText } from '../../shared/i18n/report.ts';
import { translate } from '../../shared/i18n/types.ts';
import { paletteColor } from '../../shared/palette.ts';
import { TID } from '../../shared/testids.ts';
import { firstLayoutPadding, legendWithMarkers } from '../charts.ts';
import { el } from '../dom.ts';
import { figure, type ChartScheduler } from '../dashboard/frame.ts';
import type { Words } from '../dashboard/text.ts';
import { timePlugins, utcTicks, zoomControls } from '../time-charts.ts';
import { gapSpanMs } from '../draw/time-geometry.ts';
import { seriesMax, seriesStepMs } from '@cacheproof/engine';

type Point = { x: number; y: number };
type Aggregate = NonNullable<FleetView['aggregate']>;

/** The fleet's chart (null when the fleet has no moment), queued on `scheduler`. */
export function fleetTimeline(a: Aggregate, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement | null {
  // every moment: the screen decimates (LTTB) as it zooms, the report buckets for print
  const spec = fleetChart(a, Number.POSITIVE_INFINITY);
  const peak = a.peak;
  const line = spec?.series[0];
  if (spec === null || peak === null || line === undefined) return null;
  const lang = w.lang;
  const title = reportText(spec.title, lang);
  const definition = translate(catalog, lang, 'agg.method', { moments: a.moments, hosts: a.hosts });
  const f = figure(TID.fleetChart, title, definition, `${TID.fleetChart}-summary`, w);
  f.summary.textContent = reportText(spec.summary, lang);
  const charts: Chart[] = [];
  const { controls, sync, showRange } = zoomControls(charts, w);
  const points: Point[] = line.points.flatMap(([x, y]) => (y === null ? [] : [{ x, y }]));
  const t = a.series.startMs;
  const stepMs = seriesStepMs(t, 60_000);
  scheduler.add(f.canvas, (firstDraw) => {
    const ch = draw(f.canvas, firstDraw, { spec, definition, points, peak: { x: peak.startMs, y: peak.iops }, stepMs, w, palette, onRange: sync });
    charts.push(ch);
    showRange(ch);
    return ch;
  });
  return el('div', { class: 'dash-timeline' }, controls, f.node);
}

function draw(canvas: HTMLCanvasElement, firstDraw: Plugin, o: {
  spec: ChartSpec; definition: string; points: Point[]; peak: Point; stepMs: number; w: Words; palette: readonly string[]; onRange: (chart: Chart) => void;
}): Chart<'line', Point[]> {
  const { w, spec } = o;
  const lang = w.lang;
  const color = paletteColor(COLOR.front, o.palette);
  const refColor = paletteColor(COLOR.other, o.palette);
  const first = (o.points[0] as Point).x;
  const last = (o.points[o.points.length - 1] as Point).x;
  const datasets: ChartDataset<'line', Point[]>[] = [
    { label: translate(catalog, lang, 'agg.peak'), data: [o.peak], borderColor: color, backgroundColor: color, pointRadius: 5, pointHoverRadius: 6, pointStyle: 'circle', showLine: false, order: 0 },
    { label: spec.series[0] === undefined ? '' : formatVal(spec.series[0].name, lang), data: o.points, borderColor: color, backgroundColor: color, borderWidth: 2, pointRadius: 0, pointHitRadius: 4, spanGaps: gapSpanMs(o.stepMs), order: 1 },
    ...(spec.refLines ?? []).map((r): ChartDataset<'line', Point[]> => ({
      label: reportText(r.label, lang), data: [{ x: first, y: r.y }, { x: last, y: r.y }], borderColor: refColor, backgroundColor: refColor, borderWidth: 1.5, borderDash: [6, 4], pointRadius: 0, order: 2,
    })),
  ];
  // what is drawn, for tests and assistive tools: the sum's points and highest, the marked peak, the reference lines
  canvas.dataset['points'] = String(o.points.length);
  // no points: no highest (an empty attribute, never a number a reader could take for one)
  canvas.dataset['max'] = String(seriesMax(o.points.map((p) => p.y)) ?? '');
  canvas.dataset['peak'] = JSON.stringify(o.peak);
  canvas.dataset['refs'] = JSON.stringify((spec.refLines ?? []).map((r) => r.y));
  return new Chart<'line', Point[]>(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [firstDraw],
    options: {
      animation: false, parsing: false, normalized: true, maintainAspectRatio: false,
      layout: { padding: firstLayoutPadding([{ borderWidth: 2, pointRadius: 0 }, { pointRadius: 5, pointHoverRadius: 6 }]) },
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: { type: 'time', min: first, max: last, title: { display: true, text: reportText(spec.x.label, lang) }, ticks: utcTicks(w) },
        y: { type: 'linear', beginAtZero: true, title: { display: true, text: reportText(spec.y.label, lang) }, ticks: { callback: (value) => w.num(Number(value)) } },
      },
      // the peak (dataset 0) shows its dot in the legend, the lines a line
      plugins: { ...timePlugins({ w, fmt: w.iops, definition: o.definition, stepMs: o.stepMs, onRange: o.onRange }), legend: legendWithMarkers(new Set([0])) },
    },
  });
}
