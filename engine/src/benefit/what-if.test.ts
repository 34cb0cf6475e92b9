// The prediction at another size read from the stored curves (what-if.ts): at the curve's sizes,
// between them (linear in log size, bounded by the two points), at and past the ends, and the
// sampling's part of the bound, each worked out by hand.
import { describe, expect, it } from 'vitest';
import { measuredFigure, predictionReport, type PredictionReport, type StoredPrediction } from './prediction.ts';
import { curveMarks, predictionAtSize, readCurve, whatIfSizes } from './what-if.ts';

const KIB = 1024;
/** LRU: 4 KiB → 0 %, 16 KiB → 40 %, 64 KiB (the footprint) → 80 % saved; 800 reads, 200 writes. */
const CURVE = [
  { bytes: 4 * KIB, readHitRatio: 0, iosSavedPercent: 0 },
  { bytes: 16 * KIB, readHitRatio: 0.5, iosSavedPercent: 40 },
  { bytes: 64 * KIB, readHitRatio: 1, iosSavedPercent: 80 },
];
const FIFO = [
  { bytes: 4 * KIB, readHitRatio: 0, iosSavedPercent: 0 },
  { bytes: 16 * KIB, readHitRatio: 0.25, iosSavedPercent: 20 },
  { bytes: 64 * KIB, readHitRatio: 1, iosSavedPercent: 80 },
];

const BACKING = { readMisses: 400, writes: 200, total: 600, perSecond: 60, uncertainty: 0, perSecondUncertainty: 0 };
const RESPONSE = { predictedUs: 604, uncertaintyUs: 0, baselineUs: 1000, hitUs: 10, missUs: 1000, hitShare: 0.4, requests: 1000, withoutCompletion: 0, method: 'm' };

/**
 * Stored at 16 KiB (40 % saved): 1,000 counted I/Os over 10 s, 600 to the backing (400 read misses + 200 writes);
 * hits at 10 µs, non-hits at 1,000 µs, hit share 0.4: 0.4 × 10 + 0.6 × 1,000 = 604 µs.
 */
const STORED: StoredPrediction = {
  window: 'baseline', windowStartUtcMs: Date.UTC(2026, 0, 1), windowEndUtcMs: Date.UTC(2026, 0, 1, 0, 0, 10), warmupS: 0, devices: ['loop1'],
  policy: 'lru', method: 'exact-stack', writes: 'bypass', blockBytes: 4 * KIB, cacheBytes: 16 * KIB, footprintBytes: 64 * KIB, sampleRate: 1,
  reads: 800, writesCount: 200, readHitRatio: 0.5, iosSavedPercent: 40, iosSavedUncertaintyPp: 0,
  curve: CURVE, sizeAnswers: [], skipped: 0, notes: [],
  cacheDevice: { preset: 'typed', label: null, readLatencyUs: 10, source: null, url: null, date: null, basis: null },
  frontIos: { reads: 800, writes: 200, total: 1000, seconds: 10, perSecond: 100 },
  backingIos: BACKING,
  responseTime: RESPONSE,
  policies: [{ policy: 'lru', method: 'exact-stack', readHitRatio: 0.5, iosSavedPercent: 40, curve: CURVE }, { policy: 'fifo', method: 'exact-simulation', readHitRatio: 0.25, iosSavedPercent: 20, curve: FIFO }],
  sizeSteps: [],
};

function report(s: StoredPrediction): PredictionReport {
  const none = measuredFigure(null, 'no-data');
  const p = predictionReport(s, { iosSaved: none, backingAfterPerSecond: none, frontAfterPerSecond: none, latencyAfterMs: none, mode: 'front-and-backing' }).fromTrace;
  if (p === null) throw new Error('no prediction');
  return p;
}

describe('readCurve', () => {
  it('at a size of the curve gives that point, with no interpolation error', () => {
    expect(readCurve(CURVE, 16 * KIB, 64 * KIB)).toEqual({ bytes: 16 * KIB, readHitRatio: 0.5, iosSavedPercent: 40, method: 'point', lowerBytes: 16 * KIB, upperBytes: 16 * KIB, interpolationPp: 0, interpolationRatio: 0 });
  });

  it('between two sizes interpolates in log size and bounds the error by the farther point', () => {
    // 8 KiB is halfway between 4 and 16 KiB in log size: 20 %, the true figure in [0, 40] → ± 20
    const r = readCurve(CURVE, 8 * KIB, 64 * KIB);
    expect(r?.method).toBe('between');
    expect([r?.lowerBytes, r?.upperBytes]).toEqual([4 * KIB, 16 * KIB]);
    expect(r?.iosSavedPercent).toBeCloseTo(20, 12);
    expect(r?.interpolationPp).toBeCloseTo(20, 12);
    expect(r?.readHitRatio).toBeCloseTo(0.25, 12);
    // 32 KiB: halfway between 16 and 64 KiB → 60 % ± 20; a quarter of the way (log) from 16 KiB: 22.6 KiB → 50 %, bound max(10, 30) = 30
    expect(readCurve(CURVE, 32 * KIB, 64 * KIB)?.iosSavedPercent).toBeCloseTo(60, 12);
    const q = readCurve(CURVE, 16 * KIB * Math.SQRT2, 64 * KIB);
    expect(q?.iosSavedPercent).toBeCloseTo(50, 10);
    expect(q?.interpolationPp).toBeCloseTo(30, 10);
  });

  it('at the ends: the smallest and largest sizes are points; below the curve nothing; past the footprint the largest size', () => {
    expect(readCurve(CURVE, 4 * KIB, 64 * KIB)?.method).toBe('point');
    expect(readCurve(CURVE, 64 * KIB, 64 * KIB)?.iosSavedPercent).toBe(80);
    expect(readCurve(CURVE, 4 * KIB - 1, 64 * KIB)).toBeNull();
    const past = readCurve(CURVE, 1 << 30, 64 * KIB);
    expect(past).toMatchObject({ method: 'all-fit', iosSavedPercent: 80, interpolationPp: 0, lowerBytes: 64 * KIB, upperBytes: 64 * KIB });
    // a curve that stops short of the footprint says nothing above its largest size
    expect(readCurve(CURVE, 128 * KIB, 1 << 20)).toBeNull();
    expect(readCurve([], 4 * KIB, 0)).toBeNull();
    expect(readCurve(CURVE, Number.NaN, 64 * KIB)).toBeNull();
  });
});

describe('predictionAtSize', () => {
  it('at the stored size gives back the stored figures exactly', () => {
    const w = predictionAtSize(report(STORED), 16 * KIB);
    expect(w).toMatchObject({ method: 'point', iosSavedPercent: 40, iosSavedErrorPp: 0, readHitRatio: 0.5, readHitError: 0, backingTotal: 600, backingPerSecond: 60, backingError: 0, responseUs: 604, responseErrorUs: 0 });
    expect(w?.policies).toEqual([{ policy: 'lru', iosSavedPercent: 40, iosSavedErrorPp: 0 }, { policy: 'fifo', iosSavedPercent: 20, iosSavedErrorPp: 0 }]);
  });

  it('at another size moves backing I/O and response time by the change in I/Os saved, each with its bound', () => {
    // 32 KiB: 60 % ± 20 saved; backing 600 − 0.2 × 1,000 = 400 (40 per second) ± 200; response 604 + 0.2 × (10 − 1,000) = 406 µs;
    // its bound: the hit share lies in 0.4 – 0.8; at 0.4 the stored 604 µs, just above it share × 10 µs plus 0 to the
    // non-hits' 0.6 × 1,000 = 600 µs: 4 – 608 µs overall, ± max(406 − 4, 608 − 406) = 402
    const w = predictionAtSize(report(STORED), 32 * KIB);
    expect(w?.method).toBe('between');
    expect(w?.iosSavedPercent).toBeCloseTo(60, 12);
    expect(w?.iosSavedErrorPp).toBeCloseTo(20, 12);
    expect(w?.backingTotal).toBeCloseTo(400, 9);
    expect(w?.backingPerSecond).toBeCloseTo(40, 9);
    expect(w?.backingError).toBeCloseTo(200, 9);
    expect(w?.backingErrorPerSecond).toBeCloseTo(20, 9);
    expect(w?.responseUs).toBeCloseTo(406, 9);
    expect(w?.responseErrorUs).toBeCloseTo(402, 9);
    // FIFO between 20 and 80 %: 50 % ± 30
    expect(w?.policies[1]?.iosSavedPercent).toBeCloseTo(50, 12);
    expect(w?.policies[1]?.iosSavedErrorPp).toBeCloseTo(30, 12);
    // the largest size: every read hits, only the 200 writes reach the backing; response 0.8 × 10 + 0.2 × 1,000 = 208 µs
    const all = predictionAtSize(report(STORED), 64 * KIB);
    expect(all?.backingTotal).toBeCloseTo(200, 9);
    expect(all?.responseUs).toBeCloseTo(208, 9);
    // a size of the curve, yet not exact: which requests turn to hits, and their own latencies, are not stored: 8 – 608 µs
    expect(all?.responseErrorUs).toBeCloseTo(400, 9);
    // smaller than stored (4 KiB, a size of the curve: hit share 0): the stored non-hits' 600 µs plus 0 to the hits' own
    // 400 µs: 600 – 1,000 µs around 604 + 0.4 × 990 = 1,000
    const none = predictionAtSize(report(STORED), 4 * KIB);
    expect(none?.responseUs).toBeCloseTo(1000, 9);
    expect(none?.responseErrorUs).toBeCloseTo(400, 9);
    expect(predictionAtSize(report(STORED), 2 * KIB)).toBeNull();
  });

  it('adds the sampling half-width the probe states on a sampled trace (and not on a full one)', () => {
    const sampled = report({ ...STORED, sampleRate: 0.1, iosSavedUncertaintyPp: 3,
      backingIos: { ...BACKING, uncertainty: 50, perSecondUncertainty: 5 },
      responseTime: { ...RESPONSE, uncertaintyUs: 7 } });
    const at = predictionAtSize(sampled, 16 * KIB);
    expect(at).toMatchObject({ samplingPp: 3, iosSavedErrorPp: 3, backingError: 50, backingErrorPerSecond: 5, responseErrorUs: 7 });
    // read hits: 3 points of the 1,000 counted I/Os are 30 of the 800 reads: ± 0.0375
    expect(at?.readHitError).toBeCloseTo(0.0375, 12);
    const between = predictionAtSize(sampled, 32 * KIB);
    expect(between?.iosSavedErrorPp).toBeCloseTo(23, 12);
    expect(between?.backingError).toBeCloseTo(250, 9);
    expect(between?.responseErrorUs).toBeCloseTo(409, 9);
    // a full trace's stored uncertainty (0) is not added; nor is a stray one when every request was traced
    expect(predictionAtSize(report({ ...STORED, iosSavedUncertaintyPp: 9 }), 16 * KIB)?.iosSavedErrorPp).toBe(0);
  });

  it('without a cache device or backing figures (an older probe) gives the I/Os saved alone', () => {
    const { cacheDevice: _c, frontIos: _f, backingIos: _b, responseTime: _r, ...old } = STORED;
    const w = predictionAtSize(report(old), 32 * KIB);
    expect(w?.iosSavedPercent).toBeCloseTo(60, 12);
    expect([w?.backingTotal, w?.backingPerSecond, w?.responseUs, w?.responseErrorUs]).toEqual([null, null, null, null]);
  });
});

describe('whatIfSizes', () => {
  it('every size of the curve and evenly spaced (log) whole blocks between them, smallest first', () => {
    expect(whatIfSizes({ curve: [{ bytes: 4 * KIB, readHitRatio: 0, iosSavedPercent: 0 }, { bytes: 64 * KIB, readHitRatio: 1, iosSavedPercent: 1 }], blockBytes: 4 * KIB }, 3))
      .toEqual([4, 8, 16, 32, 64].map((k) => k * KIB));
    // gaps too small for a whole block between them add nothing; sizes come once
    expect(whatIfSizes({ curve: [...CURVE, { bytes: 8 * KIB, readHitRatio: 0, iosSavedPercent: 0 }, { bytes: 8 * KIB, readHitRatio: 0, iosSavedPercent: 0 }], blockBytes: 4 * KIB }, 3))
      .toEqual([4, 8, 12, 16, 24, 32, 44, 64].map((k) => k * KIB));
  });
});

describe('curveMarks', () => {
  it('every policy\'s miss ratio at the asked size: at a point, between two (log size), past the footprint, and none below the curve', () => {
    const p = report(STORED);
    // at 16 KiB, sizes of both curves: LRU hit 0.5 → 50 % misses, FIFO hit 0.25 → 75 %
    expect(curveMarks(p, 16 * KIB)).toEqual([{ policy: 'lru', bytes: 16 * KIB, missPercent: 50 }, { policy: 'fifo', bytes: 16 * KIB, missPercent: 75 }]);
    // 8 KiB is halfway between 4 and 16 KiB in log size: LRU hit 0.25 → 75 %, FIFO 0.125 → 87.5 %
    expect(curveMarks(p, 8 * KIB)).toEqual([{ policy: 'lru', bytes: 8 * KIB, missPercent: 75 }, { policy: 'fifo', bytes: 8 * KIB, missPercent: 87.5 }]);
    // past the 64 KiB footprint every block fits: the largest size's figures, marked at the size asked
    expect(curveMarks(p, 128 * KIB)).toEqual([{ policy: 'lru', bytes: 128 * KIB, missPercent: 0 }, { policy: 'fifo', bytes: 128 * KIB, missPercent: 0 }]);
    expect(curveMarks(p, 2 * KIB)).toEqual([]);
  });
});
