/**
 * Summaries of a drawn series that screens print beside a chart: the series' step, its highest
 * point in a window, the points kept for a spoken summary, the range an axis must span, and the
 * size nearest a request on a size ladder. One implementation, so that the dashboard, the
 * profile, the fleet and the prediction screens say the same thing of the same series.
 */

/** A drawn point: time (UTC epoch ms) or size on x, the value on y. */
export interface SeriesPoint {
  x: number;
  y: number;
}

/**
 * The typical spacing of a series' times, ms: (last − first) ÷ (count − 1), the mean step;
 * `fallbackMs` when there are fewer than two times.
 * Example: `seriesStepMs([0, 1000, 3000])` → 1500; `seriesStepMs([5], 60_000)` → 60 000.
 */
export function seriesStepMs(t: readonly number[], fallbackMs = 1000): number {
  const first = t[0];
  const last = t[t.length - 1];
  return t.length > 1 && first !== undefined && last !== undefined ? (last - first) / (t.length - 1) : fallbackMs;
}

/** The largest of the series' steps, at least `floorMs` (the gap beyond which every line of a chart breaks). */
export function widestStepMs(series: readonly (readonly number[])[], floorMs = 1000): number {
  let out = floorMs;
  for (const t of series) out = Math.max(out, seriesStepMs(t));
  return out;
}

/** The highest value, null when there is none. Example: `seriesMax([3, 9, 4])` → 9; `seriesMax([])` → null. */
export function seriesMax(ys: readonly number[]): number | null {
  let out: number | null = null;
  for (const y of ys) if (out === null || y > out) out = y;
  return out;
}

/** The lowest value, null when there is none. Example: `seriesMin([3, 9, 4])` → 3. */
export function seriesMin(ys: readonly number[]): number | null {
  let out: number | null = null;
  for (const y of ys) if (out === null || y < out) out = y;
  return out;
}

/** The mean, null when there is no value. Example: `seriesMean([2, 4, 9])` → 5. */
export function seriesMean(ys: readonly number[]): number | null {
  if (ys.length === 0) return null;
  let sum = 0;
  for (const y of ys) sum += y;
  return sum / ys.length;
}

/**
 * The values of the points inside a window, which starts after `startMs` and ends at `endMs`
 * included (the convention of the analysis' windows): `(startMs, endMs]`.
 */
export function windowValues(points: readonly SeriesPoint[], startMs: number, endMs: number): number[] {
  return points.filter((p) => p.x > startMs && p.x <= endMs).map((p) => p.y);
}

/** The highest point of a series inside the window `(startMs, endMs]`; null when the window holds none. */
export function windowMax(points: readonly SeriesPoint[], startMs: number, endMs: number): number | null {
  return seriesMax(windowValues(points, startMs, endMs));
}

/**
 * The span an axis must show: the window `[startMs, endMs]` widened to every point's x.
 * Example: `spanWith([5, 40], 10, 30)` → `{ min: 5, max: 40 }`.
 */
export function spanWith(xs: readonly number[], startMs: number, endMs: number): { min: number; max: number } {
  let min = startMs;
  let max = endMs;
  for (const x of xs) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { min, max };
}

/**
 * At most about `count` items, evenly: every n-th item (n = ⌈basisLength ÷ count⌉, at least 1;
 * `basisLength` the items' own count unless several series are thinned alike) and always the last,
 * the points a spoken chart summary reads out.
 * Example: 20 items, count 8 → items 0, 3, 6, 9, 12, 15, 18 and 19.
 */
export function everyNth<T>(items: readonly T[], count: number, basisLength = items.length): T[] {
  const every = Math.max(1, Math.ceil(basisLength / count));
  return items.filter((_, i) => i % every === 0 || i === items.length - 1);
}

/**
 * The index of the size nearest `bytes` on a log scale (|ln(size ÷ bytes)| smallest; the first
 * on a tie); 0 for an empty ladder. Example: sizes [1, 4, 16] GB, 7 GB → 1 (4 GB: ln 1.75 < ln 2.29).
 */
export function nearestSizeIndex(sizes: readonly number[], bytes: number): number {
  let best = 0;
  sizes.forEach((s, i) => {
    if (Math.abs(Math.log(s / bytes)) < Math.abs(Math.log((sizes[best] ?? s) / bytes))) best = i;
  });
  return best;
}

/** A figure rounded down to a whole number, at most `cap`. Example: `wholeUpTo(93.7, 90)` → 90; `wholeUpTo(41.9, 90)` → 41. */
export function wholeUpTo(v: number, cap: number): number {
  return Math.min(cap, Math.floor(v));
}

/**
 * The most common bucket between `from` and `to` (both included): the index with the most
 * counts, the first on a tie, a missing count read as 0. Example: counts [5, 9, 9, 2], 1…3 → 1.
 */
export function mostCommonBucket(counts: readonly number[], from: number, to: number): number {
  let best = from;
  for (let b = from; b <= to; b++) if ((counts[b] ?? 0) > (counts[best] ?? 0)) best = b;
  return best;
}
