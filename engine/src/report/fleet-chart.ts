/**
 * The fleet's IOPS over time (issue 27): the per-moment sum of the hosts' IOPS
 * ({@link FleetAggregate}`.series`) as a report chart, its 95th percentile a reference line and its
 * peak, p95 and mean in the chart's words. The fleet view draws the same series and quotes the
 * same words ({@link fleetChartSummary}).
 */
import type { FleetAggregate } from '../benefit/fleet-aggregate.ts';
import { COLOR } from './colors.ts';
import type { ChartSpec, Msg, Val } from './types.ts';
import { duration, m, msgv, num, time } from './values.ts';

/**
 * At most this many points on the report's chart: a day of minutes. The chart is printed about
 * 170 mm wide (≈ 2,000 pixels at 300 dpi, ≈ 650 on a 96-dpi screen): beyond 1,440 points several
 * fall on each printed pixel and only thicken the line, while the PDF's SVG path and the PowerPoint
 * chart (one category per point) grow with every one of them. A week at 60 s (10,080 moments) is
 * drawn in buckets of 7 moments.
 */
export const FLEET_CHART_MAX_POINTS = 1440;

/** Decimals of the fleet's IOPS in the chart's words (the fleet report's and view's whole IOPS). */
const IOPS_DECIMALS = 0;
const iopsV = (v: number | null): Val => num(v, IOPS_DECIMALS, 'iops');

/** The chart's words: the peak and when it starts, the p95 (the dashed line) and the mean, over how many moments. */
export function fleetChartSummary(a: FleetAggregate): Msg {
  const p = a.peak;
  if (p === null) return m('fl.verdictNone');
  return m('fl.ch.summary', { peak: iopsV(p.iops), start: time(p.startMs), p95: iopsV(a.p95Iops), mean: iopsV(a.meanIops), moments: num(a.moments, 0), hosts: num(a.hosts, 0) });
}

/**
 * The series drawn: every moment when there are at most `maxPoints`, else consecutive moments in
 * buckets of `size`, each drawn as its highest moment (at that moment's own time), so the fleet's
 * peak is always a point of the chart. Pure.
 */
export function fleetChartPoints(a: FleetAggregate, maxPoints = FLEET_CHART_MAX_POINTS): { points: [number, number][]; size: number } {
  const { startMs: t, iops } = a.series;
  const n = Math.min(t.length, iops.length);
  const size = Math.max(1, Math.ceil(n / Math.max(1, maxPoints)));
  const points: [number, number][] = [];
  for (let i = 0; i < n; i += size) {
    let best = i;
    for (let j = i + 1; j < Math.min(n, i + size); j++) if ((iops[j] as number) > (iops[best] as number)) best = j;
    points.push([t[best] as number, iops[best] as number]);
  }
  return { points, size };
}

/** The moments' usual spacing, ms (the median gap between consecutive moments; 0 with fewer than two). */
function stepMs(t: readonly number[]): number {
  if (t.length < 2) return 0;
  const gaps: number[] = [];
  for (let i = 1; i < t.length; i++) gaps.push((t[i] as number) - (t[i - 1] as number));
  gaps.sort((x, y) => x - y);
  return gaps[Math.floor(gaps.length / 2)] as number;
}

/** The fleet report's chart of the fleet's IOPS over time, or null when the fleet has no moment. */
export function fleetChart(a: FleetAggregate, maxPoints = FLEET_CHART_MAX_POINTS): ChartSpec | null {
  if (a.peak === null || a.series.startMs.length === 0) return null;
  const { points, size } = fleetChartPoints(a, maxPoints);
  const spec: ChartSpec = {
    id: 'fleet-iops-time',
    kind: 'line',
    title: m('fl.ch.title'),
    x: { kind: 'time', label: m('ax.timeUtc') },
    y: { label: m('ax.iops'), unit: 'iops', min: 0 },
    series: [{ name: msgv('fl.ch.series', { hosts: num(a.hosts, 0) }), color: COLOR.front, points }],
    summary: fleetChartSummary(a),
  };
  if (a.p95Iops !== null) spec.refLines = [{ y: a.p95Iops, label: m('fl.ch.p95Line', { p95: iopsV(a.p95Iops) }) }];
  if (size > 1) {
    spec.note = m('fl.ch.note', { moments: num(a.series.startMs.length, 0), points: num(points.length, 0), size: num(size, 0), bucket: duration((size * stepMs(a.series.startMs)) / 1000) });
  }
  return spec;
}
