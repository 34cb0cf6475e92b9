import type { Series } from '../metrics/series.ts';
import { columnsFromRecords } from '../records/columns.ts';
import type { ColumnSource } from '../records/source.ts';
import { memorySource } from '../records/source.ts';
import type { NullReason, Reasons, WindowSummary } from '../metrics/summary.ts';
import { summarizeSeries } from '../metrics/summary.ts';
import type { CaptureData, DeviceRole } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import type { WindowAggregates } from './aggregate.ts';
import { aggregateWindow } from './aggregate.ts';
import { blockBootstrap } from './bootstrap.ts';
import { DEFAULT_DRIFT_THRESHOLD_PERCENT } from './drift.ts';
import type { AnalyzeFailure } from './errors.ts';
import { fail } from './errors.ts';
import type { AnalysisMode, Figure } from './figures.ts';
import { averageLatencyMs, cacheServedPercent, comparedBackingRates, iosSavedPercent, ioTimeSaved, latencyReductionPercent, normalizedIops, speedup } from './figures.ts';
import { measuredIoTime } from './io-time.ts';
import { layersOf } from './layers.ts';
import { fig, hourlyFigures, workDone, workloadDrift } from './window-figures.ts';
import type { HealthWindow, LatencyTargets } from './health.ts';
import { gradeHealth, resolveTargets } from './health.ts';
import type { AnalysisReport, AnalysisWarning, AnalyzeOptions, DeviceWindows, GroupWindows, WorkDone } from './result.ts';
import type { ResolvedWindows } from './windows.ts';
import { resolveWindows } from './windows.ts';
import type { RoleOverride } from './devices.ts';
import { resolveDevices } from './devices.ts';
import { cacheEngineSection } from './engine-stats.ts';
import { predictionBesideBenefit } from './stored-prediction.ts';
import { traceLatencySection } from './trace-latency.ts';
import { readWriteQueueSection, requestSizesSection } from './workload-shape.ts';
import type { AnalyzeHooks, DevicePass, GroupDigest } from './device-pass.ts';
import { devicePass } from './device-pass.ts';
import { withoutNegativeZero } from '../metrics/finite.ts';
import { analysisWarnings, windowSeconds } from './analysis-warnings.ts';
import { perWork } from './per-work.ts';
import { intervalRateWarnings, traceSpanWarnings } from './plausibility.ts';

/** What {@link analyze} returns: the report, or an expected failure as a value. */
export type AnalysisResult = AnalysisReport | AnalyzeFailure;

/** Default bootstrap seed. */
export const DEFAULT_SEED = 20240601;
/** Default bootstrap replicates. */
export const DEFAULT_REPLICATES = 2000;
export { LOW_COVERAGE_PERCENT, SHORT_WINDOW_MS, UNEQUAL_WINDOWS_PERCENT } from './analysis-warnings.ts';

type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

export type { AnalyzeHooks, DeviceSummaries, SummariesElsewhere } from './device-pass.ts';
export { deviceWindowSummaries, sourceWindowSummaries } from './device-pass.ts';

/** The devices of an analysis and their roles (step 1). */
export interface AnalysisDevices {
  roles: Map<string, DeviceRole>;
  /** Devices with intervals. */
  present: Set<string>;
  front: string[];
  backing: string[];
  cache: string[];
  other: string[];
  chosen: Set<string>;
  overridden: readonly RoleOverride[];
  mode: AnalysisMode;
  appFacing: string[];
  spindles: number;
}

/** Step 1: the front, backing, cache and other devices, the mode and the spindle count. */
function analysisDevices(data: CaptureData, source: ColumnSource, options: AnalyzeOptions): AnalysisDevices | AnalyzeFailure {
  const present = new Set<string>();
  for (const d of source.devices) if (d.n > 0) present.add(d.device);
  const roles = new Map<string, DeviceRole>();
  for (const d of data.devices) roles.set(d.name, d.role);
  for (const name of present) if (!roles.has(name)) roles.set(name, 'other');
  const resolved = resolveDevices(roles, options);
  if (!resolved.ok) return resolved;
  const { front, backing, overridden } = resolved;
  if (backing.length === 0) {
    return fail('no-devices', 'The capture has no backing device; name the backing devices explicitly.');
  }
  const chosen = new Set([...front, ...backing]);
  const cache = [...roles.entries()].filter(([n, r]) => r === 'cache' && !chosen.has(n)).map(([n]) => n);
  const other = [...roles.keys()].filter((n) => !chosen.has(n) && !cache.includes(n));
  const mode: AnalysisMode = front.length > 0 ? 'front-and-backing' : 'backing-only';
  const appFacing = mode === 'front-and-backing' ? front : backing;
  const spindles = options.spindles ?? backing.length;
  if (!(spindles > 0)) return fail('invalid-option', 'The spindle count must be a positive number.');
  return { roles, present, front, backing, cache, other, chosen, overridden, mode, appFacing, spindles };
}

/** Step 2: the windows, and the bootstrap, drift and health parameters. */
function analysisWindows(data: CaptureData, source: ColumnSource, options: AnalyzeOptions):
  { win: ResolvedWindows; seed: number; replicates: number; threshold: number; targetsIn: NonNullable<AnalyzeOptions['targets']>; targets: LatencyTargets } | AnalyzeFailure {
  let dataEnd = -Infinity;
  for (const d of source.devices) if (d.n > 0 && d.maxEndMs > dataEnd) dataEnd = d.maxEndMs;
  const win = resolveWindows(data.phases, options, dataEnd);
  if ('ok' in win) return win;
  const seed = options.seed ?? DEFAULT_SEED;
  const replicates = Math.max(1, Math.floor(options.bootstrapReplicates ?? DEFAULT_REPLICATES));
  const threshold = options.driftThresholdPercent ?? DEFAULT_DRIFT_THRESHOLD_PERCENT;
  const targetsIn = options.targets ?? 'generic';
  const targets: LatencyTargets | null = resolveTargets(targetsIn);
  if (targets === null) return fail('invalid-option', `Unknown latency target preset "${String(targetsIn)}".`);
  return { win, seed, replicates, threshold, targetsIn, targets };
}

/**
 * What the analysis keeps of a window's front and backing series, made as soon as the pass
 * completes them (the series are then dropped): whether they are empty, the window aggregates
 * (step 4: totals, bootstrap blocks, hours of the day), the groups' summaries, and the
 * application-facing group's health and rate warnings (steps 9 and 10).
 */
interface WindowDigest {
  empty: boolean;
  agg: WindowAggregates;
  front: WindowSummary | null;
  backing: WindowSummary;
  health: HealthWindow;
  rateWarnings: AnalysisWarning[];
}

/** The digest of a window's series ({@link WindowDigest}), for the pass. */
function windowDigest(dev: AnalysisDevices, wins: Record<Win, TimeWindow>, targets: LatencyTargets, options: AnalyzeOptions): GroupDigest<WindowDigest> {
  return (k, front, backing) => {
    const app = dev.mode === 'front-and-backing' ? front as Series : backing;
    return {
      empty: (front?.n ?? 0) === 0 && backing.n === 0,
      agg: aggregateWindow(front, backing, wins[k]),
      front: front === null ? null : summarizeSeries(front),
      backing: summarizeSeries(backing),
      health: gradeHealth(app, targets),
      rateWarnings: intervalRateWarnings(app, dev.appFacing, options.rateLimit),
    };
  };
}

type Pass = DevicePass<WindowDigest>;

/** Step 5: the point figures. */
function pointFigures(dev: AnalysisDevices, pass: Pass, agg: Record<Win, WindowAggregates>) {
  const { mode, backing, spindles } = dev;
  const tb = agg.baseline.total, tm = agg.measure.total;
  const summaryOf = new Map(pass.perDevice.map((d) => [d.device, d]));
  const ioR: Reasons = {};
  const backingSums = (k: Win): WindowSummary[] => backing.map((n) => (summaryOf.get(n) as DeviceWindows)[k]);
  const exTotal = (ss: WindowSummary[], key: string): number | null => {
    if (ss.every((x) => x.okIntervals === 0)) { ioR[key] = 'no-data'; return null; }
    return ss.reduce((sum, x) => sum + (x.totals.ios ?? 0), 0);
  };
  const exRate = (ss: WindowSummary[], key: string): number | null => {
    if (ss.some((x) => x.okIntervals === 0)) { ioR[key] = 'no-data'; return null; }
    return ss.reduce((sum, x) => sum + (x.totals.ios ?? 0) / x.okSeconds, 0);
  };
  const exB = backingSums('baseline'), exM = backingSums('measure');
  const iosToBacking = {
    before: exTotal(exB, 'before'), after: exTotal(exM, 'after'),
    beforePerSecond: exRate(exB, 'beforePerSecond'), afterPerSecond: exRate(exM, 'afterPerSecond'),
    reasons: ioR,
  };
  const savedFig = iosSavedPercent(mode, tb, tm);
  const latB = averageLatencyMs(mode, tb), latA = averageLatencyMs(mode, tm);
  const redFig = latencyReductionPercent(latB, latA), spFig = speedup(latB, latA);

  const nR: Reasons = {};
  const normalized = { before: fig(normalizedIops(latB), 'before', nR), after: fig(normalizedIops(latA), 'after', nR), reasons: nR };
  const workB = workDone(mode, tb), workA = workDone(mode, tm);
  const perSec = (w: WorkDone, key: string, reasons: Reasons, scale: (x: number) => number, pick: 'ios' | 'bytes'): number | null => {
    const v = w[pick];
    if (v === null || !(w.seconds > 0)) { reasons[key] = 'no-data'; return null; }
    return scale(v / w.seconds);
  };
  const aR: Reasons = {};
  const deliveredIops = { before: perSec(workB, 'before', aR, (x) => x, 'ios'), after: perSec(workA, 'after', aR, (x) => x, 'ios'), reasons: aR };
  const dR: Reasons = {};
  const delivered = {
    before: perSec(workB, 'before', dR, (x) => x / spindles, 'ios'),
    after: perSec(workA, 'after', dR, (x) => x / spindles, 'ios'),
    spindles,
    reasons: dR,
  };
  const tR: Reasons = {};
  const throughput = {
    before: perSec(workB, 'before', tR, (x) => x / 1e6, 'bytes'),
    after: perSec(workA, 'after', tR, (x) => x / 1e6, 'bytes'),
    reasons: tR,
  };
  const cR: Reasons = {};
  const served = mode === 'front-and-backing'
    ? { reads: fig(cacheServedPercent(tm, 'reads'), 'reads', cR), writes: fig(cacheServedPercent(tm, 'writes'), 'writes', cR), reasons: cR }
    : { reads: null, writes: null, reasons: { reads: 'backing-only-mode', writes: 'backing-only-mode' } as Reasons };
  const servedAll = mode === 'front-and-backing' ? cacheServedPercent(tm, 'all').value : null;
  return { iosToBacking, savedFig, latB, latA, redFig, spFig, normalized, workB, workA, deliveredIops, delivered, throughput, served, servedAll };
}
export type PointFigures = ReturnType<typeof pointFigures>;

/** Step 6: the 95% intervals (block bootstrap) of I/Os saved, latency reduction and speed-up. */
function uncertainty(mode: AnalysisMode, agg: Record<Win, WindowAggregates>, p: PointFigures, replicates: number, seed: number) {
  const { savedFig, latB, latA, redFig, spFig } = p;
  const savedR: Reasons = {};
  const latR: Reasons = {};
  const enoughBlocks = agg.baseline.blocks.length >= 2 && agg.measure.blocks.length >= 2;
  const boot = enoughBlocks
    ? blockBootstrap(
        agg.baseline.blocks, agg.measure.blocks,
        [
          (b, m) => iosSavedPercent(mode, b, m).value,
          (b, m) => latencyReductionPercent(averageLatencyMs(mode, b), averageLatencyMs(mode, m)).value,
          (b, m) => speedup(averageLatencyMs(mode, b), averageLatencyMs(mode, m)).value,
        ],
        [savedFig.value, redFig.value, spFig.value], replicates, seed)
    : null;
  const ciOf = (i: number, point: Figure, key: string, reasons: Reasons) => {
    const ci = boot?.intervals[i] ?? null;
    if (ci === null) reasons[key] = point.value === null ? point.reason : 'too-few-blocks';
    return ci;
  };
  const iosSaved = {
    value: fig(savedFig, 'value', savedR),
    ci95: ciOf(0, savedFig, 'ci95', savedR),
    method: mode === 'front-and-backing' ? 'backing-per-front-io' as const : 'backing-per-second' as const,
    reasons: savedR,
  };
  const latencyMs = {
    before: fig(latB, 'before', latR),
    after: fig(latA, 'after', latR),
    reductionPercent: fig(redFig, 'reductionPercent', latR),
    reductionPercentCi95: ciOf(1, redFig, 'reductionPercentCi95', latR),
    speedup: fig(spFig, 'speedup', latR),
    speedupCi95: ciOf(2, spFig, 'speedupCi95', latR),
    reasons: latR,
  };
  return { iosSaved, latencyMs };
}

/** Step 9: group summaries, the latency distribution of the application-facing group, and health against the targets (from the windows' digests). */
function groupsAndHealth(dev: AnalysisDevices, pass: Pass, targetsIn: NonNullable<AnalyzeOptions['targets']>, targets: LatencyTargets) {
  const { front, backing, mode, appFacing } = dev;
  const w = pass.windows;
  const gR: Reasons = {};
  if (front.length === 0) gR.front = 'backing-only-mode';
  const groups = {
    front: front.length > 0 ? { devices: front, baseline: w.baseline.front as WindowSummary, measure: w.measure.front as WindowSummary } : null,
    backing: { devices: backing, baseline: w.baseline.backing, measure: w.measure.backing } as GroupWindows,
    reasons: gR,
  };
  const appGroup = mode === 'front-and-backing' ? groups.front as GroupWindows : groups.backing;
  const ldR: Reasons = {};
  const ld = {
    devices: appFacing,
    method: 'type-7 percentiles of per-interval await' as const,
    baseline: appGroup.baseline.percentiles.awaitMs,
    measure: appGroup.measure.percentiles.awaitMs,
    reasons: ldR,
  };
  if (ld.baseline === null) ldR.baseline = appGroup.baseline.percentiles.reasons.awaitMs ?? 'no-data';
  if (ld.measure === null) ldR.measure = appGroup.measure.percentiles.reasons.awaitMs ?? 'no-data';
  const health = {
    preset: typeof targetsIn === 'string' ? targetsIn : 'custom',
    targets,
    devices: appFacing,
    baseline: w.baseline.health,
    measure: w.measure.health,
  };
  return { groups, ld, health };
}

/** The capture's intervals as a source: the host's one-device-at-a-time source, else the columns or records in memory. */
function sourceOf(data: CaptureData): ColumnSource {
  return data.source ?? memorySource(data.columns ?? columnsFromRecords(data.intervals));
}

/**
 * Analyzes a capture: the before/after benefit of a cache, with uncertainty, drift, health,
 * matched hours, per-device and per-group summaries. Pure and deterministic: the same data
 * and options (seed included) give the same object. The result, JSON-serialized, is the
 * `cacheproof analyze --json` object (docs/analyze-json.md); expected bad requests come back
 * as `{ ok: false, error: { code, message } }` (codes in errors.ts), never thrown.
 *
 * Mode: `front-and-backing` when front and backing devices are known (exact attribution: I/Os
 * saved = backing I/Os per front I/O, after vs before), `backing-only` when only backing
 * devices are (per-second rates compared, with a standing warning that the workload may have
 * changed). Linear in the number of records, plus one merge join per extra group member and an
 * O(replicates × blocks) bootstrap. The steps, each a function of this module: devices (1),
 * windows (2), one pass over the devices (3: each device loaded once from `data.source` when
 * there is one, summarized, joined into its group's series, handed to `hooks.onDevice`, and
 * dropped; each window's groups digested as soon as they are joined: aggregates (4), group
 * summaries, health and rate warnings), point figures (5), uncertainty (6), hourly (7), drift
 * (8), groups and health (9), warnings (10). Memory, with a source: one device's intervals plus
 * the front and backing groups' per-slot values in the two windows; with a source that reads a
 * device by window (`loadRange`, the capture's interval blocks) and no `onDevice` hook, one
 * device's intervals of one window plus the groups' slots in one window (the in-memory columns
 * otherwise).
 *
 * @example
 * const r = analyze(capture, { seed: 1 });
 * if (r.ok) console.log(r.benefit.iosSavedPercent.value, r.benefit.iosSavedPercent.ci95);
 * // 94.2 { low: 93.1, high: 95.0 }
 */
function analyzeRaw(data: CaptureData, options: AnalyzeOptions = {}, hooks: AnalyzeHooks = {}): AnalysisResult {
  const source = sourceOf(data);
  if (source.devices.every((d) => d.n === 0)) return fail('window-outside-data', 'The capture holds no intervals.');
  const dev = analysisDevices(data, source, options);
  if ('ok' in dev) return dev;
  const params = analysisWindows(data, source, options);
  if ('ok' in params) return params;
  const { win, seed, replicates, threshold, targetsIn, targets } = params;
  const wins = { baseline: win.baseline, measure: win.measure } as const;

  hooks.beforePass?.({ front: dev.front, backing: dev.backing });
  const pass = devicePass(source, dev, wins, hooks, windowDigest(dev, wins, targets, options));
  for (const k of WINS) {
    if (pass.windows[k].empty) {
      return fail('window-outside-data', `The ${k} window (${isoUtc(wins[k].startMs)} to ${isoUtc(wins[k].endMs)}) holds no interval of the analyzed devices.`);
    }
  }
  const agg = { baseline: pass.windows.baseline.agg, measure: pass.windows.measure.agg };
  const p = pointFigures(dev, pass, agg);
  const { iosSaved, latencyMs } = uncertainty(dev.mode, agg, p, replicates, seed);
  const { hourly, matchedHours } = hourlyFigures(dev.mode, agg);
  const drift = workloadDrift(dev.mode, agg, threshold);
  const { groups, ld, health } = groupsAndHealth(dev, pass, targetsIn, targets);
  const cacheEngine = cacheEngineSection(data.engine, wins.measure, { reads: p.served.reads, writes: p.served.writes, all: p.servedAll });
  const warnings = analysisWarnings(data, dev, wins, pass, drift, threshold, iosSaved.value, p.served, cacheEngine.comparison);
  warnings.push(...rateAndTraceWarnings(data, dev, pass, wins, options));
  const { mode, front, backing } = dev;
  const benefit = benefitSection(data, mode, wins, agg, p, { iosSaved, latencyMs, matchedHours, groups });
  return {
    ok: true,
    formatVersion: 1,
    mode,
    host: { hostname: data.host.hostname, kernel: data.host.kernel },
    windows: windowsSection(win, wins),
    devices: { front, backing, cache: dev.cache, other: dev.other, appFacing: mode === 'front-and-backing' ? 'front' : 'backing', spindles: dev.spindles },
    benefit,
    uncertainty: {
      method: 'block-bootstrap-percentile',
      prng: 'mulberry32',
      seed,
      replicates,
      blockSeconds: { baseline: agg.baseline.blockMs / 1000, measure: agg.measure.blockMs / 1000 },
      blocks: { baseline: agg.baseline.blocks.length, measure: agg.measure.blocks.length },
    },
    latencyDistribution: ld,
    readWriteQueue: readWriteQueueSection(groups, wins),
    requestSizes: requestSizesSection(dev, pass.sizes, wins, data.traceSizes),
    drift,
    health,
    hourly,
    groups,
    perDevice: pass.perDevice,
    cacheEngine,
    prediction: predictionBesideBenefit(data.prediction, mode, benefit),
    traceLatency: traceLatencySection(data.traceLatency),
    layers: layersOf(data.stack, front, backing, mode),
    warnings,
  };
}

/** Warnings about the application-facing devices' rates: intervals faster than the rate limit (each window's digest), and a trace whose issue times collapsed (read in the wrong unit), in either window, as the profile checks it. */
function rateAndTraceWarnings(data: CaptureData, dev: AnalysisDevices, pass: Pass, wins: Record<Win, TimeWindow>, options: AnalyzeOptions): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  for (const k of WINS) warnings.push(...pass.windows[k].rateWarnings);
  const trace = data.traceSizes ?? null;
  if (trace?.span !== undefined) {
    for (const k of WINS) for (const d of dev.appFacing) warnings.push(...traceSpanWarnings(d, trace.span(d, wins[k].startMs, wins[k].endMs), trace.sampleRate, options.rateLimit));
  }
  return warnings;
}

/** The report's `windows`: both windows in UTC with their lengths, the switch, warm-up and trim. */
function windowsSection(win: ResolvedWindows, wins: Record<Win, TimeWindow>): AnalysisReport['windows'] {
  const { bSec, mSec } = windowSeconds(wins);
  const winR: Reasons = {};
  if (win.switchMs === null) winR.switchAt = 'no-data' satisfies NullReason;
  return {
    baseline: { start: isoUtc(wins.baseline.startMs), end: isoUtc(wins.baseline.endMs), seconds: bSec },
    measure: { start: isoUtc(wins.measure.startMs), end: isoUtc(wins.measure.endMs), seconds: mSec },
    switchAt: win.switchMs === null ? null : isoUtc(win.switchMs),
    warmupExcludedSeconds: win.warmupMs / 1000,
    warmupSource: win.warmupSource,
    trim: { firstSeconds: win.trimFirstMs / 1000, lastSeconds: win.trimLastMs / 1000 },
    source: win.source,
    reasons: winR,
  };
}

/** The report's `benefit`: the point figures with their intervals, the matched hours, and the I/O time and per-work figures. */
function benefitSection(data: CaptureData, mode: AnalysisMode, wins: Record<Win, TimeWindow>, agg: Record<Win, WindowAggregates>, p: PointFigures,
  u: ReturnType<typeof uncertainty> & { matchedHours: AnalysisReport['benefit']['matchedHours']; groups: ReturnType<typeof groupsAndHealth>['groups'] }): AnalysisReport['benefit'] {
  const { mSec } = windowSeconds(wins);
  return {
    iosToBacking: p.iosToBacking,
    iosSavedPercent: u.iosSaved,
    latencyMs: u.latencyMs,
    normalizedIops: p.normalized,
    deliveredIops: p.deliveredIops,
    deliveredIopsPerSpindle: p.delivered,
    throughputMBps: p.throughput,
    totalWork: { before: p.workB, after: p.workA },
    cacheServedPercent: p.served,
    matchedHours: u.matchedHours,
    // from the I/Os saved comparison itself (its rates): the two never disagree in sign
    ioTimeSaved: ioTimeSaved(...comparedBackingRates(mode, agg.baseline.total, agg.measure.total), u.groups.backing.baseline.means.awaitMs, mSec),
    // what the counters measured: the summed I/O time per hour in each window (the headline; the line above is its model)
    ioTimeMeasured: measuredIoTime(agg.baseline.total, agg.measure.total),
    perWork: perWork(data.work, wins, agg.baseline.total, agg.measure.total),
  };
}

/** analyze's result with no `-0` in any figure (metrics/finite.ts); see analyzeRaw above for the method. */
export function analyze(data: CaptureData, options: AnalyzeOptions = {}, hooks: AnalyzeHooks = {}): AnalysisResult {
  return withoutNegativeZero(analyzeRaw(data, options, hooks));
}
