/**
 * Response time from the block trace (engine `traceLatency`, docs/analyze-json.md): a table per
 * device, compared window and operation (the probe's percentiles as bucket edges in µs), the
 * method of the figures in words (every request, from the tracer's per-interval histograms; or
 * the stored requests, labelled so), and the per-hour percentiles of one device's reads or
 * writes as a chart (the engine's `traceLatency.hourly` series; a select picks the series), the
 * phases shaded. Every number is the engine's; the chart draws each percentile at the upper
 * edge of its bucket, in ms.
 */
import type { AnalysisReport, TraceLatencyHourly, TraceLatencyRange } from '@cacheproof/engine';
import { Chart, type TooltipItem } from 'chart.js';
import { prediction, type PredictionKey } from '../../shared/i18n/prediction.ts';
import { traceLatency, type TraceLatencyKey } from '../../shared/i18n/trace-latency.ts';
import { translate } from '../../shared/i18n/types.ts';
import { paletteColor } from '../../shared/palette.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { cssVar, firstLayoutPadding } from '../charts.ts';
import { fmtNumber, fmtPercent } from '../format.ts';
import { figure, type ChartScheduler } from './frame.ts';
import { wrap, type Params, type Words } from './text.ts';
import { phases } from './timeline.ts';
import { COLOR } from '@cacheproof/engine/report';
import { everyNth } from '@cacheproof/engine';
import { percentOf, usToMs } from '../../shared/units.ts';

type P = 'p50' | 'p95' | 'p99' | 'p999';
const LINES: readonly { key: P; label: string; color: number }[] = [
  { key: 'p50', label: 'p50', color: COLOR.front },
  { key: 'p95', label: 'p95', color: COLOR.backing },
  { key: 'p99', label: 'p99', color: COLOR.category1 },
  { key: 'p999', label: 'p99.9', color: COLOR.category2 },
];

/** The section, or null when the analysis holds no trace latency. */
export function traceLatencySection(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement | null {
  const l = r.traceLatency.fromTrace;
  if (l === null) return null;
  const t = (key: PredictionKey, params?: Params): string => translate(prediction, w.lang, key, params);
  const u = (key: TraceLatencyKey, params?: Params): string => translate(traceLatency, w.lang, key, params);
  const windowName = (x: string): string => (x === 'baseline' || x === 'measure' || x === 'warmup' ? w.d(`phase.${x}`) : x === 'all' ? t('lat.all') : x);
  // the windows the analysis compares (the whole trace only when the capture has no phases)
  const phased = l.series.some((s) => s.window !== 'all');
  const shown = l.series.filter((s) => (phased ? s.window === 'baseline' || s.window === 'measure' : true) && s.completed > 0);
  if (shown.length === 0) return null;
  const range = (x: { lowUs: number; highUs: number } | undefined): string => (x === undefined ? w.na : t('lat.range', { low: fmtNumber(w.lang, x.lowUs, 0), high: fmtNumber(w.lang, x.highUs, 0) }));
  const cols = ['lat.col.device', 'lat.col.window', 'lat.col.op', 'lat.col.requests', 'lat.col.mean', 'lat.col.p50', 'lat.col.p95', 'lat.col.p99', 'lat.col.p999'] as const;
  const body = el('tbody', {});
  for (const s of shown) {
    const at = (p: number): { lowUs: number; highUs: number } | undefined => s.percentiles.find((x) => x.p === p);
    body.append(el('tr', { 'data-device': s.device, 'data-window': s.window, 'data-op': s.op },
      el('td', {}, s.device), el('td', {}, windowName(s.window)), el('td', {}, t(s.op === 'read' ? 'lat.read' : 'lat.write')),
      el('td', {}, fmtNumber(w.lang, s.completed, 0)), el('td', {}, s.meanUs === null ? w.na : w.ms(usToMs(s.meanUs))),
      el('td', {}, range(at(50))), el('td', {}, range(at(95))), el('td', {}, range(at(99))), el('td', {}, range(at(99.9)))));
  }
  const rate = fmtPercent(w.lang, percentOf(l.sampleRate), 1);
  const method = r.traceLatency.method === 'interval-histograms' ? u('method.histograms', { rate })
    : l.sampleRate < 1 ? u('method.requestsSampled', { rate }) : u('method.requests');
  const node = el('section', { class: 'dash-trace-latency', 'data-testid': TID.dashTraceLatency, 'data-method': r.traceLatency.method ?? '', 'aria-labelledby': 'dash-trace-latency-title' },
    el('h4', { id: 'dash-trace-latency-title' }, t('lat.title')),
    el('p', { class: 'dash-def' }, t('lat.def')),
    el('p', { class: 'dash-note', 'data-testid': TID.dashTraceLatencyMethod }, method));
  node.append(el('div', { class: 'dash-table-wrap' }, el('table', { class: 'dash-table', 'aria-labelledby': 'dash-trace-latency-title' },
    el('thead', {}, el('tr', {}, ...cols.map((k) => el('th', { scope: 'col' }, t(k))))), body)));
  if (r.traceLatency.hourly.length === 0) {
    if (r.traceLatency.reasons['hourly'] === 'not-reported') node.append(el('p', { class: 'dash-note', 'data-testid': TID.dashTraceLatencyNoHours }, u('hour.none')));
    return node;
  }
  // the per-hour figure beside the section (a figure of its own, like the other charts)
  return el('div', { class: 'dash-trace-latency-wrap' }, node, hourlyFigure(r, r.traceLatency.hourly, w, u, t, palette, scheduler));
}

/** The per-hour chart of one series at a time (a select over the device × operation series). */
function hourlyFigure(r: AnalysisReport, series: TraceLatencyHourly[], w: Words, u: (k: TraceLatencyKey, x?: Params) => string,
  t: (k: PredictionKey, x?: Params) => string, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const f = figure(TID.chartTraceLatencyHourly, u('hour.title'), u('hour.def'), undefined, w);
  const opName = (h: TraceLatencyHourly): string => t(h.op === 'read' ? 'lat.read' : 'lat.write');
  const id = `${TID.chartTraceLatencyHourly}-series`;
  const select = el('select', { id, 'data-testid': id });
  series.forEach((h, i) => select.append(el('option', { value: String(i) }, u('hour.option', { device: h.device, op: opName(h) }))));
  f.tools.append(el('label', { for: id }, u('hour.series')), ' ', select);
  const ms = (x: TraceLatencyRange | null): string => (x === null ? w.na : w.ms(usToMs(x.highUs)));
  const datasets = (h: TraceLatencyHourly) => LINES.map((line) => {
    const color = paletteColor(line.color, palette);
    return {
      label: line.label, borderColor: color, backgroundColor: color, pointRadius: 2, tension: 0,
      data: h.hours.map((x) => ({ x: x.midUtcMs, y: x[line.key] === null ? null : usToMs((x[line.key] as TraceLatencyRange).highUs) })),
    };
  });
  const summarize = (h: TraceLatencyHourly): void => {
    const points = everyNth(h.hours, 12)
      .map((x) => u('hour.point', { hour: w.utc(x.startUtcMs), p50: ms(x.p50), p99: ms(x.p99) })).join('; ');
    f.summary.textContent = u('hour.summary', { device: h.device, op: opName(h), points });
    f.canvas.dataset['series'] = `${h.device}:${h.op}`;
  };
  const first = series[0];
  if (first !== undefined) summarize(first);
  let chart: Chart<'line', { x: number; y: number | null }[]> | null = null;
  select.addEventListener('change', () => {
    const h = series[Number(select.value)];
    if (h === undefined) return;
    summarize(h);
    if (chart !== null) {
      chart.data.datasets = datasets(h);
      const x = chart.options.scales?.['x'];
      if (x !== undefined) Object.assign(x, span(h));
      chart.update('none');
    }
  });
  const { bands, markers } = phases(r, w);
  // the whole hours the series covers (one hour still shows as an hour, its point in the middle)
  const span = (h: TraceLatencyHourly): { min: number; max: number } => ({ min: h.hours[0]?.startUtcMs ?? 0, max: h.hours[h.hours.length - 1]?.endUtcMs ?? 1 });
  scheduler.add(f.canvas, (firstDraw) => {
    const h = series[Number(select.value)] ?? first;
    chart = new Chart<'line', { x: number; y: number | null }[]>(f.canvas, {
      type: 'line',
      data: { datasets: h === undefined ? [] : datasets(h) },
      plugins: [firstDraw],
      options: {
        animation: false,
        maintainAspectRatio: false,
        // the plot area Chart.js settles on, from the first layout: choosing another series keeps it
        layout: { padding: firstLayoutPadding([{ pointRadius: 2 }]) },
        parsing: false,
        spanGaps: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: {
          x: { type: 'time', ...(h === undefined ? {} : span(h)), title: { display: true, text: u('hour.axisTime') }, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8, callback: (v) => w.utc(Number(v)) } },
          y: { type: 'logarithmic', title: { display: true, text: u('hour.axisMs') }, ticks: { callback: (v) => w.num(Number(v)) } },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: hourTooltip(() => series[Number(select.value)] ?? first, w, u),
          },
          phaseShading: {
            bands, markers, textColor: cssVar('--muted', '#57606a'), labelBackground: cssVar('--label-bg', 'rgba(255,255,255,0.85)'),
            font: `12px ${getComputedStyle(document.documentElement).fontFamily || 'system-ui'}`, maxRows: 3,
          },
        },
      },
    });
    return chart;
  });
  return f.node;
}

/** The hourly chart's tooltip: the hour, each line's range in µs, the requests of the hour and the definition. */
function hourTooltip(current: () => TraceLatencyHourly | undefined, w: Words, u: (k: TraceLatencyKey, x?: Params) => string) {
  return {
    title: (items: TooltipItem<'line'>[]) => `${w.utc(Number(items[0]?.parsed.x ?? 0))} UTC`,
    label: (item: TooltipItem<'line'>) => {
      const x = current()?.hours[item.dataIndex];
      const line = LINES[item.datasetIndex];
      const rg = x === undefined || line === undefined ? null : x[line.key];
      return rg === null ? `${item.dataset.label ?? ''}: ${w.na}` : u('hour.tooltip', { label: item.dataset.label ?? '', low: fmtNumber(w.lang, rg.lowUs, 0), high: fmtNumber(w.lang, rg.highUs, 0) });
    },
    footer: (items: TooltipItem<'line'>[]) => {
      const x = current()?.hours[items[0]?.dataIndex ?? -1];
      return [...(x === undefined ? [] : [u('hour.requests', { n: fmtNumber(w.lang, x.requests, 0) })]), ...wrap(u('hour.def'))];
    },
  };
}
