import type { NullReason } from '../metrics/summary.ts';
import { AGG } from './aggregate.ts';

/** How the capture's devices let us attribute I/O. */
export type AnalysisMode = 'front-and-backing' | 'backing-only';

/** A figure or the reason it cannot be computed. */
export type Figure = { value: number; reason?: undefined } | { value: null; reason: NullReason };

const ok = (value: number): Figure => ({ value });
const no = (reason: NullReason): Figure => ({ value: null, reason });
const at = (v: Float64Array, i: number): number => v[i] as number;

/**
 * Share of I/O saved from the backing devices, percent, from two aggregate vectors (see AGG).
 * - front-and-backing: backing I/Os per front I/O, over intervals where both are measured,
 *   after vs before: (1 − (B/F)measure / (B/F)baseline) × 100. Exact attribution; insensitive to
 *   a change in load volume; equals 1 − B/F of the measure window when the stack passes I/O
 *   one-to-one before the switch.
 * - backing-only: backing I/Os per second, after vs before: (1 − rate_measure / rate_baseline) × 100.
 * Can be negative (more backing I/O than before).
 *
 * @example
 * // baseline: front 1000, backing 1000; measure: front 1200, backing 60
 * iosSavedPercent('front-and-backing', base, meas) // { value: 95 } = (1 − 0.05 / 1) × 100
 */
export function iosSavedPercent(mode: AnalysisMode, baseline: Float64Array, measure: Float64Array): Figure {
  if (mode === 'front-and-backing') {
    const fb = at(baseline, AGG.jFReads) + at(baseline, AGG.jFWrites);
    const bb = at(baseline, AGG.jBReads) + at(baseline, AGG.jBWrites);
    const fm = at(measure, AGG.jFReads) + at(measure, AGG.jFWrites);
    const bm = at(measure, AGG.jBReads) + at(measure, AGG.jBWrites);
    if (!(at(baseline, AGG.jSec) > 0) || !(at(measure, AGG.jSec) > 0)) return no('no-data');
    if (!(fb > 0) || !(fm > 0)) return no('no-io');
    if (!(bb > 0)) return no('no-backing-io-baseline');
    return ok((1 - (bm / fm) / (bb / fb)) * 100);
  }
  const sb = at(baseline, AGG.bSec), sm = at(measure, AGG.bSec);
  if (!(sb > 0) || !(sm > 0)) return no('no-data');
  const rb = (at(baseline, AGG.bReads) + at(baseline, AGG.bWrites)) / sb;
  const rm = (at(measure, AGG.bReads) + at(measure, AGG.bWrites)) / sm;
  if (!(rb > 0)) return no('no-backing-io-baseline');
  return ok((1 - rm / rb) * 100);
}

/**
 * The backing I/Os per second the "I/Os saved" comparison implies, as [expected, after]: the
 * after window's backing rate, and what the backing drives would have done without the change
 * (backing-only: the baseline's backing rate; front-and-backing: the baseline's backing I/Os per
 * front I/O × the after window's front rate, over the intervals where both are measured). Then
 * (expected − after) ÷ expected is exactly the I/Os saved, so the I/O time saved computed from
 * these rates never contradicts it. Nulls where a window has no data.
 *
 * @example
 * // backing-only, 100 → 88 backing I/O per s
 * comparedBackingRates('backing-only', base, meas) // [100, 88]
 */
export function comparedBackingRates(mode: AnalysisMode, baseline: Float64Array, measure: Float64Array): [number | null, number | null] {
  if (mode === 'front-and-backing') {
    const sb = at(baseline, AGG.jSec), sm = at(measure, AGG.jSec);
    if (!(sb > 0) || !(sm > 0)) return [null, null];
    const fb = at(baseline, AGG.jFReads) + at(baseline, AGG.jFWrites), bb = at(baseline, AGG.jBReads) + at(baseline, AGG.jBWrites);
    const fm = at(measure, AGG.jFReads) + at(measure, AGG.jFWrites), bm = at(measure, AGG.jBReads) + at(measure, AGG.jBWrites);
    const after = bm / sm;
    return [fb > 0 ? ((bb / fb) * fm) / sm : null, after];
  }
  const sb = at(baseline, AGG.bSec), sm = at(measure, AGG.bSec);
  const rate = (v: Float64Array, s: number): number | null => (s > 0 ? (at(v, AGG.bReads) + at(v, AGG.bWrites)) / s : null);
  return [rate(baseline, sb), rate(measure, sm)];
}

/**
 * Average response time at the application-facing devices, ms: Σ(read + write time) / Σ I/Os
 * over the window's `ok` intervals (iostat await over the whole window). Front group in
 * front-and-backing mode, backing group in backing-only mode.
 *
 * @example
 * // 1000 I/Os that took 4500 ms in total
 * averageLatencyMs('front-and-backing', v) // { value: 4.5 }
 */
export function averageLatencyMs(mode: AnalysisMode, v: Float64Array): Figure {
  const sec = mode === 'front-and-backing' ? at(v, AGG.fSec) : at(v, AGG.bSec);
  const ios = mode === 'front-and-backing' ? at(v, AGG.fLatIos) : at(v, AGG.bLatIos);
  const ms = mode === 'front-and-backing' ? at(v, AGG.fLatMs) : at(v, AGG.bLatMs);
  if (!(sec > 0)) return no('no-data');
  if (!(ios > 0)) return no('no-io');
  return ok(ms / ios);
}

/**
 * Latency reduction, percent: (before − after) / before × 100.
 *
 * @example
 * latencyReductionPercent({ value: 10.7 }, { value: 1 }) // { value: 90.65… }
 */
export function latencyReductionPercent(before: Figure, after: Figure): Figure {
  if (before.value === null) return before;
  if (after.value === null) return after;
  if (!(before.value > 0)) return no('zero-denominator');
  return ok(((before.value - after.value) / before.value) * 100);
}

/**
 * Speed-up factor: before / after ("10.7× faster").
 *
 * @example
 * speedup({ value: 10.7 }, { value: 1 }) // { value: 10.7 }
 */
export function speedup(before: Figure, after: Figure): Figure {
  if (before.value === null) return before;
  if (after.value === null) return after;
  if (!(after.value > 0)) return no('zero-denominator');
  return ok(before.value / after.value);
}

/**
 * Normalized IOPS: the I/O rate one outstanding request stream could reach at a mean latency,
 * 1000 / latency(ms).
 *
 * @example
 * normalizedIops({ value: 4 }) // { value: 250 }
 */
export function normalizedIops(latencyMs: Figure): Figure {
  if (latencyMs.value === null) return latencyMs;
  if (!(latencyMs.value > 0)) return no('zero-denominator');
  return ok(1000 / latencyMs.value);
}

/**
 * Share of front reads (or writes) the cache served in a window, percent: (1 − backing / front) × 100
 * over intervals where both are measured. Negative when the backing devices carried more
 * (write-backs, metadata, request splitting).
 *
 * @example
 * cacheServedPercent(measure, 'reads') // front reads 1000, backing reads 30 → { value: 97 }
 */
export function cacheServedPercent(v: Float64Array, kind: 'reads' | 'writes' | 'all'): Figure {
  if (!(at(v, AGG.jSec) > 0)) return no('no-data');
  // `all`: reads and writes together (the engine-statistics comparison's share of all I/O)
  const f = kind === 'all' ? at(v, AGG.jFReads) + at(v, AGG.jFWrites) : at(v, kind === 'reads' ? AGG.jFReads : AGG.jFWrites);
  const b = kind === 'all' ? at(v, AGG.jBReads) + at(v, AGG.jBWrites) : at(v, kind === 'reads' ? AGG.jBReads : AGG.jBWrites);
  if (kind === 'all' && !(f > 0)) return no('no-io');
  if (!(f > 0)) return no(kind === 'reads' ? 'no-reads' : 'no-writes');
  return ok((1 - b / f) * 100);
}

/** I/O time saved (see {@link ioTimeSaved}). */
export interface IoTimeSaved {
  /** Seconds of backing-drive I/O time saved per hour. */
  perHourSeconds: number | null;
  /** Seconds saved over the measure window. */
  totalSeconds: number | null;
  /** The time saved as a share of the backing drives' baseline I/O time per hour, percent (see {@link ioTimeSaved}). */
  sharePercent: number | null;
  /** Backing I/Os per second before − after (negative: more I/O reached the drives). */
  eliminatedPerSecond: number | null;
  /** The backing drives' average response time in the baseline window, ms (Σ time ÷ Σ I/Os). */
  avgResponseMsBefore: number | null;
  method: 'eliminated-ios-x-backing-await-before';
  reasons: Partial<Record<'perHourSeconds' | 'totalSeconds' | 'sharePercent' | 'eliminatedPerSecond' | 'avgResponseMsBefore', NullReason>>;
}

/**
 * I/O time saved, as Condusiv defines it (DOMAIN.md): the I/Os the cache kept off the backing
 * drives × the average response time they had before. The rates are those of the "I/Os saved"
 * comparison ({@link comparedBackingRates}: `beforePerSecond` is what the drives would have done
 * without the change), so the two figures come from one comparison and never disagree. Per hour: (backing I/Os per second before
 * − after) × 3600 × the backing drives' baseline await (ms) ÷ 1000, in seconds; in total: the same
 * rate over the measure window's seconds. As a share: the time saved per hour ÷ the backing
 * drives' I/O time per hour in the baseline (backing I/Os per second before × 3600 × the same
 * baseline await ÷ 1000) × 100 — so "the backing drives spent 81 % less time on I/O: 4 min 53 s
 * less per hour"; the await cancels, and the share is the drop in backing I/Os per second
 * (null with `zero-denominator` when the drives did no I/O in the baseline). Null, with the
 * reason `none-eliminated`, when the drives did as many or more I/Os per second after (nothing
 * was kept off them).
 *
 * @example
 * // 500 → 50 backing I/Os per second, 8 ms each before, a 2-hour measure window
 * ioTimeSaved(500, 50, 8, 7200) // { perHourSeconds: 12960, totalSeconds: 25920, sharePercent: 90, eliminatedPerSecond: 450, avgResponseMsBefore: 8, … }
 */
export function ioTimeSaved(beforePerSecond: number | null, afterPerSecond: number | null, awaitMsBefore: number | null, measureSeconds: number): IoTimeSaved {
  const reasons: IoTimeSaved['reasons'] = {};
  const eliminated = beforePerSecond === null || afterPerSecond === null ? null : beforePerSecond - afterPerSecond;
  if (eliminated === null) reasons.eliminatedPerSecond = 'no-data';
  const avg = awaitMsBefore !== null && Number.isFinite(awaitMsBefore) ? awaitMsBefore : null;
  if (avg === null) reasons.avgResponseMsBefore = 'no-data';
  // Nothing kept off the drives (as many or more backing I/Os per second after): no time was
  // saved, and a signed product (−8.5 I/O per s × 0 ms = −0 s) would read as a figure. Null, said.
  const noneKept = eliminated !== null && !(eliminated > 0);
  const perSecondMs = eliminated === null || avg === null || noneKept ? null : eliminated * avg;
  const perHourSeconds = perSecondMs === null ? null : (perSecondMs * 3600) / 1000;
  const totalSeconds = perSecondMs === null || !(measureSeconds > 0) ? null : (perSecondMs * measureSeconds) / 1000;
  const why: NullReason = noneKept ? 'none-eliminated' : 'no-data';
  if (perHourSeconds === null) reasons.perHourSeconds = why;
  if (totalSeconds === null) reasons.totalSeconds = why;
  // the backing drives' I/O time per hour in the baseline, seconds: the share's denominator
  const baselinePerHour = beforePerSecond === null || avg === null ? null : (beforePerSecond * avg * 3600) / 1000;
  const sharePercent = perHourSeconds === null || baselinePerHour === null || !(baselinePerHour > 0) ? null : (perHourSeconds / baselinePerHour) * 100;
  if (sharePercent === null) reasons.sharePercent = perHourSeconds === null ? why : 'zero-denominator';
  return { perHourSeconds, totalSeconds, sharePercent, eliminatedPerSecond: eliminated, avgResponseMsBefore: avg, method: 'eliminated-ios-x-backing-await-before', reasons };
}
