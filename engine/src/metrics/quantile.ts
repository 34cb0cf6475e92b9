/**
 * Percentiles by linear interpolation between order statistics, Hyndman & Fan type 7 (the
 * default of R, NumPy and Excel PERCENTILE.INC): for n sorted values x[0..n-1] and p in [0, 1],
 * h = (n − 1)·p, q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 *
 * Computed by selection (Floyd–Rivest, expected O(n) per percentile), not by sorting.
 */

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}

/**
 * Rearranges a[lo..hi] (inclusive) so that a[k] holds the k-th smallest, smaller left, larger
 * right: Floyd–Rivest selection (R. W. Floyd, R. L. Rivest, "Algorithm 489: SELECT", CACM 18(3),
 * 1975), which first narrows [lo, hi] to a small sample-derived range around k, so that it makes
 * about n + min(k, n − k) comparisons (quickselect makes about 2n–3.4n). Deterministic.
 */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    if (hi - lo > 600) {
      const n = hi - lo + 1;
      const m = k - lo + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      select(a, Math.max(lo, Math.floor(k - (m * s) / n + sd)), Math.min(hi, Math.floor(k + ((n - m) * s) / n + sd)), k);
    }
    const t = a[k] as number;
    let i = lo, j = hi;
    swap(a, lo, k);
    if ((a[hi] as number) > t) swap(a, lo, hi);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while ((a[i] as number) < t) i++;
      while ((a[j] as number) > t) j--;
    }
    if (a[lo] === t) swap(a, lo, j);
    else {
      j++;
      swap(a, j, hi);
    }
    if (j <= k) lo = j + 1;
    if (k <= j) hi = j - 1;
  }
}

/**
 * Type-7 percentiles of the first `n` values of `values`, which is REORDERED in place (pass a
 * scratch copy if the order matters). `ps` are fractions in [0, 1], any order. NaN must not be
 * present. Returns one number per p, or null for every p when n = 0.
 *
 * @example
 * quantilesInPlace(new Float64Array([4, 1, 3, 2]), 4, [0.5, 0.95]) // [2.5, 3.85]
 */
export function quantilesInPlace(values: Float64Array, n: number, ps: readonly number[]): (number | null)[] {
  if (n <= 0) return ps.map(() => null);
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const out: (number | null)[] = ps.map(() => null);
  let from = 0;
  for (const { p, i } of order) {
    const h = (n - 1) * Math.min(1, Math.max(0, p));
    const k = Math.floor(h);
    if (k >= from) {
      select(values, from, n - 1, k);
      from = k;
    }
    const xk = values[k] as number;
    let result = xk;
    if (h > k && k + 1 < n) {
      // the (k+1)-th smallest is the minimum of the right part after selecting k
      let next = Infinity;
      for (let j = k + 1; j < n; j++) {
        const v = values[j] as number;
        if (v < next) next = v;
      }
      result = xk + (h - k) * (next - xk);
    }
    out[i] = result;
  }
  return out;
}

/**
 * Type-7 percentile of an array of numbers (copied; the input is not changed). `p` in [0, 1].
 * Returns null for an empty input.
 *
 * @example
 * quantile([10, 20, 30, 40, 50], 0.99) // 49.6 (h = 3.96 → 40 + 0.96 × 10)
 */
export function quantile(values: readonly number[], p: number): number | null {
  const a = Float64Array.from(values);
  return quantilesInPlace(a, a.length, [p])[0] ?? null;
}
