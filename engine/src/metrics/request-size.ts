/**
 * Request-size distribution: how many I/Os were of which size, in buckets whose edges are the
 * powers of two from 512 B (docs/metrics.md § Request sizes). Two methods, one bucketing:
 * - `interval-average`, from the interval counters: each interval's average request size
 *   (Δbytes ÷ Δcompleted: Δsectors × 512 ÷ Δcompleted, reads and writes apart, as iostat's
 *   rareq-sz / wareq-sz) puts that interval's reads (or writes) in the bucket of that size: a
 *   distribution of per-interval averages, weighted by I/Os;
 * - `block-trace`, from the traced block requests: every request in the bucket of its own size
 *   (exact).
 */
import type { DeviceColumns } from '../records/columns.ts';
import type { TimeWindow } from '../records/window.ts';
import type { Reasons } from './summary.ts';

/**
 * The bucket edges, bytes: 512 B × 2^k for k = 0 … 13 (512 B, 1 KiB, … 4 MiB). Bucket 0 holds
 * sizes below 512 B, bucket k (1 … 13) holds [edge k−1, edge k), bucket 14 holds 4 MiB and more.
 */
export const REQUEST_SIZE_EDGES_BYTES: readonly number[] = Array.from({ length: 14 }, (_, k) => 512 * 2 ** k);
/** Number of buckets: one below the first edge, one between each two edges, one from the last edge. */
export const REQUEST_SIZE_BUCKETS = REQUEST_SIZE_EDGES_BYTES.length + 1;

/** A bucket's bounds, bytes: [lowBytes, highBytes); the last bucket has no upper bound (`highBytes` left out). */
export interface SizeBucket {
  lowBytes: number;
  highBytes?: number;
}

/** The buckets in order, with their bounds. */
export function requestSizeBuckets(): SizeBucket[] {
  const e = REQUEST_SIZE_EDGES_BYTES;
  return Array.from({ length: REQUEST_SIZE_BUCKETS }, (_, k) => (k < e.length ? { lowBytes: k === 0 ? 0 : (e[k - 1] as number), highBytes: e[k] as number } : { lowBytes: e[k - 1] as number }));
}

/** One float64 and its two 32-bit words (little-endian: the high word, sign and exponent, is word 1), for {@link requestSizeBucket}. */
const sizeBits = new Float64Array(1);
const sizeWords = new Uint32Array(sizeBits.buffer);
/** The first and last edges, 2^9 and 2^22 bytes. */
const FIRST_EDGE = 512, LAST_EDGE = 4 * 1024 * 1024;

/**
 * The bucket of a request size in bytes: the number of edges at or below it. The edges being the
 * powers of two 2^9 … 2^22, a size in [2^m, 2^(m+1)) has m − 8 of them at or below it, and m is
 * the exponent of its IEEE 754 pattern (exact: no rounding, no loop over the edges; this runs
 * twice per interval of the analysed devices).
 *
 * @example requestSizeBucket(511) // 0; requestSizeBucket(512) // 1; requestSizeBucket(4096) // 4 ([4 KiB, 8 KiB)); requestSizeBucket(8 << 20) // 14
 */
export function requestSizeBucket(bytes: number): number {
  if (!(bytes >= FIRST_EDGE)) return 0;
  if (bytes >= LAST_EDGE) return REQUEST_SIZE_BUCKETS - 1;
  sizeBits[0] = bytes;
  return (((sizeWords[1] as number) >>> 20) & 0x7ff) - 1023 - 8;
}

/** I/O counts per bucket of one operation, and their bytes (a running sum). */
export interface SizeCounts {
  /** I/Os per bucket (length {@link REQUEST_SIZE_BUCKETS}). */
  ios: Float64Array;
  /** Σ bytes of the I/Os counted. */
  bytes: number;
}

/** Reads and writes counted apart. */
export interface OpSizeCounts {
  reads: SizeCounts;
  writes: SizeCounts;
}

export function emptySizeCounts(): OpSizeCounts {
  return { reads: { ios: new Float64Array(REQUEST_SIZE_BUCKETS), bytes: 0 }, writes: { ios: new Float64Array(REQUEST_SIZE_BUCKETS), bytes: 0 } };
}

function addTo(c: SizeCounts, ios: number, bytes: number): void {
  const k = requestSizeBucket(bytes / ios);
  c.ios[k] = (c.ios[k] as number) + ios;
  c.bytes += bytes;
}

/**
 * Adds one device's intervals that lie wholly inside `window` and carry numbers (`ok`, bytes
 * present) to `into`: each interval's reads in the bucket of its average read size (Δread bytes
 * ÷ Δreads), its writes in the bucket of its average write size. Intervals without reads (or
 * writes) add nothing to that operation.
 *
 * @example
 * // one 1 s interval: 100 reads of 409,600 bytes (4 KiB each), 10 writes of 655,360 bytes (64 KiB each)
 * addIntervalSizes(h, columns, window); // h.reads.ios[4] += 100 ([4, 8) KiB), h.writes.ios[8] += 10 ([64, 128) KiB)
 */
export function addIntervalSizes(into: OpSizeCounts, c: DeviceColumns, window: TimeWindow): void {
  const { ok, startMs, endMs, reads, writes, readBytes, writeBytes } = c;
  const from = window.startMs, to = window.endMs;
  // the columns ascend in start: those before the first starting at or after the window's start
  // all start before it (found by bisection, not read)
  let lo = 0, hi = c.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((startMs[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < c.n; i++) {
    if (ok[i] !== 1) continue;
    const s = startMs[i] as number, e = endMs[i] as number;
    if (s < from || e > to) continue;
    const r = reads[i] as number, w = writes[i] as number;
    const rb = readBytes[i] as number, wb = writeBytes[i] as number;
    if (r > 0 && !Number.isNaN(rb)) addTo(into.reads, r, rb);
    if (w > 0 && !Number.isNaN(wb)) addTo(into.writes, w, wb);
  }
}

/** Adds traced requests (operation, exact size, how many) to `into`, each in the bucket of its own size. */
export function addTracedSizes(into: OpSizeCounts, rows: readonly { op: 'R' | 'W'; bytes: number; count: number }[]): void {
  for (const row of rows) {
    if (!(row.count > 0)) continue;
    const c = row.op === 'R' ? into.reads : into.writes;
    const k = requestSizeBucket(row.bytes);
    c.ios[k] = (c.ios[k] as number) + row.count;
    c.bytes += row.bytes * row.count;
  }
}

/** One operation's distribution as reported. */
export interface OpSizes {
  /** I/Os counted (Σ of `ios`). */
  ios: number;
  /** Σ bytes ÷ Σ I/Os of those counted, bytes. */
  meanBytes: number;
  /** I/Os per bucket (the buckets of {@link requestSizeBuckets}). */
  counts: number[];
  /** Each bucket's share of the I/Os counted, 0–100. */
  percents: number[];
}

/** A distribution of one role's requests in one window, reads and writes apart. */
export interface SizeDistribution {
  method: 'interval-average' | 'block-trace';
  /** Null (reason `no-reads`) when no read was counted. */
  reads: OpSizes | null;
  /** Null (reason `no-writes`) when no write was counted. */
  writes: OpSizes | null;
  reasons: Reasons;
}

function opSizes(c: SizeCounts): OpSizes | null {
  let ios = 0;
  for (const v of c.ios) ios += v;
  if (!(ios > 0)) return null;
  const counts = [...c.ios];
  return { ios, meanBytes: c.bytes / ios, counts, percents: counts.map((v) => (v / ios) * 100) };
}

/** The reported distribution of some counts: shares per bucket, nulls with their reason where nothing was counted. */
export function sizeDistribution(counts: OpSizeCounts, method: SizeDistribution['method']): SizeDistribution {
  const reasons: Reasons = {};
  const reads = opSizes(counts.reads), writes = opSizes(counts.writes);
  if (reads === null) reasons['reads'] = 'no-reads';
  if (writes === null) reasons['writes'] = 'no-writes';
  return { method, reads, writes, reasons };
}
