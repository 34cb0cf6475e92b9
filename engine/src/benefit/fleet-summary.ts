/**
 * A fleet computed by its Prometheus (`cacheproof-probe import prometheus --fleet-summary FILE`,
 * docs/import.md § Fleet summary): the server sums each host's counters over the range and the
 * fleet's IOPS at each moment (PromQL pushdown), and these functions turn those sums into the
 * very figures the fleet view gives a fleet of imported captures — {@link FleetFigures} by the
 * workload profile's method (ratio-of-sums means over the counted intervals, the health grade by
 * {@link gradeOfChecks}) and {@link FleetAggregate} by {@link fleetAggregate}'s (the peak of the
 * per-moment sum, the first when several tie; type-7 p95; mean over moments). Pure.
 *
 * What differs from an import, and by how much: an interval where one of a host's devices'
 * counters went backwards (a reset) drops that device's increase only, where the import drops the
 * host's whole interval; with no reset the figures are the same numbers, summed in another order
 * (equal to about 1e-12 relative), but a windows_exporter host's read and write times, which its
 * import rounds to whole milliseconds (within half a millisecond per counted device). Health is graded against the `generic` targets only (reads
 * and writes 20 ms: the counts of breaking intervals the summary carries).
 */
import { quantile } from '../metrics/quantile.ts';
import { isoUtc } from '../records/window.ts';
import { PEAK_HOSTS_NAMED, type FleetAggregate, type PeakHost } from './fleet-aggregate.ts';
import type { FleetFigures } from './fleet.ts';
import { gradeOfChecks, TARGET_PRESETS, type HealthGrade } from './health.ts';

/** One host's sums over the range, as the probe writes them. */
export interface FleetSummaryHost {
  host: string;
  devices: number;
  /** Intervals with reads and writes counted. */
  okIntervals: number;
  reads: number; writes: number; readBytes: number; writeBytes: number; readTimeMs: number; writeTimeMs: number;
  /** Intervals with a read (a write), and of those the intervals whose average is at or over `breakingMs`. */
  checkedRead: number; checkedWrite: number; breakingRead: number; breakingWrite: number;
  /** The host's highest interval IOPS. */
  peakIops: number | null;
}

/** What `--fleet-summary` writes (format `cacheproof-fleet-summary`, version 1). */
export interface FleetSummary {
  format: 'cacheproof-fleet-summary';
  version: 1;
  url: string;
  selector: string;
  startMs: number; endMs: number; stepMs: number;
  breakingMs: number;
  hosts: FleetSummaryHost[];
  /** The per-moment sum of the hosts' IOPS: interval starts and values. */
  momentStartMs: number[];
  momentIops: number[];
  /** Every host's IOPS at the first highest moment. */
  peakHosts: { host: string; iops: number }[];
  queries: number;
  bytes: number;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const HOST_NUMBERS = ['devices', 'okIntervals', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'checkedRead', 'checkedWrite', 'breakingRead', 'breakingWrite'] as const;

/**
 * A fleet summary from its parsed JSON, or a sentence saying what is wrong with it.
 *
 * @example parseFleetSummary(JSON.parse(text)) // { ok: true, summary } or { ok: false, why: 'hosts[3].reads is not a number' }
 */
export function parseFleetSummary(v: unknown): { ok: true; summary: FleetSummary } | { ok: false; why: string } {
  const o = v as Partial<Record<keyof FleetSummary, unknown>> | null;
  if (o === null || typeof o !== 'object' || o.format !== 'cacheproof-fleet-summary') return { ok: false, why: 'it is not a fleet summary (format cacheproof-fleet-summary)' };
  if (o.version !== 1) return { ok: false, why: `its version ${String(o.version)} is not 1` };
  for (const k of ['startMs', 'endMs', 'stepMs', 'breakingMs', 'queries', 'bytes'] as const) if (!isNum(o[k])) return { ok: false, why: `${k} is not a number` };
  if (typeof o.url !== 'string' || typeof o.selector !== 'string') return { ok: false, why: 'url or selector is not text' };
  if (!Array.isArray(o.hosts) || !Array.isArray(o.momentStartMs) || !Array.isArray(o.momentIops) || !Array.isArray(o.peakHosts)) return { ok: false, why: 'hosts, momentStartMs, momentIops or peakHosts is not a list' };
  if (o.momentStartMs.length !== o.momentIops.length || !o.momentStartMs.every(isNum) || !o.momentIops.every(isNum)) return { ok: false, why: 'momentStartMs and momentIops are not two lists of numbers of one length' };
  for (const [i, h] of (o.hosts as unknown[]).entries()) {
    const r = h as Record<string, unknown> | null;
    if (r === null || typeof r !== 'object' || typeof r['host'] !== 'string') return { ok: false, why: `hosts[${i}].host is not text` };
    for (const k of HOST_NUMBERS) if (!isNum(r[k])) return { ok: false, why: `hosts[${i}].${k} is not a number` };
    if (r['peakIops'] !== null && !isNum(r['peakIops'])) return { ok: false, why: `hosts[${i}].peakIops is not a number` };
  }
  for (const [i, h] of (o.peakHosts as unknown[]).entries()) {
    const r = h as Record<string, unknown> | null;
    if (r === null || typeof r !== 'object' || typeof r['host'] !== 'string' || !isNum(r['iops'])) return { ok: false, why: `peakHosts[${i}] is not a host and its IOPS` };
  }
  return { ok: true, summary: o as unknown as FleetSummary };
}

/** The generic preset's grade of a host from its sums (the counts of breaking intervals are the summary's, at `breakingMs`). */
function gradeOf(h: FleetSummaryHost, breakingMs: number): HealthGrade {
  const targets = TARGET_PRESETS.generic;
  if (targets.readMs !== breakingMs || targets.writeMs !== breakingMs) return 'no-data';
  const check = (ms: number, n: number, checked: number, breaking: number, target: number): { averageMs: number | null; meetsTarget: boolean | null; breakingPercent: number | null } => {
    const averageMs = n > 0 ? ms / n : null;
    return { averageMs, meetsTarget: averageMs === null ? null : averageMs < target, breakingPercent: checked > 0 ? (breaking / checked) * 100 : null };
  };
  return gradeOfChecks([
    check(h.readTimeMs, h.reads, h.checkedRead, h.breakingRead, targets.readMs),
    check(h.writeTimeMs, h.writes, h.checkedWrite, h.breakingWrite, targets.writeMs),
  ], targets);
}

/**
 * A host's row from its sums: the means of its application-facing group over the counted
 * intervals (IOPS = Σ I/Os / Σ seconds, MB/s = Σ bytes / Σ seconds / 10⁶, response time = Σ time /
 * Σ I/Os) and its health against the generic targets; its window is the summary's range.
 *
 * @example fleetFiguresOfSummary({ okIntervals: 60, reads: 3600, writes: 0, … }, 60_000, 3_600_000, 20).iopsBefore // 1
 */
export function fleetFiguresOfSummary(h: FleetSummaryHost, stepMs: number, rangeMs: number, breakingMs: number): FleetFigures {
  const seconds = (h.okIntervals * stepMs) / 1000;
  const ios = h.reads + h.writes;
  return {
    kind: 'profile',
    iosSavedPercent: null,
    latencyBeforeMs: ios > 0 && h.okIntervals > 0 ? (h.readTimeMs + h.writeTimeMs) / ios : null,
    latencyAfterMs: null,
    iopsBefore: seconds > 0 ? ios / seconds : null,
    iopsAfter: null,
    mbpsBefore: seconds > 0 ? (h.readBytes + h.writeBytes) / seconds / 1e6 : null,
    mbpsAfter: null,
    healthBefore: h.okIntervals > 0 ? gradeOf(h, breakingMs) : 'no-data',
    healthAfter: null,
    healthPreset: 'generic',
    secondsBefore: rangeMs / 1000,
    secondsAfter: null,
  };
}

/** The fleet as one load from the server's per-moment sum, by {@link fleetAggregate}'s method. */
export function fleetAggregateOfSummary(s: FleetSummary): FleetAggregate {
  const hosts = s.hosts.filter((h) => h.okIntervals > 0).length;
  const n = s.momentIops.length;
  if (n === 0) return { hosts: 0, moments: 0, peak: null, p95Iops: null, meanIops: null, sumOfHostPeaksIops: null, series: { startMs: [], iops: [] } };
  let at = 0, total = 0;
  for (let i = 0; i < n; i++) {
    const v = s.momentIops[i] as number;
    total += v;
    if (v > (s.momentIops[at] as number)) at = i;
  }
  const top = s.momentIops[at] as number;
  const startMs = s.momentStartMs[at] as number;
  const makers: PeakHost[] = s.peakHosts.filter((h) => h.iops > 0).map((h) => ({ host: h.host, iops: h.iops, percent: top > 0 ? (100 * h.iops) / top : 0 }));
  makers.sort((a, b) => b.iops - a.iops || a.host.localeCompare(b.host));
  const peaks = s.hosts.map((h) => h.peakIops).filter((v): v is number => v !== null);
  return {
    hosts,
    moments: n,
    peak: { iops: top, start: isoUtc(startMs), end: isoUtc(startMs + s.stepMs), startMs, endMs: startMs + s.stepMs, hosts: makers.slice(0, PEAK_HOSTS_NAMED) },
    p95Iops: quantile(s.momentIops, 0.95),
    meanIops: total / n,
    sumOfHostPeaksIops: peaks.length > 0 ? peaks.reduce((a, b) => a + b, 0) : null,
    series: { startMs: [...s.momentStartMs], iops: [...s.momentIops] },
  };
}
