/**
 * Time series for the report's charts: every device's intervals in the same fixed time buckets
 * (so devices line up), drawn with the engine's one bucketing (metrics/buckets.ts: IOPS is a
 * bucket's I/Os ÷ its covered seconds, response time Σ ms ÷ Σ I/Os of the intervals whose times
 * are present). A bucket with no interval with numbers is null (a gap, not 0).
 */
import { bucketSums, chartPlan, seriesOfBuckets, type BucketSums, type ChartPlan } from '../metrics/buckets.ts';
import { extentOf, type DeviceExtent } from '../records/source.ts';
import { columnsFromRecords, type DeviceColumns } from '../records/columns.ts';
import type { DeviceRole, IntervalRecord } from '../records/types.ts';

export interface ReportSeriesDevice {
  device: string;
  role: DeviceRole;
  iops: (number | null)[];
  latencyMs: (number | null)[];
  mbps: (number | null)[];
}

/** A group's lines (the front or the backing devices summed per bucket: {@link seriesOfBuckets}). */
export interface ReportSeriesGroup {
  group: 'front' | 'backing';
  devices: string[];
  /** Reads and writes per second, summed over the group's devices. */
  readIops: (number | null)[];
  writeIops: (number | null)[];
  /** Average queue size (aqu-sz), summed over the group's devices. */
  aquSz: (number | null)[];
}

export interface ReportSeries {
  /** Bucket mid-points, UTC epoch ms. */
  t: number[];
  /** Bucket width, ms. */
  bucketMs: number;
  devices: ReportSeriesDevice[];
  /** The front and backing groups (those with devices that have intervals); absent from older views. */
  groups?: ReportSeriesGroup[];
}

/** The analysed front and backing devices. */
export interface ReportGroups {
  front: readonly string[];
  backing: readonly string[];
}

/** Most points per chart line (a printed line ~18 cm wide: ~0.4 mm per point). */
export const REPORT_CHART_POINTS = 480;

/**
 * Every device's line over [first start, last end], at most `maxPoints` equal buckets (a
 * bucket is never shorter than the mean sample step), drawn with the engine's one bucketing
 * ({@link seriesOfBuckets}: the dashboard and the live screen use the same). Devices keep the
 * order of `devices`; devices without intervals are left out. `t` holds bucket mid-points.
 *
 * @example
 * // two 1 s intervals of 100 and 300 I/Os in one 2 s bucket → iops [200]
 * reportSeries([{ device: 'a', startMs: 0, endMs: 1000, intervalMs: 1000, status: 'ok', reads: 100, writes: 0, … },
 *               { device: 'a', startMs: 1000, endMs: 2000, intervalMs: 1000, status: 'ok', reads: 300, writes: 0, … }],
 *              [{ name: 'a', role: 'front' }], 1).devices[0].iops // [200]
 */
export function reportSeries(records: readonly IntervalRecord[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS, groups?: ReportGroups): ReportSeries {
  return reportSeriesFromColumns(columnsFromRecords(records), devices, maxPoints, groups);
}

/**
 * The devices a report charts: the capture's devices (less those of role `other` when the capture
 * gives roles), then the analysed front and backing devices not among them; a device in a group
 * takes the group's role. Devices without intervals are dropped later (they get no line).
 */
export function reportDevices(devices: readonly { name: string; role: DeviceRole }[], groups: { front: readonly string[]; backing: readonly string[] }): { name: string; role: DeviceRole }[] {
  const someRole = devices.some((d) => d.role !== 'other');
  const charted = devices.filter((d) => !(d.role === 'other' && someRole)).map((d) => d.name);
  for (const name of [...groups.front, ...groups.backing]) if (!charted.includes(name)) charted.push(name);
  return charted.map((name) => ({
    name,
    role: groups.front.includes(name) ? 'front' : groups.backing.includes(name) ? 'backing' : (devices.find((d) => d.name === name)?.role ?? 'other'),
  }));
}

/**
 * The report chart's grid and the devices it needs, from the devices' extents alone (before any
 * interval is read): a streamed analysis computes each device's {@link bucketSums} on this grid
 * as the device passes, then {@link reportSeriesOfSums} draws the lines.
 */
export function reportSeriesPlan(extents: readonly DeviceExtent[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS): ChartPlan {
  return chartPlan(extents, devices.map((d) => d.name), [], maxPoints);
}

/**
 * The report's lines from each device's sums on the plan's grid (devices in the order of
 * `devices`; those without sums left out), and the front and backing groups' reads/s, writes/s
 * and queue size (the devices of `groups` must be among `devices`, as {@link reportDevices} makes them).
 */
export function reportSeriesOfSums(plan: ChartPlan, sums: ReadonlyMap<string, BucketSums>, devices: readonly { name: string; role: DeviceRole }[], groups: ReportGroups = { front: [], backing: [] }): ReportSeries {
  if (plan.grid === null) return { t: [], bucketMs: 0, devices: [], groups: [] };
  let t: number[] = [];
  const out: ReportSeriesDevice[] = [];
  for (const d of devices) {
    const s = sums.get(d.name);
    if (s === undefined || out.some((o) => o.device === d.name)) continue;
    const line = seriesOfBuckets([s]);
    t = line.mid;
    out.push({ device: d.name, role: d.role, iops: line.iops, latencyMs: line.latencyMs, mbps: line.mbps });
  }
  const groupLines: ReportSeriesGroup[] = [];
  for (const g of ['front', 'backing'] as const) {
    const present = groups[g].filter((d) => sums.has(d));
    if (present.length === 0) continue;
    const line = seriesOfBuckets(present.map((d) => sums.get(d) as BucketSums));
    t = line.mid;
    groupLines.push({ group: g, devices: present, readIops: line.readIops, writeIops: line.writeIops, aquSz: line.aquSz });
  }
  return { t, bucketMs: plan.grid.bucketMs, devices: out, groups: groupLines };
}

/** {@link reportSeries} on per-device columns (the capture reader's `data.columns`). */
export function reportSeriesFromColumns(columns: readonly DeviceColumns[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS, groups?: ReportGroups): ReportSeries {
  const byName = new Map(columns.filter((c) => c.n > 0).map((c) => [c.device, c]));
  const plan = reportSeriesPlan([...byName.values()].map(extentOf), devices, maxPoints);
  const sums = new Map<string, BucketSums>();
  if (plan.grid !== null) for (const name of plan.names) sums.set(name, bucketSums(byName.get(name) as DeviceColumns, plan.grid));
  return reportSeriesOfSums(plan, sums, devices, groups);
}
