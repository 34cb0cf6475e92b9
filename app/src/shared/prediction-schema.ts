/**
 * Runtime schemas of the prediction from a block trace: what the probe stores in a capture's
 * `meta.prediction` (`cacheproof-probe predict --store`, docs/simulate.md § predict) and the
 * analysis's `prediction` section (engine/src/benefit/prediction.ts, docs/analyze-json.md). Both
 * are checked against the engine's types at compile time, as in analysis-schema.ts.
 */
import { z } from 'zod';
import type { BackingComparison, NullReason, PredictionReport, PredictionSection, ResponseComparison, StoredPrediction, StoredTraceLatency, TraceLatencySection } from '@cacheproof/engine';
import type { Same } from './analysis-schema.ts';

const num = z.number();
const ratio = z.number().min(0).max(1);
const percent = z.number().min(0).max(100);
const bytes = z.number().int().nonnegative();

const fields = {
  window: z.string(),
  warmupS: z.number().nonnegative(),
  devices: z.array(z.string()),
  policy: z.string(),
  method: z.string(),
  writes: z.string(),
  blockBytes: bytes,
  cacheBytes: bytes,
  footprintBytes: bytes,
  sampleRate: z.number().gt(0).max(1),
  reads: bytes,
  writesCount: bytes,
  readHitRatio: ratio,
  iosSavedPercent: percent,
  iosSavedUncertaintyPp: z.number().nonnegative(),
  curve: z.array(z.object({ bytes, readHitRatio: ratio, iosSavedPercent: percent })),
  skipped: bytes,
  notes: z.array(z.string()),
};

const count = z.number().nonnegative();
const curve = z.array(z.object({ bytes, readHitRatio: ratio, iosSavedPercent: percent }));
const CacheDevice = z.object({
  preset: z.string(), label: z.string().nullable(), readLatencyUs: z.number().positive(),
  source: z.string().nullable(), url: z.string().nullable(), date: z.string().nullable(), basis: z.string().nullable(),
});
const FrontIos = z.object({ reads: count, writes: count, total: count, seconds: count, perSecond: count.nullable() });
const BackingIos = z.object({ readMisses: count, writes: count, total: count, perSecond: count.nullable(), uncertainty: count, perSecondUncertainty: count.nullable() });
const ResponseTime = z.object({
  predictedUs: count, uncertaintyUs: count, baselineUs: count, hitUs: z.number().positive(), missUs: count.nullable(),
  hitShare: ratio, requests: bytes, withoutCompletion: bytes, method: z.string(),
});
const PolicyCurve = z.object({ policy: z.string(), method: z.string(), readHitRatio: ratio, iosSavedPercent: percent, curve });
const SizeStep = z.object({ bytes, iosSavedPercent: percent });

/**
 * `meta.prediction` as the probe writes it (other keys it writes, such as `skippedReasons`, are
 * not read). The fields from `cacheDevice` on are absent from a prediction of an older probe.
 */
export const StoredPredictionSchema = z.object({
  ...fields,
  windowStartUtcMs: num,
  windowEndUtcMs: num,
  sizeAnswers: z.array(z.object({ readHitPercent: percent, bytes: bytes.nullable() })),
  cacheDevice: CacheDevice.nullable().optional(),
  frontIos: FrontIos.optional(),
  backingIos: BackingIos.optional(),
  responseTime: ResponseTime.nullable().optional(),
  policies: z.array(PolicyCurve).optional(),
  sizeSteps: z.array(SizeStep).optional(),
});

/**
 * The analysis's `prediction` (engine `PredictionSection`). `reasons` take the engine's null
 * reasons; analysis-schema.ts checks the full list.
 */
export function predictionSectionSchema(reasons: z.ZodType<Record<string, NullReason>>): z.ZodType<PredictionSection> {
  const report: z.ZodType<PredictionReport> = z.object({
    ...fields,
    source: z.literal('capture-meta-prediction'),
    windowStart: z.string(),
    windowEnd: z.string(),
    sizeAnswers: z.array(z.object({ readHitPercent: percent, bytes })),
    maxReadHitPercent: percent,
    maxIosSavedPercent: percent,
    cacheDevice: CacheDevice.nullable(),
    frontIos: FrontIos.nullable(),
    backingIos: BackingIos.nullable(),
    responseTime: ResponseTime.nullable(),
    responseTimeMissing: z.enum(['no-cache-device', 'no-completion-times', 'not-reported']).nullable(),
    policies: z.array(PolicyCurve),
    policiesCoincide: z.boolean(),
    sizeSteps: z.array(SizeStep),
    measuredIosSavedPercent: num.nullable(),
    differencePp: num.nullable(),
    backingComparison: z.object({
      predictedPerSecond: num.nullable(), measuredPerSecond: num.nullable(), differencePerSecond: num.nullable(), differencePercent: num.nullable(),
      predictedFrontPerSecond: num.nullable(), measuredFrontPerSecond: num.nullable(), workloadPartPerSecond: num.nullable(), hitSharePartPerSecond: num.nullable(), reasons,
    }) satisfies z.ZodType<BackingComparison>,
    responseComparison: z.object({
      predictedMs: num.nullable(), measuredMs: num.nullable(), differenceMs: num.nullable(), hitSharePartMs: num.nullable(), otherPartMs: num.nullable(), reasons,
    }) satisfies z.ZodType<ResponseComparison>,
    reasons,
  });
  return z.object({ fromTrace: report.nullable(), reasons });
}

const latencyPercentile = z.object({ p: percent, bucket: bytes, lowUs: z.number().nonnegative(), highUs: z.number().positive() });
const latencyMethod = z.enum(['interval-histograms', 'stored-requests']);

/**
 * `meta.trace_latency` as the probe writes it (`cacheproof-probe latency --store`,
 * docs/simulate.md); `method` and `hours` are absent when an earlier probe wrote it.
 */
export const StoredTraceLatencySchema = z.object({
  method: latencyMethod.optional(),
  bucketsPerOctave: z.number().int().positive(),
  buckets: z.string(),
  sampleRate: z.number().gt(0).max(1),
  series: z.array(z.object({
    device: z.string(),
    window: z.string(),
    op: z.enum(['read', 'write']),
    requests: bytes,
    completed: bytes,
    meanUs: z.number().nonnegative().nullable(),
    percentiles: z.array(latencyPercentile),
    histogram: z.array(z.object({ bucket: bytes, lowUs: z.number().nonnegative(), highUs: z.number().positive(), count: bytes })),
  })),
  hours: z.array(z.object({
    device: z.string(),
    op: z.enum(['read', 'write']),
    startUtcMs: num,
    endUtcMs: num,
    requests: bytes,
    completed: bytes,
    meanUs: z.number().nonnegative().nullable(),
    percentiles: z.array(latencyPercentile),
  })).optional(),
});

/** The analysis's `traceLatency` (engine `TraceLatencySection`). */
export function traceLatencySectionSchema(reasons: z.ZodType<Record<string, NullReason>>): z.ZodType<TraceLatencySection> {
  const rangeOf = z.object({ lowUs: z.number().nonnegative(), highUs: z.number().positive() }).nullable();
  const hourly = z.array(z.object({
    device: z.string(),
    op: z.enum(['read', 'write']),
    hours: z.array(z.object({
      startUtcMs: num, endUtcMs: num, midUtcMs: num, requests: bytes, completed: bytes, meanUs: z.number().nonnegative().nullable(),
      p50: rangeOf, p95: rangeOf, p99: rangeOf, p999: rangeOf,
    })),
  }));
  return z.object({ fromTrace: StoredTraceLatencySchema.nullable(), method: latencyMethod.nullable(), hourly, reasons });
}

const STORED_MATCHES_ENGINE: Same<z.infer<typeof StoredPredictionSchema>, StoredPrediction> = true;
const LATENCY_MATCHES_ENGINE: Same<z.infer<typeof StoredTraceLatencySchema>, StoredTraceLatency> = true;
void [STORED_MATCHES_ENGINE, LATENCY_MATCHES_ENGINE];
