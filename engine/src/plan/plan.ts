/**
 * The TCO model: each configuration of a scenario sized, priced as traceable line items over
 * the period, given its drive life, and compared with the reference configuration.
 *
 * Sizing year: with `workload.sizeFor = 'final-year'` (the default, recommended) every
 * configuration is sized once for the IOPS and capacity of the last year of growth and bought
 * on day one, so drive counts, power and failures are the same each year. With `'first-year'`
 * it is sized for today and the result says the final year is not covered.
 */
import {
  cacheHostBytesWrittenPerYear,
  expectedFailures,
  hddTbPerDrivePerYear,
  ssdEnduranceTbw,
  ssdYearsToWearOut,
  wearIndex,
} from './life.ts';
import { raidWritePenalty } from './raid.ts';
import type { Configuration, DriveModel, PlanError, PlanResultOr, Scenario } from './scenario.ts';
import { planError } from './scenario.ts';
import {
  BYTES_PER_TB,
  SECONDS_PER_YEAR,
  backEndIops,
  enclosureCount,
  frontEndIopsTarget,
  growthFactor,
  spindleCount,
  sustainedFrontEndIops,
} from './sizing.ts';
import type { CacheEffect, SpindleSizing } from './sizing.ts';
import { NO_CACHE } from './sizing.ts';
import type { ConfigKind, ConfigResult, DriveLife, PlanFigures, PlanResult } from './result.ts';
import { planVerdict } from './verdict.ts';
import { withoutNegativeZero } from '../metrics/finite.ts';
import { line, purchaseLines, runningLines, wearReplacements } from './line-items.ts';

/** Sizing-year figures shared by every configuration. */
export interface Demand {
  year: number;
  frontEndIops: number;
  capacityBytes: number;
  readBytesPerYear: number;
  writtenBytesPerYear: number;
}

/**
 * Front-end demand in the sizing year: IOPS target and capacity grown, and the yearly bytes.
 * Method: target = basis × (1 + iopsGrowth)^(year − 1); capacity likewise with its growth;
 * bytes/yr = the typed yearly bytes, else (mean IOPS, or the target) × share × request bytes
 * × 31 557 600 s, both grown with the IOPS.
 * Example: p95 20 000, 10 % IOPS growth, 4 years, final year → 26 620 IOPS.
 */
export function demandFor(s: Scenario): Demand {
  const w = s.workload;
  const year = w.sizeFor === 'final-year' ? s.years : 1;
  const iopsGrowth = growthFactor(w.growth.iopsPerYear, year);
  const frontEndIops = frontEndIopsTarget(w.iops, w.growth.iopsPerYear, year);
  const averageIops = w.iops.mean ?? w.iops[w.iops.basis] ?? 0;
  const readBytesToday = w.yearlyReadBytes ?? averageIops * w.readShare * w.avgRequestBytes * SECONDS_PER_YEAR;
  const writtenBytesToday = w.yearlyWrittenBytes ?? averageIops * (1 - w.readShare) * w.avgRequestBytes * SECONDS_PER_YEAR;
  return {
    year,
    frontEndIops,
    capacityBytes: w.capacityBytes * growthFactor(w.growth.capacityPerYear, year),
    readBytesPerYear: readBytesToday * iopsGrowth,
    writtenBytesPerYear: writtenBytesToday * iopsGrowth,
  };
}

function cacheEffectOf(c: Configuration): CacheEffect {
  if (c.cache === undefined) return NO_CACHE;
  return { readHitShare: c.cache.readHitShare, writeHitShare: c.cache.writeHitShare, mode: c.cache.mode };
}

function driveById(s: Scenario, id: string): DriveModel {
  const d = s.drives.find((x) => x.id === id);
  if (d === undefined) throw new Error(`driveById: no drive ${id} (parseScenario checks this)`);
  return d;
}

function kindOf(backing: DriveModel, c: Configuration): ConfigKind {
  const flash = backing.class !== 'hdd';
  if (c.cache === undefined) return flash ? 'all-flash' : 'all-hdd';
  return flash ? 'flash-cache' : 'hdd-cache';
}

/**
 * Sizes and prices one configuration (index `index` of the scenario) for the period.
 *
 * Line items (USD): base system; cache licence; backing drives = count × price; cache SSDs =
 * count × price, or the RAM cost; enclosures = ceil((drives + cache SSDs − built-in slots) ÷
 * slots) × price; power and cooling = watts × 8 766 h × years ÷ 1000 × $/kWh × PUE (or $/drive/yr
 * × drives × years, which leaves system and enclosure power out); failures = AFR × count ×
 * years × price, per drive set; cache wear-out replacements = (ceil(years ÷ years to wear-out)
 * − 1) × cache SSDs × price; support = $/yr × years.
 *
 * Fails (a value, not a throw) when the drives needed do not fit the system: more than
 * builtInSlots + maxEnclosures × enclosure slots. The error names the input that drives the
 * count: `workload.capacityBytes` when capacity binds, `workload.iops.<basis>` when IOPS binds.
 *
 * Example: 188 drives of $250 → backingDrives = 47 000 USD (see plan.test.ts for a whole table).
 */
export function evaluateConfiguration(s: Scenario, index: number): PlanResultOr<ConfigResult> {
  const c = s.configurations[index];
  if (c === undefined) throw new Error(`evaluateConfiguration: no configuration ${index}`);
  const at = `configurations[${index}]`;
  const z = sizeConfiguration(s, c);
  const { demand, backing, be, sizing, cacheDrive, cacheDriveCount, slotsUsed, maxSlots } = z;
  if (slotsUsed > maxSlots) return { ok: false, error: tooManyDrives(s, c, at, sizing, slotsUsed, maxSlots, demand) };

  const years = s.years;
  const enclosures = enclosureCount(slotsUsed, c.system.builtInSlots, c.enclosure.slots);
  const ramWatts = c.cache?.kind === 'ram' ? c.cache.watts : 0;
  const watts =
    sizing.driveCount * backing.watts + cacheDriveCount * (cacheDrive?.watts ?? 0) + ramWatts + enclosures * c.enclosure.watts + c.system.watts;
  const lines = purchaseLines(c, z, enclosures);
  const running = runningLines(s, z, watts);
  lines.push(...running.lines);
  const life = driveLives(s, c, backing, cacheDrive, sizing.driveCount, demand);
  const wear = wearReplacements(c, z, life, years);
  lines.push(...wear.lines);
  if (c.supportUsdPerYear > 0) lines.push(line('support', c.supportUsdPerYear * years, false, { perYearUsd: c.supportUsdPerYear, years }));

  const upfrontUsd = sum(lines.filter((l) => l.upfront).map((l) => l.costUsd));
  const totalUsd = sum(lines.map((l) => l.costUsd));
  const perYear = running.perYearUsd + c.supportUsdPerYear;
  const setUsd = cacheDriveCount * (cacheDrive?.priceUsd ?? 0);
  const cumulativeUsd = [upfrontUsd];
  for (let y = 1; y <= years; y++) {
    const replacements = wear.years.filter((k) => k === y).length * setUsd;
    cumulativeUsd.push((cumulativeUsd[y - 1] ?? 0) + perYear + replacements);
  }
  const deliveredIops = deliveredIopsOf(s, c, z);
  return {
    ok: true,
    value: {
      id: c.id,
      label: c.label,
      kind: kindOf(backing, c),
      backingDriveId: backing.id,
      raidLevel: c.backing.raid.level,
      frontEndIops: demand.frontEndIops,
      capacityBytes: demand.capacityBytes,
      backEnd: be,
      sizing,
      cacheDriveCount,
      slotsUsed,
      maxSlots,
      enclosures,
      watts,
      lines,
      upfrontUsd,
      totalUsd,
      cumulativeUsd,
      deliveredIops,
      costPerDeliveredIopsUsd: deliveredIops === null ? null : totalUsd / deliveredIops,
      usableCapacityBytes: sizing.usableCapacityBytes,
      costPerUsableTbUsd: totalUsd / (sizing.usableCapacityBytes / BYTES_PER_TB),
      backingLife: life.backingLife,
      cacheLife: life.cacheLife,
      warnings: configWarnings(c, z, life, years),
    },
  };
}

/** A configuration sized for the sizing year: its demand, drives, back-end IOPS, drive counts and slots. */
export interface SizedConfiguration {
  demand: Demand;
  backing: DriveModel;
  effect: CacheEffect;
  be: ReturnType<typeof backEndIops>;
  sizing: SpindleSizing;
  cacheDrive: DriveModel | null;
  cacheDriveCount: number;
  slotsUsed: number;
  maxSlots: number;
}

/** Sizes a configuration: the back-end IOPS its cache leaves, the spindles for them and for capacity, and the slots it takes of those it has. */
function sizeConfiguration(s: Scenario, c: Configuration): SizedConfiguration {
  const demand = demandFor(s);
  const backing = driveById(s, c.backing.driveId);
  const effect = cacheEffectOf(c);
  const be = backEndIops(demand.frontEndIops, s.workload.readShare, c.backing.raid, effect);
  const sizing = spindleCount({
    backEndIops: be.backEndIops,
    driveIops: backing.iops,
    capacityBytes: demand.capacityBytes,
    driveCapacityBytes: backing.capacityBytes,
    raid: c.backing.raid,
    typedCount: c.backing.count,
  });
  const cacheDrive = c.cache?.kind === 'ssd' ? driveById(s, c.cache.driveId) : null;
  const cacheDriveCount = c.cache?.kind === 'ssd' ? c.cache.count : 0;
  const slotsUsed = sizing.driveCount + cacheDriveCount;
  const maxSlots = c.system.builtInSlots + c.system.maxEnclosures * c.enclosure.slots;
  return { demand, backing, effect, be, sizing, cacheDrive, cacheDriveCount, slotsUsed, maxSlots };
}

/** The front-end IOPS the configuration sustains: the lesser of what its backing drives and its cache SSDs can serve (null: unbounded). */
function deliveredIopsOf(s: Scenario, c: Configuration, z: SizedConfiguration): number | null {
  const { backing, sizing, effect, cacheDrive, cacheDriveCount } = z;
  const backingIops = sustainedFrontEndIops(sizing.driveCount, backing.iops, s.workload.readShare, c.backing.raid, effect);
  let cacheIops = Number.POSITIVE_INFINITY;
  if (c.cache?.kind === 'ssd' && cacheDrive !== null) {
    const r = s.workload.readShare;
    const cacheOpsPerFrontIo = r * c.cache.readHitShare + r * (1 - c.cache.readHitShare) * c.cache.fillShare + (1 - r) * raidWritePenalty(c.cache.raid);
    cacheIops = cacheOpsPerFrontIo > 0 ? (cacheDriveCount * cacheDrive.iops) / cacheOpsPerFrontIo : Number.POSITIVE_INFINITY;
  }
  const delivered = Math.min(backingIops, cacheIops);
  return Number.isFinite(delivered) ? delivered : null;
}

/** A configuration's warnings: a typed drive count short of the need, backing drives over their rating, cache SSDs that wear out. */
function configWarnings(c: Configuration, z: SizedConfiguration, life: ReturnType<typeof driveLives>, years: number): ConfigResult['warnings'] {
  const { backing, be, demand } = z;
  const warnings: ConfigResult['warnings'] = [];
  if (c.backing.count !== undefined) {
    const needed = spindleCount({ backEndIops: be.backEndIops, driveIops: backing.iops, capacityBytes: demand.capacityBytes, driveCapacityBytes: backing.capacityBytes, raid: c.backing.raid }).driveCount;
    if (c.backing.count < needed) warnings.push({ code: 'typed-count-short', params: { typed: c.backing.count, needed } });
  }
  if (life.backingLife.wearIndexAfter !== null && life.backingLife.wearIndexAfter > 1) warnings.push({ code: 'over-rating', params: { wearIndex: life.backingLife.wearIndexAfter } });
  if (life.cacheLife?.yearsToWearOut != null && life.cacheLife.yearsToWearOut < years) warnings.push({ code: 'cache-wears-out', params: { years: life.cacheLife.yearsToWearOut } });
  return warnings;
}

function tooManyDrives(s: Scenario, c: Configuration, at: string, sizing: SpindleSizing, slotsUsed: number, maxSlots: number, demand: Demand): PlanError {
  const params = {
    config: c.label,
    drive: c.backing.driveId,
    drives: slotsUsed,
    maxSlots,
    year: demand.year,
    capacityTb: demand.capacityBytes / BYTES_PER_TB,
    iops: demand.frontEndIops,
    limitPath: `${at}.system.maxEnclosures`,
  };
  const limit = `more than the ${maxSlots} drive slots its system allows (${at}.system.builtInSlots + ${at}.system.maxEnclosures × ${at}.enclosure.slots)`;
  switch (sizing.binding) {
    case 'capacity':
      return planError(
        'capacity-too-large',
        'workload.capacityBytes',
        params,
        `workload.capacityBytes: ${params.capacityTb.toFixed(1)} TB in year ${demand.year} needs ${slotsUsed} drives of "${c.backing.driveId}" in configuration "${c.label}", ${limit}.`,
      );
    case 'iops':
      return planError(
        'iops-too-high',
        `workload.iops.${s.workload.iops.basis}`,
        params,
        `workload.iops.${s.workload.iops.basis}: ${Math.round(demand.frontEndIops)} IOPS in year ${demand.year} needs ${slotsUsed} drives of "${c.backing.driveId}" in configuration "${c.label}", ${limit}.`,
      );
    default:
      return planError(
        'too-many-drives',
        `${at}.backing`,
        params,
        `${at}.backing: ${slotsUsed} drives in configuration "${c.label}" is ${limit}.`,
      );
  }
}

function driveLives(
  s: Scenario,
  c: Configuration,
  backing: DriveModel,
  cacheDrive: DriveModel | null,
  backingCount: number,
  demand: Demand,
): { backingLife: DriveLife; cacheLife: DriveLife | null } {
  const effect = cacheEffectOf(c);
  const read = demand.readBytesPerYear;
  const written = demand.writtenBytesPerYear;
  const readAfter = read * (1 - effect.readHitShare);
  const writtenAfter = effect.mode === 'write-back' ? written * (1 - effect.writeHitShare) : written;
  const empty = (driveId: string, driveCount: number, afr: number): DriveLife => ({
    driveId,
    driveCount,
    expectedFailures: expectedFailures(afr, driveCount, s.years),
    tbPerDrivePerYearBefore: null,
    tbPerDrivePerYearAfter: null,
    ratedTbPerYear: null,
    wearIndexBefore: null,
    wearIndexAfter: null,
    wearIndexChange: null,
    tbWrittenPerDrivePerYear: null,
    enduranceTbw: null,
    yearsToWearOut: null,
  });
  const backingLife = empty(backing.id, backingCount, backing.afr);
  if (backing.class === 'hdd') {
    backingLife.tbPerDrivePerYearBefore = hddTbPerDrivePerYear(read, written, c.backing.raid, backingCount);
    backingLife.tbPerDrivePerYearAfter = hddTbPerDrivePerYear(readAfter, writtenAfter, c.backing.raid, backingCount);
    if (backing.workloadTbPerYear !== undefined) {
      backingLife.ratedTbPerYear = backing.workloadTbPerYear;
      backingLife.wearIndexBefore = wearIndex(backingLife.tbPerDrivePerYearBefore, backing.workloadTbPerYear);
      backingLife.wearIndexAfter = wearIndex(backingLife.tbPerDrivePerYearAfter, backing.workloadTbPerYear);
      backingLife.wearIndexChange = backingLife.wearIndexAfter - backingLife.wearIndexBefore;
    }
  } else {
    const tbw = ssdEnduranceTbw(backing);
    if (tbw !== null) {
      const w = ssdYearsToWearOut(writtenAfter, c.backing.raid, backingCount, 1, tbw);
      backingLife.tbWrittenPerDrivePerYear = w.tbWrittenPerDrivePerYear;
      backingLife.enduranceTbw = tbw;
      backingLife.yearsToWearOut = Number.isFinite(w.yearsToWearOut) ? w.yearsToWearOut : null;
    }
  }
  let cacheLife: DriveLife | null = null;
  if (c.cache?.kind === 'ssd' && cacheDrive !== null) {
    cacheLife = empty(cacheDrive.id, c.cache.count, cacheDrive.afr);
    const tbw = ssdEnduranceTbw(cacheDrive);
    if (tbw !== null) {
      const host = cacheHostBytesWrittenPerYear(read, written, c.cache.readHitShare, c.cache.fillShare);
      const w = ssdYearsToWearOut(host, c.cache.raid, c.cache.count, c.cache.writeAmplification, tbw);
      cacheLife.tbWrittenPerDrivePerYear = w.tbWrittenPerDrivePerYear;
      cacheLife.enduranceTbw = tbw;
      cacheLife.yearsToWearOut = Number.isFinite(w.yearsToWearOut) ? w.yearsToWearOut : null;
    }
  }
  return { backingLife, cacheLife };
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/**
 * The year from which configuration A has cost no more, cumulatively, than B.
 * Method: cumulative costs per year end (index 0 = day one); the first index k where
 * A[k] ≤ B[k], interpolated linearly inside year k: (k − 1) + d(k−1) ÷ (d(k−1) − d(k)) with
 * d = A − B. 0 when A is never dearer; null when A stays dearer through the period.
 * Example: A = [100, 105, 110], B = [60, 85, 110] → d = [40, 20, 0] → 1 + 20 ÷ 20 = year 2;
 * A = [100, 110, 120], B = [50, 80, 110] → d = [50, 30, 10] → null.
 */
export function breakEvenYear(cumulativeA: readonly number[], cumulativeB: readonly number[]): number | null {
  const n = Math.min(cumulativeA.length, cumulativeB.length);
  let prev: number | null = null;
  for (let k = 0; k < n; k++) {
    const d = (cumulativeA[k] ?? 0) - (cumulativeB[k] ?? 0);
    if (d <= 1e-9) {
      if (k === 0 || prev === null) return 0;
      return k - 1 + prev / (prev - d);
    }
    prev = d;
  }
  return null;
}

/**
 * When configuration A, still dearer than B at the end of the period, would break even if the
 * last year's running costs of both went on unchanged (a year beyond the period, not clamped).
 * Method: n = last index; d = A[n] − B[n] > 0; yearly increments sA = A[n] − A[n−1] and
 * sB = B[n] − B[n−1]; when sA < sB the gap closes by sB − sA a year, so the year is
 * n + d ÷ (sB − sA). null when A breaks even within the period (see {@link breakEvenYear}) or
 * never (its yearly costs are not lower).
 * Example: A = [100, 110, 120], B = [50, 80, 110] → d = 10, sA = 10, sB = 30 → 2 + 10 ÷ 20 = year 2.5.
 */
export function breakEvenBeyondPeriod(cumulativeA: readonly number[], cumulativeB: readonly number[]): number | null {
  if (breakEvenYear(cumulativeA, cumulativeB) !== null) return null;
  const n = Math.min(cumulativeA.length, cumulativeB.length) - 1;
  if (n < 1) return null;
  const d = (cumulativeA[n] ?? 0) - (cumulativeB[n] ?? 0);
  const sA = (cumulativeA[n] ?? 0) - (cumulativeA[n - 1] ?? 0);
  const sB = (cumulativeB[n] ?? 0) - (cumulativeB[n - 1] ?? 0);
  return sA < sB ? n + d / (sB - sA) : null;
}

/**
 * Plans a whole (already parsed) scenario: every configuration, then savings and break-even
 * against the reference (`referenceId`, default the first configuration), and the bottom line
 * (`verdict`, verdict.ts: on the scenario's IOPS basis, and on p95 and the peak when present).
 * Method: see {@link evaluateConfiguration}; savingsPct = (reference total − total) ÷
 * reference total × 100.
 * Example: reference 138 000 USD, cache design 41 400 USD → savings 96 600 USD = 70 %.
 */
function planScenarioRaw(s: Scenario): PlanResultOr<PlanResult> {
  const r = planFigures(s);
  return r.ok ? { ok: true, value: { ...r.value, verdict: planVerdict(s, r.value, planFigures) } } : r;
}

/** {@link planScenario} without the verdict: the plan on the scenario's own IOPS basis. */
export function planFigures(s: Scenario): PlanResultOr<PlanFigures> {
  const configurations: ConfigResult[] = [];
  for (let i = 0; i < s.configurations.length; i++) {
    const r = evaluateConfiguration(s, i);
    if (!r.ok) return r;
    // Every input has a range (scenario.ts LIMITS); this is the last guard that no ∞ or NaN is ever printed as a total.
    const c = r.value;
    const figures = [c.totalUsd, c.upfrontUsd, ...c.cumulativeUsd, ...c.lines.map((l) => l.costUsd)];
    if (!figures.every(Number.isFinite))
      return {
        ok: false,
        error: planError('not-finite', `configurations[${i}]`, {}, `configurations[${i}]: its costs do not add up to a finite number of USD; check the prices, counts and growth of this configuration against the ranges in docs/tco-scenario.md.`),
      };
    configurations.push(c);
  }
  const referenceId = s.referenceId ?? configurations[0]?.id ?? '';
  const ref = configurations.find((c) => c.id === referenceId);
  if (ref === undefined) return { ok: false, error: planError('unknown-config', 'referenceId', { id: referenceId }, `referenceId: no configuration "${referenceId}".`) };
  const comparisons = configurations.map((c) => ({
    id: c.id,
    totalUsd: c.totalUsd,
    savingsUsd: ref.totalUsd - c.totalUsd,
    savingsPct: ref.totalUsd > 0 ? ((ref.totalUsd - c.totalUsd) / ref.totalUsd) * 100 : 0,
    breakEvenYear: breakEvenYear(c.cumulativeUsd, ref.cumulativeUsd),
    breakEvenBeyondYear: breakEvenBeyondPeriod(c.cumulativeUsd, ref.cumulativeUsd),
  }));
  const demand = demandFor(s);
  const w = s.workload;
  return {
    ok: true,
    value: {
      title: s.title,
      years: s.years,
      sizeFor: w.sizeFor,
      sizedForYear: demand.year,
      iopsBasis: w.iops.basis,
      frontEndIopsToday: frontEndIopsTarget(w.iops, w.growth.iopsPerYear, 1),
      frontEndIops: demand.frontEndIops,
      capacityBytesToday: w.capacityBytes,
      capacityBytes: demand.capacityBytes,
      readBytesPerYear: demand.readBytesPerYear,
      writtenBytesPerYear: demand.writtenBytesPerYear,
      energy: s.energy,
      referenceId,
      examplePrices: s.priceKind === 'example',
      configurations,
      comparisons,
    },
  };
}

/** planScenario's result with no `-0` in any figure (metrics/finite.ts); see planScenarioRaw above for the method. */
export function planScenario(s: Scenario): PlanResultOr<PlanResult> {
  return withoutNegativeZero(planScenarioRaw(s));
}
