/**
 * The baseline alone, as a workload profile: what the application asked of its disks in one
 * window, with no before/after. For a run stopped before the cache was switched on (the
 * capture has a baseline but no measure window), where {@link analyze} has nothing to compare.
 */
import { CRITICAL_RUN_MS, timeSlices, type TimeSlices } from './time-slices.ts';
import { buildSeriesFromColumns } from '../metrics/series.ts';
import type { WindowSummary } from '../metrics/summary.ts';
import { summarizeSeries } from '../metrics/summary.ts';
import type { DeviceColumns } from '../records/columns.ts';
import { allocColumns, columnsFromRecords } from '../records/columns.ts';
import type { CaptureData, DeviceRole } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import { resolveDevices, type RoleOverride } from './devices.ts';
import type { AnalyzeFailure } from './errors.ts';
import { fail } from './errors.ts';
import type { AnalysisMode } from './figures.ts';
import type { AnalysisWarning, AnalyzeOptions } from './result.ts';
import type { HealthWindow, LatencyTargets } from './health.ts';
import { gradeHealth, resolveTargets } from './health.ts';
import { withoutNegativeZero } from '../metrics/finite.ts';
import type { CapacityProfile } from './capacity.ts';
import { volumeCapacity } from './capacity.ts';
import type { HourlyProfile } from './hours.ts';
import { hourlyProfile } from './hours.ts';
import type { PredictionSection } from './prediction.ts';
import { measuredFigure, predictionReport } from './prediction.ts';
import type { RateLimit } from './plausibility.ts';
import { busiestHourWarnings, capacityWarnings, edgePeakWarnings, intervalRateWarnings, predictionWarnings, spanWarnings, traceSpanWarnings } from './plausibility.ts';
import type { Series } from '../metrics/series.ts';
import { upperLayerOf, type UpperLayer } from './upper-layer.ts';
import { dailyProfile, type DayProfile } from './days.ts';

export interface WorkloadProfile {
  ok: true;
  kind: 'workload-profile';
  /** The profiled window: the `baseline` option, else the capture's baseline phase (to the last interval when it has no end), else the whole capture. */
  window: { start: string; end: string; startMs: number; endMs: number; seconds: number; source: 'option' | 'baseline-phase' | 'whole-capture' };
  /** `front-and-backing` when a front device is known (the application-facing group is the front), else `backing-only`; `front-only` when there is no backing device. */
  mode: AnalysisMode | 'front-only';
  devices: { front: string[]; backing: string[]; appFacing: 'front' | 'backing' };
  /** The application-facing group (front, else backing) over the window: summed per interval (docs/metrics.md, window summaries). */
  appFacing: WindowSummary;
  /** The backing group over the window, or null when there is no backing device. */
  backing: WindowSummary | null;
  perDevice: { device: string; role: DeviceRole; summary: WindowSummary }[];
  /** The volumes the capture stacks on the counted devices (upper-layer.ts): what the applications saw, shown beside the disks, never added to them; null when none. */
  upperLayer: UpperLayer | null;
  /** Role overrides (`front-named-backing`, `backing-named-front`), as in the analysis, then the plausibility checks (plausibility.ts: a window under 24 h, growth fitted over under 24 h, a prediction from few requests, rates no device reaches, a partial busiest hour, a peak at the range's end). */
  warnings: AnalysisWarning[];
  /**
   * The application-facing group over the window graded against the latency targets, as the analysis
   * grades each window (docs/metrics.md § Health); `gradeRule` `sustained-critical` when a critical
   * run of time slices of {@link CRITICAL_RUN_MS} or more made the grade `bad` (time-slices.ts).
   */
  health: { preset: string; targets: LatencyTargets; devices: string[]; window: HealthWindow; gradeRule: 'averages' | 'sustained-critical' };
  /** PAL-style time slices of each counted device's read and write response time, with the alerts list (time-slices.ts). */
  slices: TimeSlices;
  /** How full each volume is and how fast it fills, over the whole log (not only the window): `inLog: false` when the log carries no capacity (docs/metrics.md § Capacity). */
  capacity: CapacityProfile;
  /** The application-facing group's IOPS per clock hour (UTC) and day over the window, and the busiest hour (hours.ts). */
  hours: HourlyProfile;
  /** The application-facing group per UTC calendar day of the window: mean, p95 and peak of IOPS, MB/s and response time, with each peak's time (days.ts). */
  days: DayProfile[];
  /**
   * The probe's prediction stored in the capture (`meta.prediction`: an imported block trace's, or a
   * run's made from its baseline), as the analysis carries it, with no measured figure beside it
   * (reason `no-data`: the profile has no window with the cache on); null with `not-reported` without one.
   */
  prediction: PredictionSection;
}

/** What {@link profileWorkload} profiles: the devices, the window and the latency targets. */
export interface ProfileOptions {
  front?: string | readonly string[] | undefined; backing?: readonly string[] | undefined; baseline?: TimeWindow | undefined;
  /** Latency targets: a preset name (default `generic`) or the targets themselves, as {@link analyze} takes them. */
  targets?: AnalyzeOptions['targets'];
  /** The rate no device reaches (plan/fastest.ts `catalogRateLimit` of the drive catalog); without it rates are not checked. */
  rateLimit?: RateLimit | undefined;
}

/** The profile's plausibility warnings (plausibility.ts), in the order docs/metrics.md § Warnings lists them. */
function plausibility(data: CaptureData, window: TimeWindow, app: { names: readonly string[]; series: Series }, devices: readonly string[], parts: { capacity: CapacityProfile; hours: HourlyProfile }, limit: RateLimit | undefined): AnalysisWarning[] {
  const trace = data.traceSizes ?? null;
  const spans = trace === null || trace.span === undefined ? [] : devices.flatMap((d) => traceSpanWarnings(d, trace.span?.(d, window.startMs, window.endMs) ?? null, trace.sampleRate, limit));
  return [
    ...spanWarnings(window.endMs - window.startMs),
    ...busiestHourWarnings(parts.hours),
    ...edgePeakWarnings(app.series, isoUtc),
    ...capacityWarnings(parts.capacity),
    ...predictionWarnings(data.prediction),
    ...intervalRateWarnings(app.series, app.names, limit),
    ...spans,
  ];
}

/**
 * Profiles one window of a capture (the baseline by default): per-group and per-device window
 * summaries (totals, ratio-of-sums means, type-7 percentiles: `summarizeSeries`), with the same
 * device roles as {@link analyze} (`resolveDevices`). Needs no measure window. Pure.
 *
 * @example
 * const p = profileWorkload(capture); // a capture stopped during its baseline
 * if (p.ok) console.log(p.appFacing.means.iops, p.appFacing.percentiles.iops?.p95, p.window.seconds);
 */
function profileWorkloadRaw(data: CaptureData, options: ProfileOptions = {}): WorkloadProfile | AnalyzeFailure {
  const targetsIn = options.targets ?? 'generic';
  const targets = resolveTargets(targetsIn);
  if (targets === null) return fail('invalid-option', `Unknown latency target preset "${String(targetsIn)}".`);
  const columns: readonly DeviceColumns[] = data.columns ?? columnsFromRecords(data.intervals);
  if (columns.every((c) => c.n === 0)) return fail('window-outside-data', 'The capture holds no intervals.');
  const byDevice = new Map<string, DeviceColumns>();
  for (const c of columns) if (c.n > 0) byDevice.set(c.device, c);
  const roles = new Map<string, DeviceRole>();
  for (const d of data.devices) roles.set(d.name, d.role);
  for (const name of byDevice.keys()) if (!roles.has(name)) roles.set(name, 'other');
  const resolved = resolveDevices(roles, options);
  if (!resolved.ok) return resolved;
  const { front, backing, overridden } = resolved;
  if (front.length === 0 && backing.length === 0) {
    return fail('no-devices', 'The capture has no front or backing device; name the devices to profile explicitly.');
  }
  const chosen = profileWindow(data, byDevice, options);
  if ('ok' in chosen) return chosen;
  const { window, source } = chosen;

  const listOf = (names: readonly string[]): DeviceColumns[] => names.map((n) => byDevice.get(n) ?? allocColumns(n, 0));
  const summary = (names: readonly string[]): WindowSummary => summarizeSeries(buildSeriesFromColumns(listOf(names), window));
  const appNames = front.length > 0 ? front : backing;
  const appSeries = buildSeriesFromColumns(listOf(appNames), window);
  const app = summarizeSeries(appSeries);
  if (app.okIntervals === 0) {
    const other = appNames === front ? backing : [];
    return fail('window-outside-data', `The baseline window (${isoUtc(window.startMs)} to ${isoUtc(window.endMs)}) holds no interval of ${appNames.join(', ')} with both reads and writes counted${other.length > 0 ? `; to profile ${other.join(', ')} instead, give no front device (--front '', or the backing role in the import preview)` : ''}.`);
  }
  // each counted device alone, sliced (time-slices.ts): a sustained critical run the averages hide
  const slices = timeSlices([...front, ...backing].map((d) => [d, buildSeriesFromColumns(listOf([d]), window)] as const), window, targets);
  const warnings = overrideWarnings(overridden);
  const capacity = volumeCapacity(data.volumes);
  const hours = hourlyProfile(appSeries);
  warnings.push(...plausibility(data, window, { names: appNames, series: appSeries }, [...front, ...backing], { capacity, hours }, options.rateLimit));
  return {
    ok: true,
    kind: 'workload-profile',
    window: { start: isoUtc(window.startMs), end: isoUtc(window.endMs), startMs: window.startMs, endMs: window.endMs, seconds: (window.endMs - window.startMs) / 1000, source },
    mode: front.length === 0 ? 'backing-only' : backing.length === 0 ? 'front-only' : 'front-and-backing',
    devices: { front, backing, appFacing: front.length > 0 ? 'front' : 'backing' },
    appFacing: app,
    backing: backing.length === 0 ? null : front.length === 0 ? app : summary(backing),
    perDevice: [...front, ...backing].map((device) => ({ device, role: roles.get(device) ?? 'other', summary: summary([device]) })),
    upperLayer: upperLayerOf(data.stack, new Set([...front, ...backing]), (d) => summary([d])),
    warnings,
    health: healthOf(typeof targetsIn === 'string' ? targetsIn : 'custom', targets, appNames, gradeHealth(appSeries, targets), slices),
    slices,
    capacity,
    hours,
    days: dailyProfile(appSeries, window),
    prediction: noPrediction(data, front.length === 0 ? 'backing-only' : 'front-and-backing'),
  };
}

/** The profiled window: the `--baseline` option, else the capture's baseline phase, else the whole capture (from its devices' intervals). */
function profileWindow(data: CaptureData, byDevice: ReadonlyMap<string, DeviceColumns>, options: ProfileOptions):
  { window: TimeWindow; source: WorkloadProfile['window']['source'] } | AnalyzeFailure {
  let dataStart = Infinity, dataEnd = -Infinity;
  for (const c of byDevice.values()) {
    for (let i = 0; i < c.n; i++) {
      if ((c.startMs[i] as number) < dataStart) dataStart = c.startMs[i] as number;
      if ((c.endMs[i] as number) > dataEnd) dataEnd = c.endMs[i] as number;
    }
  }
  const phase = data.phases.find((p) => p.name === 'baseline');
  let window: TimeWindow;
  let source: WorkloadProfile['window']['source'];
  if (options.baseline !== undefined) {
    if (!(Number.isFinite(options.baseline.startMs) && Number.isFinite(options.baseline.endMs))) return fail('invalid-option', 'The baseline window is not finite.');
    window = options.baseline;
    source = 'option';
  } else if (phase !== undefined) {
    window = { startMs: phase.startMs, endMs: phase.endMs ?? dataEnd };
    source = 'baseline-phase';
  } else {
    window = { startMs: dataStart, endMs: dataEnd };
    source = 'whole-capture';
  }
  if (!(window.endMs > window.startMs)) return fail('empty-window', `The baseline window is empty (${isoUtc(window.startMs)} to ${isoUtc(window.endMs)}).`);
  return { window, source };
}

/** The warnings of roles the options overrode, in a profile's words. */
function overrideWarnings(overridden: readonly RoleOverride[]): AnalysisWarning[] {
  return overridden.map((o) => ({
    code: o.code,
    message: o.code === 'front-named-backing'
      ? `Device ${o.device} was recorded as the front device, but the options name it a backing device: it is profiled as backing.`
      : `Device ${o.device} was recorded as a backing device, but the options name it the front device: it is profiled as front.`,
    source: 'analysis',
    device: o.device,
    params: { device: o.device },
  }));
}

/** A profile's prediction section: the capture's prediction with no measured figure beside it (a profile has no measure window). */
function noPrediction(data: CaptureData, mode: AnalysisMode): WorkloadProfile['prediction'] {
  return predictionReport(data.prediction, {
    iosSaved: measuredFigure(null, 'no-data'),
    backingAfterPerSecond: measuredFigure(null, 'no-data'),
    frontAfterPerSecond: measuredFigure(null, 'no-data'),
    latencyAfterMs: measuredFigure(null, 'no-data'),
    mode,
  });
}

/** The health of a profile: the window's grade, made `bad` by a critical run of slices of {@link CRITICAL_RUN_MS} or more. */
function healthOf(preset: string, targets: LatencyTargets, devices: readonly string[], window: HealthWindow, slices: TimeSlices): WorkloadProfile['health'] {
  const sustained = slices.longestCriticalMs >= CRITICAL_RUN_MS && window.grade !== 'bad';
  return { preset, targets, devices: [...devices], window: sustained ? { ...window, grade: 'bad' } : window, gradeRule: sustained ? 'sustained-critical' : 'averages' };
}

/** {@link profileWorkloadRaw}'s profile with no `-0` in any figure (metrics/finite.ts). */
export function profileWorkload(data: CaptureData, options: ProfileOptions = {}): WorkloadProfile | AnalyzeFailure {
  return withoutNegativeZero(profileWorkloadRaw(data, options));
}
