/**
 * Drive life: HDD wear index against the rated workload, SSD years to wear-out against the
 * endurance rating, expected failures from the annualized failure rate.
 */
import { raidWritePenalty, raidWrittenBytesFactor } from './raid.ts';
import type { DriveModel, RaidSpec } from './scenario.ts';
import { BYTES_PER_TB } from './sizing.ts';

/**
 * Endurance of one SSD over its warranty, TB written.
 * Method: `enduranceTbw` when given, else dwpd × capacity (TB) × 365 days × warrantyYears.
 * Example: 1 DWPD, 1.92 TB, 5 years → 1 × 1.92 × 365 × 5 = 3 504 TBW. Null for a drive with neither.
 */
export function ssdEnduranceTbw(drive: Pick<DriveModel, 'enduranceTbw' | 'dwpd' | 'warrantyYears' | 'capacityBytes'>): number | null {
  if (drive.enduranceTbw !== undefined) return drive.enduranceTbw;
  if (drive.dwpd !== undefined && drive.warrantyYears !== undefined) return (drive.dwpd * drive.capacityBytes * 365 * drive.warrantyYears) / BYTES_PER_TB;
  return null;
}

/**
 * TB transferred (read + written) per drive per year by a RAID set of HDDs.
 * Method: (readBytesPerYear + writtenBytesPerYear × RAID write penalty) ÷ driveCount ÷ 1e12:
 * each small write costs `penalty` back-end transfers of the request size (RAID 5: read data,
 * read parity, write both), spread evenly over the set.
 * Example: 100 TB read and 50 TB written a year on 10 drives in RAID 10 →
 * (100 + 50 × 2) ÷ 10 = 20 TB per drive per year.
 */
export function hddTbPerDrivePerYear(readBytesPerYear: number, writtenBytesPerYear: number, raid: RaidSpec, driveCount: number): number {
  return (readBytesPerYear + writtenBytesPerYear * raidWritePenalty(raid)) / driveCount / BYTES_PER_TB;
}

/**
 * Wear index: annual TB per drive ÷ rated workload TB/yr; above 1 the drive works beyond
 * its rating (vendors say failures rise; the model does not raise the AFR, it flags it).
 * Example: 20 TB/yr on a 550 TB/yr drive → 0.0364.
 */
export function wearIndex(tbPerDrivePerYear: number, ratedTbPerYear: number): number {
  return tbPerDrivePerYear / ratedTbPerYear;
}

/**
 * Host bytes written into a cache SSD set per year: the fills plus the writes.
 * Method: readBytes × (1 − readHitShare) × fillShare (read misses copied into the cache)
 * + writtenBytes (every write lands in the cache, in write-back and in write-through alike).
 * Example: 100 TB read, 80 % hits, fill all misses, 50 TB written → 20 + 50 = 70 TB/yr.
 */
export function cacheHostBytesWrittenPerYear(readBytesPerYear: number, writtenBytesPerYear: number, readHitShare: number, fillShare: number): number {
  return readBytesPerYear * (1 - readHitShare) * fillShare + writtenBytesPerYear;
}

export interface SsdWear {
  /** TB written to one SSD per year (NAND side, after RAID and write amplification). */
  tbWrittenPerDrivePerYear: number;
  /** Endurance of one SSD, TBW. */
  enduranceTbw: number;
  /** enduranceTbw ÷ tbWrittenPerDrivePerYear; Infinity when nothing is written. */
  yearsToWearOut: number;
}

/**
 * Years until an SSD set reaches its rated endurance.
 * Method: per-drive TB/yr = host bytes/yr × RAID written-bytes factor ÷ driveCount × write
 * amplification ÷ 1e12; years = TBW ÷ per-drive TB/yr.
 * Example: 70 TB/yr of fills and writes on a RAID 1 pair (factor 2, so 70 TB per drive),
 * WAF 1, 3 504 TBW → 3 504 ÷ 70 = 50.06 years.
 */
export function ssdYearsToWearOut(hostBytesWrittenPerYear: number, raid: RaidSpec, driveCount: number, writeAmplification: number, enduranceTbw: number): SsdWear {
  const tbWrittenPerDrivePerYear = ((hostBytesWrittenPerYear * raidWrittenBytesFactor(raid)) / driveCount) * writeAmplification / BYTES_PER_TB;
  return {
    tbWrittenPerDrivePerYear,
    enduranceTbw,
    yearsToWearOut: tbWrittenPerDrivePerYear > 0 ? enduranceTbw / tbWrittenPerDrivePerYear : Number.POSITIVE_INFINITY,
  };
}

/**
 * Expected drive failures over a period (an expected value, not a whole number).
 * Method: AFR × driveCount × years. Example: 0.0044 × 188 × 4 = 3.31 failures.
 */
export function expectedFailures(afr: number, driveCount: number, years: number): number {
  return afr * driveCount * years;
}
