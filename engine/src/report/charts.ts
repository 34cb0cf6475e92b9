/**
 * The report's charts (ChartSpec): IOPS and latency over both windows with the phases shaded,
 * matched hours and the latency distribution. Every value is the analysis' or the series' own.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Distribution } from '../metrics/summary.ts';
import type { ReportKey } from './keys.ts';
import type { ReportSeries, ReportSeriesDevice } from './series.ts';
import type { ChartSeries, ChartSpec, Val } from './types.ts';
import { m, str, msgv, num, pct, ms, sig, duration, roleOf } from './values.ts';
import { COLOR, UNDER_WIDTH, roleColor } from './colors.ts';

/** At most this many lines on a time chart before the backing devices are summed into one. */
export const MAX_DEVICE_LINES = 6;

export function bands(a: AnalysisReport): NonNullable<ChartSpec['bands']> {
  const w = a.windows;
  const out: NonNullable<ChartSpec['bands']> = [{ fromMs: Date.parse(w.baseline.start), toMs: Date.parse(w.baseline.end), label: m('band.baseline'), tone: 'baseline' }];
  if (w.switchAt !== null && w.warmupExcludedSeconds > 0) out.push({ fromMs: Date.parse(w.switchAt), toMs: Date.parse(w.measure.start), label: m('band.warmup'), tone: 'warmup' });
  out.push({ fromMs: Date.parse(w.measure.start), toMs: Date.parse(w.measure.end), label: m('band.measure'), tone: 'measure' });
  return out;
}

/** The lines drawn: each device, or, beyond {@link MAX_DEVICE_LINES}, the app-facing devices and the backing devices summed. */
interface Line {
  name: Val;
  devices: ReportSeriesDevice[];
  summed: boolean;
}

function chartLines(a: AnalysisReport, series: ReportSeries): Line[] {
  const devs = series.devices;
  const roleName = (d: ReportSeriesDevice): Val => msgv('ch.deviceRole', { device: str(d.device), role: msgv(`role.${roleOf(a, d.device, d.role)}` as ReportKey) });
  if (devs.length <= MAX_DEVICE_LINES) return devs.map((d) => ({ name: roleName(d), devices: [d], summed: false }));
  const lines: Line[] = [];
  for (const d of devs) if (a.devices.front.includes(d.device)) lines.push({ name: roleName(d), devices: [d], summed: false });
  const backing = devs.filter((d) => a.devices.backing.includes(d.device));
  if (backing.length > 0) lines.push({ name: msgv('ch.backingSum', { n: num(backing.length, 0) }), devices: backing, summed: true });
  const cache = devs.filter((d) => a.devices.cache.includes(d.device));
  if (cache.length > 0) lines.push({ name: msgv('ch.cacheSum', { n: num(cache.length, 0) }), devices: cache, summed: true });
  return lines;
}

function lineValues(line: Line, metric: 'iops' | 'latencyMs', n: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    if (metric === 'iops') {
      let sum = 0;
      let any = false;
      for (const d of line.devices) {
        const v = d.iops[i];
        if (v !== null && v !== undefined) {
          sum += v;
          any = true;
        }
      }
      out.push(any ? sum : null);
    } else {
      // I/O-weighted mean response time across the summed devices.
      let w = 0;
      let s = 0;
      for (const d of line.devices) {
        const io = d.iops[i];
        const lat = d.latencyMs[i];
        if (io !== null && io !== undefined && lat !== null && lat !== undefined && io > 0) {
          w += io;
          s += io * lat;
        }
      }
      out.push(w > 0 ? s / w : null);
    }
  }
  return out;
}

function windowMean(a: AnalysisReport, line: Line, metric: 'iops' | 'awaitMs', side: 'baseline' | 'measure'): number | null {
  if (line.summed) {
    const names = line.devices.map((d) => d.device).sort().join(',');
    const g = a.groups.backing;
    if (g !== null && [...g.devices].sort().join(',') === names) return g[side].means[metric];
    return null;
  }
  const d = a.perDevice.find((p) => p.device === line.devices[0]?.device);
  return d === undefined ? null : d[side].means[metric];
}

/**
 * A time chart of every line (`part` absent), or of the application-facing lines (`front`) or the
 * others (`backing`): response times get a chart each in front-and-backing mode, so a backing
 * spike sets its own scale and the application's line (0.18 → 0.06 ms) is not flattened by it.
 */
export function timeChart(a: AnalysisReport, series: ReportSeries, metric: 'iops' | 'latencyMs', part?: 'front' | 'backing'): ChartSpec {
  const isFront = (line: Line): boolean => {
    const first = line.devices[0];
    return first !== undefined && roleOf(a, first.device, first.role) === 'front';
  };
  const lines = chartLines(a, series).filter((l) => part === undefined || (part === 'front') === isFront(l));
  const n = series.t.length;
  // a colour means a role (colors.ts); a second line of the same role is dashed
  const used = new Set<number>();
  const s: ChartSeries[] = lines.map((line) => {
    const ys = lineValues(line, metric, n);
    const first = line.devices[0];
    const color = roleColor(first === undefined ? 'other' : roleOf(a, first.device, first.role));
    const dashed = used.has(color);
    used.add(color);
    // before the switch the backing drives carry the front's I/O: their line is drawn wide beneath it
    const under = color !== COLOR.front;
    return { name: line.name, color, points: series.t.map((t, j) => [t, ys[j] ?? null] as [number, number | null]), ...(dashed ? { dashed: true } : {}), ...(under ? { width: UNDER_WIDTH } : {}) };
  });
  const summaryItems: Val[] = lines.map((line) =>
    metric === 'iops'
      ? msgv('ch.meanIops', { name: line.name, before: sig(windowMean(a, line, 'iops', 'baseline')), after: sig(windowMean(a, line, 'iops', 'measure')) })
      : msgv('ch.meanMs', { name: line.name, before: ms(windowMean(a, line, 'awaitMs', 'baseline')), after: ms(windowMean(a, line, 'awaitMs', 'measure')) }),
  );
  const summed = lines.some((l) => l.summed);
  const spec: ChartSpec = {
    id: metric === 'iops' ? 'iops-time' : part === 'backing' ? 'latency-backing-time' : 'latency-time',
    kind: 'line',
    title: m(metric === 'iops' ? 'ch.iopsTitle' : part === 'front' ? 'ch.latencyFrontTitle' : part === 'backing' ? 'ch.latencyBackingTitle' : 'ch.latencyTitle'),
    x: { kind: 'time', label: m('ax.timeUtc') },
    y: { label: m(metric === 'iops' ? 'ax.iops' : 'ax.latency'), unit: metric === 'iops' ? 'iops' : 'ms', min: 0 },
    series: s,
    bands: bands(a),
    summary: m('ch.summary', { text: { k: 'list', items: summaryItems, sep: '; ' } }),
    note: m(summed ? 'ch.noteBucketSummed' : 'ch.noteBucket', { bucket: duration(series.bucketMs / 1000), max: num(MAX_DEVICE_LINES, 0) }),
  };
  // the targets are the application's: drawn on its chart, not on the backing drives'
  if (metric === 'latencyMs' && part !== 'backing') {
    const top = Math.max(0, ...s.flatMap((x) => x.points.map((p) => p[1] ?? 0)));
    const refs = targetLines(a.health.targets, top);
    if (refs.length > 0) spec.refLines = refs;
  }
  return spec;
}

/**
 * The latency targets drawn on the application's response-time chart: only those near the data
 * (at most 3× its top: a 20 ms line over 0.2 ms data would flatten the chart), and one line per
 * value: equal read and write targets are one line labelled "reads and writes < 20 ms", never two
 * labels printed over each other.
 *
 * @example
 * targetLines({ readMs: 20, writeMs: 20 }, 12) // [{ y: 20, label: target.readWrite {ms: 20} }]
 */
export function targetLines(t: { readMs?: number; writeMs?: number; transferMs?: number }, top: number): NonNullable<ChartSpec['refLines']> {
  const near = (v: number | undefined): v is number => v !== undefined && v <= top * 3;
  const refs: NonNullable<ChartSpec['refLines']> = [];
  if (near(t.readMs) && t.readMs === t.writeMs) refs.push({ y: t.readMs, label: m('target.readWrite', { ms: num(t.readMs, 0) }) });
  else {
    if (near(t.readMs)) refs.push({ y: t.readMs, label: m('target.read', { ms: num(t.readMs, 0) }) });
    if (near(t.writeMs)) refs.push({ y: t.writeMs, label: m('target.write', { ms: num(t.writeMs, 0) }) });
  }
  if (near(t.transferMs)) refs.push({ y: t.transferMs, label: m('target.transfer', { ms: num(t.transferMs, 0) }) });
  return refs;
}

export function hourlyChart(a: AnalysisReport): ChartSpec {
  const hours = a.hourly;
  return {
    id: 'hourly', kind: 'bar', title: m('ch.hourlyTitle'),
    x: { kind: 'category', label: m('ax.hourUtc'), categories: hours.map((h) => msgv('hourLabel', { h: num(h.hour, 0) })) },
    y: { label: m('ax.percent'), unit: 'percent' },
    series: [
      // I/Os saved are counted at the backing drives, the response time at the application-facing devices
      { name: msgv('fig.iosSaved'), color: COLOR.backing, points: hours.map((h, i) => [i, h.iosSavedPercent] as [number, number | null]) },
      { name: msgv('fig.latencyReduction'), color: COLOR.front, points: hours.map((h, i) => [i, h.latencyReductionPercent] as [number, number | null]) },
    ],
    summary: m('ch.hourlySummary', { n: num(hours.length, 0), saved: pct(a.benefit.matchedHours.iosSavedPercent), reduction: pct(a.benefit.matchedHours.latencyReductionPercent) }),
  };
}

export function distributionChart(a: AnalysisReport): ChartSpec {
  const d = a.latencyDistribution;
  const keys = ['p50', 'p95', 'p99', 'max'] as const;
  const pts = (x: Distribution | null): [number, number | null][] => keys.map((k, i) => [i, x === null ? null : x[k]]);
  return {
    id: 'latency-distribution', kind: 'bar', title: m('ch.distTitle'),
    x: { kind: 'category', label: m('ax.percentile'), categories: keys.map((k) => msgv(`pctl.${k}`)) },
    y: { label: m('ax.latency'), unit: 'ms', min: 0 },
    series: [
      { name: msgv('win.baseline'), color: COLOR.before, points: pts(d.baseline) },
      { name: msgv('win.measure'), color: COLOR.after, points: pts(d.measure) },
    ],
    summary: m('ch.distSummary', {
      p99Before: ms(d.baseline?.p99 ?? null), p99After: ms(d.measure?.p99 ?? null), p50Before: ms(d.baseline?.p50 ?? null), p50After: ms(d.measure?.p50 ?? null),
    }),
  };
}
