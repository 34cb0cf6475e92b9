/**
 * From a measured workload (the analysis of a capture) to a scenario prefilled for a person
 * to edit: `cacheproof tco --from-capture CAPTURE --out SCENARIO` and the planner screen.
 */
import type { Scenario, ScenarioInput } from './scenario.ts';
import { scenarioSchema } from './scenario.ts';
import { EXAMPLE_SCENARIO } from './template.ts';

/** Bytes read and written on the backing devices, extrapolated to one year. */
export interface YearlyBytes {
  readBytes: number;
  writtenBytes: number;
}

/** The few figures of an analysis the planner needs. Shares are 0…1; null means not measured. */
export interface MeasuredWorkload {
  /** Front-end IOPS (the baseline window, or the front device), 95th percentile of intervals. */
  iopsP95: number;
  iopsPeak: number;
  iopsMean: number;
  /** Share of I/Os that are reads. */
  readShare: number;
  /** Average request size, bytes. */
  avgRequestBytes: number;
  /** Share of reads / writes served by the cache (front vs backing counters or engine statistics). */
  readHitShare: number | null;
  writeHitShare: number | null;
  /** Cache write mode if known. */
  cacheMode: 'write-back' | 'write-through' | null;
  /** Total capacity of the backing devices, bytes (taken as today's usable capacity need). */
  backingCapacityBytes: number;
  /** Backing-device bytes per year before the cache (= front-end) and with it. */
  backingBytesPerYearBefore: YearlyBytes;
  backingBytesPerYearAfter: YearlyBytes | null;
}

function clampShare(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/**
 * Hit shares to use: the measured ones, else derived from the backing bytes before and after
 * (read hit = 1 − after ÷ before reads; write absorption = 1 − after ÷ before writes), else null.
 * Example: reads 100 TB/yr before and 25 TB/yr after → read hit share 0.75.
 */
export function measuredHitShares(m: MeasuredWorkload): { read: number | null; write: number | null } {
  const before = m.backingBytesPerYearBefore;
  const after = m.backingBytesPerYearAfter;
  const derive = (b: number, a: number | undefined): number | null => (a === undefined || b <= 0 ? null : clampShare(1 - a / b));
  return {
    read: m.readHitShare ?? derive(before.readBytes, after?.readBytes),
    write: m.writeHitShare ?? derive(before.writtenBytes, after?.writtenBytes),
  };
}

/**
 * A scenario prefilled from a measurement: the workload section is replaced (IOPS p95/peak/mean
 * with basis p95, read share, request size, capacity of the backing devices, yearly bytes
 * before the cache), and every configuration that has a cache gets the measured hit shares
 * (source `measured`) and, if known, the measured write mode. Everything else (drives, prices,
 * configurations, years, growth) comes from `base`, by default the documented example.
 * The result is not validated (an idle capture gives 0 IOPS): run parseScenario after editing.
 * Example: `scenarioFromMeasurement({ iopsP95: 12000, …, readHitShare: 0.85, … })` → a
 * scenario whose `workload.iops.p95` is 12 000 and whose cache configurations read 0.85.
 */
export function scenarioFromMeasurement(m: MeasuredWorkload, base: ScenarioInput = EXAMPLE_SCENARIO): Scenario {
  const parsed = scenarioSchema.parse(base);
  const s = JSON.parse(JSON.stringify(parsed)) as Scenario;
  const hits = measuredHitShares(m);
  s.workload = {
    ...s.workload,
    iops: { basis: 'p95', p95: m.iopsP95, peak: m.iopsPeak, mean: m.iopsMean },
    readShare: clampShare(m.readShare),
    avgRequestBytes: m.avgRequestBytes,
    capacityBytes: m.backingCapacityBytes,
    yearlyReadBytes: m.backingBytesPerYearBefore.readBytes,
    yearlyWrittenBytes: m.backingBytesPerYearBefore.writtenBytes,
  };
  for (const c of s.configurations) {
    if (c.cache === undefined) continue;
    if (hits.read !== null) c.cache.readHitShare = hits.read;
    if (hits.write !== null) c.cache.writeHitShare = hits.write;
    if (hits.read !== null || hits.write !== null) c.cache.hitShareSource = 'measured';
    if (m.cacheMode !== null) c.cache.mode = m.cacheMode;
  }
  s.title = s.title === '' ? 'Prefilled from a measurement' : s.title;
  return s;
}
