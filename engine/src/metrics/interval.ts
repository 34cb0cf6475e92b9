import type { IntervalRecord } from '../records/types.ts';

/**
 * Bytes per megabyte in every MB/s figure: decimal, 10^6. (iostat -m divides by 2^20; ours is
 * 4.6% larger for the same traffic, and every figure says MB = 10^6 bytes.)
 *
 * @example
 * 2_500_000 / BYTES_PER_MB // 2.5 MB
 */
export const BYTES_PER_MB = 1_000_000;

/**
 * Per-interval device metrics, as iostat -x defines them, for one canonical interval record.
 * Every field is `null` when the interval is not `ok` (reset, wrap, gap, clock-jump) or when
 * its divisor is zero or absent (no completed reads → no `rAwaitMs`). A rate of 0 on an `ok`
 * interval is a real 0 (the device was idle), not a missing value.
 */
export interface IntervalMetrics {
  /** Reads completed per second: Δreads / Δt(s). */
  readsPerSec: number | null;
  /** Writes completed per second: Δwrites / Δt(s). */
  writesPerSec: number | null;
  /** I/Os per second: r/s + w/s. */
  iops: number | null;
  /** Read throughput, MB/s with MB = 10^6 bytes: ΔreadBytes / 10^6 / Δt(s). */
  readMBps: number | null;
  /** Write throughput, MB/s (10^6 bytes). */
  writeMBps: number | null;
  /** Read + write throughput, MB/s (10^6 bytes). */
  mbps: number | null;
  /** Mean read response time, ms: ΔreadTimeMs / Δreads (iostat r_await). */
  rAwaitMs: number | null;
  /** Mean write response time, ms: ΔwriteTimeMs / Δwrites (iostat w_await). */
  wAwaitMs: number | null;
  /** Mean response time over reads and writes, ms: (ΔreadTimeMs + ΔwriteTimeMs) / (Δreads + Δwrites). */
  awaitMs: number | null;
  /** Mean request size, bytes: (ΔreadBytes + ΔwriteBytes) / (Δreads + Δwrites). */
  avgRequestBytes: number | null;
  /** Busy share, percent: ΔbusyMs / Δt(ms) × 100. Misleading on devices that serve requests in parallel (SSD, RAID, loop, dm). */
  utilPercent: number | null;
  /** Average queue size (aqu-sz): ΔweightedMs / Δt(ms). */
  aquSz: number | null;
}

const NULL_METRICS: IntervalMetrics = Object.freeze({
  readsPerSec: null, writesPerSec: null, iops: null, readMBps: null, writeMBps: null, mbps: null,
  rAwaitMs: null, wAwaitMs: null, awaitMs: null, avgRequestBytes: null, utilPercent: null, aquSz: null,
});

/**
 * Slots of {@link intervalMetricsInto}'s output, in order (the per-interval table's metric
 * columns, then `mbps`).
 */
export const INTERVAL_METRIC_KEYS = ['readsPerSec', 'writesPerSec', 'iops', 'readMBps', 'writeMBps', 'rAwaitMs', 'wAwaitMs', 'awaitMs', 'avgRequestBytes', 'utilPercent', 'aquSz', 'mbps'] as const satisfies readonly (keyof IntervalMetrics)[];

/** Ratio or NaN: NaN when either side is NaN or the divisor is not positive. */
function div(n: number, d: number): number {
  return d > 0 && n === n ? n / d : NaN;
}

/**
 * The one implementation of the per-interval metrics, for one interval given as plain numbers
 * (absent = NaN, as in the engine's columns): writes {@link INTERVAL_METRIC_KEYS} into
 * `out[at…at+11]`, NaN where {@link intervalMetrics} has null. Columnar readers (the per-interval
 * CSV and XLSX) call it per row without an object per interval; {@link intervalMetrics} is it
 * with null for NaN.
 */
export function intervalMetricsInto(out: Float64Array, at: number, ok: boolean, intervalMs: number, reads: number, writes: number, readBytes: number, writeBytes: number,
  readTimeMs: number, writeTimeMs: number, busyMs: number, weightedMs: number): void {
  if (!ok || !(intervalMs > 0)) {
    out.fill(NaN, at, at + INTERVAL_METRIC_KEYS.length);
    return;
  }
  const sec = intervalMs / 1000;
  const ios = reads + writes;
  const bytes = readBytes + writeBytes;
  out[at] = div(reads, sec);
  out[at + 1] = div(writes, sec);
  out[at + 2] = div(ios, sec);
  out[at + 3] = div(readBytes, sec * BYTES_PER_MB);
  out[at + 4] = div(writeBytes, sec * BYTES_PER_MB);
  out[at + 5] = div(readTimeMs, reads);
  out[at + 6] = div(writeTimeMs, writes);
  out[at + 7] = div(readTimeMs + writeTimeMs, ios);
  out[at + 8] = div(bytes, ios);
  out[at + 9] = div(busyMs * 100, intervalMs);
  out[at + 10] = div(weightedMs, intervalMs);
  out[at + 11] = div(bytes, sec * BYTES_PER_MB);
}

const scratch = new Float64Array(INTERVAL_METRIC_KEYS.length);
const nn = (v: number | null): number => (v === null ? NaN : v);
const orNull = (v: number): number | null => (v === v ? v : null);

/**
 * Computes the iostat metrics of one interval (units in the field names of {@link IntervalMetrics}).
 * Δt is `intervalMs` (monotonic clock), never the wall-clock labels.
 *
 * @example
 * // 1 s, 100 reads of 4 KiB taking 200 ms in total, 50 writes taking 50 ms, busy 400 ms, weighted 500 ms
 * intervalMetrics({ device: 'sda', startMs: 0, endMs: 1000, intervalMs: 1000, status: 'ok',
 *   reads: 100, writes: 50, readBytes: 409600, writeBytes: 204800, readTimeMs: 200, writeTimeMs: 50,
 *   busyMs: 400, weightedMs: 500 })
 * // → { readsPerSec: 100, writesPerSec: 50, iops: 150, readMBps: 0.4096, writeMBps: 0.2048, mbps: 0.6144,
 * //     rAwaitMs: 2, wAwaitMs: 1, awaitMs: 1.6667, avgRequestBytes: 4096, utilPercent: 40, aquSz: 0.5 }
 */
export function intervalMetrics(rec: IntervalRecord): IntervalMetrics {
  intervalMetricsInto(scratch, 0, rec.status === 'ok', rec.intervalMs, nn(rec.reads), nn(rec.writes), nn(rec.readBytes), nn(rec.writeBytes), nn(rec.readTimeMs), nn(rec.writeTimeMs), nn(rec.busyMs), nn(rec.weightedMs));
  const m = { ...NULL_METRICS };
  INTERVAL_METRIC_KEYS.forEach((k, i) => { m[k] = orNull(scratch[i] as number); });
  return m;
}
