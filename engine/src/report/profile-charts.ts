/**
 * The workload-profile report's time charts (issue 37), drawn as the before/after report's
 * charts ({@link ChartSpec}, the exporters' one SVG path): over the profiled window, the
 * application-facing group's IOPS with its reads/s and writes/s, MB/s, mean response time (with
 * the latency targets near the data), queue size (aqu-sz) and the mean request size per clock hour.
 * Every point is the engine's ({@link profileSeries}); every summary quotes the profile's own window
 * figures (`appFacing.means`, `.percentiles`). Null points are gaps: no line crosses missing data.
 * Colours by meaning (colors.ts): the group's role colour for its total, the two category colours
 * for reads (orange) and writes (black, dashed). Pure.
 */
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { Distribution } from '../metrics/summary.ts';
import type { ProfileSeries } from './profile-series.ts';
import type { Block, ChartSeries, ChartSpec, Msg, Val } from './types.ts';
import { COLOR } from './colors.ts';
import { duration, list, m, msgv, num } from './values.ts';

/** Text keys of the profile's charts and per-day tables (profile-days.ts); part of REPORT_KEYS (keys.ts). */
export const PROFILE_CHART_KEYS = [
  'pc.title', 'pc.intro', 'pc.iopsTitle', 'pc.mbpsTitle', 'pc.latencyTitle', 'pc.queueTitle', 'pc.sizeTitle',
  'pc.s.iops', 'pc.s.reads', 'pc.s.writes', 'pc.s.mbps', 'pc.s.latency', 'pc.s.queue', 'pc.s.size',
  'pc.ax.mbps', 'pc.ax.size', 'pc.sum.iops', 'pc.sum.figure', 'pc.sum.size', 'pc.noteLatency', 'pc.noteSize',
  'pd.title', 'pd.intro', 'pd.t.iops', 'pd.t.mbps', 'pd.t.latency', 'pd.c.day', 'pd.c.peakAt', 'pd.caption',
] as const;

/** The decimals of each figure (profile-report.ts `PROFILE_DECIMALS`, as analyze --profile prints them). */
const D = { iops: 1, mbps: 2, ms: 3, kib: 1, queue: 2 } as const;

type Pts = [number, number | null][];
const pts = (t: readonly number[], ys: readonly (number | null)[]): Pts => t.map((x, j) => [x, ys[j] ?? null]);

function roleColor(p: WorkloadProfile): number {
  return p.devices.appFacing === 'front' ? COLOR.front : COLOR.backing;
}

/** "Mean {mean}, p95 {p95}, peak {peak}" of a window figure. */
function figureSummary(mean: number | null, dist: Distribution | null, d: number): Msg {
  return m('pc.sum.figure', { mean: num(mean, d), p95: num(dist?.p95 ?? null, d), peak: num(dist?.max ?? null, d) });
}

function timeSpec(id: string, title: Msg, y: ChartSpec['y'], series: ChartSeries[], summary: Msg, note: Msg): ChartSpec {
  return { id, kind: 'line', title, x: { kind: 'time', label: m('ax.timeUtc') }, y, series, summary, note };
}

function iopsChart(p: WorkloadProfile, s: ProfileSeries, devices: Val, note: Msg): ChartSpec {
  const a = p.appFacing;
  return timeSpec('profile-iops-time', m('pc.iopsTitle', { devices }), { label: m('ax.iops'), unit: 'iops', min: 0 }, [
    { name: msgv('pc.s.iops'), color: roleColor(p), points: pts(s.t, s.iops) },
    { name: msgv('pc.s.reads'), color: COLOR.category1, points: pts(s.t, s.readIops) },
    { name: msgv('pc.s.writes'), color: COLOR.category2, points: pts(s.t, s.writeIops), dashed: true },
  ], m('pc.sum.iops', { ...figureSummary(a.means.iops, a.percentiles.iops, D.iops).p, reads: num(a.means.readsPerSec, D.iops), writes: num(a.means.writesPerSec, D.iops) }), note);
}

function latencyChart(p: WorkloadProfile, s: ProfileSeries, devices: Val, bucket: Val): ChartSpec {
  const a = p.appFacing;
  const spec = timeSpec('profile-latency-time', m('pc.latencyTitle', { devices }), { label: m('ax.latency'), unit: 'ms', min: 0 },
    [{ name: msgv('pc.s.latency'), color: roleColor(p), points: pts(s.t, s.latencyMs) }],
    figureSummary(a.means.awaitMs, a.percentiles.awaitMs, D.ms), m('pc.noteLatency', { bucket }));
  // the targets near the data only (a 20 ms line over 0.2 ms data would flatten the chart), as the before/after chart draws them
  const top = Math.max(0, ...s.latencyMs.map((v) => v ?? 0));
  const t = p.health.targets;
  const refs: NonNullable<ChartSpec['refLines']> = [];
  for (const [k, v] of [['read', t.readMs], ['write', t.writeMs], ['transfer', t.transferMs]] as const) {
    if (v !== undefined && v <= top * 3) refs.push({ y: v, label: m(`target.${k}`, { ms: num(v, 0) }) });
  }
  if (refs.length > 0) spec.refLines = refs;
  return spec;
}

function sizeChart(p: WorkloadProfile, s: ProfileSeries, devices: Val): ChartSpec {
  const kib = s.requestBytes.map((b) => (b === null ? null : b / 1024));
  const shown = kib.filter((v): v is number => v !== null);
  const mean = p.appFacing.means.avgRequestBytes;
  return timeSpec('profile-size-time', m('pc.sizeTitle', { devices }), { label: m('pc.ax.size'), unit: 'bytes', min: 0 },
    [{ name: msgv('pc.s.size'), color: roleColor(p), points: pts(s.hourT, kib) }],
    m('pc.sum.size', { mean: num(mean === null ? null : mean / 1024, D.kib), min: num(shown.length === 0 ? null : Math.min(...shown), D.kib), max: num(shown.length === 0 ? null : Math.max(...shown), D.kib) }),
    m('pc.noteSize'));
}

/**
 * The profile's time charts, in the order the report draws them; none without a series (a model
 * built without the capture's columns). The queue chart only when some point has a queue size, the
 * request size per hour only when two hours or more have one.
 */
export function profileCharts(p: WorkloadProfile, s: ProfileSeries | null): ChartSpec[] {
  if (s === null || s.t.length === 0) return [];
  const a = p.appFacing;
  const devices = list(p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing);
  const bucket = duration(s.bucketMs / 1000);
  const note = m('ch.noteBucket', { bucket });
  const charts = [
    iopsChart(p, s, devices, note),
    timeSpec('profile-mbps-time', m('pc.mbpsTitle', { devices }), { label: m('pc.ax.mbps'), unit: 'mbps', min: 0 },
      [{ name: msgv('pc.s.mbps'), color: roleColor(p), points: pts(s.t, s.mbps) }], figureSummary(a.means.mbps, a.percentiles.mbps, D.mbps), note),
    latencyChart(p, s, devices, bucket),
  ];
  if (s.aquSz.some((v) => v !== null)) {
    charts.push(timeSpec('profile-queue-time', m('pc.queueTitle', { devices }), { label: m('ax.queue'), unit: 'requests', min: 0 },
      [{ name: msgv('pc.s.queue'), color: roleColor(p), points: pts(s.t, s.aquSz) }], figureSummary(a.means.aquSz, a.percentiles.aquSz, D.queue), note));
  }
  // per hour: a window within one clock hour has one point, which the figures table already gives
  if (s.requestBytes.filter((v) => v !== null).length >= 2) charts.push(sizeChart(p, s, devices));
  return charts;
}

/** The charts as blocks under their heading (none without charts). */
export function profileChartBlocks(charts: readonly ChartSpec[]): Block[] {
  if (charts.length === 0) return [];
  return [{ type: 'subheading', text: m('pc.title') }, { type: 'paragraph', text: m('pc.intro') }, ...charts.map((chart): Block => ({ type: 'chart', chart }))];
}
