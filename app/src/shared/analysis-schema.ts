/**
 * Runtime schemas of the engine's outputs that cross the contract: `AnalysisReport` (the
 * `cacheproof analyze --json` object, docs/analyze-json.md) and `WorkloadProfile` (the baseline
 * alone). They are written against the engine's types, and a compile-time check below requires
 * `z.infer<schema>` and the engine type to be assignable both ways: a field added, removed or
 * retyped in the engine without the same change here is a type error, not a silent drift.
 *
 * The host validates every reply against these (app/src/host/dispatch.ts), so the renderer
 * receives exactly the engine's shape and reads it without a cast.
 */
import { z } from 'zod';
import type { AnalysisReport, DeviceRole, EngineNote, EngineReason, NullReason, WorkloadProfile } from '@cacheproof/engine';
import { predictionSectionSchema, traceLatencySectionSchema } from './prediction-schema.ts';

/** `true` when A and B are assignable both ways (the same type for every use here). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Device roles of a cache setup (engine `DeviceRole`), for the contract's `role` fields. */
export const DEVICE_ROLES = ['front', 'backing', 'cache', 'other'] as const satisfies readonly DeviceRole[];
export const DeviceRoleSchema = z.enum(DEVICE_ROLES);

/** The role a text names (a capture's `devices.role` column, a person's choice), or `other` when it names none. */
export function deviceRoleOf(s: string): DeviceRole {
  return (DEVICE_ROLES as readonly string[]).includes(s) ? (s as DeviceRole) : 'other';
}

const NULL_REASONS = [
  'no-data', 'no-io', 'no-reads', 'no-writes', 'not-reported', 'zero-denominator', 'backing-only-mode',
  'too-few-blocks', 'no-matched-hours', 'no-backing-io-baseline', 'none-eliminated', 'none-breaking',
] as const satisfies readonly NullReason[];

const num = z.number();
const numOrNull = z.number().nullable();
const Reasons = z.record(z.string(), z.enum(NULL_REASONS));
const Interval95 = z.object({ low: num, high: num });
const Distribution = z.object({ p50: num, p95: num, p99: num, max: num, n: num });
const NotOkCounts = z.object({ reset: num, wrap: num, gap: num, 'clock-jump': num, incomplete: num });

const WindowSummary = z.object({
  devices: num,
  okIntervals: num,
  okSeconds: num,
  notOk: NotOkCounts,
  totals: z.object({
    reads: numOrNull, writes: numOrNull, ios: numOrNull, readBytes: numOrNull, writeBytes: numOrNull, bytes: numOrNull,
    readTimeMs: numOrNull, writeTimeMs: numOrNull, busyMs: numOrNull, weightedMs: numOrNull, reasons: Reasons,
  }),
  means: z.object({
    readsPerSec: numOrNull, writesPerSec: numOrNull, iops: numOrNull, readMBps: numOrNull, writeMBps: numOrNull, mbps: numOrNull,
    rAwaitMs: numOrNull, wAwaitMs: numOrNull, awaitMs: numOrNull, avgRequestBytes: numOrNull, utilPercent: numOrNull,
    aquSz: numOrNull, readSharePercent: numOrNull, reasons: Reasons,
  }),
  percentiles: z.object({
    iops: Distribution.nullable(), readsPerSec: Distribution.nullable(), writesPerSec: Distribution.nullable(), mbps: Distribution.nullable(), awaitMs: Distribution.nullable(), rAwaitMs: Distribution.nullable(),
    wAwaitMs: Distribution.nullable(), utilPercent: Distribution.nullable(), aquSz: Distribution.nullable(), reasons: Reasons,
  }),
});

const AnalysisWarning = z.object({
  code: z.string(),
  message: z.string(),
  source: z.enum(['analysis', 'capture']),
  device: z.string().exactOptional(),
  at: z.string().exactOptional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).exactOptional(),
});

const WindowInfo = z.object({ start: z.string(), end: z.string(), seconds: num });
const WorkDone = z.object({ ios: numOrNull, bytes: numOrNull, seconds: num, reasons: Reasons });
const HourSide = z.object({ seconds: num, iops: numOrNull, backingIops: numOrNull, latencyMs: numOrNull, reasons: Reasons });
const HourlyEntry = z.object({
  hour: num, baseline: HourSide, measure: HourSide, iosSavedPercent: numOrNull, latencyReductionPercent: numOrNull, reasons: Reasons,
});
const GroupWindows = z.object({ devices: z.array(z.string()), baseline: WindowSummary, measure: WindowSummary });
const DeviceWindows = z.object({ device: z.string(), role: DeviceRoleSchema, baseline: WindowSummary, measure: WindowSummary });

const DriftMetric = z.object({ before: numOrNull, after: numOrNull, changePercent: numOrNull, exceeds: z.boolean(), reasons: Reasons });
const DRIFT_KEYS = ['iops', 'readSharePercent', 'meanRequestBytes', 'bytesPerSec'] as const;
const Drift = z.object({
  thresholdPercent: num,
  checked: z.boolean(),
  metrics: z.object({ iops: DriftMetric, readSharePercent: DriftMetric, meanRequestBytes: DriftMetric, bytesPerSec: DriftMetric }),
  exceeded: z.array(z.enum(DRIFT_KEYS)),
});

const LatencyTargets = z.object({ readMs: num.exactOptional(), writeMs: num.exactOptional(), transferMs: num.exactOptional(), warnMs: num.exactOptional() });
const HealthCheck = z.object({
  metric: z.enum(['read', 'write', 'transfer']),
  targetMs: num,
  averageMs: numOrNull,
  meetsTarget: z.boolean().nullable(),
  intervalsChecked: num,
  intervalsBreaking: num,
  breakingPercent: numOrNull,
  hoursBreaking: z.array(z.string()),
  spans: z.array(z.object({ start: z.string(), end: z.string(), worstMs: num, intervals: num })),
  spansTotal: num,
  worstMs: numOrNull,
  reasons: Reasons,
});
const HealthWindow = z.object({ grade: z.enum(['good', 'warning', 'bad', 'no-data']), checks: z.array(HealthCheck) });

// The cache engine's own statistics beside the counters (engine/src/benefit/engine-stats.ts; docs/analyze-json.md § engineStats)
const ENGINE_REASONS = ['engine-has-no-counters', 'too-few-engine-samples', 'engine-counter-reset', 'engine-no-io', 'counters-no-share', 'no-adapter', 'no-exit-status', 'mode-unknown'] as const satisfies readonly EngineReason[];
const ENGINE_NOTES = ['partial-misses', 'bypassed-io', 'bios-not-requests', 'no-read-write-split', 'write-hits-reach-backing', 'measure-window-only'] as const satisfies readonly EngineNote[];
const EngineReasons = z.record(z.string(), z.enum(ENGINE_REASONS));
const EngineShare = z.object({
  enginePercent: numOrNull, countersPercent: numOrNull, differencePoints: numOrNull, exceeds: z.boolean(),
  engineHits: numOrNull, engineTotal: numOrNull, reasons: EngineReasons,
});
const EngineStats = z.object({
  adapter: z.string(),
  device: z.string(),
  window: WindowInfo,
  method: z.literal('cumulative-difference-in-measure-window'),
  thresholdPoints: num,
  shares: z.object({ reads: EngineShare, writes: EngineShare, all: EngineShare }),
  notes: z.array(z.enum(ENGINE_NOTES)),
  counters: z.array(z.object({ name: z.string(), unit: z.string(), window: z.string(), method: z.enum(['difference', 'last']), value: numOrNull, reasons: EngineReasons })),
  actions: z.array(z.object({
    start: z.string(), end: z.string(), startMs: num, action: z.string(), step: z.string(), ok: z.boolean(),
    exitStatus: numOrNull, modeBefore: z.string().nullable(), modeAfter: z.string().nullable(), output: z.string(), reasons: EngineReasons,
  })),
  samples: num,
});

// The load's shape per role and window (engine/src/benefit/workload-shape.ts; docs/analyze-json.md § readWriteQueue, § requestSizes)
const PeakStat = z.object({
  unit: z.enum(['1/s', 'requests']),
  method: z.enum(['reads-per-second', 'writes-per-second', 'weighted-ms-per-ms']),
  mean: numOrNull, p95: numOrNull, peak: numOrNull, n: num, notes: z.array(z.enum(['bursty'])), reasons: Reasons,
});
const WIN_KEYS = ['baseline', 'measure'] as const;
const RwqWindow = z.object({
  window: z.enum(WIN_KEYS), start: z.string(), end: z.string(),
  readsPerSec: PeakStat, writesPerSec: PeakStat, readSharePercent: numOrNull, aquSz: PeakStat, reasons: Reasons,
});
const RwqGroup = z.object({ devices: z.array(z.string()), baseline: RwqWindow, measure: RwqWindow });
const OpSizes = z.object({ ios: num, meanBytes: num, counts: z.array(num), percents: z.array(num) });
const SizeDistribution = z.object({ method: z.enum(['interval-average', 'block-trace']), reads: OpSizes.nullable(), writes: OpSizes.nullable(), reasons: Reasons });
const SizesWindow = z.object({
  window: z.enum(WIN_KEYS), start: z.string(), end: z.string(),
  fromCounters: SizeDistribution, fromTrace: SizeDistribution.extend({ sampleRate: num }).nullable(), reasons: Reasons,
});
const SizesGroup = z.object({ devices: z.array(z.string()), baseline: SizesWindow, measure: SizesWindow });

const MODES = ['front-and-backing', 'backing-only'] as const;
const optionOrPhase = z.enum(['option', 'phase']);

/** The engine's `AnalysisReport` (engine/src/benefit/result.ts; docs/analyze-json.md). */
export const AnalysisReportSchema = z.object({
  ok: z.literal(true),
  formatVersion: z.literal(1),
  mode: z.enum(MODES),
  host: z.object({ hostname: z.string().nullable(), kernel: z.string().nullable() }),
  windows: z.object({
    baseline: WindowInfo,
    measure: WindowInfo,
    switchAt: z.string().nullable(),
    warmupExcludedSeconds: num,
    warmupSource: z.enum(['option', 'recorded', 'default-1h', 'default-10pct']),
    trim: z.object({ firstSeconds: num, lastSeconds: num }),
    source: z.object({ baseline: optionOrPhase, measure: optionOrPhase }),
    reasons: Reasons,
  }),
  devices: z.object({
    front: z.array(z.string()),
    backing: z.array(z.string()),
    cache: z.array(z.string()),
    other: z.array(z.string()),
    appFacing: z.enum(['front', 'backing']),
    spindles: num,
  }),
  benefit: z.object({
    iosToBacking: z.object({ before: numOrNull, after: numOrNull, beforePerSecond: numOrNull, afterPerSecond: numOrNull, reasons: Reasons }),
    iosSavedPercent: z.object({ value: numOrNull, ci95: Interval95.nullable(), method: z.enum(['backing-per-front-io', 'backing-per-second']), reasons: Reasons }),
    latencyMs: z.object({
      before: numOrNull,
      after: numOrNull,
      reductionPercent: numOrNull,
      reductionPercentCi95: Interval95.nullable(),
      speedup: numOrNull,
      speedupCi95: Interval95.nullable(),
      reasons: Reasons,
    }),
    normalizedIops: z.object({ before: numOrNull, after: numOrNull, reasons: Reasons }),
    deliveredIops: z.object({ before: numOrNull, after: numOrNull, reasons: Reasons }),
    deliveredIopsPerSpindle: z.object({ before: numOrNull, after: numOrNull, spindles: num, reasons: Reasons }),
    throughputMBps: z.object({ before: numOrNull, after: numOrNull, reasons: Reasons }),
    totalWork: z.object({ before: WorkDone, after: WorkDone }),
    cacheServedPercent: z.object({ reads: numOrNull, writes: numOrNull, reasons: Reasons }),
    matchedHours: z.object({ hours: z.array(num), iosSavedPercent: numOrNull, latencyReductionPercent: numOrNull, reasons: Reasons }),
    ioTimeSaved: z.object({
      perHourSeconds: numOrNull, totalSeconds: numOrNull, sharePercent: numOrNull, eliminatedPerSecond: numOrNull, avgResponseMsBefore: numOrNull,
      method: z.literal('eliminated-ios-x-backing-await-before'), reasons: Reasons,
    }),
    ioTimeMeasured: z.object({
      beforePerHourSeconds: numOrNull, afterPerHourSeconds: numOrNull, savedPerHourSeconds: numOrNull, savedPercent: numOrNull,
      method: z.literal('summed-io-time-per-hour'), reasons: Reasons,
    }),
    perWork: z.object({
      unit: z.enum(['process-io', 'sql-batch']).nullable(), instance: z.string().nullable(),
      workPerSecondBefore: numOrNull, workPerSecondAfter: numOrNull, diskIosPerSecondBefore: numOrNull, diskIosPerSecondAfter: numOrNull,
      diskIosPerWorkBefore: numOrNull, diskIosPerWorkAfter: numOrNull, workChangePercent: numOrNull, diskChangePercent: numOrNull,
      savedPercent: numOrNull, workLevel: z.boolean().nullable(), method: z.literal('backing-ios-per-second-over-work-per-second'), reasons: Reasons,
    }),
  }),
  uncertainty: z.object({
    method: z.literal('block-bootstrap-percentile'),
    prng: z.literal('mulberry32'),
    seed: num,
    replicates: num,
    blockSeconds: z.object({ baseline: num, measure: num }),
    blocks: z.object({ baseline: num, measure: num }),
  }),
  latencyDistribution: z.object({
    devices: z.array(z.string()),
    method: z.literal('type-7 percentiles of per-interval await'),
    baseline: Distribution.nullable(),
    measure: Distribution.nullable(),
    reasons: Reasons,
  }),
  readWriteQueue: z.object({ stats: z.literal('mean-ratio-of-sums; p95-type-7; peak-max'), front: RwqGroup.nullable(), backing: RwqGroup, reasons: Reasons }),
  requestSizes: z.object({
    unit: z.literal('bytes'),
    buckets: z.array(z.object({ lowBytes: num, highBytes: num.exactOptional() })),
    front: SizesGroup.nullable(),
    backing: SizesGroup,
    reasons: Reasons,
  }),
  drift: Drift,
  health: z.object({ preset: z.string(), targets: LatencyTargets, devices: z.array(z.string()), baseline: HealthWindow, measure: HealthWindow }),
  hourly: z.array(HourlyEntry),
  groups: z.object({ front: GroupWindows.nullable(), backing: GroupWindows.nullable(), reasons: Reasons }),
  perDevice: z.array(DeviceWindows),
  cacheEngine: z.object({ comparison: EngineStats.nullable(), reasons: EngineReasons }),
  prediction: predictionSectionSchema(Reasons),
  traceLatency: traceLatencySectionSchema(Reasons),
  layers: z.object({
    case: z.enum(['in-os-cache', 'none']),
    edges: z.array(z.object({ holder: z.string(), slave: z.string(), kind: z.string(), holderCounted: z.boolean(), slaveCounted: z.boolean() })),
  }),
  warnings: z.array(AnalysisWarning),
});

/** One figure of one day of a profile (engine benefit/days.ts). */
const DayFigure = z.object({ mean: numOrNull, p95: numOrNull, peak: numOrNull, peakAt: z.string().nullable(), peakAtMs: numOrNull, reasons: Reasons });

/** The engine's `WorkloadProfile` (engine/src/benefit/profile.ts): the baseline alone, no before/after. */
export const WorkloadProfileSchema = z.object({
  ok: z.literal(true),
  kind: z.literal('workload-profile'),
  window: z.object({ start: z.string(), end: z.string(), startMs: num, endMs: num, seconds: num, source: z.enum(['option', 'baseline-phase', 'whole-capture']) }),
  mode: z.enum([...MODES, 'front-only']),
  devices: z.object({ front: z.array(z.string()), backing: z.array(z.string()), appFacing: z.enum(['front', 'backing']) }),
  appFacing: WindowSummary,
  backing: WindowSummary.nullable(),
  perDevice: z.array(z.object({ device: z.string(), role: DeviceRoleSchema, summary: WindowSummary })),
  upperLayer: z.object({ volumes: z.array(z.object({ device: z.string(), on: z.array(z.string()), kind: z.string(), top: z.boolean(), summary: WindowSummary })) }).nullable(),
  warnings: z.array(AnalysisWarning),
  health: z.object({ preset: z.string(), targets: LatencyTargets, devices: z.array(z.string()), window: HealthWindow, gradeRule: z.enum(['averages', 'sustained-critical']) }),
  slices: z.object({
    sliceMs: num, startMs: num, slices: num, longestCriticalMs: num,
    rows: z.array(z.object({
      device: z.string(), counter: z.enum(['read', 'write']), warnMs: num, criticalMs: num,
      averageMs: z.array(num.nullable()), level: z.array(z.enum(['ok', 'warning', 'critical']).nullable()),
      checked: num, warning: num, critical: num, longestRunSlices: num, longestRunMinutes: num,
    })),
    alerts: z.array(z.object({ device: z.string(), counter: z.enum(['read', 'write']), level: z.enum(['warning', 'critical']), startMs: num, endMs: num, worstMs: num, slices: num })),
  }),
  capacity: z.object({
    inLog: z.boolean(),
    volumes: z.array(z.object({
      volume: z.string(), device: z.string().nullable(), mount: z.string().nullable(), source: z.string(),
      firstMs: num, lastMs: num, samples: num,
      sizeBytes: num.nullable(), freeBytes: num.nullable(), usedBytes: num.nullable(), usedShare: num.nullable(),
      growthBytesPerDay: num.nullable(), daysToFull: num.nullable(), fitDays: num.nullable(),
      fitGrowthBytesPerDay: num.nullable(),
      reasons: z.object({ growthBytesPerDay: z.literal('short-fit').optional(), daysToFull: z.literal('short-fit').optional() }),
    })),
  }),
  hours: z.object({
    days: z.array(num), iops: z.array(z.array(num.nullable())), seconds: z.array(z.array(num)),
    busiest: z.object({ startMs: num, endMs: num, iops: num, coveredSeconds: num }).nullable(),
  }),
  days: z.array(z.object({ day: z.string(), startMs: num, endMs: num, okIntervals: num, okSeconds: num, iops: DayFigure, mbps: DayFigure, awaitMs: DayFigure })),
  prediction: predictionSectionSchema(Reasons),
});

// Compile-time drift checks: each line is a type error when the schema and the engine type differ.
const REPORT_SCHEMA_MATCHES_ENGINE: Same<z.infer<typeof AnalysisReportSchema>, AnalysisReport> = true;
const PROFILE_SCHEMA_MATCHES_ENGINE: Same<z.infer<typeof WorkloadProfileSchema>, WorkloadProfile> = true;
const ROLES_ARE_THE_ENGINE_ROLES: Same<(typeof DEVICE_ROLES)[number], DeviceRole> = true;
const NULL_REASONS_ARE_THE_ENGINE_REASONS: Same<(typeof NULL_REASONS)[number], NullReason> = true;
const ENGINE_REASONS_ARE_THE_ENGINE_REASONS: Same<(typeof ENGINE_REASONS)[number], EngineReason> = true;
const ENGINE_NOTES_ARE_THE_ENGINE_NOTES: Same<(typeof ENGINE_NOTES)[number], EngineNote> = true;
void [ENGINE_REASONS_ARE_THE_ENGINE_REASONS, ENGINE_NOTES_ARE_THE_ENGINE_NOTES, REPORT_SCHEMA_MATCHES_ENGINE, PROFILE_SCHEMA_MATCHES_ENGINE, ROLES_ARE_THE_ENGINE_ROLES, NULL_REASONS_ARE_THE_ENGINE_REASONS];
