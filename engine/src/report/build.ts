/**
 * Builds the {@link ReportModel} from an analysis (the `cacheproof analyze --json` object), the
 * capture's facts, the chart series, an optional TCO plan and the cover typed by a person.
 * Pure: no clock (the generation time is passed in), no I/O, no language (text is keys).
 *
 * Every figure is the analysis' own number; the model only chooses how it is displayed, with the
 * dashboard's rules: percents 1 decimal, counts whole, measured values (response times, IOPS,
 * MB/s, speed-up) 3 significant digits below 100 and whole numbers above.
 */
import type { AnalysisReport, AnalysisWarning, DeviceWindows } from '../benefit/result.ts';
import type { Interval95 } from '../benefit/bootstrap.ts';
import type { HealthCheck, HealthWindow } from '../benefit/health.ts';
import type { Distribution, WindowSummary } from '../metrics/summary.ts';
import type { DeviceInfo, DeviceRole } from '../records/types.ts';
import type { ConfigResult, LineId, PlanResult } from '../plan/result.ts';
import type { Scenario } from '../plan/scenario.ts';
import { BYTES_PER_TB } from '../plan/sizing.ts';
import type { ReportKey } from './keys.ts';
import type { ReportSeries, ReportSeriesDevice } from './series.ts';
import {
  REPORT_FORMAT_VERSION,
  type Block, type Card, type ChartSeries, type ChartSpec, type CoverInput, type Msg, type ReportModel, type Section, type SummaryRow, type Table, type Unit, type Val,
} from './types.ts';

/** Facts about the capture file and its recorder (the host reads them). */
export interface ReportCapture {
  /** File name as the person knows it (no directory). */
  fileName: string;
  sha256: string;
  sizeBytes: number | null;
  probeVersion: string | null;
  /** The capture's `source` meta (live, import, synthetic…). */
  source: string | null;
  schemaVersion: number | null;
  sampleIntervalMs: number | null;
  devices: DeviceInfo[];
}

export interface ReportTco {
  /** Scenario file name as given. */
  scenarioFile: string;
  scenario: Scenario;
  plan: PlanResult;
}

export interface ReportInput {
  analysis: AnalysisReport;
  capture: ReportCapture;
  series: ReportSeries;
  cover: CoverInput;
  appVersion: string;
  /** Generation time, UTC epoch ms. */
  generatedMs: number;
  tco: ReportTco | null;
}

/** At most this many lines on a time chart before the backing devices are summed into one. */
export const MAX_DEVICE_LINES = 6;

// ---------------------------------------------------------------------------------------------
// Value helpers

const m = (key: ReportKey, p?: Record<string, Val>): Msg => (p === undefined ? { key } : { key, p });
const str = (s: string): Val => ({ k: 'str', s });
const msgv = (key: ReportKey, p?: Record<string, Val>): Val => ({ k: 'msg', m: m(key, p) });
const empty: Val = { k: 'empty' };

function num(v: number | null, d: number, unit?: Unit, why?: string): Val {
  const out: Val = { k: 'num', v, d };
  if (unit !== undefined) out.unit = unit;
  if (v === null && why !== undefined) out.why = why;
  return out;
}
function pct(v: number | null, d = 1, why?: string): Val {
  return v === null && why !== undefined ? { k: 'pct', v, d, why } : { k: 'pct', v, d };
}
function ms(v: number | null, why?: string): Val {
  return v === null && why !== undefined ? { k: 'ms', v, why } : { k: 'ms', v };
}
function sig(v: number | null, unit?: Unit, why?: string): Val {
  const out: Val = { k: 'sig', v };
  if (unit !== undefined) out.unit = unit;
  if (v === null && why !== undefined) out.why = why;
  return out;
}
function ci(c: Interval95 | null, of: 'pct' | 'x' | 'sig', d = 1): Val {
  return c === null ? empty : { k: 'ci', low: c.low, high: c.high, of, d };
}
function time(iso: string | number, style: 'datetime' | 'date' | 'time' = 'datetime'): Val {
  return { k: 'time', ms: typeof iso === 'number' ? iso : Date.parse(iso), style };
}
const list = (items: string[]): Val => str(items.length === 0 ? '—' : items.join(', '));

/** A duration in words: `{h} h {min} min` etc., as a message (localized units). */
function duration(seconds: number): Val {
  const s = Math.round(seconds);
  if (s < 120) return msgv('dur.s', { n: num(s, 0) });
  if (s < 7200) {
    const min = Math.floor(s / 60);
    const rest = s % 60;
    return rest === 0 ? msgv('dur.min', { n: num(min, 0) }) : msgv('dur.minS', { min: num(min, 0), s: num(rest, 0) });
  }
  const h = Math.floor(s / 3600);
  const min = Math.round((s % 3600) / 60);
  return min === 0 ? msgv('dur.h', { n: num(h, 0) }) : msgv('dur.hMin', { h: num(h, 0), min: num(min, 0) });
}

const why = (reasons: Record<string, string>, key: string): string | undefined => reasons[key];

// ---------------------------------------------------------------------------------------------

function roleOf(a: AnalysisReport, name: string, fallback: DeviceRole): DeviceRole {
  if (a.devices.front.includes(name)) return 'front';
  if (a.devices.backing.includes(name)) return 'backing';
  if (a.devices.cache.includes(name)) return 'cache';
  if (a.devices.other.includes(name)) return 'other';
  return fallback;
}

function appDevices(a: AnalysisReport): string[] {
  return a.devices.appFacing === 'front' ? a.devices.front : a.devices.backing;
}

function windowsMsg(a: AnalysisReport): Msg {
  const w = a.windows;
  return m('card.window', { b0: time(w.baseline.start, 'time'), b1: time(w.baseline.end, 'time'), m0: time(w.measure.start, 'time'), m1: time(w.measure.end, 'time') });
}

function cards(a: AnalysisReport): Card[] {
  const b = a.benefit;
  const backing = list(a.devices.backing);
  const app = list(appDevices(a));
  const win = windowsMsg(a);
  const ciMsg = (c: Interval95 | null): Msg[] => (c === null ? [] : [m('card.ci', { ci: ci(c, 'pct') })]);
  const latencySubs: Msg[] = [];
  if (b.latencyMs.reductionPercent !== null || b.latencyMs.speedup !== null) {
    latencySubs.push(m('card.reductionSpeedup', {
      reduction: b.latencyMs.reductionPercent === null ? empty : msgv('reducedBy', { value: pct(b.latencyMs.reductionPercent) }),
      speedup: b.latencyMs.speedup === null ? empty : msgv('speedup', { value: sig(b.latencyMs.speedup) }),
    }));
  }
  return [
    {
      id: 'iosSaved', title: m('card.iosSaved'), value: [pct(b.iosSavedPercent.value, 1, why(b.iosSavedPercent.reasons, 'value'))],
      subs: [m('card.beforeAfterIos', { before: num(b.iosToBacking.before, 0, undefined, why(b.iosToBacking.reasons, 'before')), after: num(b.iosToBacking.after, 0, undefined, why(b.iosToBacking.reasons, 'after')) }),
        ...ciMsg(b.iosSavedPercent.ci95), m('card.device', { devices: backing }), win],
    },
    {
      id: 'latency', title: m('card.latency'),
      value: [ms(b.latencyMs.before, why(b.latencyMs.reasons, 'before')), str('→'), ms(b.latencyMs.after, why(b.latencyMs.reasons, 'after'))],
      subs: [...latencySubs, ...ciMsg(b.latencyMs.reductionPercentCi95), m('card.device', { devices: app }), win],
    },
    {
      id: 'normalizedIops', title: m('card.normalizedIops'),
      value: [sig(b.normalizedIops.before, 'iops'), str('→'), sig(b.normalizedIops.after, 'iops')],
      subs: [m('card.device', { devices: app }), win],
    },
    {
      id: 'throughput', title: m('card.throughput'),
      value: [sig(b.throughputMBps.before, 'mbps'), str('→'), sig(b.throughputMBps.after, 'mbps')],
      subs: [m('card.device', { devices: app }), win],
    },
    {
      id: 'cacheServed', title: m('card.cacheServed'),
      value: [msgv('card.readsWrites', { reads: pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), writes: pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')) })],
      subs: [m('card.device', { devices: str(`${a.devices.front.join(', ') || '—'} / ${a.devices.backing.join(', ') || '—'}`) }), win],
    },
  ];
}

function gradeVal(h: HealthWindow): Val {
  return msgv(`grade.${h.grade}`);
}

function targetsVal(a: AnalysisReport): Val {
  const t = a.health.targets;
  const parts: Val[] = [];
  if (t.readMs !== undefined) parts.push(msgv('target.read', { ms: num(t.readMs, 0) }));
  if (t.writeMs !== undefined) parts.push(msgv('target.write', { ms: num(t.writeMs, 0) }));
  if (t.transferMs !== undefined) parts.push(msgv('target.transfer', { ms: num(t.transferMs, 0) }));
  return { k: 'list', items: parts };
}

function presetVal(a: AnalysisReport): Val {
  return a.health.preset === 'custom' ? msgv('preset.custom') : str(a.health.preset);
}

/** The executive summary: one sentence per headline figure, each with its interval. */
function summarySentences(a: AnalysisReport, tco: ReportTco | null): Msg[] {
  const b = a.benefit;
  const out: Msg[] = [];
  const w = a.windows;
  if (b.iosSavedPercent.value !== null && b.iosSavedPercent.value < 0) {
    // More I/O reached the drives after the switch: say it rose, never "fell by −276 %".
    out.push(m('sum.iosRose', {
      devices: list(a.devices.backing), value: pct(-b.iosSavedPercent.value), saved: pct(b.iosSavedPercent.value),
      ci: b.iosSavedPercent.ci95 === null ? msgv('noCi') : ci(b.iosSavedPercent.ci95, 'pct'),
      before: num(b.iosToBacking.before, 0), after: num(b.iosToBacking.after, 0),
    }));
  } else if (b.iosSavedPercent.value !== null) {
    out.push(m(b.iosSavedPercent.ci95 === null ? 'sum.iosSavedNoCi' : 'sum.iosSaved', {
      devices: list(a.devices.backing), value: pct(b.iosSavedPercent.value), ci: ci(b.iosSavedPercent.ci95, 'pct'),
      before: num(b.iosToBacking.before, 0), after: num(b.iosToBacking.after, 0),
    }));
  } else out.push(m('sum.iosSavedNa', { why: msgv(`why.${b.iosSavedPercent.reasons['value'] ?? 'no-data'}` as ReportKey) }));
  const l = b.latencyMs;
  if (l.before !== null && l.after !== null && l.reductionPercent !== null && l.speedup !== null && l.reductionPercent < 0) {
    // Slower after the switch: say it rose, with the reduction's interval as computed.
    out.push(m('sum.latencyRose', {
      devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after),
      increase: pct(-l.reductionPercent), reductionCi: l.reductionPercentCi95 === null ? msgv('noCi') : ci(l.reductionPercentCi95, 'pct'),
    }));
  } else if (l.before !== null && l.after !== null && l.reductionPercent !== null && l.speedup !== null) {
    out.push(m('sum.latency', {
      devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after),
      reduction: pct(l.reductionPercent), reductionCi: l.reductionPercentCi95 === null ? msgv('noCi') : ci(l.reductionPercentCi95, 'pct'),
      speedup: msgv('speedup', { value: sig(l.speedup) }), speedupCi: l.speedupCi95 === null ? msgv('noCi') : ci(l.speedupCi95, 'x'),
    }));
  } else out.push(m('sum.latencyNa', { before: ms(l.before, why(l.reasons, 'before')), after: ms(l.after, why(l.reasons, 'after')) }));
  out.push(m('sum.normalizedIops', { before: sig(b.normalizedIops.before, 'iops', why(b.normalizedIops.reasons, 'before')), after: sig(b.normalizedIops.after, 'iops', why(b.normalizedIops.reasons, 'after')) }));
  out.push(m('sum.throughput', {
    devices: list(appDevices(a)),
    before: sig(b.throughputMBps.before, 'mbps', why(b.throughputMBps.reasons, 'before')), after: sig(b.throughputMBps.after, 'mbps', why(b.throughputMBps.reasons, 'after')),
    gbBefore: num(b.totalWork.before.bytes === null ? null : b.totalWork.before.bytes / 1e9, 2), gbAfter: num(b.totalWork.after.bytes === null ? null : b.totalWork.after.bytes / 1e9, 2),
    baseline: duration(w.baseline.seconds), measure: duration(w.measure.seconds),
  }));
  if (b.cacheServedPercent.reads !== null || b.cacheServedPercent.writes !== null) {
    out.push(m('sum.cacheServed', { reads: pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), writes: pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')) }));
  } else out.push(m('sum.cacheServedNa'));
  out.push(m('sum.health', { preset: presetVal(a), targets: targetsVal(a), before: gradeVal(a.health.baseline), after: gradeVal(a.health.measure) }));
  if (a.drift.exceeded.length > 0) out.push(m('sum.drift', { metrics: { k: 'list', items: a.drift.exceeded.map((x) => msgv(`drift.${x}` as ReportKey)) } }));
  if (tco !== null) {
    const p = tco.plan;
    const ref = p.configurations.find((c) => c.id === p.referenceId);
    const best = [...p.configurations].sort((x, y) => x.totalUsd - y.totalUsd)[0];
    if (best !== undefined && ref !== undefined) {
      const cmp = p.comparisons.find((c) => c.id === best.id);
      if (best.id === ref.id || cmp === undefined) out.push(m('sum.tcoRef', { years: num(p.years, 0), label: str(best.label), total: num(best.totalUsd, 0) }));
      else out.push(m('sum.tco', { years: num(p.years, 0), label: str(best.label), total: num(best.totalUsd, 0), savingsPct: pct(cmp.savingsPct), reference: str(ref.label), refTotal: num(ref.totalUsd, 0) }));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Charts

function bands(a: AnalysisReport): NonNullable<ChartSpec['bands']> {
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

function timeChart(a: AnalysisReport, series: ReportSeries, metric: 'iops' | 'latencyMs'): ChartSpec {
  const lines = chartLines(a, series);
  const n = series.t.length;
  const s: ChartSeries[] = lines.map((line, i) => {
    const ys = lineValues(line, metric, n);
    return { name: line.name, color: i, points: series.t.map((t, j) => [t, ys[j] ?? null] as [number, number | null]) };
  });
  const summaryItems: Val[] = lines.map((line) =>
    metric === 'iops'
      ? msgv('ch.meanIops', { name: line.name, before: sig(windowMean(a, line, 'iops', 'baseline')), after: sig(windowMean(a, line, 'iops', 'measure')) })
      : msgv('ch.meanMs', { name: line.name, before: ms(windowMean(a, line, 'awaitMs', 'baseline')), after: ms(windowMean(a, line, 'awaitMs', 'measure')) }),
  );
  const summed = lines.some((l) => l.summed);
  const spec: ChartSpec = {
    id: metric === 'iops' ? 'iops-time' : 'latency-time',
    kind: 'line',
    title: m(metric === 'iops' ? 'ch.iopsTitle' : 'ch.latencyTitle'),
    x: { kind: 'time', label: m('ax.timeUtc') },
    y: { label: m(metric === 'iops' ? 'ax.iops' : 'ax.latency'), unit: metric === 'iops' ? 'iops' : 'ms', min: 0 },
    series: s,
    bands: bands(a),
    summary: m('ch.summary', { text: { k: 'list', items: summaryItems, sep: '; ' } }),
    note: m(summed ? 'ch.noteBucketSummed' : 'ch.noteBucket', { bucket: duration(series.bucketMs / 1000), max: num(MAX_DEVICE_LINES, 0) }),
  };
  if (metric === 'latencyMs') {
    const t = a.health.targets;
    const refs: NonNullable<ChartSpec['refLines']> = [];
    const top = Math.max(0, ...s.flatMap((x) => x.points.map((p) => p[1] ?? 0)));
    // Only targets near the data are drawn: a 20 ms line over 0.2 ms data would flatten the chart.
    for (const [k, v] of [['read', t.readMs], ['write', t.writeMs], ['transfer', t.transferMs]] as const) {
      if (v !== undefined && v <= top * 3) refs.push({ y: v, label: m(`target.${k}`, { ms: num(v, 0) }) });
    }
    if (refs.length > 0) spec.refLines = refs;
  }
  return spec;
}

function hourlyChart(a: AnalysisReport): ChartSpec {
  const hours = a.hourly;
  return {
    id: 'hourly', kind: 'bar', title: m('ch.hourlyTitle'),
    x: { kind: 'category', label: m('ax.hourUtc'), categories: hours.map((h) => msgv('hourLabel', { h: num(h.hour, 0) })) },
    y: { label: m('ax.percent'), unit: 'percent' },
    series: [
      { name: msgv('fig.iosSaved'), color: 0, points: hours.map((h, i) => [i, h.iosSavedPercent] as [number, number | null]) },
      { name: msgv('fig.latencyReduction'), color: 1, points: hours.map((h, i) => [i, h.latencyReductionPercent] as [number, number | null]) },
    ],
    summary: m('ch.hourlySummary', { n: num(hours.length, 0), saved: pct(a.benefit.matchedHours.iosSavedPercent), reduction: pct(a.benefit.matchedHours.latencyReductionPercent) }),
  };
}

function distributionChart(a: AnalysisReport): ChartSpec {
  const d = a.latencyDistribution;
  const keys = ['p50', 'p95', 'p99', 'max'] as const;
  const pts = (x: Distribution | null): [number, number | null][] => keys.map((k, i) => [i, x === null ? null : x[k]]);
  return {
    id: 'latency-distribution', kind: 'bar', title: m('ch.distTitle'),
    x: { kind: 'category', label: m('ax.percentile'), categories: keys.map((k) => msgv(`pctl.${k}`)) },
    y: { label: m('ax.latency'), unit: 'ms', min: 0 },
    series: [
      { name: msgv('win.baseline'), color: 1, points: pts(d.baseline) },
      { name: msgv('win.measure'), color: 2, points: pts(d.measure) },
    ],
    summary: m('ch.distSummary', {
      p99Before: ms(d.baseline?.p99 ?? null), p99After: ms(d.measure?.p99 ?? null), p50Before: ms(d.baseline?.p50 ?? null), p50After: ms(d.measure?.p50 ?? null),
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Tables

const col = (head: ReportKey, align: 'left' | 'right' = 'right', unit?: Unit): Table['columns'][number] => (unit === undefined ? { head: m(head), align } : { head: m(head), align, unit });

function figuresTable(a: AnalysisReport): Table {
  const b = a.benefit;
  const gb = (x: number | null): number | null => (x === null ? null : x / 1e9);
  const l = b.latencyMs;
  return {
    id: 'figures', title: m('t.figures'), sheet: false,
    columns: [col('c.figure', 'left'), col('c.before'), col('c.after'), col('c.change', 'left')],
    rows: [
      { cells: [msgv('fig.iosToBacking'), num(b.iosToBacking.before, 0), num(b.iosToBacking.after, 0), b.iosSavedPercent.value === null ? empty : msgv('chg.saved', { value: pct(b.iosSavedPercent.value), ci: ci(b.iosSavedPercent.ci95, 'pct') })] },
      { cells: [msgv('fig.iosToBackingPerSec'), sig(b.iosToBacking.beforePerSecond, 'iops'), sig(b.iosToBacking.afterPerSecond, 'iops'), empty] },
      { cells: [msgv('fig.latency'), ms(l.before, why(l.reasons, 'before')), ms(l.after, why(l.reasons, 'after')),
        l.reductionPercent === null || l.speedup === null ? empty : msgv('chg.latency', { reduction: pct(l.reductionPercent), speedup: msgv('speedup', { value: sig(l.speedup) }), ci: ci(l.reductionPercentCi95, 'pct') })] },
      { cells: [msgv('fig.normalizedIops'), sig(b.normalizedIops.before, 'iops'), sig(b.normalizedIops.after, 'iops'), empty] },
      { cells: [msgv('fig.iopsPerSpindle', { n: num(b.deliveredIopsPerSpindle.spindles, 0) }), sig(b.deliveredIopsPerSpindle.before, 'iops'), sig(b.deliveredIopsPerSpindle.after, 'iops'), empty] },
      { cells: [msgv('fig.throughput'), sig(b.throughputMBps.before, 'mbps'), sig(b.throughputMBps.after, 'mbps'), empty] },
      { cells: [msgv('fig.totalIos'), num(b.totalWork.before.ios, 0), num(b.totalWork.after.ios, 0), empty] },
      { cells: [msgv('fig.totalGb'), num(gb(b.totalWork.before.bytes), 2, 'gb'), num(gb(b.totalWork.after.bytes), 2, 'gb'), empty] },
      { cells: [msgv('fig.cacheServedReads'), empty, pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), empty] },
      { cells: [msgv('fig.cacheServedWrites'), empty, pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')), empty] },
    ],
  };
}

function deviceTable(a: AnalysisReport): Table {
  const row = (d: DeviceWindows): Table['rows'][number] => {
    const B = d.baseline.means;
    const A = d.measure.means;
    return {
      cells: [str(d.device), msgv(`role.${d.role}` as ReportKey), sig(B.iops), sig(A.iops), sig(B.mbps), sig(A.mbps), ms(B.awaitMs, B.reasons['awaitMs']), ms(A.awaitMs, A.reasons['awaitMs']), num(B.utilPercent, 1), num(A.utilPercent, 1)],
    };
  };
  return {
    id: 'devices', title: m('t.devices'), sheet: true,
    columns: [col('c.device', 'left'), col('c.role', 'left'), col('c.iopsBefore', 'right', 'iops'), col('c.iopsAfter', 'right', 'iops'), col('c.mbpsBefore', 'right', 'mbps'), col('c.mbpsAfter', 'right', 'mbps'),
      col('c.awaitBefore', 'right', 'ms'), col('c.awaitAfter', 'right', 'ms'), col('c.utilBefore', 'right', 'percent'), col('c.utilAfter', 'right', 'percent')],
    rows: a.perDevice.map(row),
    caption: m('t.devicesCaption'),
  };
}

function hourlyTable(a: AnalysisReport): Table {
  return {
    id: 'hourly', title: m('t.hourly'), sheet: true,
    columns: [col('c.hour', 'left'), col('c.iopsBefore', 'right', 'iops'), col('c.iopsAfter', 'right', 'iops'), col('c.backingIopsBefore', 'right', 'iops'), col('c.backingIopsAfter', 'right', 'iops'),
      col('c.latBefore', 'right', 'ms'), col('c.latAfter', 'right', 'ms'), col('c.iosSaved', 'right', 'percent'), col('c.latReduction', 'right', 'percent')],
    rows: a.hourly.map((h) => ({
      cells: [msgv('hourLabel', { h: num(h.hour, 0) }), sig(h.baseline.iops), sig(h.measure.iops), sig(h.baseline.backingIops), sig(h.measure.backingIops),
        ms(h.baseline.latencyMs, h.baseline.reasons['latencyMs']), ms(h.measure.latencyMs, h.measure.reasons['latencyMs']), pct(h.iosSavedPercent, 1, h.reasons['iosSavedPercent']), pct(h.latencyReductionPercent, 1, h.reasons['latencyReductionPercent'])],
    })),
    caption: m('t.hourlyCaption'),
  };
}

function distributionTable(a: AnalysisReport): Table {
  const d = a.latencyDistribution;
  const row = (label: ReportKey, x: Distribution | null): Table['rows'][number] => ({
    cells: [msgv(label), ms(x?.p50 ?? null, d.reasons[label === 'win.baseline' ? 'baseline' : 'measure']), ms(x?.p95 ?? null), ms(x?.p99 ?? null), ms(x?.max ?? null), num(x?.n ?? null, 0)],
  });
  return {
    id: 'latency-distribution', title: m('t.distribution'), sheet: true,
    columns: [col('c.window', 'left'), col('c.p50', 'right', 'ms'), col('c.p95', 'right', 'ms'), col('c.p99', 'right', 'ms'), col('c.max', 'right', 'ms'), col('c.intervals', 'right', 'count')],
    rows: [row('win.baseline', d.baseline), row('win.measure', d.measure)],
    caption: m('t.distributionCaption', { devices: list(d.devices) }),
  };
}

function healthTable(a: AnalysisReport): Table {
  const rows: Table['rows'] = [];
  const metrics = new Set<HealthCheck['metric']>([...a.health.baseline.checks.map((c) => c.metric), ...a.health.measure.checks.map((c) => c.metric)]);
  const meets = (c: HealthCheck | undefined): Val => (c === undefined || c.meetsTarget === null ? msgv('na') : msgv(c.meetsTarget ? 'meets' : 'breaks'));
  for (const metric of metrics) {
    const b = a.health.baseline.checks.find((c) => c.metric === metric);
    const af = a.health.measure.checks.find((c) => c.metric === metric);
    const target = b?.targetMs ?? af?.targetMs ?? null;
    rows.push({
      cells: [msgv(`metric.${metric}`), num(target, 0), ms(b?.averageMs ?? null), meets(b), pct(b?.breakingPercent ?? null), ms(af?.averageMs ?? null), meets(af), pct(af?.breakingPercent ?? null)],
    });
  }
  rows.push({ strong: true, cells: [msgv('c.grade'), empty, empty, gradeVal(a.health.baseline), empty, empty, gradeVal(a.health.measure), empty] });
  return {
    id: 'health', title: m('t.health', { preset: presetVal(a) }), sheet: true,
    columns: [col('c.check', 'left'), col('c.target', 'right', 'ms'), col('c.avgBefore', 'right', 'ms'), col('c.before', 'left'), col('c.breakingBefore', 'right', 'percent'),
      col('c.avgAfter', 'right', 'ms'), col('c.after', 'left'), col('c.breakingAfter', 'right', 'percent')],
    rows,
    caption: m('t.healthCaption', { devices: list(a.health.devices) }),
  };
}

function devicesInventory(a: AnalysisReport, c: ReportCapture): Table {
  const yesNo = (b: boolean | null): Val => msgv(b === null ? 'unknown' : b ? 'yes' : 'no');
  return {
    id: 'inventory', title: m('t.inventory'), sheet: false,
    columns: [col('c.device', 'left'), col('c.role', 'left'), col('c.model', 'left'), col('c.sizeGb', 'right', 'gb'), col('c.rotational', 'left')],
    rows: c.devices.map((d) => ({ cells: [str(d.name), msgv(`role.${roleOf(a, d.name, d.role)}` as ReportKey), d.model === null ? msgv('unknown') : str(d.model), num(d.sizeBytes === null ? null : d.sizeBytes / 1e9, 1), yesNo(d.rotational)] })),
  };
}

// ---------------------------------------------------------------------------------------------
// TCO

const STACKS: { key: ReportKey; ids: LineId[] }[] = [
  { key: 'stack.purchase', ids: ['baseSystem', 'cacheLicense', 'cacheDrives', 'cacheRam'] },
  { key: 'stack.drives', ids: ['backingDrives'] },
  { key: 'stack.enclosures', ids: ['enclosures'] },
  { key: 'stack.power', ids: ['powerCooling'] },
  { key: 'stack.failures', ids: ['backingFailures', 'cacheFailures', 'cacheWearReplacements'] },
  { key: 'stack.support', ids: ['support'] },
];

function tcoSection(t: ReportTco): { section: Section; charts: ChartSpec[]; summary: SummaryRow[] } {
  const p = t.plan;
  const ref = p.configurations.find((c) => c.id === p.referenceId);
  const blocks: Block[] = [];
  blocks.push({ type: 'paragraph', text: m('tco.intro', {
    title: str(p.title === '' ? t.scenarioFile : p.title), file: str(t.scenarioFile), years: num(p.years, 0), year: num(p.sizedForYear, 0),
    iops: num(p.frontEndIopsToday, 0), iopsSized: num(p.frontEndIops, 0), basis: msgv(`basis.${p.iopsBasis}` as ReportKey),
    tb: num(p.capacityBytesToday / BYTES_PER_TB, 1), tbSized: num(p.capacityBytes / BYTES_PER_TB, 1), reference: str(ref?.label ?? p.referenceId),
  }) });
  if (p.examplePrices) blocks.push({ type: 'paragraph', text: m('tco.examplePrices') });
  const cmpRows: Table['rows'] = p.comparisons.map((cmp) => {
    const c = p.configurations.find((x) => x.id === cmp.id) as ConfigResult;
    const isRef = cmp.id === p.referenceId;
    const be: Val = isRef ? msgv('tco.reference') : cmp.breakEvenYear === null ? msgv('tco.never') : cmp.breakEvenYear === 0 ? msgv('tco.dayOne') : msgv('tco.year', { year: num(cmp.breakEvenYear, 1) });
    return { cells: [str(c.label), num(c.sizing.driveCount + c.cacheDriveCount, 0), num(c.totalUsd, 0), num(cmp.savingsUsd, 0), pct(cmp.savingsPct), num(c.costPerDeliveredIopsUsd, 2), num(c.costPerUsableTbUsd, 2), be] };
  });
  blocks.push({ type: 'table', table: {
    id: 'tco-comparison', title: m('t.tcoComparison', { years: num(p.years, 0) }), sheet: true,
    columns: [col('c.configuration', 'left'), col('c.drives', 'right', 'count'), col('c.totalUsd', 'right', 'usd'), col('c.savingsUsd', 'right', 'usd'), col('c.savingsPct', 'right', 'percent'),
      col('c.usdPerIops', 'right', 'usdPerIops'), col('c.usdPerTb', 'right', 'usdPerTb'), col('c.breakEven', 'left')],
    rows: cmpRows,
  } });
  const costChart: ChartSpec = {
    id: 'tco-costs', kind: 'stacked-bar', title: m('ch.tcoCostsTitle', { years: num(p.years, 0) }),
    x: { kind: 'category', label: m('ax.configuration'), categories: p.configurations.map((c) => str(c.label)) },
    y: { label: m('ax.usd'), unit: 'usd', min: 0 },
    series: STACKS.map((s, i) => ({ name: msgv(s.key), color: i, points: p.configurations.map((c, j) => [j, c.lines.filter((l) => s.ids.includes(l.id)).reduce((x, l) => x + l.costUsd, 0)] as [number, number | null]) })),
    summary: m('ch.tcoCostsSummary', { text: { k: 'list', items: p.configurations.map((c) => msgv('ch.configTotal', { label: str(c.label), total: num(c.totalUsd, 0) })), sep: '; ' } }),
  };
  const cumChart: ChartSpec = {
    id: 'tco-cumulative', kind: 'line', title: m('ch.tcoCumulativeTitle'),
    x: { kind: 'year', label: m('ax.year') },
    y: { label: m('ax.usd'), unit: 'usd', min: 0 },
    series: p.configurations.map((c, i) => ({ name: str(c.label), color: i, points: c.cumulativeUsd.map((v, y) => [y, v] as [number, number | null]) })),
    summary: m('ch.tcoCumulativeSummary', { years: num(p.years, 0) }),
  };
  blocks.push({ type: 'chart', chart: costChart }, { type: 'chart', chart: cumChart });
  for (const c of p.configurations) {
    blocks.push({ type: 'subheading', text: m('tco.config'), sub: str(c.label) });
    blocks.push({ type: 'paragraph', text: m('tco.sizing', {
      count: num(c.sizing.driveCount, 0), drive: str(t.scenario.drives.find((d) => d.id === c.backingDriveId)?.label ?? c.backingDriveId), raid: str(c.raidLevel),
      binding: msgv(`binding.${c.sizing.binding}` as ReportKey), backEnd: num(c.backEnd.backEndIops, 0), cacheDrives: num(c.cacheDriveCount, 0), enclosures: num(c.enclosures, 0), watts: num(c.watts, 0),
    }) });
    const rows: Table['rows'] = c.lines.map((l) => ({ cells: [{ k: 'tcoLine', id: l.id }, { k: 'tcoDetail', line: l }, num(l.costUsd, 0)] as Val[] }));
    rows.push({ strong: true, cells: [msgv('tco.upfront'), empty, num(c.upfrontUsd, 0)] });
    rows.push({ strong: true, cells: [msgv('tco.total', { years: num(p.years, 0) }), empty, num(c.totalUsd, 0)] });
    blocks.push({ type: 'table', table: { id: `tco-lines-${c.id}`, title: m('t.tcoLines', { label: str(c.label) }), sheet: true, columns: [col('c.lineItem', 'left'), col('c.detail', 'left'), col('c.amountUsd', 'right', 'usd')], rows } });
    const life: Val[] = [{ k: 'tcoLife', config: c, years: p.years, cache: false }];
    if (c.cacheLife !== null) life.push({ k: 'tcoLife', config: c, years: p.years, cache: true });
    for (const w of c.warnings) life.push({ k: 'tcoWarn', code: w.code, params: w.params });
    blocks.push({ type: 'notes', tone: 'info', items: life });
  }
  const summary: SummaryRow[] = p.comparisons.map((cmp) => {
    const c = p.configurations.find((x) => x.id === cmp.id) as ConfigResult;
    return { id: `tco.${c.id}`, label: m('sumrow.tcoTotal', { label: str(c.label), years: num(p.years, 0) }), unit: 'usd', path: `tco.configurations[${c.id}].totalUsd`, before: null, after: null, value: c.totalUsd, low: null, high: null, devices: '' };
  });
  return { section: { id: 'tco', title: m('sec.tco'), blocks }, charts: [costChart, cumChart], summary };
}

// ---------------------------------------------------------------------------------------------

function summaryRows(a: AnalysisReport): SummaryRow[] {
  const b = a.benefit;
  const back = a.devices.backing.join(', ');
  const app = appDevices(a).join(', ');
  const row = (id: string, label: ReportKey, unit: Unit | null, path: string, f: Partial<Pick<SummaryRow, 'before' | 'after' | 'value' | 'low' | 'high'>>, devices: string): SummaryRow => ({
    id, label: m(label), unit, path, before: f.before ?? null, after: f.after ?? null, value: f.value ?? null, low: f.low ?? null, high: f.high ?? null, devices,
  });
  const d = a.latencyDistribution;
  return [
    row('iosToBacking', 'fig.iosToBacking', 'ios', 'benefit.iosToBacking', { before: b.iosToBacking.before, after: b.iosToBacking.after }, back),
    row('iosToBackingPerSecond', 'fig.iosToBackingPerSec', 'iops', 'benefit.iosToBacking', { before: b.iosToBacking.beforePerSecond, after: b.iosToBacking.afterPerSecond }, back),
    row('iosSavedPercent', 'fig.iosSaved', 'percent', 'benefit.iosSavedPercent', { value: b.iosSavedPercent.value, low: b.iosSavedPercent.ci95?.low ?? null, high: b.iosSavedPercent.ci95?.high ?? null }, back),
    row('latencyMs', 'fig.latency', 'ms', 'benefit.latencyMs', { before: b.latencyMs.before, after: b.latencyMs.after }, app),
    row('latencyReductionPercent', 'fig.latencyReduction', 'percent', 'benefit.latencyMs.reductionPercent', { value: b.latencyMs.reductionPercent, low: b.latencyMs.reductionPercentCi95?.low ?? null, high: b.latencyMs.reductionPercentCi95?.high ?? null }, app),
    row('speedup', 'fig.speedup', null, 'benefit.latencyMs.speedup', { value: b.latencyMs.speedup, low: b.latencyMs.speedupCi95?.low ?? null, high: b.latencyMs.speedupCi95?.high ?? null }, app),
    row('normalizedIops', 'fig.normalizedIops', 'iops', 'benefit.normalizedIops', { before: b.normalizedIops.before, after: b.normalizedIops.after }, app),
    row('deliveredIopsPerSpindle', 'fig.iopsPerSpindleShort', 'iops', 'benefit.deliveredIopsPerSpindle', { before: b.deliveredIopsPerSpindle.before, after: b.deliveredIopsPerSpindle.after }, app),
    row('throughputMBps', 'fig.throughput', 'mbps', 'benefit.throughputMBps', { before: b.throughputMBps.before, after: b.throughputMBps.after }, app),
    row('totalWorkIos', 'fig.totalIos', 'ios', 'benefit.totalWork.*.ios', { before: b.totalWork.before.ios, after: b.totalWork.after.ios }, app),
    row('totalWorkBytes', 'fig.totalBytes', 'bytes', 'benefit.totalWork.*.bytes', { before: b.totalWork.before.bytes, after: b.totalWork.after.bytes }, app),
    row('cacheServedReads', 'fig.cacheServedReads', 'percent', 'benefit.cacheServedPercent.reads', { value: b.cacheServedPercent.reads }, `${a.devices.front.join(', ')} / ${back}`),
    row('cacheServedWrites', 'fig.cacheServedWrites', 'percent', 'benefit.cacheServedPercent.writes', { value: b.cacheServedPercent.writes }, `${a.devices.front.join(', ')} / ${back}`),
    row('matchedIosSaved', 'fig.matchedIosSaved', 'percent', 'benefit.matchedHours.iosSavedPercent', { value: b.matchedHours.iosSavedPercent }, back),
    row('matchedLatencyReduction', 'fig.matchedLatencyReduction', 'percent', 'benefit.matchedHours.latencyReductionPercent', { value: b.matchedHours.latencyReductionPercent }, app),
    row('latencyP50', 'fig.p50', 'ms', 'latencyDistribution.*.p50', { before: d.baseline?.p50 ?? null, after: d.measure?.p50 ?? null }, d.devices.join(', ')),
    row('latencyP95', 'fig.p95', 'ms', 'latencyDistribution.*.p95', { before: d.baseline?.p95 ?? null, after: d.measure?.p95 ?? null }, d.devices.join(', ')),
    row('latencyP99', 'fig.p99', 'ms', 'latencyDistribution.*.p99', { before: d.baseline?.p99 ?? null, after: d.measure?.p99 ?? null }, d.devices.join(', ')),
  ];
}

function notOkTotal(w: WindowSummary): number {
  const n = w.notOk;
  return n.reset + n.wrap + n.gap + n['clock-jump'] + n.incomplete;
}

function caveats(a: AnalysisReport, tco: ReportTco | null): Section {
  const items: Val[] = [];
  if (a.mode === 'backing-only') items.push(msgv('cav.backingOnly'));
  for (const k of a.drift.exceeded) {
    const d = a.drift.metrics[k];
    items.push(msgv('cav.drift', { metric: msgv(`drift.${k}` as ReportKey), change: pct(d.changePercent), threshold: pct(a.drift.thresholdPercent, 0) }));
  }
  for (const w of a.warnings) items.push({ k: 'warning', w } as Val);
  const resets = a.perDevice.reduce((s, d) => s + notOkTotal(d.baseline) + notOkTotal(d.measure), 0);
  if (resets > 0 && !a.warnings.some((w) => w.code.startsWith('interval-'))) items.push(msgv('cav.notOk', { n: num(resets, 0) }));
  if (items.length === 0) items.push(msgv('cav.none'));
  const general: Val[] = [msgv('cav.matched'), msgv('cav.util'), msgv('cav.units')];
  if (!a.drift.checked) general.push(msgv('cav.driftUnchecked'));
  if (tco !== null) general.push(msgv('cav.tco'));
  return {
    id: 'caveats', title: m('sec.caveats'),
    blocks: [{ type: 'paragraph', text: m('cav.intro') }, { type: 'notes', tone: 'warning', items }, { type: 'notes', tone: 'info', items: general }],
  };
}

const warmupKey = (s: string): ReportKey => `warmupSource.${s}` as ReportKey;

function method(a: AnalysisReport, c: ReportCapture): Section {
  const w = a.windows;
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('m.baseline'), value: [msgv('m.windowValue', { start: time(w.baseline.start), end: time(w.baseline.end), duration: duration(w.baseline.seconds), source: msgv(`winSource.${w.source.baseline}`) })] },
    { label: m('m.measure'), value: [msgv('m.windowValue', { start: time(w.measure.start), end: time(w.measure.end), duration: duration(w.measure.seconds), source: msgv(`winSource.${w.source.measure}`) })] },
    { label: m('m.switch'), value: [w.switchAt === null ? msgv('unknown') : time(w.switchAt)] },
    { label: m('m.warmup'), value: [msgv('m.warmupValue', { duration: duration(w.warmupExcludedSeconds), source: msgv(warmupKey(w.warmupSource)) })] },
    { label: m('m.trim'), value: [w.trim.firstSeconds === 0 && w.trim.lastSeconds === 0 ? msgv('m.noTrim') : msgv('m.trimValue', { first: duration(w.trim.firstSeconds), last: duration(w.trim.lastSeconds) })] },
    { label: m('m.sampleInterval'), value: [c.sampleIntervalMs === null ? msgv('unknown') : num(c.sampleIntervalMs / 1000, c.sampleIntervalMs % 1000 === 0 ? 0 : 3, 's')] },
    { label: m('m.mode'), value: [msgv(`mode.${a.mode}` as ReportKey)] },
    { label: m('m.appFacing'), value: [msgv(`appFacing.${a.devices.appFacing}` as ReportKey, { devices: list(appDevices(a)) })] },
    { label: m('m.roles'), value: [msgv('m.rolesValue', { front: list(a.devices.front), backing: list(a.devices.backing), cache: list(a.devices.cache), other: list(a.devices.other), spindles: num(a.devices.spindles, 0) })] },
    { label: m('m.targets'), value: [presetVal(a), str(':'), targetsVal(a)] },
    { label: m('m.uncertainty'), value: [msgv('m.uncertaintyValue', { replicates: num(a.uncertainty.replicates, 0), seed: str(String(a.uncertainty.seed)), blockB: duration(a.uncertainty.blockSeconds.baseline), blockM: duration(a.uncertainty.blockSeconds.measure) })] },
    { label: m('m.drift'), value: [a.drift.checked ? msgv('m.driftValue', { threshold: pct(a.drift.thresholdPercent, 0) }) : msgv('m.driftUnchecked')] },
  ];
  const defs: ReportKey[] = ['iosToBacking', 'iosSaved', 'latency', 'latencyReduction', 'speedup', 'normalizedIops', 'iopsPerSpindleShort', 'throughput', 'totalIos', 'cacheServed', 'matchedHours', 'percentiles', 'health', 'util'].map((k) => k as ReportKey);
  return {
    id: 'method', title: m('sec.method'),
    blocks: [
      { type: 'paragraph', text: m('m.intro') },
      { type: 'facts', rows: facts },
      { type: 'table', table: devicesInventory(a, c) },
      { type: 'subheading', text: m('m.definitions') },
      { type: 'facts', rows: defs.map((k) => ({ label: m(`fig.${k}` as ReportKey), value: [msgv(`def.${k}` as ReportKey)] })) },
    ],
  };
}

function appendix(a: AnalysisReport, c: ReportCapture, input: ReportInput): Section {
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('a.hostname'), value: [a.host.hostname === null ? msgv('unknown') : str(a.host.hostname)] },
    { label: m('a.kernel'), value: [a.host.kernel === null ? msgv('unknown') : str(a.host.kernel)] },
    { label: m('a.captureFile'), value: [str(c.fileName)] },
    { label: m('a.sha256'), value: [str(c.sha256)] },
    { label: m('a.size'), value: [c.sizeBytes === null ? msgv('unknown') : num(c.sizeBytes / 1e6, 1, 'mb')] },
    { label: m('a.source'), value: [c.source === null ? msgv('unknown') : str(c.source)] },
    { label: m('a.schema'), value: [c.schemaVersion === null ? msgv('unknown') : num(c.schemaVersion, 0)] },
    { label: m('a.probe'), value: [c.probeVersion === null ? msgv('unknown') : str(c.probeVersion)] },
    { label: m('a.app'), value: [str(input.appVersion)] },
    { label: m('a.generated'), value: [time(input.generatedMs)] },
    { label: m('a.analysisFormat'), value: [msgv('a.analysisFormatValue', { version: num(a.formatVersion, 0), seed: str(String(a.uncertainty.seed)) })] },
  ];
  if (input.tco !== null) facts.push({ label: m('a.scenario'), value: [str(input.tco.scenarioFile)] });
  return { id: 'appendix', title: m('sec.appendix'), blocks: [{ type: 'facts', rows: facts }, { type: 'table', table: hourlyTable(a) }] };
}

/**
 * The report model for one analysis. Charts and tables appear in the sections in reading
 * order; `charts` lists them again for the exporters' checks; `summary` holds the raw figures
 * with their JSON paths (the XLSX/CSV summary).
 */
export function buildReportModel(input: ReportInput): ReportModel {
  const a = input.analysis;
  const c = input.capture;
  const cover = input.cover;
  const iops = timeChart(a, input.series, 'iops');
  const lat = timeChart(a, input.series, 'latencyMs');
  const hourly = hourlyChart(a);
  const dist = distributionChart(a);
  const charts: ChartSpec[] = [iops, lat];
  const results: Block[] = [
    { type: 'table', table: figuresTable(a) },
    { type: 'chart', chart: iops },
    { type: 'chart', chart: lat },
    { type: 'table', table: deviceTable(a) },
    { type: 'subheading', text: m('r.matchedTitle') },
    { type: 'paragraph', text: a.hourly.length === 0 ? m('r.matchedNone') : m('r.matched', {
      hours: str(a.benefit.matchedHours.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ')),
      saved: pct(a.benefit.matchedHours.iosSavedPercent, 1, why(a.benefit.matchedHours.reasons, 'iosSavedPercent')),
      reduction: pct(a.benefit.matchedHours.latencyReductionPercent, 1, why(a.benefit.matchedHours.reasons, 'latencyReductionPercent')),
    }) },
  ];
  if (a.hourly.length > 0) {
    results.push({ type: 'chart', chart: hourly });
    charts.push(hourly);
  }
  results.push({ type: 'subheading', text: m('r.distributionTitle') }, { type: 'table', table: distributionTable(a) });
  if (a.latencyDistribution.baseline !== null || a.latencyDistribution.measure !== null) {
    results.push({ type: 'chart', chart: dist });
    charts.push(dist);
  }
  results.push({ type: 'subheading', text: m('r.healthTitle') }, { type: 'table', table: healthTable(a) });

  const sections: Section[] = [
    { id: 'summary', title: m('sec.summary'), blocks: [
      { type: 'paragraph', text: m('sum.intro', { server: str(cover.server ?? a.host.hostname ?? '—'), baseline: duration(a.windows.baseline.seconds), measure: duration(a.windows.measure.seconds) }) },
      { type: 'paragraph', text: m(`mode.${a.mode}` as ReportKey) },
      { type: 'sentences', items: summarySentences(a, input.tco) },
      { type: 'cards', cards: cards(a) },
    ] },
    method(a, c),
    { id: 'results', title: m('sec.results'), blocks: results },
  ];
  const summary = summaryRows(a);
  if (input.tco !== null) {
    const t = tcoSection(input.tco);
    sections.push(t.section);
    charts.push(...t.charts);
    summary.push(...t.summary);
  }
  sections.push(caveats(a, input.tco), appendix(a, c, input));

  const preparedMs = cover.preparedMs ?? input.generatedMs;
  const title: Val = cover.title !== undefined && cover.title.trim() !== '' ? str(cover.title) : msgv('cover.defaultTitle');
  const rows: { label: Msg; value: Val[] }[] = [
    { label: m('cover.customer'), value: [cover.customer !== undefined && cover.customer !== '' ? str(cover.customer) : msgv('cover.notGiven')] },
    { label: m('cover.server'), value: [str(cover.server !== undefined && cover.server !== '' ? cover.server : (a.host.hostname ?? '—'))] },
    { label: m('cover.author'), value: [cover.author !== undefined && cover.author !== '' ? str(cover.author) : msgv('cover.notGiven')] },
    { label: m('cover.prepared'), value: [time(preparedMs, 'date')] },
    { label: m('cover.baseline'), value: [msgv('cover.range', { start: time(a.windows.baseline.start), end: time(a.windows.baseline.end) })] },
    { label: m('cover.measure'), value: [msgv('cover.range', { start: time(a.windows.measure.start), end: time(a.windows.measure.end) })] },
    { label: m('cover.capture'), value: [str(c.fileName)] },
    { label: m('cover.version'), value: [msgv('cover.versionValue', { app: str(input.appVersion), probe: c.probeVersion === null ? msgv('unknown') : str(c.probeVersion) })] },
  ];
  const footerParts = [cover.customer, cover.title].filter((s): s is string => s !== undefined && s.trim() !== '');
  const intervalDevices = a.perDevice.map((d) => ({ device: d.device, role: d.role as string }));
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    generatedMs: input.generatedMs,
    cover: { title, subtitle: m('cover.subtitle'), rows },
    footer: footerParts.length > 0 ? str(footerParts.join(' · ')) : msgv('cover.defaultTitle'),
    sections,
    summary,
    charts,
    intervalDevices,
  };
}

/** Warnings in the model's caveats (for tests and the CLI). */
export function reportWarnings(model: ReportModel): AnalysisWarning[] {
  const out: AnalysisWarning[] = [];
  for (const s of model.sections) for (const b of s.blocks) if (b.type === 'notes') for (const v of b.items) if (v.k === 'warning') out.push(v.w);
  return out;
}
