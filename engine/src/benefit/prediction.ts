/**
 * The prediction of a cache from the baseline's block trace, beside the measured figures. The
 * simulation itself is the probe's (`cacheproof-probe predict`, docs/simulate.md § predict: exact
 * LRU by stack distance, the other policies by simulation, writes bypass); a capture stores its
 * result in `meta.prediction` and the engine only carries those numbers into the analysis and
 * sets the measured I/Os saved, backing I/O and response time beside them, each difference split
 * into its parts (docs/metrics.md § Prediction).
 */
import type { NullReason, Reasons } from '../metrics/summary.ts';
import { isoUtc } from '../records/window.ts';

/** One point of the miss-ratio curve, as the probe gives it. */
export interface PredictionCurvePoint {
  /** Cache size, bytes. */
  bytes: number;
  /** Share of the counted reads that hit, 0–1. */
  readHitRatio: number;
  /** Read hits over counted reads and writes, %. */
  iosSavedPercent: number;
}

/** One policy's figures at the asked size and its curve (`policies[]`). */
export interface PredictionPolicyCurve {
  /** `lru`, `fifo`, `clock`, `arc`, `2q`, `s3fifo`. */
  policy: string;
  /** `exact-stack` (LRU), `exact-simulation`, or `scaled-simulation` (a sampled trace: a cache of size × R). */
  method: string;
  readHitRatio: number;
  iosSavedPercent: number;
  curve: PredictionCurvePoint[];
}

/**
 * A prediction whose other policies were replayed on a miniature of the trace (the probe's
 * `predict` on a window of more than 200,000 read block references, docs/simulate.md): a spatial
 * sample of rate `rate` of the block references, each policy on a cache of `rate` × each size.
 * LRU, the size answers and every figure at the asked size stay exact.
 */
export interface PredictionMiniature {
  /** Share of the block references kept, 0–1. */
  rate: number;
  /** The policies whose curves are miniature estimates (`fifo`, `clock`, …). */
  policies: string[];
  /** The sampling's expected mean absolute error of those curves' miss ratios, 0–1 (converting block to request hits adds to it). */
  expectedMeanAbsError: number;
}

/** The cache device a hit is served from: a preset of samples/catalog/cache-devices.json, or `typed`. */
export interface PredictionCacheDevice {
  preset: string;
  label: string | null;
  /** Read latency of a hit, µs. */
  readLatencyUs: number;
  source: string | null;
  url: string | null;
  date: string | null;
  basis: string | null;
}

/** The baseline's counted I/Os (after the warm-up; ÷ R when sampled). */
export interface PredictionFrontIos {
  reads: number;
  writes: number;
  total: number;
  /** Counted seconds (the window after the warm-up). */
  seconds: number;
  /** total ÷ seconds, I/O per second. */
  perSecond: number | null;
}

/** The predicted I/O still reaching the backing device: read misses and writes. */
export interface PredictionBackingIos {
  readMisses: number;
  writes: number;
  total: number;
  /** I/O per second over the counted seconds. */
  perSecond: number | null;
  /** Half-width of the 95 % interval of `total` from the sampling (0: every request traced). */
  uncertainty: number;
  perSecondUncertainty: number | null;
}

/** The predicted average response time, µs (docs/simulate.md § predict). */
export interface PredictionResponseTime {
  predictedUs: number;
  uncertaintyUs: number;
  /** The same requests at their own traced latency: the baseline without a cache. */
  baselineUs: number;
  /** The cache device's read latency given for a hit. */
  hitUs: number;
  /** Mean traced latency of the requests that are not hits (read misses and writes). */
  missUs: number | null;
  /** Share of the averaged requests that hit, 0–1: predictedUs = hitShare × hitUs + (1 − hitShare) × missUs. */
  hitShare: number;
  requests: number;
  withoutCompletion: number;
  method: string;
}

/** A cache of `bytes` (LRU) saves `iosSavedPercent`, the smallest size first reaching each 0.1 point. */
export interface PredictionSizeStep {
  bytes: number;
  iosSavedPercent: number;
}

/**
 * The probe's stored prediction (`meta.prediction`, camelCase as the probe writes it). The fields
 * from `cacheDevice` on are absent from a prediction stored by an older probe.
 */
export interface StoredPrediction {
  window: string;
  windowStartUtcMs: number;
  windowEndUtcMs: number;
  warmupS: number;
  devices: string[];
  policy: string;
  method: string;
  writes: string;
  blockBytes: number;
  cacheBytes: number;
  footprintBytes: number;
  sampleRate: number;
  reads: number;
  writesCount: number;
  readHitRatio: number;
  iosSavedPercent: number;
  iosSavedUncertaintyPp: number;
  curve: PredictionCurvePoint[];
  sizeAnswers: { readHitPercent: number; bytes: number | null }[];
  skipped: number;
  notes: string[];
  cacheDevice?: PredictionCacheDevice | null | undefined;
  frontIos?: PredictionFrontIos | undefined;
  backingIos?: PredictionBackingIos | undefined;
  responseTime?: PredictionResponseTime | null | undefined;
  policies?: PredictionPolicyCurve[] | undefined;
  sizeSteps?: PredictionSizeStep[] | undefined;
  /** Set when other policies' curves are miniature simulations; null or absent when every request was replayed. */
  miniature?: PredictionMiniature | null | undefined;
}

/**
 * Predicted backing I/O per second beside the measured (the measure window, counters), and the
 * difference in two parts that add up to it: the workload's rate (the front's I/O per second
 * changed between the baseline and the measure window) and the hit share (the real cache kept
 * another share of that I/O off the backing devices than the predicted one).
 */
export interface BackingComparison {
  predictedPerSecond: number | null;
  /** `benefit.iosToBacking.afterPerSecond`. */
  measuredPerSecond: number | null;
  /** predicted − measured, I/O per second. */
  differencePerSecond: number | null;
  /** (predicted − measured) ÷ measured × 100. */
  differencePercent: number | null;
  /** The baseline's front I/O per second from the trace (`frontIos.perSecond`). */
  predictedFrontPerSecond: number | null;
  /** The measure window's front I/O per second (`benefit.deliveredIops.after`, front-and-backing mode). */
  measuredFrontPerSecond: number | null;
  /** (predicted front − measured front) × (1 − predicted share). */
  workloadPartPerSecond: number | null;
  /** measured front × (measured share − predicted share), measured share = 1 − measured backing ÷ measured front. */
  hitSharePartPerSecond: number | null;
  reasons: Reasons;
}

/**
 * Predicted average response time beside the measured one (the application-facing devices in the
 * measure window, counters), and the difference in two parts: the hit share (the model's hit and
 * miss times at the measured share instead of the predicted one) and the rest (the real cache's
 * hits and misses took other times than the model's: the cache's software path, queueing, a
 * changed workload).
 */
export interface ResponseComparison {
  predictedMs: number | null;
  /** `benefit.latencyMs.after`. */
  measuredMs: number | null;
  /** predicted − measured, ms. */
  differenceMs: number | null;
  /** (predicted share − measured share) × (hit time − miss time), ms. */
  hitSharePartMs: number | null;
  /** (measured share × hit time + (1 − measured share) × miss time) − measured, ms. */
  otherPartMs: number | null;
  reasons: Reasons;
}

/** The analysis's `prediction.fromTrace`: the stored numbers, and the measured figures beside them. */
export interface PredictionReport extends Omit<StoredPrediction, 'windowStartUtcMs' | 'windowEndUtcMs' | 'sizeAnswers' | 'cacheDevice' | 'frontIos' | 'backingIos' | 'responseTime' | 'policies' | 'sizeSteps'> {
  source: 'capture-meta-prediction';
  /** The predicted window, ISO 8601 UTC. */
  windowStart: string;
  windowEnd: string;
  /** The size answers some cache size reaches (smallest size first); shares above `maxReadHitPercent` are left out. */
  sizeAnswers: { readHitPercent: number; bytes: number }[];
  /** The read hit share of a cache that holds every block: what first references leave, %. */
  maxReadHitPercent: number;
  /** The I/Os saved by a cache that holds every block (the curve's largest size), %. */
  maxIosSavedPercent: number;
  cacheDevice: PredictionCacheDevice | null;
  frontIos: PredictionFrontIos | null;
  backingIos: PredictionBackingIos | null;
  responseTime: PredictionResponseTime | null;
  /** Why `responseTime` is null: no cache device was asked for, the trace has no completion times, or an older probe did not report it; null when it is there. */
  responseTimeMissing: ResponseTimeMissing | null;
  /** Every policy the probe simulated (its `policy` first); an older probe's LRU curve alone. */
  policies: PredictionPolicyCurve[];
  /** Two or more policies whose curves coincide at every size (I/Os saved within 0.05 point): their lines lie on one another. */
  policiesCoincide: boolean;
  sizeSteps: PredictionSizeStep[];
  /** `benefit.iosSavedPercent.value` of the same analysis (measured), %. */
  measuredIosSavedPercent: number | null;
  /** Predicted − measured, percentage points. */
  differencePp: number | null;
  backingComparison: BackingComparison;
  responseComparison: ResponseComparison;
  reasons: Reasons;
}

/** Why a prediction has no response time (the words: predict-ui `resp.none.<code>`). */
export type ResponseTimeMissing = 'no-cache-device' | 'no-completion-times' | 'not-reported';

/**
 * Why the stored prediction has no response time, or null when it has one. The probe predicts it
 * from the cache device's read latency and the traced completions: without a device it is not
 * asked for; with one, a null means no counted request had a completion time; absent means a
 * probe older than the response time. Example: device nvme, responseTime null → 'no-completion-times'.
 */
export function responseTimeMissing(stored: Pick<StoredPrediction, 'cacheDevice' | 'responseTime'>): ResponseTimeMissing | null {
  if (stored.responseTime !== undefined && stored.responseTime !== null) return null;
  if (stored.cacheDevice === undefined || stored.cacheDevice === null) return stored.responseTime === undefined && stored.cacheDevice === undefined ? 'not-reported' : 'no-cache-device';
  return stored.responseTime === undefined ? 'not-reported' : 'no-completion-times';
}

/**
 * Whether two or more policies' curves coincide: the same sizes, I/Os saved within 0.05 point at
 * each (the figures' printed precision), so one line would hide the others. Example: every policy
 * at 65.3 % from the smallest size on (a footprint smaller than the smallest cache) → true.
 */
export function policiesCoincide(policies: readonly PredictionPolicyCurve[]): boolean {
  const [first, ...rest] = policies;
  if (first === undefined || rest.length === 0) return false;
  return rest.every((c) => c.curve.length === first.curve.length
    && c.curve.every((x, i) => x.bytes === first.curve[i]?.bytes && Math.abs(x.iosSavedPercent - (first.curve[i]?.iosSavedPercent ?? NaN)) < 0.05));
}

/** The analysis's `prediction` section: the probe's prediction, or null with reason `not-reported` when the capture holds none. */
export interface PredictionSection {
  fromTrace: PredictionReport | null;
  reasons: Reasons;
}

/** A measured figure, with its null reason under `value` when it is null. */
export interface Measured {
  value: number | null;
  reasons: Reasons;
}

/** A {@link Measured} from a figure of the benefit section and its reason when null. */
export function measuredFigure(value: number | null, why: NullReason | undefined): Measured {
  return { value, reasons: value === null ? { value: why ?? 'no-data' } : {} };
}

/** The measured figures the prediction is set beside (the analysis's `benefit` and mode). */
export interface MeasuredForPrediction {
  iosSaved: Measured;
  /** `benefit.iosToBacking.afterPerSecond`. */
  backingAfterPerSecond: Measured;
  /** `benefit.deliveredIops.after`: the application-facing devices' I/O per second. */
  frontAfterPerSecond: Measured;
  /** `benefit.latencyMs.after`. */
  latencyAfterMs: Measured;
  mode: 'front-and-backing' | 'backing-only';
}

/** Sets `r[key]` to the reason (`no-data` when none is known) and returns null. */
function nullWith(r: Reasons, key: string, why: NullReason | undefined): null {
  r[key] = why ?? 'no-data';
  return null;
}

/** Predicted backing I/O per second beside the measured one (see {@link BackingComparison}). */
export function backingComparison(stored: StoredPrediction, m: MeasuredForPrediction): BackingComparison {
  const reasons: Reasons = {};
  const b = stored.backingIos;
  const predicted = b === undefined ? nullWith(reasons, 'predictedPerSecond', 'not-reported') : b.perSecond ?? nullWith(reasons, 'predictedPerSecond', 'zero-denominator');
  const measured = m.backingAfterPerSecond.value ?? nullWith(reasons, 'measuredPerSecond', m.backingAfterPerSecond.reasons['value']);
  const pf = stored.frontIos?.perSecond ?? nullWith(reasons, 'predictedFrontPerSecond', 'not-reported');
  const mf = m.mode === 'backing-only' ? nullWith(reasons, 'measuredFrontPerSecond', 'backing-only-mode')
    : m.frontAfterPerSecond.value ?? nullWith(reasons, 'measuredFrontPerSecond', m.frontAfterPerSecond.reasons['value']);
  const diff = predicted === null || measured === null ? null : predicted - measured;
  if (diff === null) reasons['differencePerSecond'] = reasons['predictedPerSecond'] ?? reasons['measuredPerSecond'] ?? 'no-data';
  const pct = diff === null || measured === null ? null : measured === 0 ? nullWith(reasons, 'differencePercent', 'zero-denominator') : (diff / measured) * 100;
  if (pct === null && reasons['differencePercent'] === undefined) reasons['differencePercent'] = reasons['differencePerSecond'] ?? 'no-data';
  const sp = stored.iosSavedPercent / 100;
  let workload: number | null = null;
  let share: number | null = null;
  if (pf !== null && mf !== null && measured !== null && mf > 0) {
    workload = (pf - mf) * (1 - sp);
    share = mf * (1 - measured / mf - sp);
  } else {
    const why = reasons['predictedFrontPerSecond'] ?? reasons['measuredFrontPerSecond'] ?? reasons['measuredPerSecond'] ?? 'zero-denominator';
    reasons['workloadPartPerSecond'] = why;
    reasons['hitSharePartPerSecond'] = why;
  }
  return {
    predictedPerSecond: predicted, measuredPerSecond: measured, differencePerSecond: diff, differencePercent: pct,
    predictedFrontPerSecond: pf, measuredFrontPerSecond: mf, workloadPartPerSecond: workload, hitSharePartPerSecond: share, reasons,
  };
}

/** Predicted average response time beside the measured one (see {@link ResponseComparison}). */
export function responseComparison(stored: StoredPrediction, m: MeasuredForPrediction): ResponseComparison {
  const reasons: Reasons = {};
  const rt = stored.responseTime ?? null;
  const predicted = rt === null ? nullWith(reasons, 'predictedMs', 'not-reported') : rt.predictedUs / 1000;
  const measured = m.latencyAfterMs.value ?? nullWith(reasons, 'measuredMs', m.latencyAfterMs.reasons['value']);
  const diff = predicted === null || measured === null ? null : predicted - measured;
  if (diff === null) reasons['differenceMs'] = reasons['predictedMs'] ?? reasons['measuredMs'] ?? 'no-data';
  const ms = m.iosSaved.value === null ? null : m.iosSaved.value / 100;
  let sharePart: number | null = null;
  let other: number | null = null;
  if (rt !== null && measured !== null && ms !== null) {
    const h = rt.hitUs / 1000;
    const miss = rt.missUs === null ? h : rt.missUs / 1000;
    sharePart = (rt.hitShare - ms) * (h - miss);
    other = ms * h + (1 - ms) * miss - measured;
  } else {
    const why = reasons['predictedMs'] ?? reasons['measuredMs'] ?? m.iosSaved.reasons['value'] ?? 'no-data';
    reasons['hitSharePartMs'] = why;
    reasons['otherPartMs'] = why;
  }
  return { predictedMs: predicted, measuredMs: measured, differenceMs: diff, hitSharePartMs: sharePart, otherPartMs: other, reasons };
}

/**
 * The analysis's prediction section. `measured` holds the analysis's own figures.
 * Example: stored iosSavedPercent 99.2, measured 96.5 → differencePp 2.7.
 */
export function predictionReport(stored: StoredPrediction | null | undefined, measured: MeasuredForPrediction): PredictionSection {
  if (stored === null || stored === undefined) return { fromTrace: null, reasons: { fromTrace: 'not-reported' } };
  const { windowStartUtcMs, windowEndUtcMs, sizeAnswers, cacheDevice, frontIos, backingIos, responseTime, policies, sizeSteps, ...rest } = stored;
  const reasons: Reasons = {};
  const iosSaved = measured.iosSaved;
  if (iosSaved.value === null) {
    const why: NullReason = iosSaved.reasons['value'] ?? 'no-data';
    reasons['measuredIosSavedPercent'] = why;
    reasons['differencePp'] = why;
  }
  if (frontIos === undefined) reasons['frontIos'] = 'not-reported';
  if (backingIos === undefined) reasons['backingIos'] = 'not-reported';
  if (responseTime === undefined || responseTime === null) reasons['responseTime'] = 'not-reported';
  if (cacheDevice === undefined || cacheDevice === null) reasons['cacheDevice'] = 'not-reported';
  const curves = policies ?? [{ policy: stored.policy, method: stored.method, readHitRatio: stored.readHitRatio, iosSavedPercent: stored.iosSavedPercent, curve: stored.curve }];
  const last = stored.curve.reduce<PredictionCurvePoint | null>((m, c) => (m === null || c.bytes > m.bytes ? c : m), null);
  const fromTrace: PredictionReport = {
    ...rest,
    source: 'capture-meta-prediction',
    windowStart: isoUtc(windowStartUtcMs),
    windowEnd: isoUtc(windowEndUtcMs),
    sizeAnswers: sizeAnswers.flatMap((a) => (a.bytes === null ? [] : [{ readHitPercent: a.readHitPercent, bytes: a.bytes }])),
    maxReadHitPercent: last === null ? 0 : last.readHitRatio * 100,
    maxIosSavedPercent: last === null ? 0 : last.iosSavedPercent,
    cacheDevice: cacheDevice ?? null,
    frontIos: frontIos ?? null,
    backingIos: backingIos ?? null,
    responseTime: responseTime ?? null,
    responseTimeMissing: responseTimeMissing({ cacheDevice, responseTime }),
    policies: curves,
    policiesCoincide: policiesCoincide(curves),
    sizeSteps: sizeSteps ?? [],
    measuredIosSavedPercent: iosSaved.value,
    differencePp: iosSaved.value === null ? null : stored.iosSavedPercent - iosSaved.value,
    backingComparison: backingComparison(stored, measured),
    responseComparison: responseComparison(stored, measured),
    reasons,
  };
  return { fromTrace, reasons: {} };
}

/**
 * "What cache size do I need for X % of I/Os saved": the smallest LRU cache the probe found
 * reaching the share (its `sizeSteps`, one per 0.1 point), or null when none does (the rest are
 * first references: at most `maxIosSavedPercent`; or a share of 0 or less). The share is rounded up
 * to the next 0.1 point, the steps' resolution. Example: steps [{ 409600 B, 95 % }], 90 % → 409,600 bytes (95 %).
 */
export function sizeForIosSaved(p: Pick<PredictionReport, 'sizeSteps'>, percent: number): PredictionSizeStep | null {
  if (!Number.isFinite(percent)) return null;
  const want = Math.ceil(Math.round(percent * 1e6) / 1e5) / 10;
  if (want <= 0) return null;
  return p.sizeSteps.find((s) => s.iosSavedPercent + 1e-9 >= want) ?? null;
}
