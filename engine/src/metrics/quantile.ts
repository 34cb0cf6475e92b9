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

/** From this many values on, order statistics are found by radix buckets first ({@link orderStatistics}). */
export const RADIX_MIN_VALUES = 4096;
const BUCKETS = 65536;
let counts: Uint32Array | null = null;
let slotOf: Uint16Array | null = null;
let gathered = new Float64Array(0);

/**
 * The 16-bit bucket of a float64 from the high 32 bits of its IEEE 754 pattern, so that buckets
 * ascend with the values: sign, exponent and the 4 leading mantissa bits, with negative values'
 * bits inverted and positive values' sign bit set (−0 falls just below +0; both compare equal).
 */
function bucketOf(hi: number): number {
  return (hi & 0x80000000) !== 0 ? (~hi >>> 16) & 0xffff : (hi >>> 16) | 0x8000;
}

/** The lowest and highest bucket {@link countBuckets} counted. */
const usedRange = new Int32Array(2);

/**
 * Adds the first `n` values (their high words, `hiWords[2i + 1]`) to `cnt` by {@link bucketOf},
 * and writes the lowest and highest bucket used to {@link usedRange}. The hot loops of
 * {@link orderStatistics} are functions of their own: inside it, each call ran its later loops
 * with too little type feedback, was deoptimized there and ran them in the interpreter, which
 * boxed every value it read (about 100 MB of garbage in one analysis of a day of 16 devices).
 */
function countBuckets(hiWords: Uint32Array, n: number, cnt: Uint32Array): void {
  let lowB = BUCKETS, highB = -1;
  for (let i = 0; i < n; i++) {
    const b = bucketOf(hiWords[2 * i + 1] as number);
    cnt[b] = (cnt[b] as number) + 1;
    if (b < lowB) lowB = b;
    if (b > highB) highB = b;
  }
  usedRange[0] = lowB;
  usedRange[1] = highB;
}

/**
 * Copies each of the first `n` values whose bucket has a slot (`slot[b]` ≥ 1) to `g[at[slot]++]`.
 * `at[0]` is one element past the segments: every value is stored and only a rank's slot advances,
 * without a branch (a branch taken for about one value in four, at random, was mispredicted so
 * often that this pass took twice as long as the one that counts).
 */
function gatherSlots(values: Float64Array, hiWords: Uint32Array, n: number, slot: Uint16Array, at: Int32Array, g: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const s = slot[bucketOf(hiWords[2 * i + 1] as number)] as number;
    const p = at[s] as number;
    g[p] = values[i] as number;
    at[s] = p + ((-s) >>> 31); // 1 for s ≥ 1, 0 for s = 0
  }
}

/**
 * The values of the given ranks (0-based, ascending, distinct, each < n) among the first `n` of
 * `values`, which is left as it is: one pass counts the values per 16-bit bucket of their bit
 * pattern ({@link bucketOf}), which gives each rank's bucket and its rank there; a second pass
 * copies the values of those buckets (at most one per rank) to a scratch array, where Floyd–Rivest
 * selection finds each rank. The same values as sorting, in about 2n steps plus a selection over
 * the buckets that hold the ranks (all n values at worst, when they share a bucket).
 */
function orderStatistics(values: Float64Array, n: number, ranks: readonly number[]): number[] {
  counts ??= new Uint32Array(BUCKETS); // zeros: each call clears what it counted
  slotOf ??= new Uint16Array(BUCKETS);
  const cnt = counts, slot = slotOf;
  const hiWords = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  // `counts` is all zeros between calls; only the buckets from the lowest to the highest one used
  // are counted, scanned and cleared again (a metric's values span a few exponents, not 65,536
  // buckets: clearing and scanning them all cost as much as counting the values)
  countBuckets(hiWords, n, cnt);
  const lowB = usedRange[0] as number, highB = usedRange[1] as number;
  // each rank's bucket, and the values before that bucket
  const rankBucket: number[] = [], before: number[] = [];
  let acc = 0, r = 0;
  for (let b = lowB; b <= highB && r < ranks.length; b++) {
    const c = cnt[b] as number;
    while (r < ranks.length && (ranks[r] as number) < acc + c) {
      rankBucket.push(b);
      before.push(acc);
      r++;
    }
    acc += c;
  }
  // the distinct buckets, their segments in the scratch array
  const buckets: number[] = [], segStart: number[] = [];
  let total = 0;
  for (const b of rankBucket) {
    if (buckets.at(-1) === b) continue;
    buckets.push(b);
    segStart.push(total);
    total += cnt[b] as number;
    slot[b] = buckets.length;
  }
  // one element more than the segments: where the values of every other bucket are written
  if (gathered.length <= total) gathered = new Float64Array(Math.max(total + 1, gathered.length * 2));
  const g = gathered;
  // the next free element of each slot: at[s] for a bucket that holds a rank (s ≥ 1), at[0] = total for any other
  const at = new Int32Array(buckets.length + 1);
  at[0] = total;
  for (let s = 0; s < segStart.length; s++) at[s + 1] = segStart[s] as number;
  gatherSlots(values, hiWords, n, slot, at, g);
  for (const b of buckets) slot[b] = 0;
  const out: number[] = [];
  let from = -1, seg = -1;
  for (let j = 0; j < ranks.length; j++) {
    const sIdx = buckets.indexOf(rankBucket[j] as number);
    const lo = segStart[sIdx] as number, hi = lo + (cnt[rankBucket[j] as number] as number) - 1;
    if (sIdx !== seg) { seg = sIdx; from = lo; }
    const k = lo + (ranks[j] as number) - (before[j] as number);
    select(g, from, hi, k);
    from = k;
    out.push(g[k] as number);
  }
  cnt.fill(0, lowB, highB + 1);
  return out;
}

/**
 * Type-7 percentiles of the first `n` values of `values`, which may be REORDERED in place (pass a
 * scratch copy if the order matters). `ps` are fractions in [0, 1], any order. NaN must not be
 * present. Returns one number per p, or null for every p when n = 0. From
 * {@link RADIX_MIN_VALUES} values on, the order statistics come from {@link orderStatistics}
 * (the same numbers, found faster).
 *
 * @example
 * quantilesInPlace(new Float64Array([4, 1, 3, 2]), 4, [0.5, 0.95]) // [2.5, 3.85]
 */
export function quantilesInPlace(values: Float64Array, n: number, ps: readonly number[]): (number | null)[] {
  if (n <= 0) return ps.map(() => null);
  if (n >= RADIX_MIN_VALUES) return quantilesByRadix(values, n, ps);
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

/** {@link quantilesInPlace} through {@link orderStatistics}: the ranks each p needs, found in one go. */
function quantilesByRadix(values: Float64Array, n: number, ps: readonly number[]): (number | null)[] {
  const hs = ps.map((p) => (n - 1) * Math.min(1, Math.max(0, p)));
  const want = new Set<number>();
  for (const h of hs) {
    const k = Math.floor(h);
    want.add(k);
    if (h > k && k + 1 < n) want.add(k + 1);
  }
  const ranks = [...want].sort((a, b) => a - b);
  const stats = orderStatistics(values, n, ranks);
  const at = (k: number): number => stats[ranks.indexOf(k)] as number;
  return hs.map((h) => {
    const k = Math.floor(h);
    const xk = at(k);
    return h > k && k + 1 < n ? xk + (h - k) * (at(k + 1) - xk) : xk;
  });
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
