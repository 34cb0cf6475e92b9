/**
 * The report's response time from the block trace (analysis `traceLatency`, docs/report.md):
 * a table per device, compared window (baseline, measure; the whole trace without phases) and
 * operation (the requests completed, the mean, each percentile as its bucket's edges in µs); the method in words (every request,
 * from the tracer's per-interval histograms, or the stored requests, labelled so); and the
 * per-hour percentiles as charts, one per device and operation of the analysis (the
 * application-facing and backing devices first, at most {@link MAX_HOURLY_CHARTS}), each
 * percentile drawn at the upper edge of its bucket, in ms. Nothing when the capture has no trace.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { TraceLatencyHourly, TraceLatencyHourPoint, TraceLatencyRange } from '../benefit/trace-latency.ts';
import { bands } from './charts.ts';
import { COLOR } from './colors.ts';
import type { Block, ChartSpec, Table, Val } from './types.ts';
import { col, m, msgv, num, pct, str, time } from './values.ts';

/** Per-hour charts the report draws at most (the rest are in `analyze --json`). */
export const MAX_HOURLY_CHARTS = 4;

const PERCENTILES = [['p50', 'c.p50'], ['p95', 'c.p95'], ['p99', 'c.p99'], ['p999', 'tl.p999']] as const;
const COLORS = [COLOR.front, COLOR.backing, COLOR.category1, COLOR.category2];

/** The series whose hours the report draws: the analysis's devices first, then the others. */
export function hourlyShown(a: AnalysisReport): TraceLatencyHourly[] {
  const analysed = [...a.devices.front, ...a.devices.backing];
  const rank = (h: TraceLatencyHourly): number => {
    const i = analysed.indexOf(h.device);
    return i < 0 ? analysed.length : i;
  };
  return [...a.traceLatency.hourly].sort((x, y) => rank(x) - rank(y)).slice(0, MAX_HOURLY_CHARTS);
}

function hourlyChart(a: AnalysisReport, h: TraceLatencyHourly, k: number): ChartSpec {
  const op = msgv(h.op === 'read' ? 'tl.read' : 'tl.write');
  const high = (r: TraceLatencyRange | null): number | null => (r === null ? null : r.highUs / 1000);
  let busiest: TraceLatencyHourPoint | null = null;
  for (const x of h.hours) if (x.p99 !== null && (busiest?.p99 == null || x.p99.highUs > busiest.p99.highUs)) busiest = x;
  return {
    id: `trace-latency-hourly-${k}`,
    kind: 'line',
    title: m('tl.hourTitle', { device: str(h.device), op }),
    x: { kind: 'time', label: m('ax.timeUtc') },
    y: { label: m('tl.hourAxis'), unit: 'ms', min: 0 },
    series: PERCENTILES.map(([p, key], i) => ({ name: msgv(key), color: COLORS[i] ?? COLOR.other, points: h.hours.map((x) => [x.midUtcMs, high(x[p])] as [number, number | null]) })),
    bands: bands(a),
    summary: m('tl.hourSummary', {
      device: str(h.device), op, hours: num(h.hours.length, 0),
      worst: busiest === null || busiest.p99 === null ? msgv('na') : time(busiest.startUtcMs),
      p99: busiest === null || busiest.p99 === null ? msgv('na') : msgv('tl.range', { low: num(busiest.p99.lowUs, 0), high: num(busiest.p99.highUs, 0) }),
    }),
  };
}

/** The method of the figures, in words. */
function methodText(a: AnalysisReport): Val {
  const l = a.traceLatency.fromTrace;
  if (l === null) return msgv('na');
  if (a.traceLatency.method === 'interval-histograms') return msgv('tl.method.histograms', { rate: pct(l.sampleRate * 100) });
  return l.sampleRate < 1 ? msgv('tl.method.requestsSampled', { rate: pct(l.sampleRate * 100) }) : msgv('tl.method.requests');
}

/** The blocks (table, method, per-hour charts) and the charts among them; nothing without a trace. */
export function traceLatencyBlocks(a: AnalysisReport): { blocks: Block[]; charts: ChartSpec[] } {
  const l = a.traceLatency.fromTrace;
  if (l === null) return { blocks: [], charts: [] };
  const phased = l.series.some((s) => s.window !== 'all');
  const shown = l.series.filter((s) => (phased ? s.window === 'baseline' || s.window === 'measure' : true) && s.completed > 0);
  if (shown.length === 0) return { blocks: [], charts: [] };
  const range = (p: number, s: (typeof shown)[number]): Val => {
    const x = s.percentiles.find((q) => q.p === p);
    // the unit is in the column's head (µs), so that the four percentile columns fit the page
    return x === undefined ? msgv('na') : msgv('tl.span', { low: num(x.lowUs, 0), high: num(x.highUs, 0) });
  };
  const windowName = (w: string): Val => (w === 'baseline' ? msgv('win.baseline') : w === 'measure' ? msgv('win.measure') : msgv('tl.all'));
  const table: Table = {
    id: 'trace-latency', title: m('tl.title'), caption: m('tl.caption', { rate: pct(l.sampleRate * 100) }),
    columns: [col('c.device', 'left'), col('c.window', 'left'), col('tl.op', 'left'), col('tl.requests'), col('tl.mean'), col('c.p50', 'right', 'us'), col('c.p95', 'right', 'us'), col('c.p99', 'right', 'us'), col('tl.p999', 'right', 'us')],
    rows: shown.map((s) => ({ cells: [str(s.device), windowName(s.window), msgv(s.op === 'read' ? 'tl.read' : 'tl.write'), num(s.completed, 0),
      s.meanUs === null ? msgv('na') : num(s.meanUs, 0), range(50, s), range(95, s), range(99, s), range(99.9, s)] })),
  };
  const blocks: Block[] = [
    { type: 'subheading', text: m('tl.title') },
    { type: 'table', table },
    { type: 'paragraph', text: m('tl.method', { text: methodText(a) }) },
  ];
  const charts = hourlyShown(a).map((h, k) => hourlyChart(a, h, k));
  if (charts.length > 0) {
    blocks.push({ type: 'subheading', text: m('tl.hourHeading') });
    for (const chart of charts) blocks.push({ type: 'chart', chart });
    const more = a.traceLatency.hourly.length - charts.length;
    if (more > 0) blocks.push({ type: 'paragraph', text: m('tl.hourMore', { n: num(more, 0) }) });
  } else if (a.traceLatency.reasons['hourly'] === 'not-reported') {
    blocks.push({ type: 'paragraph', text: m('tl.hourNone') });
  }
  return { blocks, charts };
}
