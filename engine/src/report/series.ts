/**
 * Time series for the report's charts: every device's intervals in the same fixed time buckets
 * (so devices line up), drawn with the engine's one bucketing (metrics/buckets.ts: IOPS is a
 * bucket's I/Os ÷ its covered seconds, response time Σ ms ÷ Σ I/Os of the intervals whose times
 * are present). A bucket with no interval with numbers is null (a gap, not 0).
 */
import { bucketGrid, bucketSums, columnsSpan, seriesOfBuckets } from '../metrics/buckets.ts';
import { columnsFromRecords, type DeviceColumns } from '../records/columns.ts';
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
export function reportSeries(records: readonly IntervalRecord[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS): ReportSeries {
  return reportSeriesFromColumns(columnsFromRecords(records), devices, maxPoints);
}

/** {@link reportSeries} on per-device columns (the capture reader's `data.columns`). */
export function reportSeriesFromColumns(columns: readonly DeviceColumns[], devices: readonly { name: string; role: DeviceRole }[], maxPoints = REPORT_CHART_POINTS): ReportSeries {
  const byName = new Map(columns.filter((c) => c.n > 0).map((c) => [c.device, c]));
  const wanted = devices.filter((d) => byName.has(d.name));
  const span = columnsSpan(wanted.map((d) => byName.get(d.name) as DeviceColumns));
  const grid = bucketGrid(span.t0, span.t1, maxPoints, span.stepMs);
  if (grid === null) return { t: [], bucketMs: 0, devices: [] };
  let t: number[] = [];
  const out: ReportSeriesDevice[] = wanted.map((d) => {
    const line = seriesOfBuckets([bucketSums(byName.get(d.name) as DeviceColumns, grid)]);
    t = line.mid;
    return { device: d.name, role: d.role, iops: line.iops, latencyMs: line.latencyMs, mbps: line.mbps };
  });
  return { t, bucketMs: grid.bucketMs, devices: out };
}
