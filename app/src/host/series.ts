/**
 * The dashboard's chart lines: one per device and one per device group (the front,
 * application-facing devices and the backing devices), all drawn with the engine's one
 * bucketing (`chartLines`, engine/src/metrics/buckets.ts; method in docs/metrics.md, "Chart
 * series"), on one time grid so device and group lines line up. This module only shapes them
 * for the contract; it computes nothing.
 */
import { chartLines, columnsFromRecords, type ChartLines, type DeviceColumns, type DeviceRole, type IntervalRecord } from '@cacheproof/engine';
import type { AnalysisView } from '../shared/contract.ts';
import { deviceLinesShown } from '../shared/chart-lines.ts';

export type GroupSeries = NonNullable<AnalysisView['groupSeries']>[number];

/** At most this many buckets per chart line. */
export const MAX_CHART_POINTS = 2000;

/**
 * Per-device lines (`devices`, with their roles) and the front and backing group lines over the
 * whole capture (both windows, warm-up included). Each point is stamped with its bucket's end.
 */
export function buildChartSeries(columns: readonly DeviceColumns[], devices: readonly { name: string; role: DeviceRole }[], groups: { front: readonly string[]; backing: readonly string[] }): { series: AnalysisView['series']; groupSeries: GroupSeries[] } {
  const lines = chartLines(columns, devices.map((d) => d.name), [{ group: 'front', devices: groups.front }, { group: 'backing', devices: groups.backing }], MAX_CHART_POINTS);
  return chartSeriesOf(lines, devices);
}

/**
 * The engine's chart lines shaped for the contract (device lines with their roles, group lines).
 * The device lines only when the dashboard draws them (shared/chart-lines.ts: no group line, or
 * at most `MAX_DEVICE_LINES` devices); otherwise `series` is empty.
 */
export function chartSeriesOf(lines: ChartLines, devices: readonly { name: string; role: DeviceRole }[]): { series: AnalysisView['series']; groupSeries: GroupSeries[] } {
  const role = new Map(devices.map((d) => [d.name, d.role]));
  const shown = deviceLinesShown(lines.devices.length, lines.groups.length);
  return {
    series: shown ? lines.devices.map(({ device, line }) => ({ device, role: role.get(device) ?? 'other', t: line.t, iops: line.iops, latencyMs: line.latencyMs, mbps: line.mbps })) : [],
    groupSeries: lines.groups.map(({ group, devices: present, line }) => ({
      group: group as GroupSeries['group'], devices: present, t: line.t, iops: line.iops, readIops: line.readIops, writeIops: line.writeIops, latencyMs: line.latencyMs, mbps: line.mbps, aquSz: line.aquSz,
    })),
  };
}

/** The front and backing group lines of some interval records (tests, small captures). */
export function buildGroupSeries(intervals: readonly IntervalRecord[], devices: { front: readonly string[]; backing: readonly string[] }): GroupSeries[] {
  return buildChartSeries(columnsFromRecords(intervals), [], devices).groupSeries;
}
