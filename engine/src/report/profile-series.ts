/**
 * The workload-profile report's time series (issue 37): the application-facing group over the
 * profiled window, drawn with the engine's one bucketing (metrics/buckets.ts, as the before/after
 * report's lines: IOPS = Σ I/Os ÷ Σ covered seconds, reads/s and writes/s apart, MB/s, response time
 * = Σ ms ÷ Σ I/Os, aqu-sz = Σ weighted ms ÷ Σ ms), and the mean request size per clock hour (UTC).
 * Only intervals wholly inside the window count, as in the profile's figures. A bucket or hour with
 * no usable interval is null: a gap in the data is a gap in the line. Pure.
 */
import { bucketGrid, bucketSums, seriesOfBuckets, type BucketGrid, type BucketSums } from '../metrics/buckets.ts';
import type { DeviceColumns } from '../records/columns.ts';
import type { WorkloadProfile } from '../benefit/profile.ts';
import { REPORT_CHART_POINTS } from './series.ts';

const HOUR_MS = 3_600_000;

export interface ProfileSeries {
  /** Bucket mid-points, UTC epoch ms, and the bucket width (ms). */
  t: number[];
  bucketMs: number;
  iops: (number | null)[];
  readIops: (number | null)[];
  writeIops: (number | null)[];
  mbps: (number | null)[];
  latencyMs: (number | null)[];
  aquSz: (number | null)[];
  /** Clock hours (UTC) of the window, their mid-points, and the mean request size of each (bytes: MB/s ÷ IOPS of the hour, as iostat's areq-sz), null without I/O. */
  hourT: number[];
  requestBytes: (number | null)[];
}

/** The profile's application-facing devices. */
function appDevices(p: WorkloadProfile): string[] {
  return p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
}

/** The slots `[lo, hi)` of a device's columns (ascending starts) wholly inside the window; an interval crossing the window's end is left out, as the profile leaves it out. */
function insideWindow(c: DeviceColumns, startMs: number, endMs: number): [number, number][] {
  const out: [number, number][] = [];
  let lo = -1;
  for (let i = 0; i < c.n; i++) {
    const inside = (c.startMs[i] as number) >= startMs && (c.endMs[i] as number) <= endMs;
    if (inside && lo < 0) lo = i;
    if (!inside && lo >= 0) { out.push([lo, i]); lo = -1; }
  }
  if (lo >= 0) out.push([lo, c.n]);
  return out;
}

/** A device's sums on a grid over its slots inside the window. */
function sumsIn(c: DeviceColumns, grid: BucketGrid, ranges: [number, number][]): BucketSums {
  const total = bucketSums(c, grid, 0, 0);
  for (const [lo, hi] of ranges) {
    const part = bucketSums(c, grid, lo, hi);
    for (const k of ['okMs', 'reads', 'writes', 'bytes', 'bytesMs', 'timeMs', 'timedIos', 'weightedMs', 'weightedOkMs'] as const) {
      const a = total[k], b = part[k];
      for (let j = 0; j < grid.n; j++) a[j] = (a[j] as number) + (b[j] as number);
    }
  }
  return total;
}

/**
 * The profile's lines: at most `maxPoints` equal buckets over the window (none shorter than the
 * mean sample step, so regular samples fall one per bucket), and the request size per clock hour.
 * `load` gives a device's columns (ascending starts); it is called twice per device and the
 * columns are dropped before the next call (a streamed source may reuse its buffer).
 *
 * @example
 * const s = profileSeries((d) => byName.get(d) ?? allocColumns(d, 0), profile);
 * s.iops.length === s.t.length // one value (or null) per bucket
 */
export function profileSeries(load: (device: string) => DeviceColumns, p: WorkloadProfile, maxPoints = REPORT_CHART_POINTS): ProfileSeries {
  const { startMs, endMs } = p.window;
  const names = appDevices(p);
  let most = 0;
  for (const d of names) most = Math.max(most, insideWindow(load(d), startMs, endMs).reduce((n, [lo, hi]) => n + hi - lo, 0));
  const grid = bucketGrid(startMs, endMs, maxPoints, most > 0 ? (endMs - startMs) / most : 1);
  const h0 = Math.floor(startMs / HOUR_MS) * HOUR_MS;
  const hours: BucketGrid = { t0: h0, bucketMs: HOUR_MS, n: Math.max(1, Math.ceil((endMs - h0) / HOUR_MS)) };
  const empty: ProfileSeries = { t: [], bucketMs: 0, iops: [], readIops: [], writeIops: [], mbps: [], latencyMs: [], aquSz: [], hourT: [], requestBytes: [] };
  if (grid === null || most === 0) return empty;
  const sums: BucketSums[] = [], hourSums: BucketSums[] = [];
  for (const d of names) {
    const c = load(d);
    const ranges = insideWindow(c, startMs, endMs);
    if (ranges.length === 0) continue;
    sums.push(sumsIn(c, grid, ranges));
    hourSums.push(sumsIn(c, hours, ranges));
  }
  const line = seriesOfBuckets(sums);
  const hourly = seriesOfBuckets(hourSums);
  const requestBytes = hourly.iops.map((io, k) => {
    const mb = hourly.mbps[k] ?? null;
    return io === null || mb === null || !(io > 0) ? null : (mb * 1e6) / io;
  });
  return {
    t: line.mid, bucketMs: grid.bucketMs, iops: line.iops, readIops: line.readIops, writeIops: line.writeIops, mbps: line.mbps, latencyMs: line.latencyMs, aquSz: line.aquSz,
    hourT: hourly.mid, requestBytes,
  };
}
