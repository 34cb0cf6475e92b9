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

/** Ratio or null: null when either side is null/NaN or the divisor is not positive. */
function div(n: number | null | undefined, d: number | null | undefined): number | null {
  if (n === null || n === undefined || d === null || d === undefined) return null;
  if (!(d > 0) || Number.isNaN(n)) return null;
  return n / d;
}

/** Sum of two nullable numbers; null if either is null. */
function add(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  return a + b;
}

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
  if (rec.status !== 'ok' || !(rec.intervalMs > 0)) return { ...NULL_METRICS };
  const sec = rec.intervalMs / 1000;
  const ios = add(rec.reads, rec.writes);
  const bytes = add(rec.readBytes, rec.writeBytes);
  const readsPerSec = div(rec.reads, sec);
  const writesPerSec = div(rec.writes, sec);
  const readMBps = div(rec.readBytes, sec * BYTES_PER_MB);
  const writeMBps = div(rec.writeBytes, sec * BYTES_PER_MB);
  return {
    readsPerSec,
    writesPerSec,
    iops: div(ios, sec),
    readMBps,
    writeMBps,
    mbps: div(bytes, sec * BYTES_PER_MB),
    rAwaitMs: div(rec.readTimeMs, rec.reads),
    wAwaitMs: div(rec.writeTimeMs, rec.writes),
    awaitMs: div(add(rec.readTimeMs, rec.writeTimeMs), ios),
    avgRequestBytes: div(bytes, ios),
    utilPercent: div(rec.busyMs === null ? null : rec.busyMs * 100, rec.intervalMs),
    aquSz: div(rec.weightedMs, rec.intervalMs),
  };
}
