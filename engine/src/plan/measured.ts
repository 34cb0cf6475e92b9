/**
 * From a measured workload (the analysis of a capture) to a scenario prefilled for a person
 * to edit: `cacheproof tco --from-capture CAPTURE --out SCENARIO` and the planner screen.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { WindowSummary } from '../metrics/summary.ts';
import type { CaptureData } from '../records/types.ts';
import type { Scenario, ScenarioInput } from './scenario.ts';
import { scenarioSchema } from './scenario.ts';
import { HOURS_PER_YEAR } from './sizing.ts';
import { EXAMPLE_SCENARIO } from './template.ts';
import { ramCacheOfSize, suggestedCacheSize, type SuggestedCacheSize } from './cache-size.ts';
import type { DriveCatalog } from './catalog.ts';
import { exampleRamModuleId } from './recipe.ts';

const SECONDS_PER_YEAR = HOURS_PER_YEAR * 3600;

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
  /**
   * Total capacity of the backing devices, bytes (taken as today's usable capacity need); null
   * when the capture does not record their sizes (a Windows Performance Monitor log, iostat):
   * the prefilled scenario then keeps its base's capacity, for a person to replace.
   */
  backingCapacityBytes: number | null;
  /** Backing-device bytes per year before the cache (= front-end) and with it. */
  backingBytesPerYearBefore: YearlyBytes;
  backingBytesPerYearAfter: YearlyBytes | null;
  /** The cache size the measurement suggests, with its basis ({@link suggestedCacheSize}); null or absent when nothing measured gives one. */
  cacheSize?: SuggestedCacheSize | null;
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
 * With the drive catalog and a suggested cache size, every RAM cache is sized from the measurement
 * ({@link ramCacheOfSize}: price and power scale with the size from the example's catalog module,
 * `cache.sizing` names the basis and the module), never the example's fixed DIMM count.
 * The result is not validated (an idle capture gives 0 IOPS): run parseScenario after editing.
 * Example: `scenarioFromMeasurement({ iopsP95: 12000, …, readHitShare: 0.85, … })` → a
 * scenario whose `workload.iops.p95` is 12 000 and whose cache configurations read 0.85.
 */
export function scenarioFromMeasurement(m: MeasuredWorkload, base: ScenarioInput = EXAMPLE_SCENARIO, catalog?: DriveCatalog): Scenario {
  const parsed = scenarioSchema.parse(base);
  const s = JSON.parse(JSON.stringify(parsed)) as Scenario;
  const hits = measuredHitShares(m);
  s.workload = {
    ...s.workload,
    iops: { basis: 'p95', p95: m.iopsP95, peak: m.iopsPeak, mean: m.iopsMean },
    readShare: clampShare(m.readShare),
    avgRequestBytes: m.avgRequestBytes,
    capacityBytes: m.backingCapacityBytes ?? s.workload.capacityBytes,
    yearlyReadBytes: m.backingBytesPerYearBefore.readBytes,
    yearlyWrittenBytes: m.backingBytesPerYearBefore.writtenBytes,
  };
  for (const c of s.configurations) {
    if (c.cache === undefined) continue;
    if (hits.read !== null) c.cache.readHitShare = hits.read;
    if (hits.write !== null) c.cache.writeHitShare = hits.write;
    if (hits.read !== null || hits.write !== null) c.cache.hitShareSource = 'measured';
    if (m.cacheMode !== null) c.cache.mode = m.cacheMode;
    if (c.cache.kind === 'ram' && catalog !== undefined && m.cacheSize != null) {
      const moduleId = exampleRamModuleId();
      const ram = ramCacheOfSize(catalog, moduleId, m.cacheSize.bytes);
      if (!ram.ok) continue;
      c.cache.capacityBytes = ram.value.capacityBytes;
      c.cache.costUsd = ram.value.costUsd;
      c.cache.watts = ram.value.watts;
      c.cache.sizing = { basis: m.cacheSize.basis, suggestedBytes: m.cacheSize.bytes, moduleId };
      // the example's note named its fixed DIMM count: no longer true
      c.notes = `RAM cache sized from the measurement (${m.cacheSize.basis}), priced from catalog "${moduleId}" per GB.`;
    }
  }
  s.title = s.title === '' ? 'Prefilled from a measurement' : s.title;
  return s;
}

/**
 * Builds the planner's input from an analysis and the capture's device inventory (sizes of the
 * backing devices), or an English reason (lower case, no full stop) when the analysis has nothing
 * to plan from. Used by `cacheproof tco --from-capture`, the `plan.fromAnalysis` channel and the
 * report's scenario check, so all three plan from exactly the figures `analyze` reports.
 * Method: IOPS p95/peak/mean, read share and request size of the application-facing group's
 * baseline window; backing bytes per year = window bytes ÷ ok seconds × 31 557 600 s; capacity =
 * sum of the backing devices' sizes; hit shares = the cache-served percentages (front-and-backing only).
 *
 * @example
 * // baseline 250 IOPS p95 at the front, 70% reads, 4 KiB; backing sda 1 TB read 10 GB over 1 800 s
 * measuredWorkload(report, capture).backingBytesPerYearBefore.readBytes // 10e9 / 1800 × 31 557 600 ≈ 1.75e14
 */
export function measuredWorkload(report: AnalysisReport, data: Pick<CaptureData, 'devices'>): MeasuredWorkload | string {
  const app = report.devices.appFacing === 'front' ? report.groups.front : report.groups.backing;
  const backing = report.groups.backing;
  if (!app || !backing) return 'the analysis has no application-facing or backing figures to plan from';
  const share = (x: number | null): number | null => (x === null ? null : Math.min(1, Math.max(0, x / 100)));
  const hits = report.mode === 'front-and-backing'
    ? { read: share(report.benefit.cacheServedPercent.reads), write: share(report.benefit.cacheServedPercent.writes) }
    : { read: null, write: null };
  const m = workloadOf(app.baseline, backing.baseline, backing.measure, report.devices.backing, 'backing devices', data, hits);
  return typeof m === 'string' ? m : { ...m, cacheSize: suggestedCacheSize(report, bytesMoved(backing.baseline, m.backingCapacityBytes)) };
}

/**
 * {@link measuredWorkload} for a log with no switch (a baseline alone, capacity planning without
 * a cache): the same figures of the profile's window (engine `profileWorkload`). No cache was
 * measured, so there are no hit shares (the scenario's configurations keep their own, as typed or
 * assumed) and nothing "after". The backing devices give the capacity and the yearly bytes; a log
 * of the application-facing volumes alone (no backing device) gives them from those volumes.
 *
 * @example
 * // a PerfMon log of one PhysicalDisk, 900 IOPS p95, 1 TB, 36 GB read in 1 h
 * measuredWorkloadFromProfile(profile, capture).iopsP95 // 900; .readHitShare // null
 */
export function measuredWorkloadFromProfile(p: WorkloadProfile, data: Pick<CaptureData, 'devices'>): MeasuredWorkload | string {
  const m = p.backing === null
    ? workloadOf(p.appFacing, p.appFacing, null, p.devices.front, 'application-facing devices', data, { read: null, write: null })
    : workloadOf(p.appFacing, p.backing, null, p.devices.backing, 'backing devices', data, { read: null, write: null });
  return typeof m === 'string' ? m : { ...m, cacheSize: suggestedCacheSize(null, bytesMoved(p.backing ?? p.appFacing, m.backingCapacityBytes)) };
}

/** The baseline window's bytes read and written on the storage side, for the `bytes-moved` cache size. */
function bytesMoved(w: WindowSummary, capacityBytes: number | null): { bytes: number; capacityBytes: number | null } | null {
  const t = w.totals;
  return t.readBytes === null || t.writeBytes === null ? null : { bytes: t.readBytes + t.writeBytes, capacityBytes };
}

/** The one method of both: the application-facing window's IOPS, read share and request size; the storage side's bytes per year and capacity. */
function workloadOf(
  app: WindowSummary, storage: WindowSummary, storageAfter: WindowSummary | null, storageDevices: readonly string[], storageName: string,
  data: Pick<CaptureData, 'devices'>, hits: { read: number | null; write: number | null },
): MeasuredWorkload | string {
  const p = app.percentiles.iops;
  const iopsMean = app.means.iops;
  const readShare = app.means.readSharePercent;
  const avgRequestBytes = app.means.avgRequestBytes;
  if (p === null || iopsMean === null || readShare === null || avgRequestBytes === null) return 'the baseline window has no completed I/O to plan from';
  const perYear = (w: WindowSummary): { readBytes: number; writtenBytes: number } | null => {
    const t = w.totals;
    if (t.readBytes === null || t.writeBytes === null || !(w.okSeconds > 0)) return null;
    return { readBytes: (t.readBytes / w.okSeconds) * SECONDS_PER_YEAR, writtenBytes: (t.writeBytes / w.okSeconds) * SECONDS_PER_YEAR };
  };
  const before = perYear(storage);
  if (before === null) return `the ${storageName} have no byte counts in the baseline window`;
  const sizes = new Map(data.devices.map((d) => [d.name, d.sizeBytes]));
  const capacity = storageDevices.reduce((a, name) => a + (sizes.get(name) ?? 0), 0);
  return {
    iopsP95: p.p95,
    iopsPeak: p.max,
    iopsMean,
    readShare: readShare / 100,
    avgRequestBytes,
    readHitShare: hits.read,
    writeHitShare: hits.write,
    cacheMode: null,
    backingCapacityBytes: capacity > 0 ? capacity : null,
    backingBytesPerYearBefore: before,
    backingBytesPerYearAfter: storageAfter === null ? null : perYear(storageAfter),
  };
}
