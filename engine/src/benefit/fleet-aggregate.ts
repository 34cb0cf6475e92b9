/**
 * The fleet as one load: the sum of its hosts' IOPS at each moment, and that sum's peak, p95 and
 * mean, with when the peak happens and which hosts make it. The fleet's peak is the peak of the
 * per-moment sum, not the sum of the hosts' peaks (hosts peak at different times). Each host
 * contributes its application-facing devices (the group its workload profile summarises) over its
 * profiled window, interval by interval; a moment is an interval start, and a host with no usable
 * interval at a moment (a gap, a reset) contributes nothing to it (docs/metrics.md § Fleet).
 */
import { buildSeriesFromColumns } from '../metrics/series.ts';
import { quantile } from '../metrics/quantile.ts';
import type { DeviceColumns } from '../records/columns.ts';
import { allocColumns, columnsFromRecords } from '../records/columns.ts';
import type { CaptureData } from '../records/types.ts';
import { isoUtc } from '../records/window.ts';
import type { WorkloadProfile } from './profile.ts';

/** One host's IOPS at its application-facing devices, interval by interval (NaN: no usable interval). */
export interface HostIops {
  host: string;
  startMs: Float64Array;
  endMs: Float64Array;
  iops: Float64Array;
}

/**
 * A host's IOPS over its profiled window: the reads and writes of its application-facing group
 * (`profile.devices`) per interval over the interval's seconds — the series its profile's
 * `appFacing` summary is computed from. Pure.
 */
export function hostIopsOverTime(host: string, data: CaptureData, profile: WorkloadProfile): HostIops {
  const names = profile.devices.appFacing === 'front' ? profile.devices.front : profile.devices.backing;
  const columns: readonly DeviceColumns[] = data.columns ?? columnsFromRecords(data.intervals);
  const byDevice = new Map(columns.map((c) => [c.device, c]));
  const s = buildSeriesFromColumns(names.map((n) => byDevice.get(n) ?? allocColumns(n, 0)), { startMs: profile.window.startMs, endMs: profile.window.endMs });
  const iops = new Float64Array(s.n).fill(NaN);
  for (let i = 0; i < s.n; i++) {
    const seconds = (s.intervalMs[i] as number) / 1000;
    const ios = (s.reads[i] as number) + (s.writes[i] as number);
    if (s.ok[i] === 1 && seconds > 0 && Number.isFinite(ios)) iops[i] = ios / seconds;
  }
  return { host, startMs: Float64Array.from(s.startMs), endMs: Float64Array.from(s.endMs), iops };
}

/** A host's share of the fleet's peak moment. */
export interface PeakHost {
  host: string;
  iops: number;
  /** Its share of the peak, percent. */
  percent: number;
}

export interface FleetAggregate {
  /** Hosts with at least one usable interval, and the moments (interval starts) summed. */
  hosts: number;
  moments: number;
  /** The highest per-moment sum of the hosts' IOPS, and its interval (the first such when several tie). */
  peak: { iops: number; start: string; end: string; startMs: number; endMs: number; hosts: PeakHost[] } | null;
  /** Type-7 95th percentile and mean of the per-moment sums. */
  p95Iops: number | null;
  meanIops: number | null;
  /** The hosts' own peaks summed: what sizing each host for its own peak would carry (≥ the fleet's peak). */
  sumOfHostPeaksIops: number | null;
  /** The per-moment sum over time: each moment's start (UTC epoch ms) and the hosts' IOPS summed, in time order. */
  series: { startMs: number[]; iops: number[] };
}

/** How many hosts the peak names, largest first (the rest are in the sum, not named). */
export const PEAK_HOSTS_NAMED = 5;

/**
 * The fleet's per-moment sum and its figures. Moments are the distinct interval starts across
 * hosts; a host adds its IOPS of the interval that starts then. Pure; linear in the intervals
 * (plus a sort of the moments).
 *
 * @example
 * const a = fleetAggregate([hostIopsOverTime('a', dataA, profA), hostIopsOverTime('b', dataB, profB)]);
 * // a.peak.iops = max over t of (iops_a(t) + iops_b(t)); a.peak.hosts names who made it
 */
export function fleetAggregate(hosts: readonly HostIops[]): FleetAggregate {
  const sums = new Map<number, { endMs: number; iops: number }>();
  let counted = 0;
  let sumOfPeaks = 0;
  for (const h of hosts) {
    let own = -Infinity;
    for (let i = 0; i < h.iops.length; i++) {
      const v = h.iops[i] as number;
      if (Number.isNaN(v)) continue;
      own = Math.max(own, v);
      const t = h.startMs[i] as number;
      const m = sums.get(t);
      if (m === undefined) sums.set(t, { endMs: h.endMs[i] as number, iops: v });
      else m.iops += v;
    }
    if (own > -Infinity) {
      counted++;
      sumOfPeaks += own;
    }
  }
  if (sums.size === 0) return { hosts: 0, moments: 0, peak: null, p95Iops: null, meanIops: null, sumOfHostPeaksIops: null, series: { startMs: [], iops: [] } };
  const times = [...sums.keys()].sort((a, b) => a - b);
  let at = times[0] as number;
  let total = 0;
  for (const t of times) {
    const v = (sums.get(t) as { iops: number }).iops;
    total += v;
    if (v > (sums.get(at) as { iops: number }).iops) at = t;
  }
  const top = sums.get(at) as { endMs: number; iops: number };
  const makers: PeakHost[] = [];
  for (const h of hosts) {
    const i = h.startMs.indexOf(at);
    const v = i < 0 ? NaN : (h.iops[i] as number);
    if (!Number.isNaN(v) && v > 0) makers.push({ host: h.host, iops: v, percent: top.iops > 0 ? (100 * v) / top.iops : 0 });
  }
  makers.sort((a, b) => b.iops - a.iops || a.host.localeCompare(b.host));
  const iops = times.map((t) => (sums.get(t) as { iops: number }).iops);
  return {
    hosts: counted,
    moments: times.length,
    peak: { iops: top.iops, start: isoUtc(at), end: isoUtc(top.endMs), startMs: at, endMs: top.endMs, hosts: makers.slice(0, PEAK_HOSTS_NAMED) },
    p95Iops: quantile(iops, 0.95),
    meanIops: total / times.length,
    sumOfHostPeaksIops: sumOfPeaks,
    series: { startMs: times, iops },
  };
}
