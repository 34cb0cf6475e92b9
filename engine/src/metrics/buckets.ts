/**
 * Chart series: the one implementation of bucketing that every chart line is drawn from (the
 * dashboard's per-device and front/backing lines, the live screen, the report's charts).
 *
 * Method (docs/metrics.md, "Chart series"):
 * - Time is cut into equal buckets ({@link bucketGrid}); an interval belongs to the bucket that
 *   holds its mid-point.
 * - Per device and bucket, only intervals with numbers count (`ok`, Δt > 0, reads and writes
 *   present: {@link DeviceColumns.ok}). IOPS = Σ(reads + writes) ÷ Σ Δt of those intervals;
 *   MB/s = Σ bytes ÷ Σ Δt of the intervals whose bytes are present; average response time =
 *   Σ(read ms + write ms) ÷ Σ(reads + writes) of the intervals whose times are present
 *   (I/O-weighted, as iostat's await); reads/s and writes/s apart; average queue size (aqu-sz) =
 *   Σ weighted ms ÷ Σ Δt (ms) of the intervals whose weighted time is present. A field that no
 *   interval of the bucket has is null.
 * - A group (front devices, backing devices) adds its devices' rates and queue sizes per
 *   bucket; its response time is I/O-weighted over its devices. A bucket where no device has an interval with
 *   numbers is null: absent is never 0.
 */
import type { DeviceColumns } from '../records/columns.ts';
import type { DeviceExtent } from '../records/source.ts';
import { extentOf } from '../records/source.ts';

/** Equal time buckets: bucket k covers [t0 + k·bucketMs, t0 + (k+1)·bucketMs). */
export interface BucketGrid {
  t0: number;
  bucketMs: number;
  n: number;
}

/**
 * The grid over [t0, t1] with at most `maxPoints` buckets, none shorter than `stepMs` (one
 * sample step: a bucket holds at least one interval's worth of time). Null when t1 ≤ t0.
 *
 * @example bucketGrid(0, 10_000, 4, 1000) // { t0: 0, bucketMs: 2500, n: 4 }
 */
export function bucketGrid(t0: number, t1: number, maxPoints: number, stepMs = 1): BucketGrid | null {
  if (!(t1 > t0) || !Number.isFinite(t0) || !Number.isFinite(t1)) return null;
  const span = t1 - t0;
  const bucketMs = Math.max(stepMs > 0 && Number.isFinite(stepMs) ? stepMs : 1, span / Math.max(1, Math.floor(maxPoints)));
  const n = Math.max(1, Math.ceil(span / bucketMs - 1e-9));
  return { t0, bucketMs, n };
}

/** The bucket holding an interval's mid-point (clamped to the grid). */
export function bucketOf(grid: BucketGrid, startMs: number, endMs: number): number {
  const k = Math.floor(((startMs + endMs) / 2 - grid.t0) / grid.bucketMs);
  return k < 0 ? 0 : k >= grid.n ? grid.n - 1 : k;
}

/** Start and end of bucket k, UTC ms. */
export function bucketStart(grid: BucketGrid, k: number): number {
  return grid.t0 + k * grid.bucketMs;
}
export function bucketEnd(grid: BucketGrid, k: number): number {
  return grid.t0 + (k + 1) * grid.bucketMs;
}

/**
 * The span of some devices' columns and their mean sample step (span ÷ the most intervals any
 * one device has): the input of {@link bucketGrid}, which then makes as many buckets as the
 * busiest device has intervals (at most its `maxPoints`), so regular samples fall one per bucket.
 */
export function columnsSpan(columns: readonly DeviceColumns[]): { t0: number; t1: number; stepMs: number } {
  let t0 = Infinity, t1 = -Infinity, most = 0;
  for (const c of columns) {
    if (c.n > most) most = c.n;
    for (let i = 0; i < c.n; i++) {
      const s = c.startMs[i] as number, e = c.endMs[i] as number;
      if (s < t0) t0 = s;
      if (e > t1) t1 = e;
    }
  }
  return { t0, t1, stepMs: most > 0 ? (t1 - t0) / most : 1 };
}

/** One device's sums per bucket (the input of {@link seriesOfBuckets}). */
export interface BucketSums {
  device: string;
  grid: BucketGrid;
  /** Σ Δt (ms) of the intervals with numbers. */
  okMs: Float64Array;
  reads: Float64Array;
  writes: Float64Array;
  /** Σ bytes and Σ Δt of the intervals whose read and write bytes are both present. */
  bytes: Float64Array;
  bytesMs: Float64Array;
  /** Σ(read + write ms) and Σ(reads + writes) of the intervals whose times are both present. */
  timeMs: Float64Array;
  timedIos: Float64Array;
  /** Σ weighted ms (time × requests in flight) and Σ Δt of the intervals whose weighted time is present. */
  weightedMs: Float64Array;
  weightedOkMs: Float64Array;
}

/**
 * Sums one device's intervals `[from, to)` (default: all) into the grid's buckets. Only
 * intervals with numbers count; one pass, memory ∝ buckets.
 */
export function bucketSums(c: DeviceColumns, grid: BucketGrid, from = 0, to = c.n): BucketSums {
  const s = emptySums(c.device, grid);
  for (let i = from; i < to; i++) {
    if (c.ok[i] !== 1) continue;
    addInterval(s, bucketOf(grid, c.startMs[i] as number, c.endMs[i] as number), c, i);
  }
  return s;
}

/** Adds interval `i` of `c` into bucket `k` of `s`: only the figures the interval has. */
function addInterval(s: BucketSums, k: number, c: DeviceColumns, i: number): void {
  const ms = c.intervalMs[i] as number, r = c.reads[i] as number, w = c.writes[i] as number;
  s.okMs[k] = (s.okMs[k] as number) + ms;
  s.reads[k] = (s.reads[k] as number) + r;
  s.writes[k] = (s.writes[k] as number) + w;
  const rb = c.readBytes[i] as number, wb = c.writeBytes[i] as number;
  if (!Number.isNaN(rb) && !Number.isNaN(wb)) {
    s.bytes[k] = (s.bytes[k] as number) + rb + wb;
    s.bytesMs[k] = (s.bytesMs[k] as number) + ms;
  }
  const rt = c.readTimeMs[i] as number, wt = c.writeTimeMs[i] as number;
  if (!Number.isNaN(rt) && !Number.isNaN(wt)) {
    s.timeMs[k] = (s.timeMs[k] as number) + rt + wt;
    s.timedIos[k] = (s.timedIos[k] as number) + r + w;
  }
  const wq = c.weightedMs[i] as number;
  if (!Number.isNaN(wq)) {
    s.weightedMs[k] = (s.weightedMs[k] as number) + wq;
    s.weightedOkMs[k] = (s.weightedOkMs[k] as number) + ms;
  }
}

/** Empty sums of one device on one grid. */
function emptySums(device: string, grid: BucketGrid): BucketSums {
  const f = (): Float64Array => new Float64Array(grid.n);
  return { device, grid, okMs: f(), reads: f(), writes: f(), bytes: f(), bytesMs: f(), timeMs: f(), timedIos: f(), weightedMs: f(), weightedOkMs: f() };
}

/**
 * {@link bucketSums} of one device on two grids in one pass over its intervals (the dashboard's
 * lines and the report's, computed as the analysis reads the device; each interval added by the
 * same {@link addInterval}): the same sums, added in the same order, as
 * `[bucketSums(c, a), bucketSums(c, b)]`.
 *
 * @example
 * const [screen, report] = bucketSumsOnTwoGrids(columns, chartGrid, reportGrid);
 */
export function bucketSumsOnTwoGrids(c: DeviceColumns, a: BucketGrid, b: BucketGrid): [BucketSums, BucketSums] {
  const s = emptySums(c.device, a), t = emptySums(c.device, b);
  for (let i = 0; i < c.n; i++) {
    if (c.ok[i] !== 1) continue;
    const start = c.startMs[i] as number, end = c.endMs[i] as number;
    addInterval(s, bucketOf(a, start, end), c, i);
    addInterval(t, bucketOf(b, start, end), c, i);
  }
  return [s, t];
}

/** A chart line: one value per bucket (null where there is no data), stamped with the bucket's end. */
export interface BucketSeries {
  /** Bucket ends, UTC ms. */
  t: number[];
  /** Bucket mid-points, UTC ms. */
  mid: number[];
  iops: (number | null)[];
  readIops: (number | null)[];
  writeIops: (number | null)[];
  /** MB/s (10^6 bytes). */
  mbps: (number | null)[];
  /** Average response time, ms (I/O-weighted). */
  latencyMs: (number | null)[];
  /** Average queue size (aqu-sz, requests): Σ weighted ms ÷ Σ Δt ms, added over a group's devices. */
  aquSz: (number | null)[];
}

/**
 * The line of one device (one element) or of a group (several devices' sums on one grid):
 * rates added over the devices that have numbers in the bucket, response time I/O-weighted.
 *
 * @example
 * // two 1 s intervals of 100 and 300 reads in one 2 s bucket, times 50 ms and 150 ms
 * // → iops [200], latencyMs [0.5]
 */
export function seriesOfBuckets(sums: readonly BucketSums[]): BucketSeries {
  const first = sums[0];
  const out: BucketSeries = { t: [], mid: [], iops: [], readIops: [], writeIops: [], mbps: [], latencyMs: [], aquSz: [] };
  if (first === undefined) return out;
  const { grid } = first;
  for (const s of sums) if (s.grid.n !== grid.n || s.grid.t0 !== grid.t0 || s.grid.bucketMs !== grid.bucketMs) throw new Error('seriesOfBuckets: devices on different grids');
  for (let k = 0; k < grid.n; k++) {
    out.t.push(bucketEnd(grid, k));
    out.mid.push(grid.t0 + (k + 0.5) * grid.bucketMs);
    let covered = false, r = 0, w = 0, mb: number | null = null, timeMs = 0, timedIos = 0, q: number | null = null;
    for (const s of sums) {
      const ms = s.okMs[k] as number;
      if (!(ms > 0)) continue;
      covered = true;
      r += ((s.reads[k] as number) * 1000) / ms;
      w += ((s.writes[k] as number) * 1000) / ms;
      const bms = s.bytesMs[k] as number;
      if (bms > 0) mb = (mb ?? 0) + (s.bytes[k] as number) / 1e6 / (bms / 1000);
      timeMs += s.timeMs[k] as number;
      timedIos += s.timedIos[k] as number;
      const qms = s.weightedOkMs[k] as number;
      if (qms > 0) q = (q ?? 0) + (s.weightedMs[k] as number) / qms;
    }
    if (!covered) {
      out.iops.push(null); out.readIops.push(null); out.writeIops.push(null); out.mbps.push(null); out.latencyMs.push(null); out.aquSz.push(null);
      continue;
    }
    out.iops.push(r + w);
    out.readIops.push(r);
    out.writeIops.push(w);
    out.mbps.push(mb);
    out.latencyMs.push(timedIos > 0 ? timeMs / timedIos : null);
    out.aquSz.push(q);
  }
  return out;
}

/** Lines of some devices and of groups of them, all on one grid (so they line up on one time axis). */
export interface ChartLines {
  grid: BucketGrid | null;
  /** Per device asked for that has intervals, in the order asked. */
  devices: { device: string; line: BucketSeries }[];
  /** Per group asked for that has at least one device with intervals; `devices` are those present. */
  groups: { group: string; devices: string[]; line: BucketSeries }[];
}

/**
 * The dashboard's and the live screen's lines: every device of `devices` and every group of
 * `groups` over the span of all their intervals, at most `maxPoints` buckets, each device summed
 * once ({@link bucketSums}) and shared by its groups.
 */
export function chartLines(columns: readonly DeviceColumns[], devices: readonly string[], groups: readonly { group: string; devices: readonly string[] }[], maxPoints: number): ChartLines {
  const byName = new Map(columns.filter((c) => c.n > 0).map((c) => [c.device, c]));
  const plan = chartPlan(columns.map(extentOf), devices, groups, maxPoints);
  const sums = new Map<string, BucketSums>();
  if (plan.grid !== null) for (const d of plan.names) sums.set(d, bucketSums(byName.get(d) as DeviceColumns, plan.grid));
  return linesOfSums(plan.grid, sums, devices, groups);
}

/** The devices a chart needs and their one grid, from the devices' extents alone (before any interval is read). */
export interface ChartPlan {
  grid: BucketGrid | null;
  /** Devices with intervals among the chart's devices and groups: those whose {@link bucketSums} the lines need. */
  names: string[];
}

/**
 * The first half of {@link chartLines}, for a caller that reads the devices one at a time: the
 * grid (the same as chartLines would use) and the devices to sum on it.
 *
 * @example
 * const plan = chartPlan(source.devices, ['sda'], [{ group: 'backing', devices: ['sdb', 'sdc'] }], 2000);
 * // then, for each device d in plan.names as it is read: sums.set(d, bucketSums(columnsOf(d), plan.grid))
 * linesOfSums(plan.grid, sums, ['sda'], groups) // deep-equal to chartLines(allColumns, …)
 */
export function chartPlan(extents: readonly DeviceExtent[], devices: readonly string[], groups: readonly { group: string; devices: readonly string[] }[], maxPoints: number): ChartPlan {
  const byName = new Map(extents.filter((e) => e.n > 0).map((e) => [e.device, e]));
  const names = [...new Set([...devices, ...groups.flatMap((g) => g.devices)])].filter((d) => byName.has(d));
  let t0 = Infinity, t1 = -Infinity, most = 0;
  for (const d of names) {
    const e = byName.get(d) as DeviceExtent;
    if (e.n > most) most = e.n;
    if (e.minStartMs < t0) t0 = e.minStartMs;
    if (e.maxEndMs > t1) t1 = e.maxEndMs;
  }
  const grid = bucketGrid(t0, t1, maxPoints, most > 0 ? (t1 - t0) / most : 1);
  return { grid, names };
}

/** The second half of {@link chartLines}: the lines of the devices and groups from their bucket sums on the plan's grid. */
export function linesOfSums(grid: BucketGrid | null, sums: ReadonlyMap<string, BucketSums>, devices: readonly string[], groups: readonly { group: string; devices: readonly string[] }[]): ChartLines {
  if (grid === null) return { grid: null, devices: [], groups: [] };
  return {
    grid,
    devices: devices.filter((d) => sums.has(d)).map((d) => ({ device: d, line: seriesOfBuckets([sums.get(d) as BucketSums]) })),
    groups: groups.flatMap((g) => {
      const present = g.devices.filter((d) => sums.has(d));
      return present.length === 0 ? [] : [{ group: g.group, devices: present, line: seriesOfBuckets(present.map((d) => sums.get(d) as BucketSums)) }];
    }),
  };
}
