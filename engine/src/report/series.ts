/**
 * Time series for the report's charts: every device's intervals merged into the same fixed
 * time buckets (so devices line up and can be summed), each bucket's rates computed with the
 * engine's own {@link intervalMetrics} on the merged counts (sums over the bucket's `ok`
 * intervals ÷ their covered time: a bucket's IOPS is its I/Os ÷ its covered seconds, its
 * response time is Σ ms ÷ Σ I/Os). A bucket with no `ok` interval has null (a gap, not 0).
 */
import { intervalMetrics } from '../metrics/interval.ts';
import type { DeviceRole, IntervalRecord } from '../records/types.ts';

export interface ReportSeriesDevice {
  device: string;
  role: DeviceRole;
  iops: (number | null)[];
  latencyMs: (number | null)[];
  mbps: (number | null)[];
}

export interface ReportSeries {
  /** Bucket mid-points, UTC epoch ms. */
  t: number[];
  /** Bucket width, ms. */
  bucketMs: number;
  devices: ReportSeriesDevice[];
}

const CHUNK = 16_384;

function accumulate(records: readonly IntervalRecord[], from: number, to: number, index: Map<string, number>, sums: Float64Array[], seen: Uint8Array, t0: number, bucketMs: number, n: number): void {
  for (let k = from; k < to; k++) {
    const r = records[k] as IntervalRecord;
    const di = index.get(r.device);
    if (di === undefined) continue;
    seen[di] = 1;
    if (r.status !== 'ok' || r.reads === null || r.writes === null) continue;
    const b = Math.min(n - 1, Math.floor((r.startMs - t0) / bucketMs));
    const s = sums[di] as Float64Array;
    const o = b * WIDTH;
    s[o] = (s[o] as number) + r.reads;
    s[o + 1] = (s[o + 1] as number) + r.writes;
    s[o + 2] = (s[o + 2] as number) + (r.readBytes ?? 0);
    s[o + 3] = (s[o + 3] as number) + (r.writeBytes ?? 0);
    s[o + 4] = (s[o + 4] as number) + (r.readTimeMs ?? 0);
    s[o + 5] = (s[o + 5] as number) + (r.writeTimeMs ?? 0);
    s[o + 6] = (s[o + 6] as number) + (r.busyMs ?? 0);
    s[o + 7] = (s[o + 7] as number) + (r.weightedMs ?? 0);
    s[o + 8] = (s[o + 8] as number) + r.intervalMs;
  }
}

function scanSpan(records: readonly IntervalRecord[], from: number, to: number, acc: { t0: number; t1: number; minStep: number }): void {
  for (let k = from; k < to; k++) {
    const r = records[k] as IntervalRecord;
    if (r.startMs < acc.t0) acc.t0 = r.startMs;
    if (r.endMs > acc.t1) acc.t1 = r.endMs;
    const step = r.endMs - r.startMs;
    if (step > 0 && step < acc.minStep) acc.minStep = step;
  }
}

/** Most points per chart line (a printed line ~18 cm wide: ~0.4 mm per point). */
export const REPORT_CHART_POINTS = 480;

/** Sums kept per bucket: reads, writes, readBytes, writeBytes, readTimeMs, writeTimeMs, busyMs, weightedMs, intervalMs. */
const WIDTH = 9;

/**
 * Buckets every device's intervals over [first start, last end] into at most `maxPoints`
 * equal buckets (a bucket is never shorter than one sample interval). Devices keep the order
 * of `devices`; devices without intervals are left out. One pass over the records.
 *
 * @example
 * // two 1 s intervals of 100 and 300 I/Os in one 2 s bucket → iops [200]
 * reportSeries([{ device: 'a', startMs: 0, endMs: 1000, intervalMs: 1000, status: 'ok', reads: 100, writes: 0, … },
 *               { device: 'a', startMs: 1000, endMs: 2000, intervalMs: 1000, status: 'ok', reads: 300, writes: 0, … }],
 *              [{ name: 'a', role: 'front' }], 1).devices[0].iops // [200]
 */
export function reportSeries(records: readonly IntervalRecord[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS): ReportSeries {
  const acc = { t0: Infinity, t1: -Infinity, minStep: Infinity };
  for (let from = 0; from < records.length; from += CHUNK) scanSpan(records, from, Math.min(records.length, from + CHUNK), acc);
  const { t0, t1, minStep } = acc;
  if (!(t1 > t0)) return { t: [], bucketMs: 0, devices: [] };
  const span = t1 - t0;
  const bucketMs = Math.max(Number.isFinite(minStep) ? minStep : 1, Math.ceil(span / Math.max(1, maxPoints)));
  const n = Math.max(1, Math.ceil(span / bucketMs));
  const index = new Map<string, number>();
  devices.forEach((d, i) => index.set(d.name, i));
  const sums = devices.map(() => new Float64Array(n * WIDTH));
  const seen = new Uint8Array(devices.length);
  // In chunks: a small hot function called many times is optimized by V8 at once, where one long
  // loop in a large function may run unoptimized for seconds.
  for (let from = 0; from < records.length; from += CHUNK) accumulate(records, from, Math.min(records.length, from + CHUNK), index, sums, seen, t0, bucketMs, n);
  const t: number[] = [];
  for (let b = 0; b < n; b++) t.push(t0 + b * bucketMs + bucketMs / 2);
  const out: ReportSeriesDevice[] = [];
  devices.forEach((d, di) => {
    if (seen[di] !== 1) return;
    const s = sums[di] as Float64Array;
    const dev: ReportSeriesDevice = { device: d.name, role: d.role, iops: [], latencyMs: [], mbps: [] };
    for (let b = 0; b < n; b++) {
      const o = b * WIDTH;
      const covered = s[o + 8] as number;
      if (!(covered > 0)) {
        dev.iops.push(null);
        dev.latencyMs.push(null);
        dev.mbps.push(null);
        continue;
      }
      const m = intervalMetrics({
        device: d.name, startMs: t0 + b * bucketMs, endMs: t0 + (b + 1) * bucketMs, intervalMs: covered, status: 'ok',
        reads: s[o] as number, writes: s[o + 1] as number, readBytes: s[o + 2] as number, writeBytes: s[o + 3] as number,
        readTimeMs: s[o + 4] as number, writeTimeMs: s[o + 5] as number, busyMs: s[o + 6] as number, weightedMs: s[o + 7] as number,
      });
      dev.iops.push(m.iops);
      dev.latencyMs.push(m.awaitMs);
      dev.mbps.push(m.mbps);
    }
    out.push(dev);
  });
  return { t, bucketMs, devices: out };
}
