import { quantilesInPlace } from '../metrics/quantile.ts';
import { mulberry32 } from './prng.ts';

/** A two-sided interval. */
export interface Interval95 {
  low: number;
  high: number;
}

/**
 * A statistic of two windows, each given as the element-wise sum of its resampled block
 * aggregate vectors. Returns null when it cannot be computed for that resample.
 */
export type TwoWindowStatistic = (baseline: Float64Array, measure: Float64Array) => number | null;

export interface BootstrapResult {
  /** One interval per statistic, or null when fewer than half of the replicates gave a value. */
  intervals: (Interval95 | null)[];
  replicates: number;
}

/**
 * Seeded two-sample block bootstrap, percentile method. Each window is a list of blocks (an
 * hour, or an equal share of a short window), each block a vector of K additive aggregates
 * (counts, seconds, milliseconds) computed once. A replicate draws, with replacement and
 * independently per window, as many blocks as the window has, sums their vectors (O(blocks × K),
 * no sorting), and evaluates every statistic on the two sums. The 95% interval is the type-7
 * 2.5th and 97.5th percentiles of the replicate values, widened if needed so that it contains
 * the point estimate (a percentile interval of a skewed ratio can miss it by a hair).
 * Blocks keep the within-block (second-to-second) correlation that a per-interval bootstrap
 * would ignore. Same inputs and seed ⇒ same interval (mulberry32, see prng.ts).
 *
 * @param baseline blocks of the baseline window (each a Float64Array of length K)
 * @param measure blocks of the measure window
 * @param statistics the figures to bound
 * @param points the point estimates (statistic of all blocks), same order as statistics
 * @example
 * // K = 2: [backing I/Os, seconds] per hour block; statistic = per-second reduction in %
 * const saved: TwoWindowStatistic = (b, m) => (1 - (m[0]! / m[1]!) / (b[0]! / b[1]!)) * 100;
 * blockBootstrap(baseBlocks, measBlocks, [saved], [87.5], 2000, 1).intervals[0] // { low: 85.1, high: 89.6 }
 */
export function blockBootstrap(
  baseline: readonly Float64Array[],
  measure: readonly Float64Array[],
  statistics: readonly TwoWindowStatistic[],
  points: readonly (number | null)[],
  replicates: number,
  seed: number,
): BootstrapResult {
  const k = baseline[0]?.length ?? measure[0]?.length ?? 0;
  const rand = mulberry32(seed);
  const values = statistics.map(() => new Float64Array(replicates));
  const counts = statistics.map(() => 0);
  const sb = new Float64Array(k);
  const sm = new Float64Array(k);
  const draw = (blocks: readonly Float64Array[], sum: Float64Array): void => {
    sum.fill(0);
    const n = blocks.length;
    for (let j = 0; j < n; j++) {
      const b = blocks[Math.floor(rand() * n)] as Float64Array;
      for (let f = 0; f < k; f++) sum[f] = (sum[f] as number) + (b[f] as number);
    }
  };
  for (let r = 0; r < replicates; r++) {
    draw(baseline, sb);
    draw(measure, sm);
    for (let s = 0; s < statistics.length; s++) {
      const v = (statistics[s] as TwoWindowStatistic)(sb, sm);
      if (v !== null && Number.isFinite(v)) {
        (values[s] as Float64Array)[counts[s] as number] = v;
        counts[s] = (counts[s] as number) + 1;
      }
    }
  }
  const intervals = statistics.map((_, s) => {
    const n = counts[s] as number;
    const point = points[s] ?? null;
    if (point === null || n < replicates / 2) return null;
    const [lo, hi] = quantilesInPlace(values[s] as Float64Array, n, [0.025, 0.975]);
    return { low: Math.min(lo as number, point), high: Math.max(hi as number, point) };
  });
  return { intervals, replicates };
}
