/**
 * Percentiles by linear interpolation between order statistics, Hyndman & Fan type 7 (the
 * default of R, NumPy and Excel PERCENTILE.INC): for n sorted values x[0..n-1] and p in [0, 1],
 * h = (n − 1)·p, q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 *
 * Computed by selection (three-way quickselect, expected O(n) per percentile), not by sorting.
 */

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}

/** Rearranges a[lo..hi] (inclusive) so that a[k] holds the k-th smallest, smaller left, larger right. */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    const x = a[lo] as number, y = a[mid] as number, z = a[hi] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let lt = lo, i = lo, gt = hi;
    while (i <= gt) {
      const v = a[i] as number;
      if (v < pivot) swap(a, lt++, i++);
      else if (v > pivot) swap(a, i, gt--);
      else i++;
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return;
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
