/**
 * The prediction of a cache from the baseline's block trace, beside the measured figure. The
 * simulation itself is the probe's (`cacheproof-probe predict`, docs/simulate.md § predict: exact
 * LRU by stack distance, writes bypass); a capture stores its result in `meta.prediction` and the
 * engine only carries those numbers into the analysis and sets the measured I/Os saved beside
 * them (docs/metrics.md § Prediction).
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

/** The probe's stored prediction (`meta.prediction`, camelCase as the probe writes it). */
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
}

/** The analysis's `prediction.fromTrace`: the stored numbers, and the measured figure beside them. */
export interface PredictionReport extends Omit<StoredPrediction, 'windowStartUtcMs' | 'windowEndUtcMs' | 'sizeAnswers'> {
  source: 'capture-meta-prediction';
  /** The predicted window, ISO 8601 UTC. */
  windowStart: string;
  windowEnd: string;
  /** The size answers some cache size reaches (smallest size first); shares above `maxReadHitPercent` are left out. */
  sizeAnswers: { readHitPercent: number; bytes: number }[];
  /** The read hit share of a cache that holds every block: what first references leave, %. */
  maxReadHitPercent: number;
  /** `benefit.iosSavedPercent.value` of the same analysis (measured), %. */
  measuredIosSavedPercent: number | null;
  /** Predicted − measured, percentage points. */
  differencePp: number | null;
  reasons: Reasons;
}

/** The analysis's `prediction` section: the probe's prediction, or null with reason `not-reported` when the capture holds none. */
export interface PredictionSection {
  fromTrace: PredictionReport | null;
  reasons: Reasons;
}

/**
 * The analysis's prediction section. `measured` is the analysis's I/Os saved figure.
 * Example: stored iosSavedPercent 99.2, measured 96.5 → differencePp 2.7.
 */
export function predictionReport(stored: StoredPrediction | null | undefined, measured: { value: number | null; reasons: Reasons }): PredictionSection {
  if (stored === null || stored === undefined) return { fromTrace: null, reasons: { fromTrace: 'not-reported' } };
  const { windowStartUtcMs, windowEndUtcMs, sizeAnswers, ...rest } = stored;
  const reasons: Reasons = {};
  if (measured.value === null) {
    const why: NullReason = measured.reasons['value'] ?? 'no-data';
    reasons['measuredIosSavedPercent'] = why;
    reasons['differencePp'] = why;
  }
  const last = stored.curve.reduce<PredictionCurvePoint | null>((m, c) => (m === null || c.bytes > m.bytes ? c : m), null);
  const fromTrace: PredictionReport = {
    ...rest,
    source: 'capture-meta-prediction',
    windowStart: isoUtc(windowStartUtcMs),
    windowEnd: isoUtc(windowEndUtcMs),
    sizeAnswers: sizeAnswers.flatMap((a) => (a.bytes === null ? [] : [{ readHitPercent: a.readHitPercent, bytes: a.bytes }])),
    maxReadHitPercent: last === null ? 0 : last.readHitRatio * 100,
    measuredIosSavedPercent: measured.value,
    differencePp: measured.value === null ? null : stored.iosSavedPercent - measured.value,
    reasons,
  };
  return { fromTrace, reasons: {} };
}
