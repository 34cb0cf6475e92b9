import { BYTES_PER_MB } from './interval.ts';
import { quantilesInPlace } from './quantile.ts';
import type { NotOkCounts, Series } from './series.ts';

/** Why a figure is null. Every null figure in engine output carries one of these in a sibling `reasons` map. */
export type NullReason =
  /** No `ok` interval in the window: nothing was measured. */
  | 'no-data'
  /** Intervals were measured but no I/O completed, so there is no response time or request size. */
  | 'no-io'
  /** No reads completed (read latency, read share served). */
  | 'no-reads'
  /** No writes completed. */
  | 'no-writes'
  /** The source did not report the counter (e.g. an import without busy time). */
  | 'not-reported'
  /** The denominator figure is zero (e.g. 0 ms latency after → speed-up is unbounded). */
  | 'zero-denominator'
  /** The figure needs a front (application-facing) device and the capture has none. */
  | 'backing-only-mode'
  /** Fewer than two blocks with data in a window: no bootstrap interval. */
  | 'too-few-blocks'
  /** No UTC hour of the day is present in both windows. */
  | 'no-matched-hours'
  /** The baseline carried no I/O to the backing devices, so no share of it can be saved. */
  | 'no-backing-io-baseline'
  /** The measure window kept no I/O off the backing devices (as many or more I/Os per second than the baseline): no I/O time was saved. */
  | 'none-eliminated'
  /** No interval broke the latency target: there is no worst breaking interval (health `worstMs`). */
  | 'none-breaking';

/** A `reasons` map: one entry per null sibling field, keyed by that field's name. */
export type Reasons = Record<string, NullReason>;

/** Percentiles (type 7, linear interpolation) and maximum of per-interval values. */
export interface Distribution {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Number of intervals that had a value. */
  n: number;
}

/** Metrics whose per-interval distribution is summarized. */
export const DISTRIBUTION_METRICS = ['iops', 'readsPerSec', 'writesPerSec', 'mbps', 'awaitMs', 'rAwaitMs', 'wAwaitMs', 'utilPercent', 'aquSz'] as const;
export type DistributionMetric = (typeof DISTRIBUTION_METRICS)[number];

/** Totals over the `ok` intervals of a window (raw counts, bytes, milliseconds). */
export interface WindowTotals {
  reads: number | null;
  writes: number | null;
  ios: number | null;
  readBytes: number | null;
  writeBytes: number | null;
  bytes: number | null;
  readTimeMs: number | null;
  writeTimeMs: number | null;
  busyMs: number | null;
  weightedMs: number | null;
  reasons: Reasons;
}

/** Window means, each a ratio of sums over the `ok` intervals (see docs/metrics.md). */
export interface WindowMeans {
  readsPerSec: number | null;
  writesPerSec: number | null;
  iops: number | null;
  readMBps: number | null;
  writeMBps: number | null;
  mbps: number | null;
  rAwaitMs: number | null;
  wAwaitMs: number | null;
  awaitMs: number | null;
  avgRequestBytes: number | null;
  utilPercent: number | null;
  aquSz: number | null;
  readSharePercent: number | null;
  reasons: Reasons;
}

/** One device or group over one window. */
export interface WindowSummary {
  /** Number of devices summed (1 for a device). */
  devices: number;
  /** Intervals with numbers. */
  okIntervals: number;
  /** Seconds covered by `ok` intervals (Σ Δt). */
  okSeconds: number;
  /** Intervals without numbers, by status (summed over members for a group). */
  notOk: NotOkCounts;
  totals: WindowTotals;
  means: WindowMeans;
  percentiles: Record<DistributionMetric, Distribution | null> & { reasons: Reasons };
}

/** p50, p95, p99 and the maximum (p = 1). */
const PS = [0.5, 0.95, 0.99, 1] as const;

/** One scratch array for every {@link summarizeSeries} call, grown as needed (a new one per call made a large allocation per device and window). */
let scratchBuf = new Float64Array(0);
function scratchOf(n: number): Float64Array {
  if (scratchBuf.length < n) scratchBuf = new Float64Array(Math.max(n, Math.ceil(scratchBuf.length * 1.5)));
  return scratchBuf;
}

/**
 * Summarizes a {@link Series} (one device, or a group whose counts are summed per interval)
 * over its window:
 * - totals: Σ over `ok` intervals;
 * - means: ratio of sums, which is the time-weighted mean of each per-interval rate
 *   (iops = Σios / Σ Δt) and the I/O-weighted mean of each per-interval latency
 *   (awaitMs = Σ time / Σ ios, iostat's await over the whole window); for a group,
 *   utilPercent is the members' average (Σ busy / (members × Σ Δt)) and aquSz their sum;
 * - percentiles: p50/p95/p99 (type 7, linear interpolation) and max of per-interval values,
 *   over `ok` intervals that have the value (latency only where I/O completed): IOPS, reads/s
 *   and writes/s apart, MB/s, the awaits, %util and aqu-sz.
 * A null figure has its reason in the sibling `reasons` map.
 *
 * @example
 * // two 1 s intervals: 100 I/Os taking 100 ms, then 300 I/Os taking 900 ms
 * summarizeSeries(series).means.iops   // 200   (400 / 2 s)
 * summarizeSeries(series).means.awaitMs // 2.5  (1000 ms / 400), not (1 + 3) / 2
 * summarizeSeries(series).percentiles.iops // { p50: 200, p95: 290, p99: 298, max: 300, n: 2 }
 */
export function summarizeSeries(s: Series): WindowSummary {
  const sums = sumOkIntervals(s);
  const noData = sums.okIntervals === 0;
  return {
    devices: s.members, okIntervals: sums.okIntervals, okSeconds: sums.okMs / 1000, notOk: { ...s.notOk },
    totals: windowTotals(sums, noData), means: windowMeans(sums, noData, s.members), percentiles: windowPercentiles(s, noData),
  };
}

/** The sums over a series' `ok` intervals that its totals and means are made of (each with the count of intervals that had the field). */
interface OkSums {
  okIntervals: number; okMs: number; reads: number; writes: number;
  rb: number; wb: number; bytesMs: number; bytesIos: number; bytesN: number;
  rt: number; rtReads: number; wt: number; wtWrites: number; rtN: number; wtN: number;
  busy: number; busyMs: number; busyN: number; weighted: number; weightedMs: number; weightedN: number;
}

/** One pass over the `ok` intervals of a series: the {@link OkSums}. */
function sumOkIntervals(s: Series): OkSums {
  let okIntervals = 0, okMs = 0;
  let reads = 0, writes = 0;
  let rb = 0, wb = 0, bytesMs = 0, bytesIos = 0, bytesN = 0;
  let rt = 0, rtReads = 0, wt = 0, wtWrites = 0, rtN = 0, wtN = 0;
  let busy = 0, busyMs = 0, busyN = 0, weighted = 0, weightedMs = 0, weightedN = 0;
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const dt = s.intervalMs[i] as number;
    const r = s.reads[i] as number, w = s.writes[i] as number;
    okIntervals++;
    okMs += dt;
    reads += r;
    writes += w;
    const b1 = s.readBytes[i] as number, b2 = s.writeBytes[i] as number;
    if (!Number.isNaN(b1) && !Number.isNaN(b2)) {
      rb += b1; wb += b2; bytesMs += dt; bytesIos += r + w; bytesN++;
    }
    const t1 = s.readTimeMs[i] as number, t2 = s.writeTimeMs[i] as number;
    if (!Number.isNaN(t1)) { rt += t1; rtReads += r; rtN++; }
    if (!Number.isNaN(t2)) { wt += t2; wtWrites += w; wtN++; }
    const bu = s.busyMs[i] as number;
    if (!Number.isNaN(bu)) { busy += bu; busyMs += dt; busyN++; }
    const we = s.weightedMs[i] as number;
    if (!Number.isNaN(we)) { weighted += we; weightedMs += dt; weightedN++; }
  }
  return { okIntervals, okMs, reads, writes, rb, wb, bytesMs, bytesIos, bytesN, rt, rtReads, wt, wtWrites, rtN, wtN, busy, busyMs, busyN, weighted, weightedMs, weightedN };
}

/** The window's totals from its sums (null with its reason: no data, or a field the source did not report). */
function windowTotals(m: OkSums, noData: boolean): WindowTotals {
  const totalsReasons: Reasons = {};
  const tot = (key: string, v: number, present: boolean): number | null => {
    if (noData) { totalsReasons[key] = 'no-data'; return null; }
    if (!present) { totalsReasons[key] = 'not-reported'; return null; }
    return v;
  };
  return {
    reads: tot('reads', m.reads, true),
    writes: tot('writes', m.writes, true),
    ios: tot('ios', m.reads + m.writes, true),
    readBytes: tot('readBytes', m.rb, m.bytesN > 0),
    writeBytes: tot('writeBytes', m.wb, m.bytesN > 0),
    bytes: tot('bytes', m.rb + m.wb, m.bytesN > 0),
    readTimeMs: tot('readTimeMs', m.rt, m.rtN > 0),
    writeTimeMs: tot('writeTimeMs', m.wt, m.wtN > 0),
    busyMs: tot('busyMs', m.busy, m.busyN > 0),
    weightedMs: tot('weightedMs', m.weighted, m.weightedN > 0),
    reasons: totalsReasons,
  };
}

/** The window's means, each a ratio of its sums (null with its reason). */
function windowMeans(m: OkSums, noData: boolean, members: number): WindowMeans {
  const okSeconds = m.okMs / 1000;
  const ios = m.reads + m.writes;
  const mr: Reasons = {};
  const ratio = (key: string, n: number, d: number, present: boolean, zeroReason: 'no-io' | 'no-reads' | 'no-writes' | 'no-data', scale = 1): number | null => {
    if (noData) { mr[key] = 'no-data'; return null; }
    if (!present) { mr[key] = 'not-reported'; return null; }
    if (!(d > 0)) { mr[key] = zeroReason; return null; }
    return (n / d) * scale;
  };
  const bytesMB = (m.bytesMs / 1000) * BYTES_PER_MB, hasBytes = m.bytesN > 0;
  return {
    readsPerSec: ratio('readsPerSec', m.reads, okSeconds, true, 'no-data'),
    writesPerSec: ratio('writesPerSec', m.writes, okSeconds, true, 'no-data'),
    iops: ratio('iops', ios, okSeconds, true, 'no-data'),
    readMBps: ratio('readMBps', m.rb, bytesMB, hasBytes, 'no-data'),
    writeMBps: ratio('writeMBps', m.wb, bytesMB, hasBytes, 'no-data'),
    mbps: ratio('mbps', m.rb + m.wb, bytesMB, hasBytes, 'no-data'),
    rAwaitMs: ratio('rAwaitMs', m.rt, m.rtReads, m.rtN > 0, 'no-reads'),
    wAwaitMs: ratio('wAwaitMs', m.wt, m.wtWrites, m.wtN > 0, 'no-writes'),
    awaitMs: ratio('awaitMs', m.rt + m.wt, m.rtReads + m.wtWrites, m.rtN > 0 && m.wtN > 0, 'no-io'),
    avgRequestBytes: ratio('avgRequestBytes', m.rb + m.wb, m.bytesIos, hasBytes, 'no-io'),
    utilPercent: ratio('utilPercent', m.busy, m.busyMs * members, m.busyN > 0, 'no-data', 100),
    aquSz: ratio('aquSz', m.weighted, m.weightedMs, m.weightedN > 0, 'no-data'),
    readSharePercent: ratio('readSharePercent', m.reads, ios, true, 'no-io', 100),
    reasons: mr,
  };
}

/** The distributions (p50, p95, p99, max) of the per-interval metrics of a series (null with its reason). */
function windowPercentiles(s: Series, noData: boolean): WindowSummary['percentiles'] {
  const scratch = scratchOf(s.n);
  const pr: Reasons = {};
  const dist = (key: DistributionMetric): Distribution | null => {
    const n = fillMetric(s, key, scratch);
    if (n === 0) {
      pr[key] = noData ? 'no-data'
        : key === 'rAwaitMs' ? 'no-reads' : key === 'wAwaitMs' ? 'no-writes' : key === 'awaitMs' ? 'no-io' : 'not-reported';
      return null;
    }
    // the maximum is the 100th percentile (the largest order statistic), found in the same selection
    const [p50, p95, p99, max] = quantilesInPlace(scratch, n, PS);
    return { p50: p50 as number, p95: p95 as number, p99: p99 as number, max: max as number, n };
  };
  return {
    iops: dist('iops'),
    readsPerSec: dist('readsPerSec'),
    writesPerSec: dist('writesPerSec'),
    mbps: dist('mbps'),
    awaitMs: dist('awaitMs'),
    rAwaitMs: dist('rAwaitMs'),
    wAwaitMs: dist('wAwaitMs'),
    utilPercent: dist('utilPercent'),
    aquSz: dist('aquSz'),
    reasons: pr,
  };
}

/**
 * Writes the per-interval values of one metric (iostat definitions, see metrics/interval.ts)
 * for the `ok` intervals that have it into `out`, and returns how many. One tight loop per
 * metric (no per-element dispatch): this runs over millions of intervals.
 *
 * @example
 * const out = new Float64Array(series.n);
 * const n = fillMetric(series, 'awaitMs', out); // out[0..n-1] = await of each interval with I/O
 */
export function fillMetric(s: Series, key: DistributionMetric, out: Float64Array): number {
  const { n, ok, reads, writes, readBytes, writeBytes, readTimeMs, writeTimeMs, busyMs, weightedMs, intervalMs } = s;
  switch (key) {
    case 'iops': return fillIops(n, ok, reads, writes, intervalMs, out);
    case 'readsPerSec': return fillPerSecond(n, ok, reads, intervalMs, out);
    case 'writesPerSec': return fillPerSecond(n, ok, writes, intervalMs, out);
    case 'mbps': return fillMBps(n, ok, readBytes, writeBytes, intervalMs, out);
    case 'awaitMs': return fillAwait(n, ok, readTimeMs, writeTimeMs, reads, writes, out);
    case 'rAwaitMs': return fillOpAwait(n, ok, readTimeMs, reads, out);
    case 'wAwaitMs': return fillOpAwait(n, ok, writeTimeMs, writes, out);
    case 'utilPercent': return fillUtil(n, ok, busyMs, intervalMs, s.members, out);
    case 'aquSz': return fillQueue(n, ok, weightedMs, intervalMs, out);
  }
}

// One small function per loop of fillMetric, on typed arrays: each is optimized on its own from its
// first call (as one function of nine loops, each loop ran unoptimized, or deoptimized, the first
// time its metric came, with its values boxed).

function fillIops(n: number, ok: Uint8Array, reads: Float64Array, writes: Float64Array, intervalMs: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (ok[i] === 1) out[k++] = (((reads[i] as number) + (writes[i] as number)) * 1000) / (intervalMs[i] as number);
  return k;
}

function fillPerSecond(n: number, ok: Uint8Array, count: Float64Array, intervalMs: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (ok[i] === 1) out[k++] = ((count[i] as number) * 1000) / (intervalMs[i] as number);
  return k;
}

function fillMBps(n: number, ok: Uint8Array, readBytes: Float64Array, writeBytes: Float64Array, intervalMs: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (ok[i] !== 1) continue;
    const v = (((readBytes[i] as number) + (writeBytes[i] as number)) * 1000) / (intervalMs[i] as number) / BYTES_PER_MB;
    if (!Number.isNaN(v)) out[k++] = v;
  }
  return k;
}

function fillAwait(n: number, ok: Uint8Array, readTimeMs: Float64Array, writeTimeMs: Float64Array, reads: Float64Array, writes: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (ok[i] !== 1) continue;
    const c = (reads[i] as number) + (writes[i] as number);
    const v = ((readTimeMs[i] as number) + (writeTimeMs[i] as number)) / c;
    if (c > 0 && !Number.isNaN(v)) out[k++] = v;
  }
  return k;
}

function fillOpAwait(n: number, ok: Uint8Array, timeMs: Float64Array, count: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (ok[i] !== 1) continue;
    const c = count[i] as number;
    const v = (timeMs[i] as number) / c;
    if (c > 0 && !Number.isNaN(v)) out[k++] = v;
  }
  return k;
}

function fillUtil(n: number, ok: Uint8Array, busyMs: Float64Array, intervalMs: Float64Array, members: number, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (ok[i] !== 1) continue;
    const v = ((busyMs[i] as number) * 100) / ((intervalMs[i] as number) * members);
    if (!Number.isNaN(v)) out[k++] = v;
  }
  return k;
}

function fillQueue(n: number, ok: Uint8Array, weightedMs: Float64Array, intervalMs: Float64Array, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (ok[i] !== 1) continue;
    const v = (weightedMs[i] as number) / (intervalMs[i] as number);
    if (!Number.isNaN(v)) out[k++] = v;
  }
  return k;
}
