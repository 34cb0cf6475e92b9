/**
 * "And at 256 GB?": the prediction at another cache size, read from the miss-ratio curves the
 * probe stored with the prediction (`prediction.fromTrace.curve` and `policies[].curve`, docs/
 * simulate.md § predict) instead of a new replay. One implementation for the dashboard's size
 * slider, the report and the CLI (docs/metrics.md § Prediction at another size).
 *
 * Method: between two sizes of the curve the figures are interpolated linearly in the logarithm
 * of the size (the probe spaces its sizes evenly on a log scale). A hit ratio does not fall as an
 * LRU cache grows (the stack property: a larger LRU cache holds everything a smaller one holds),
 * so the true figure lies between the two points' figures: the interpolation's error is at most
 * the distance from the value read to the farther of the two. Policies without the stack property
 * (FIFO, CLOCK, …) may, rarely, dip between two sizes (Belady's anomaly); the bound assumes they
 * do not. To that the sampling's own 95 % half-width, as the probe states it at its size
 * (`iosSavedUncertaintyPp`, `backingIos.uncertainty`, `responseTime.uncertaintyUs`; 0 with every
 * request traced), is added. At a size of the curve the interpolation's part is 0; past the
 * footprint every block fits and the figures are the largest size's.
 */
import { readMissPercent } from './miss-ratio.ts';
import type { PredictionCurvePoint, PredictionReport } from './prediction.ts';

/** How a figure was read from the curve: at one of its sizes, between two, or past the footprint (every block fits). */
export type CurveReadingMethod = 'point' | 'between' | 'all-fit';

/** One curve read at a size. */
export interface CurveReading {
  /** The size asked, bytes. */
  bytes: number;
  readHitRatio: number;
  iosSavedPercent: number;
  method: CurveReadingMethod;
  /** The curve's sizes it was read between (both the same size at a point; the largest size when all fit), bytes. */
  lowerBytes: number;
  upperBytes: number;
  /** The interpolation's error bound: the farther of the two points' figures from the value read (0 at a point). */
  interpolationPp: number;
  interpolationRatio: number;
}

/**
 * The curve read at `bytes` (see the file's doc for the method and its bound), or null below
 * the curve's smallest size or above its largest when the largest holds less than the footprint
 * (the curve says nothing there: the probe answers, `predict --size`).
 * Example: points 4,096 B → 0 % and 16,384 B → 40 %, at 8,192 B (halfway in log size) → 20 % ± 20 points.
 */
export function readCurve(curve: readonly PredictionCurvePoint[], bytes: number, footprintBytes: number): CurveReading | null {
  if (curve.length === 0 || !Number.isFinite(bytes)) return null;
  const pts = [...curve].sort((a, b) => a.bytes - b.bytes);
  const first = pts[0] as PredictionCurvePoint;
  const last = pts[pts.length - 1] as PredictionCurvePoint;
  const at = (p: PredictionCurvePoint, method: CurveReadingMethod): CurveReading => ({
    bytes, readHitRatio: p.readHitRatio, iosSavedPercent: p.iosSavedPercent, method,
    lowerBytes: p.bytes, upperBytes: p.bytes, interpolationPp: 0, interpolationRatio: 0,
  });
  if (bytes < first.bytes) return null;
  if (bytes > last.bytes) return last.bytes >= footprintBytes ? at(last, 'all-fit') : null;
  const hi = pts.findIndex((p) => p.bytes >= bytes);
  const upper = pts[hi] as PredictionCurvePoint;
  if (upper.bytes === bytes) return at(upper, 'point');
  const lower = pts[hi - 1] as PredictionCurvePoint;
  const f = (Math.log(bytes) - Math.log(lower.bytes)) / (Math.log(upper.bytes) - Math.log(lower.bytes));
  const lerp = (a: number, b: number): number => a + (b - a) * f;
  const far = (v: number, a: number, b: number): number => Math.max(Math.abs(v - a), Math.abs(b - v));
  const readHitRatio = lerp(lower.readHitRatio, upper.readHitRatio);
  const iosSavedPercent = lerp(lower.iosSavedPercent, upper.iosSavedPercent);
  return {
    bytes, readHitRatio, iosSavedPercent, method: 'between', lowerBytes: lower.bytes, upperBytes: upper.bytes,
    interpolationPp: far(iosSavedPercent, lower.iosSavedPercent, upper.iosSavedPercent),
    interpolationRatio: far(readHitRatio, lower.readHitRatio, upper.readHitRatio),
  };
}

/** One policy's I/Os saved at the size, with its error bound. */
export interface WhatIfPolicy {
  policy: string;
  iosSavedPercent: number;
  /** Interpolation + sampling, percentage points. */
  iosSavedErrorPp: number;
}

/** The prediction at another size, from the stored curves (the first policy's figures, as the stored prediction's). */
export interface WhatIf {
  /** The size asked, bytes. */
  bytes: number;
  /** The first policy (the one whose figures the prediction gives). */
  policy: string;
  method: CurveReadingMethod;
  lowerBytes: number;
  upperBytes: number;
  /** The interpolation's part of the I/Os saved's bound, points. */
  interpolationPp: number;
  /** The sampling's part (the probe's `iosSavedUncertaintyPp`), points. */
  samplingPp: number;
  readHitRatio: number;
  /** Error bound of `readHitRatio`, 0–1. */
  readHitError: number;
  iosSavedPercent: number;
  /** interpolationPp + samplingPp. */
  iosSavedErrorPp: number;
  /** Predicted I/O still reaching the backing device (read misses and writes), and per second; null when the stored prediction has none. */
  backingTotal: number | null;
  backingPerSecond: number | null;
  backingError: number | null;
  backingErrorPerSecond: number | null;
  /** Predicted average response time, µs; null without a cache device. */
  responseUs: number | null;
  responseErrorUs: number | null;
  /** Every simulated policy at the size, the first one first. */
  policies: WhatIfPolicy[];
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
/** Never −0 (a figure is never −0 in any output). */
const nz = (x: number): number => (x === 0 ? 0 : x);

/**
 * Where the true predicted response time lies at hit share `share`, µs, from what the stored
 * prediction holds (means, not each request's latency). The probe's figure is `share × hitUs` + the
 * own traced latency of the requests that are not hits, per averaged request. Growing the cache
 * (LRU's stack property: the new non-hits are some of the stored ones) that part lies between 0 and
 * the stored non-hits' whole own time, `(1 − hitShare) × missUs`; shrinking it, it is the stored
 * non-hits' time plus between 0 and the stored hits' own time (`baselineUs` − the non-hits' part).
 * At the stored share: the stored figure. Example: hit share 0.4, hits at 10 µs, non-hits 1,000 µs,
 * baseline 1,000 µs; at 0.6: 6 – 606 µs. The range jumps at the stored share (exact there, wide just
 * beside it): {@link responseSpan} takes it over an interval of shares.
 */
function responseRange(rt: NonNullable<PredictionReport['responseTime']>, share: number, side: 'up' | 'down' | 'at'): [number, number] {
  if (side === 'at') return [rt.predictedUs, rt.predictedUs];
  const nonHits = (1 - rt.hitShare) * (rt.missUs ?? rt.hitUs);
  const hits = Math.max(0, rt.baselineUs - nonHits);
  const base = share * rt.hitUs;
  return side === 'up' ? [base, base + nonHits] : [base + nonHits, base + nonHits + hits];
}

/**
 * The range of the response time over hit shares `from` – `to` ({@link responseRange}: on either
 * side of the stored share each end grows with the share, so its ends, and the limits beside the
 * stored share when the interval reaches it, bound it).
 */
function responseSpan(rt: NonNullable<PredictionReport['responseTime']>, from: number, to: number): [number, number] {
  const h = rt.hitShare;
  const side = (x: number): 'up' | 'down' | 'at' => (x > h ? 'up' : x < h ? 'down' : 'at');
  const parts = [responseRange(rt, from, side(from)), responseRange(rt, to, side(to))];
  if (from <= h && h <= to) parts.push(responseRange(rt, h, 'at'));
  if (from < h && h <= to) parts.push(responseRange(rt, h, 'down'));
  if (from <= h && h < to) parts.push(responseRange(rt, h, 'up'));
  return parts.reduce((a, b) => [Math.min(a[0], b[0]), Math.max(a[1], b[1])]);
}

/**
 * The prediction at `bytes` read from the stored curves, or null where the curve says nothing
 * (see {@link readCurve}). Backing I/O: the stored total moved by the change in I/Os saved times
 * the counted front I/Os (a saved I/O is one fewer at the backing device). Response time: the
 * stored prediction moved by the change in hit share times (hit latency − the non-hits' mean
 * latency), taking the requests that change between hit and miss at the non-hits' mean traced
 * latency (exact when every counted request has a completion and the non-hits' latency does not
 * depend on the size); its bound does not assume that: the prediction stores means, not each
 * request's latency, so it spans every place the switching requests' own latencies could put the
 * figure ({@link responseSpan}) over the I/Os saved's interpolation interval, plus the sampling's. Example: stored 80 % saved of 360,000 I/Os, 72,000 to the backing; at a
 * size reading 60 % → 72,000 + 0.2 × 360,000 = 144,000.
 */
export function predictionAtSize(p: PredictionReport, bytes: number): WhatIf | null {
  const r = readCurve(p.curve, bytes, p.footprintBytes);
  if (r === null) return null;
  const samplingPp = p.sampleRate < 1 ? p.iosSavedUncertaintyPp : 0;
  const errPp = r.interpolationPp + samplingPp;
  const counted = p.reads + p.writesCount;
  const dSaved = (r.iosSavedPercent - p.iosSavedPercent) / 100;
  let backingTotal: number | null = null;
  let backingPerSecond: number | null = null;
  let backingError: number | null = null;
  let backingErrorPerSecond: number | null = null;
  if (p.backingIos !== null && p.frontIos !== null) {
    const f = p.frontIos;
    backingTotal = nz(Math.min(f.total, Math.max(0, p.backingIos.total - dSaved * f.total)));
    backingError = nz((r.interpolationPp / 100) * f.total + (p.sampleRate < 1 ? p.backingIos.uncertainty : 0));
    backingPerSecond = f.seconds > 0 ? backingTotal / f.seconds : null;
    backingErrorPerSecond = f.seconds > 0 ? backingError / f.seconds : null;
  }
  let responseUs: number | null = null;
  let responseErrorUs: number | null = null;
  const rt = p.responseTime;
  if (rt !== null) {
    const miss = rt.missUs ?? rt.hitUs;
    const share = clamp01(rt.hitShare + dSaved);
    responseUs = rt.predictedUs + (share - rt.hitShare) * (rt.hitUs - miss);
    const eps = r.interpolationPp / 100;
    const [lo, hi] = responseSpan(rt, clamp01(share - eps), clamp01(share + eps));
    responseErrorUs = nz(Math.max(responseUs - lo, hi - responseUs, 0) + (p.sampleRate < 1 ? rt.uncertaintyUs : 0));
  }
  const policies: WhatIfPolicy[] = p.policies.flatMap((c) => {
    const x = readCurve(c.curve, bytes, p.footprintBytes);
    return x === null ? [] : [{ policy: c.policy, iosSavedPercent: x.iosSavedPercent, iosSavedErrorPp: x.interpolationPp + samplingPp }];
  });
  return {
    bytes, policy: p.policy, method: r.method, lowerBytes: r.lowerBytes, upperBytes: r.upperBytes,
    interpolationPp: r.interpolationPp, samplingPp,
    readHitRatio: r.readHitRatio,
    readHitError: r.interpolationRatio + (p.reads > 0 ? (samplingPp / 100) * (counted / p.reads) : 0),
    iosSavedPercent: r.iosSavedPercent, iosSavedErrorPp: errPp,
    backingTotal, backingPerSecond, backingError, backingErrorPerSecond, responseUs, responseErrorUs, policies,
  };
}

/** One policy's curve read at a size, as the miss-ratio chart marks it. */
export interface CurveMark {
  policy: string;
  /** The size marked, bytes (the size asked). */
  bytes: number;
  /** 100 × (1 − the read hit ratio read at that size), as the chart's lines ({@link readMissPercent}). */
  missPercent: number;
}

/**
 * The miss-ratio chart's marks at `bytes`: every policy's curve read there ({@link readCurve}),
 * the policies whose curve says nothing at that size left out. Example: LRU points 4,096 B → hit
 * 0 and 16,384 B → hit 0.4, at 8,192 B → miss 80 %.
 */
export function curveMarks(p: Pick<PredictionReport, 'policies' | 'footprintBytes'>, bytes: number): CurveMark[] {
  return p.policies.flatMap((c) => {
    const r = readCurve(c.curve, bytes, p.footprintBytes);
    return r === null ? [] : [{ policy: c.policy, bytes, missPercent: readMissPercent(r.readHitRatio) }];
  });
}

/**
 * The sizes a slider offers over the stored curve: every size of the curve and `between` sizes
 * spaced evenly on a log scale inside each gap, in whole blocks (the probe simulates whole
 * blocks), smallest first, each once. Example: curve 4,096 B and 65,536 B, 4 KiB blocks,
 * between 3 → 4,096, 8,192, 16,384, 32,768, 65,536.
 */
export function whatIfSizes(p: Pick<PredictionReport, 'curve' | 'blockBytes'>, between = 3): number[] {
  const block = p.blockBytes > 0 ? p.blockBytes : 1;
  const pts = [...new Set(p.curve.map((c) => c.bytes))].sort((a, b) => a - b);
  const out: number[] = [];
  pts.forEach((b, i) => {
    out.push(b);
    const next = pts[i + 1];
    if (next === undefined) return;
    for (let k = 1; k <= between; k++) {
      const s = Math.round(Math.exp(Math.log(b) + ((Math.log(next) - Math.log(b)) * k) / (between + 1)) / block) * block;
      if (s > b && s < next) out.push(s);
    }
  });
  return [...new Set(out)].sort((a, b) => a - b);
}
