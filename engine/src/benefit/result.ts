import type { RateLimit } from './plausibility.ts';
import type { PerWork } from './per-work.ts';
import type { IoTimeSaved } from './figures.ts';
import type { MeasuredIoTime } from './io-time.ts';
import type { LayersReport } from './layers.ts';
import type { Distribution, Reasons, WindowSummary } from '../metrics/summary.ts';
import type { DeviceRole } from '../records/types.ts';
import type { Interval95 } from './bootstrap.ts';
import type { DriftReport } from './drift.ts';
import type { AnalysisMode } from './figures.ts';
import type { HealthWindow, LatencyTargets, TargetPreset } from './health.ts';
import type { WarmupSource, WindowOptions } from './windows.ts';
import type { CacheEngineSection } from './engine-stats.ts';
import type { PredictionSection } from './prediction.ts';
import type { TraceLatencySection } from './trace-latency.ts';
import type { ReadWriteQueueSection, RequestSizesSection } from './workload-shape.ts';

/** Options of {@link analyze}. Every field is optional; times are UTC epoch ms. */
export interface AnalyzeOptions extends WindowOptions {
  /** Front (application-facing) device name(s); default: devices whose role is `front` (minus any named in `backing`). */
  front?: string | readonly string[] | undefined;
  /** Backing device names; default: devices whose role is `backing` (minus any front). A named device takes its role whatever the capture guessed. */
  backing?: readonly string[] | undefined;
  /** Latency targets: a preset name or explicit targets; default `generic`. */
  targets?: TargetPreset | LatencyTargets | undefined;
  /** Bootstrap seed (any 32-bit integer); default 20240601. */
  seed?: number | undefined;
  /** Bootstrap replicates; default 2000. */
  bootstrapReplicates?: number | undefined;
  /** Workload-drift threshold, percent of relative change; default 25. */
  driftThresholdPercent?: number | undefined;
  /** Backing spindle count for delivered IOPS per spindle; default the number of backing devices. */
  spindles?: number | undefined;
  /** The rate no device reaches (plan/fastest.ts `catalogRateLimit` of the drive catalog): faster intervals get `implausible-iops`; without it rates are not checked. */
  rateLimit?: RateLimit | undefined;
}

/** A window as reported: ISO-8601 UTC times. */
export interface WindowInfo {
  start: string;
  end: string;
  /** end − start, seconds (wall clock). */
  seconds: number;
}

/** A warning in the output. `source` says whether the recorder noticed it or the analysis did. */
export interface AnalysisWarning {
  code: string;
  message: string;
  source: 'analysis' | 'capture';
  device?: string;
  /** ISO-8601 UTC. */
  at?: string;
  params?: Record<string, string | number>;
}

export interface WorkDone {
  /** I/Os completed at the application-facing devices over `ok` intervals. */
  ios: number | null;
  /** Bytes read + written. */
  bytes: number | null;
  /** Seconds covered by `ok` intervals. */
  seconds: number;
  reasons: Reasons;
}

export interface HourSide {
  /** Seconds of `ok` data in this hour of the day. */
  seconds: number;
  /** I/Os per second at the application-facing devices. */
  iops: number | null;
  /** I/Os per second at the backing devices. */
  backingIops: number | null;
  /** Average response time at the application-facing devices, ms. */
  latencyMs: number | null;
  reasons: Reasons;
}

/** One UTC hour of the day present in both windows. */
export interface HourlyEntry {
  /** UTC hour of the day, 0–23. */
  hour: number;
  baseline: HourSide;
  measure: HourSide;
  iosSavedPercent: number | null;
  latencyReductionPercent: number | null;
  reasons: Reasons;
}

export interface DeviceWindows {
  device: string;
  role: DeviceRole;
  baseline: WindowSummary;
  measure: WindowSummary;
}

export interface GroupWindows {
  devices: string[];
  baseline: WindowSummary;
  measure: WindowSummary;
}

/** The `cacheproof analyze --json` object (docs/analyze-json.md). */
export interface AnalysisReport {
  ok: true;
  formatVersion: 1;
  mode: AnalysisMode;
  host: { hostname: string | null; kernel: string | null };
  windows: {
    baseline: WindowInfo;
    measure: WindowInfo;
    switchAt: string | null;
    warmupExcludedSeconds: number;
    warmupSource: WarmupSource;
    trim: { firstSeconds: number; lastSeconds: number };
    source: { baseline: 'option' | 'phase'; measure: 'option' | 'phase' };
    reasons: Reasons;
  };
  devices: {
    front: string[];
    backing: string[];
    cache: string[];
    other: string[];
    /** Which group the application-facing figures (latency, throughput, health) come from. */
    appFacing: 'front' | 'backing';
    spindles: number;
  };
  benefit: {
    iosToBacking: { before: number | null; after: number | null; beforePerSecond: number | null; afterPerSecond: number | null; reasons: Reasons };
    iosSavedPercent: { value: number | null; ci95: Interval95 | null; method: 'backing-per-front-io' | 'backing-per-second'; reasons: Reasons };
    latencyMs: {
      before: number | null;
      after: number | null;
      reductionPercent: number | null;
      reductionPercentCi95: Interval95 | null;
      speedup: number | null;
      speedupCi95: Interval95 | null;
      reasons: Reasons;
    };
    normalizedIops: { before: number | null; after: number | null; reasons: Reasons };
    /** IOPS the application-facing devices delivered (their I/Os ÷ the window's seconds with data): shown beside normalized IOPS. */
    deliveredIops: { before: number | null; after: number | null; reasons: Reasons };
    deliveredIopsPerSpindle: { before: number | null; after: number | null; spindles: number; reasons: Reasons };
    throughputMBps: { before: number | null; after: number | null; reasons: Reasons };
    totalWork: { before: WorkDone; after: WorkDone };
    cacheServedPercent: { reads: number | null; writes: number | null; reasons: Reasons };
    matchedHours: { hours: number[]; iosSavedPercent: number | null; latencyReductionPercent: number | null; reasons: Reasons };
    /** I/O time saved at the backing drives: a model (Condusiv's definition, I/Os kept off × the response time before; benefit/figures.ts ioTimeSaved), an estimate beside its measured counterpart `ioTimeMeasured`. */
    ioTimeSaved: IoTimeSaved;
    /** The backing drives' summed I/O time per hour in each window, as the counters measured it (benefit/io-time.ts): the headline of the two. */
    ioTimeMeasured: MeasuredIoTime;
    /** The disks' I/Os per unit of the work the server did, before vs after (benefit/per-work.ts). */
    perWork: PerWork;
  };
  uncertainty: {
    method: 'block-bootstrap-percentile';
    prng: 'mulberry32';
    seed: number;
    replicates: number;
    blockSeconds: { baseline: number; measure: number };
    blocks: { baseline: number; measure: number };
  };
  latencyDistribution: {
    devices: string[];
    method: 'type-7 percentiles of per-interval await';
    baseline: Distribution | null;
    measure: Distribution | null;
    reasons: Reasons;
  };
  /** Reads/s, writes/s and the average queue size (aqu-sz) of the front and backing groups per window: mean, p95, peak (benefit/workload-shape.ts). */
  readWriteQueue: ReadWriteQueueSection;
  /** The request-size distribution of the front and backing groups per window, from the counters and, with a block trace, from the requests. */
  requestSizes: RequestSizesSection;
  drift: DriftReport;
  health: {
    /** Preset name, or `custom` for user-defined targets. */
    preset: string;
    targets: LatencyTargets;
    devices: string[];
    baseline: HealthWindow;
    measure: HealthWindow;
  };
  hourly: HourlyEntry[];
  groups: { front: GroupWindows | null; backing: GroupWindows | null; reasons: Reasons };
  perDevice: DeviceWindows[];
  /** The cache engine's own statistics beside the disk counters (captures recorded with an adapter; `comparison` null otherwise). */
  cacheEngine: CacheEngineSection;
  /** The probe's prediction from the baseline's trace beside the measured I/Os saved; null without one (docs/analyze-json.md). */
  prediction: PredictionSection;
  /** Response time of every traced request (the probe's histograms), beside `latencyDistribution`; `fromTrace` null without a trace. */
  traceLatency: TraceLatencySection;
  /** What sits on what, which layer was counted, and the in-OS cache case (benefit/layers.ts). */
  layers: LayersReport;
  warnings: AnalysisWarning[];
}

