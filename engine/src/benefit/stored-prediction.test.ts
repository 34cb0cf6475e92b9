/**
 * A stored prediction read back into an analysis (issue 38): `withStoredPrediction` on the analysis
 * of a capture without (or with another, or an unreadable) prediction equals, deep and in warning
 * order, the analysis of the same capture with that prediction in its meta — with setup warnings
 * before it (short windows, drift, backing-only mode) and interval and capture warnings after.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import type { StoredPrediction } from './prediction.ts';
import type { AnalysisReport } from './result.ts';
import { withStoredPrediction } from './stored-prediction.ts';
import { synthCapture, T0, type SynthOptions } from './testkit.ts';
import type { CaptureData } from '../records/types.ts';

/** A prediction from `reads` + `writesCount` requests: 80 % saved at 1 MiB, with backing I/O and response time beside the measured ones. */
function stored(reads: number, writesCount: number, cacheBytes = 1 << 20): StoredPrediction {
  return {
    window: 'baseline', windowStartUtcMs: T0, windowEndUtcMs: T0 + 60_000, warmupS: 0, devices: ['sda'], policy: 'lru', method: 'exact-stack', writes: 'bypass',
    blockBytes: 4096, cacheBytes, footprintBytes: 409600, sampleRate: 1, reads, writesCount, readHitRatio: 0.9, iosSavedPercent: 80, iosSavedUncertaintyPp: 0.5,
    curve: [{ bytes: 4096, readHitRatio: 0, iosSavedPercent: 0 }, { bytes: cacheBytes, readHitRatio: 0.9, iosSavedPercent: 80 }], sizeAnswers: [{ readHitPercent: 90, bytes: cacheBytes }],
    skipped: 0, notes: [],
    frontIos: { reads, writes: writesCount, total: reads + writesCount, seconds: 60, perSecond: (reads + writesCount) / 60 },
    backingIos: { readMisses: reads / 10, writes: writesCount, total: reads / 10 + writesCount, perSecond: (reads / 10 + writesCount) / 60, uncertainty: 0, perSecondUncertainty: 0 },
    responseTime: { predictedUs: 120, uncertaintyUs: 1, baselineUs: 900, hitUs: 85, missUs: 900, hitShare: 0.9, requests: reads + writesCount, withoutCompletion: 0, method: 'm' },
  };
}

function analysed(data: CaptureData): AnalysisReport {
  const r = analyze(data, { seed: 7, bootstrapReplicates: 200 });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

/** The capture of `o` with `prediction` (and the capture warnings a reader would add for an unreadable one). */
function capture(o: SynthOptions, prediction: StoredPrediction | null, unreadable = false): CaptureData {
  const data = synthCapture(o);
  data.prediction = prediction;
  data.warnings.push({ code: 'recorder-note', message: 'a note of the recorder', atMs: T0 + 10_000 });
  if (unreadable) data.warnings.push({ code: 'prediction-unreadable', message: 'run.capture: meta.prediction is not JSON' });
  return data;
}

const shapes: [string, SynthOptions][] = [
  ['front and backing, short windows', { baselineS: 120, measureS: 120, missRatio: 0.3, noise: 0.05, seed: 3 }],
  ['backing only, workload drift', { baselineS: 120, measureS: 90, front: null, iopsBefore: 200, iopsAfter: 400, noise: 0.05, seed: 4 }],
];

describe.each(shapes)('withStoredPrediction: %s', (_, o) => {
  it('none → a prediction from few requests: the analysis with it, its warning after the setup ones', () => {
    const back = withStoredPrediction(analysed(capture(o, null)), stored(5, 5));
    const fresh = analysed(capture(o, stored(5, 5)));
    expect(back).toEqual(fresh);
    expect(back.warnings.map((w) => w.code)).toContain('prediction-few-requests');
  });

  it('one prediction → another, and → none', () => {
    const first = analysed(capture(o, stored(5, 5)));
    expect(withStoredPrediction(first, stored(4000, 1000, 2 << 20))).toEqual(analysed(capture(o, stored(4000, 1000, 2 << 20))));
    expect(withStoredPrediction(first, null)).toEqual(analysed(capture(o, null)));
  });

  it('an unreadable prediction → a readable one: the capture\'s warning about it gone', () => {
    const before = analysed(capture(o, null, true));
    expect(before.warnings.map((w) => w.code)).toContain('prediction-unreadable');
    expect(withStoredPrediction(before, stored(900, 50))).toEqual(analysed(capture(o, stored(900, 50))));
  });
});
