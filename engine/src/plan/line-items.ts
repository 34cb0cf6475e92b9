/**
 * The line items of a configuration's TCO (plan.ts evaluateConfiguration): what is bought on day
 * one, what it costs each year, and the cache SSDs that wear out within the period.
 */
import { ceilWhole, HOURS_PER_YEAR } from './sizing.ts';
import type { Configuration, Scenario } from './scenario.ts';
import type { DriveLife, LineId, LineItem } from './result.ts';
import type { SizedConfiguration } from './plan.ts';

/** A line item (USD) with the parameters it was computed from. */
export function line(id: LineId, costUsd: number, upfront: boolean, params: Record<string, number | string>): LineItem {
  return { id, costUsd, upfront, params };
}

/** The line items bought on day one: base system, cache licence, backing drives, cache SSDs or RAM, enclosures. */
export function purchaseLines(c: Configuration, z: SizedConfiguration, enclosures: number): LineItem[] {
  const { backing, sizing, cacheDrive, cacheDriveCount, slotsUsed } = z;
  const lines: LineItem[] = [line('baseSystem', c.system.baseCostUsd, true, { priceUsd: c.system.baseCostUsd })];
  if (c.cache !== undefined) lines.push(line('cacheLicense', c.cache.licenseUsd, true, { priceUsd: c.cache.licenseUsd }));
  lines.push(line('backingDrives', sizing.driveCount * backing.priceUsd, true, { count: sizing.driveCount, priceUsd: backing.priceUsd, drive: backing.label }));
  if (c.cache?.kind === 'ssd' && cacheDrive !== null)
    lines.push(line('cacheDrives', cacheDriveCount * cacheDrive.priceUsd, true, { count: cacheDriveCount, priceUsd: cacheDrive.priceUsd, drive: cacheDrive.label }));
  if (c.cache?.kind === 'ram') lines.push(line('cacheRam', c.cache.costUsd, true, { priceUsd: c.cache.costUsd, capacityBytes: c.cache.capacityBytes }));
  lines.push(line('enclosures', enclosures * c.enclosure.priceUsd, true, {
    count: enclosures,
    priceUsd: c.enclosure.priceUsd,
    slots: c.enclosure.slots,
    builtInSlots: c.system.builtInSlots,
    drives: slotsUsed,
  }));
  return lines;
}

/** The yearly costs over the period: power and cooling, backing and cache drive failures; and their sum per year. */
export function runningLines(s: Scenario, z: SizedConfiguration, watts: number): { lines: LineItem[]; perYearUsd: number } {
  const { backing, sizing, cacheDrive, cacheDriveCount, slotsUsed } = z;
  const years = s.years;
  const lines: LineItem[] = [];
  let powerPerYearUsd: number;
  if ('usdPerKwh' in s.energy) {
    const kwhPerYear = (watts * HOURS_PER_YEAR) / 1000;
    powerPerYearUsd = kwhPerYear * s.energy.usdPerKwh * s.energy.pue;
    lines.push(line('powerCooling', powerPerYearUsd * years, false, { watts, hoursPerYear: HOURS_PER_YEAR, years, usdPerKwh: s.energy.usdPerKwh, pue: s.energy.pue, perYearUsd: powerPerYearUsd }));
  } else {
    powerPerYearUsd = s.energy.usdPerDrivePerYear * slotsUsed;
    lines.push(line('powerCooling', powerPerYearUsd * years, false, { drives: slotsUsed, usdPerDrivePerYear: s.energy.usdPerDrivePerYear, years, perYearUsd: powerPerYearUsd }));
  }
  const backingFailuresPerYearUsd = backing.afr * sizing.driveCount * backing.priceUsd;
  lines.push(line('backingFailures', backingFailuresPerYearUsd * years, false, { afr: backing.afr, count: sizing.driveCount, years, priceUsd: backing.priceUsd }));
  let cacheFailuresPerYearUsd = 0;
  if (cacheDrive !== null) {
    cacheFailuresPerYearUsd = cacheDrive.afr * cacheDriveCount * cacheDrive.priceUsd;
    lines.push(line('cacheFailures', cacheFailuresPerYearUsd * years, false, { afr: cacheDrive.afr, count: cacheDriveCount, years, priceUsd: cacheDrive.priceUsd }));
  }
  return { lines, perYearUsd: powerPerYearUsd + backingFailuresPerYearUsd + cacheFailuresPerYearUsd };
}

/** Cache SSDs that wear out within the period: the replacement sets' line item and the years they are bought. */
export function wearReplacements(c: Configuration, z: SizedConfiguration, life: { cacheLife: DriveLife | null }, years: number): { lines: LineItem[]; years: number[] } {
  const { cacheDrive, cacheDriveCount } = z;
  const wearReplacementYears: number[] = [];
  const lines: LineItem[] = [];
  if (c.cache?.kind === 'ssd' && cacheDrive !== null && life.cacheLife?.yearsToWearOut != null && life.cacheLife.yearsToWearOut < years) {
    const wearYears = life.cacheLife.yearsToWearOut;
    const sets = ceilWhole(years / wearYears) - 1;
    for (let i = 1; i <= sets; i++) wearReplacementYears.push(Math.max(1, ceilWhole(i * wearYears)));
    lines.push(line('cacheWearReplacements', sets * cacheDriveCount * cacheDrive.priceUsd, false, {
      sets,
      count: cacheDriveCount,
      priceUsd: cacheDrive.priceUsd,
      yearsToWearOut: wearYears,
      years,
    }));
  }
  return { lines, years: wearReplacementYears };
}
