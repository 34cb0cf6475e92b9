// The prediction beside the measured figures (docs/metrics.md § Prediction): the engine carries
// the probe's numbers and splits each difference into parts that add up to it, worked out by hand.
import { describe, expect, it } from 'vitest';
import { measuredFigure, policiesCoincide, predictionReport, responseTimeMissing, sizeForIosSaved, type MeasuredForPrediction, type StoredPrediction } from './prediction.ts';

/** A stored prediction as an older probe wrote it (no backing I/O, response time, policies or steps). */
const OLD: StoredPrediction = {
  window: 'baseline', windowStartUtcMs: Date.UTC(2026, 0, 1), windowEndUtcMs: Date.UTC(2026, 0, 1, 1), warmupS: 60, devices: ['loop1'],
  policy: 'lru', method: 'exact-stack', writes: 'bypass', blockBytes: 4096, cacheBytes: 1 << 20, footprintBytes: 409600, sampleRate: 1,
  reads: 800, writesCount: 200, readHitRatio: 1, iosSavedPercent: 80, iosSavedUncertaintyPp: 0,
  curve: [{ bytes: 4096, readHitRatio: 0, iosSavedPercent: 0 }, { bytes: 409600, readHitRatio: 1, iosSavedPercent: 80 }, { bytes: 1 << 20, readHitRatio: 1, iosSavedPercent: 80 }],
  sizeAnswers: [{ readHitPercent: 90, bytes: 409600 }, { readHitPercent: 99, bytes: null }], skipped: 0, notes: [],
};

/**
 * Front 100 I/O per second in the baseline, 20 of them to the backing with the cache (80 % saved);
 * hits at 10 µs, the other requests at 1,000 µs on average, 80 % of them hits: 0.8 × 10 + 0.2 × 1,000 = 208 µs.
 */
const NEW: StoredPrediction = {
  ...OLD,
  cacheDevice: { preset: 'nvme', label: 'NVMe SSD (Intel SSD DC P4500)', readLatencyUs: 10, source: 'x', url: null, date: 'n.d.', basis: null },
  frontIos: { reads: 288000, writes: 72000, total: 360000, seconds: 3600, perSecond: 100 },
  backingIos: { readMisses: 0, writes: 72000, total: 72000, perSecond: 20, uncertainty: 0, perSecondUncertainty: 0 },
  responseTime: { predictedUs: 208, uncertaintyUs: 0, baselineUs: 1000, hitUs: 10, missUs: 1000, hitShare: 0.8, requests: 360000, withoutCompletion: 0, method: 'm' },
  policies: [{ policy: 'lru', method: 'exact-stack', readHitRatio: 1, iosSavedPercent: 80, curve: OLD.curve }, { policy: 'fifo', method: 'exact-simulation', readHitRatio: 0.9, iosSavedPercent: 72, curve: OLD.curve }],
  sizeSteps: [{ bytes: 4096, iosSavedPercent: 28.6 }, { bytes: 8192, iosSavedPercent: 42.9 }, { bytes: 409600, iosSavedPercent: 80 }],
};

/** The measure window: 70 % saved, 120 front and 36 backing I/O per second, 0.35 ms average response time. */
const MEASURED: MeasuredForPrediction = {
  iosSaved: measuredFigure(70, undefined),
  backingAfterPerSecond: measuredFigure(36, undefined),
  frontAfterPerSecond: measuredFigure(120, undefined),
  latencyAfterMs: measuredFigure(0.35, undefined),
  mode: 'front-and-backing',
};

describe('predictionReport', () => {
  it('sets the measured backing I/O and response time beside the predicted, each difference split into parts that add up to it', () => {
    const p = predictionReport(NEW, MEASURED).fromTrace;
    if (p === null) throw new Error('no prediction');
    expect(p.differencePp).toBeCloseTo(10, 12);
    const b = p.backingComparison;
    expect(b.predictedPerSecond).toBe(20);
    expect(b.measuredPerSecond).toBe(36);
    expect(b.differencePerSecond).toBeCloseTo(-16, 12);
    expect(b.differencePercent).toBeCloseTo((-16 / 36) * 100, 12);
    // the front's rate: (100 − 120) × (1 − 0.8) = −4; the hit share: 120 × (1 − 36/120 − 0.8) = −12
    expect(b.workloadPartPerSecond).toBeCloseTo(-4, 12);
    expect(b.hitSharePartPerSecond).toBeCloseTo(-12, 12);
    expect((b.workloadPartPerSecond ?? NaN) + (b.hitSharePartPerSecond ?? NaN)).toBeCloseTo(b.differencePerSecond ?? NaN, 12);
    expect(b.reasons).toEqual({});
    const r = p.responseComparison;
    expect(r.predictedMs).toBeCloseTo(0.208, 12);
    expect(r.differenceMs).toBeCloseTo(-0.142, 12);
    // the hit share: (0.8 − 0.7) × (0.01 − 1) = −0.099; the rest: 0.7 × 0.01 + 0.3 × 1 − 0.35 = −0.043
    expect(r.hitSharePartMs).toBeCloseTo(-0.099, 12);
    expect(r.otherPartMs).toBeCloseTo(-0.043, 12);
    expect(r.reasons).toEqual({});
    expect(p.policies.map((x) => x.policy)).toEqual(['lru', 'fifo']);
    expect(p.maxIosSavedPercent).toBe(80);
    expect(p.reasons).toEqual({});
  });

  it('an older probe\'s prediction reads with the new figures null and not-reported, and its LRU curve as the one policy', () => {
    const p = predictionReport(OLD, MEASURED).fromTrace;
    if (p === null) throw new Error('no prediction');
    expect([p.frontIos, p.backingIos, p.responseTime, p.cacheDevice]).toEqual([null, null, null, null]);
    expect(p.reasons).toEqual({ frontIos: 'not-reported', backingIos: 'not-reported', responseTime: 'not-reported', cacheDevice: 'not-reported' });
    expect(p.policies).toEqual([{ policy: 'lru', method: 'exact-stack', readHitRatio: 1, iosSavedPercent: 80, curve: OLD.curve }]);
    expect(p.sizeSteps).toEqual([]);
    expect(p.backingComparison.predictedPerSecond).toBeNull();
    expect(p.backingComparison.reasons['predictedPerSecond']).toBe('not-reported');
    expect(p.backingComparison.measuredPerSecond).toBe(36);
    expect(p.responseComparison.reasons).toMatchObject({ predictedMs: 'not-reported', hitSharePartMs: 'not-reported' });
    expect(p.differencePp).toBeCloseTo(10, 12);
  });

  it('without a front device the parts are null (backing-only mode); a missing measured figure carries its reason', () => {
    const p = predictionReport(NEW, { ...MEASURED, mode: 'backing-only', latencyAfterMs: measuredFigure(null, 'no-io') }).fromTrace;
    if (p === null) throw new Error('no prediction');
    expect(p.backingComparison.differencePerSecond).toBeCloseTo(-16, 12);
    expect(p.backingComparison.measuredFrontPerSecond).toBeNull();
    expect(p.backingComparison.reasons).toEqual({ measuredFrontPerSecond: 'backing-only-mode', workloadPartPerSecond: 'backing-only-mode', hitSharePartPerSecond: 'backing-only-mode' });
    expect(p.responseComparison.measuredMs).toBeNull();
    expect(p.responseComparison.reasons).toEqual({ measuredMs: 'no-io', differenceMs: 'no-io', hitSharePartMs: 'no-io', otherPartMs: 'no-io' });
  });

  it('no stored prediction: null, not-reported', () => {
    expect(predictionReport(null, MEASURED)).toEqual({ fromTrace: null, reasons: { fromTrace: 'not-reported' } });
  });
});

describe('sizeForIosSaved', () => {
  it('answers with the smallest step reaching the share, rounded up to 0.1 point; null beyond what first references allow', () => {
    const p = { sizeSteps: NEW.sizeSteps ?? [] };
    expect(sizeForIosSaved(p, 20)).toEqual({ bytes: 4096, iosSavedPercent: 28.6 });
    expect(sizeForIosSaved(p, 42.85)).toEqual({ bytes: 8192, iosSavedPercent: 42.9 });
    expect(sizeForIosSaved(p, 42.9)).toEqual({ bytes: 8192, iosSavedPercent: 42.9 });
    expect(sizeForIosSaved(p, 42.91)).toEqual({ bytes: 409600, iosSavedPercent: 80 });
    expect(sizeForIosSaved(p, 80)).toEqual({ bytes: 409600, iosSavedPercent: 80 });
    expect(sizeForIosSaved(p, 80.01)).toBeNull();
    expect(sizeForIosSaved(p, 0)).toBeNull();
    expect(sizeForIosSaved(p, Number.NaN)).toBeNull();
  });
});

describe('why a prediction has no response time, and policies whose curves coincide', () => {
  const device = { preset: 'ram', readLatencyUs: 0.1, source: 'x', url: null, date: '2026', basis: null } as unknown as NonNullable<StoredPrediction['cacheDevice']>;
  it('says the trace had no completion times when a device (RAM) was asked for, not that no device was', () => {
    expect(responseTimeMissing({ cacheDevice: device, responseTime: null })).toBe('no-completion-times');
    expect(responseTimeMissing({ cacheDevice: null, responseTime: null })).toBe('no-cache-device');
    expect(responseTimeMissing({ cacheDevice: undefined, responseTime: undefined })).toBe('not-reported');
    expect(responseTimeMissing({ cacheDevice: device, responseTime: { hitUs: 0.1, missUs: 900, predictedUs: 300, baselineUs: 900, requests: 10, uncertaintyUs: 0 } as unknown as NonNullable<StoredPrediction['responseTime']> })).toBeNull();
  });
  it('finds six equal curves coinciding (one line hides the others), and a curve 0.1 point apart not', () => {
    const c = OLD.curve;
    const six = ['lru', 'fifo', 'clock', 'arc', '2q', 's3fifo'].map((policy) => ({ policy, method: 'exact-simulation', readHitRatio: 1, iosSavedPercent: 80, curve: c }));
    expect(policiesCoincide(six)).toBe(true);
    expect(policiesCoincide(six.slice(0, 1))).toBe(false);
    const apart = [...six.slice(0, 5), { ...six[0], policy: 's3fifo', curve: c.map((x, i) => (i === 1 ? { ...x, iosSavedPercent: 79.9 } : x)) }] as typeof six;
    expect(policiesCoincide(apart)).toBe(false);
    expect(predictionReport({ ...OLD, policies: six }, MEASURED).fromTrace?.policiesCoincide).toBe(true);
  });
});
