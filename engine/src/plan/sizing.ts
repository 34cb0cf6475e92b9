/**
 * Sizing: front-end IOPS target with growth, back-end IOPS through a cache and a RAID level,
 * spindle count from IOPS, capacity and RAID-group minimum, and enclosures from slots.
 */
import { raidDataDrivesPerGroup, raidWritePenalty } from './raid.ts';
import type { IopsBasis, RaidSpec } from './scenario.ts';

/** Hours in a year: 365.25 days × 24 h (the model's year, leap years averaged). */
export const HOURS_PER_YEAR = 8766;
/** Seconds in a year: 8766 h × 3600 s. */
export const SECONDS_PER_YEAR = HOURS_PER_YEAR * 3600;
/** Bytes in a (decimal) terabyte, as drive vendors count. */
export const BYTES_PER_TB = 1e12;

/** `Math.ceil` that ignores floating-point dust: 100.00000000001 → 100. */
export function ceilWhole(x: number): number {
  return Math.ceil(x - 1e-9) + 0; // + 0 turns -0 into 0
}

/**
 * Compound growth factor for a given year of the period; year 1 is today (factor 1).
 * Method: (1 + ratePerYear)^(year − 1).
 * Example: `growthFactor(0.1, 4)` → 1.331 (three years of 10 %).
 */
export function growthFactor(ratePerYear: number, year: number): number {
  return Math.pow(1 + ratePerYear, year - 1);
}

/** Workload IOPS figures as measured (any may be absent) and the chosen basis. */
export interface IopsFigures {
  basis: IopsBasis;
  p95?: number | undefined;
  peak?: number | undefined;
  mean?: number | undefined;
  typed?: number | undefined;
}

/**
 * Front-end IOPS target for a year: the chosen basis (p95 by default in prefilled scenarios,
 * the 95th percentile of the measured intervals that Dell Live Optics sizes on, see verdict.ts;
 * or peak, mean, typed) grown at `iopsGrowthPerYear`.
 * Example: basis p95 = 20 000, growth 0.1, year 4 → 20 000 × 1.331 = 26 620 IOPS.
 */
export function frontEndIopsTarget(iops: IopsFigures, iopsGrowthPerYear: number, year: number): number {
  const base = iops[iops.basis];
  if (base === undefined) throw new Error(`frontEndIopsTarget: no ${iops.basis} figure`);
  return base * growthFactor(iopsGrowthPerYear, year);
}

/** How a cache changes what reaches the back end. No cache: both shares 0. */
export interface CacheEffect {
  readHitShare: number;
  writeHitShare: number;
  mode: 'write-back' | 'write-through';
}

export const NO_CACHE: CacheEffect = { readHitShare: 0, writeHitShare: 0, mode: 'write-through' };

export interface BackEndIops {
  /** Front-end reads/s and writes/s. */
  readIops: number;
  writeIops: number;
  /** Reads/s that miss the cache and reach the backing drives. */
  missReadIops: number;
  /** Front-end writes/s that reach the backing drives (before the RAID penalty). */
  destagedWriteIops: number;
  writePenalty: number;
  /** missReadIops + destagedWriteIops × writePenalty. */
  backEndIops: number;
}

/**
 * Back-end IOPS the backing drives must sustain.
 * Method: reads = front × readShare × (1 − readHitShare); writes = front × (1 − readShare),
 * reduced by writeHitShare only in write-back mode (write-through sends every write on);
 * back-end = reads + writes × RAID write penalty.
 * Example: 20 000 IOPS, 70 % reads, no cache, RAID 5 → 14 000 + 6 000 × 4 = 38 000.
 */
export function backEndIops(frontIops: number, readShare: number, raid: RaidSpec, cache: CacheEffect = NO_CACHE): BackEndIops {
  const readIops = frontIops * readShare;
  const writeIops = frontIops * (1 - readShare);
  const missReadIops = readIops * (1 - cache.readHitShare);
  const destagedWriteIops = cache.mode === 'write-back' ? writeIops * (1 - cache.writeHitShare) : writeIops;
  const writePenalty = raidWritePenalty(raid);
  return { readIops, writeIops, missReadIops, destagedWriteIops, writePenalty, backEndIops: missReadIops + destagedWriteIops * writePenalty };
}

export type BindingConstraint = 'iops' | 'capacity' | 'raid-minimum' | 'typed';

export interface SpindleSizing {
  /** ceil(back-end IOPS ÷ drive IOPS). */
  countForIops: number;
  /** Whole RAID groups holding the capacity: ceil(ceil(capacity ÷ drive capacity) ÷ data drives per group) × group size. */
  countForCapacity: number;
  /** One RAID group. */
  minimumForRaid: number;
  groupSize: number;
  groups: number;
  /** The drives to buy: the largest of the three, rounded up to whole groups (or the typed count). */
  driveCount: number;
  binding: BindingConstraint;
  /** Usable capacity of driveCount drives after RAID overhead, bytes. */
  usableCapacityBytes: number;
}

/**
 * Spindle count for a back-end IOPS load and a usable capacity.
 * Method: max(ceil(backEndIops ÷ driveIops), capacity count after RAID overhead, one group),
 * rounded up to whole RAID groups. A typed count replaces the result (binding `typed`).
 * Example: 38 000 back-end IOPS on 140-IOPS drives in RAID 5 (4+1), 20 TB on 1.2 TB drives:
 * IOPS → ceil(271.4) = 272; capacity → ceil(16.7) = 17 data drives → 5 groups → 25;
 * max = 272 → 55 groups of 5 → 275 drives, binding `iops`.
 */
export function spindleCount(args: {
  backEndIops: number;
  driveIops: number;
  capacityBytes: number;
  driveCapacityBytes: number;
  raid: RaidSpec;
  typedCount?: number | undefined;
}): SpindleSizing {
  const { raid } = args;
  const groupSize = raid.groupSize;
  const dataPerGroup = raidDataDrivesPerGroup(raid);
  const countForIops = ceilWhole(args.backEndIops / args.driveIops);
  const dataDrives = ceilWhole(args.capacityBytes / args.driveCapacityBytes);
  const countForCapacity = ceilWhole(dataDrives / dataPerGroup) * groupSize;
  const minimumForRaid = groupSize;
  const needed = Math.max(countForIops, countForCapacity, minimumForRaid);
  let driveCount = ceilWhole(needed / groupSize) * groupSize;
  let binding: BindingConstraint = countForIops >= countForCapacity && countForIops >= minimumForRaid ? 'iops' : countForCapacity >= minimumForRaid ? 'capacity' : 'raid-minimum';
  if (args.typedCount !== undefined) {
    driveCount = args.typedCount;
    binding = 'typed';
  }
  const groups = driveCount / groupSize;
  return {
    countForIops,
    countForCapacity,
    minimumForRaid,
    groupSize,
    groups,
    driveCount,
    binding,
    usableCapacityBytes: groups * dataPerGroup * args.driveCapacityBytes,
  };
}

/**
 * Expansion enclosures for a number of drives.
 * Method: ceil(max(0, drives − built-in slots) ÷ slots per enclosure).
 * Example: 188 drives, 24 built-in slots, 24 per enclosure → ceil(164 / 24) = 7.
 */
export function enclosureCount(drives: number, builtInSlots: number, slotsPerEnclosure: number): number {
  return ceilWhole(Math.max(0, drives - builtInSlots) / slotsPerEnclosure);
}

/**
 * Front-end IOPS a set of drives sustains for a read/write mix through a cache and RAID.
 * Method: driveCount × driveIops ÷ (back-end I/Os per front-end I/O); Infinity when no I/O
 * reaches the drives (every read hits and every write is absorbed).
 * Example: 188 drives × 140 IOPS, 70 % reads, RAID 10, no cache → 26 320 ÷ 1.3 = 20 246 IOPS.
 */
export function sustainedFrontEndIops(driveCount: number, driveIops: number, readShare: number, raid: RaidSpec, cache: CacheEffect = NO_CACHE): number {
  const perFrontIo = backEndIops(1, readShare, raid, cache).backEndIops;
  return perFrontIo <= 0 ? Number.POSITIVE_INFINITY : (driveCount * driveIops) / perFrontIo;
}
