/**
 * What the TCO model returns (planScenario, evaluateConfiguration): the line items, each
 * configuration's sizing, costs and drive life, and the comparisons with the reference. Plain
 * data, the contract of `cacheproof tco --json` (docs/tco-scenario.md) and of the report model.
 */
import type { Scenario } from './scenario.ts';
import type { BackEndIops, SpindleSizing } from './sizing.ts';
import type { PlanVerdict } from './verdict.ts';

/** Line items, in the order they are printed. */
export const LINE_IDS = [
  'baseSystem',
  'cacheLicense',
  'backingDrives',
  'cacheDrives',
  'cacheRam',
  'enclosures',
  'powerCooling',
  'backingFailures',
  'cacheFailures',
  'cacheWearReplacements',
  'support',
] as const;
export type LineId = (typeof LINE_IDS)[number];

/**
 * The cost categories a chart stacks, each a sum of line items: the one grouping of the
 * Planner's cost bars and the report's (a stack reads the same in both).
 */
export const COST_STACKS = [
  { id: 'purchase', lines: ['baseSystem', 'cacheLicense', 'cacheDrives', 'cacheRam'] },
  { id: 'drives', lines: ['backingDrives'] },
  { id: 'enclosures', lines: ['enclosures'] },
  { id: 'power', lines: ['powerCooling'] },
  { id: 'failures', lines: ['backingFailures', 'cacheFailures', 'cacheWearReplacements'] },
  { id: 'support', lines: ['support'] },
] as const satisfies readonly { id: string; lines: readonly LineId[] }[];
export type CostStackId = (typeof COST_STACKS)[number]['id'];

/**
 * A configuration's cost in one stack of {@link COST_STACKS}: the sum of its line items' costUsd
 * over the period (USD), the one subtotal the Planner's cost bars and the report's chart draw.
 * Example: purchase = baseSystem 12,000 + cacheLicense 0 + cacheDrives 1,400 + cacheRam 0 = 13,400 USD.
 */
export function stackCostUsd(c: Pick<ConfigResult, 'lines'>, id: CostStackId): number {
  const lines: readonly LineId[] = COST_STACKS.find((st) => st.id === id)?.lines ?? [];
  return c.lines.filter((l) => lines.includes(l.id)).reduce((a, l) => a + l.costUsd, 0);
}

/** One cost a reviewer can trace: the amount and the numbers of its formula. */
export interface LineItem {
  id: LineId;
  costUsd: number;
  /** Paid on day one (true) or over the years (false). */
  upfront: boolean;
  /** The formula's inputs (counts, unit prices, watts, years…), for the printed detail. */
  params: Record<string, number | string>;
}

export type ConfigKind = 'all-hdd' | 'hdd-cache' | 'all-flash' | 'flash-cache';

export interface DriveLife {
  driveId: string;
  driveCount: number;
  /** AFR × count × years. */
  expectedFailures: number;
  /** HDD: TB read + written per drive per year without / with the cache, and the rating. */
  tbPerDrivePerYearBefore: number | null;
  tbPerDrivePerYearAfter: number | null;
  ratedTbPerYear: number | null;
  wearIndexBefore: number | null;
  wearIndexAfter: number | null;
  /** wearIndexAfter − wearIndexBefore (negative: the cache lightens the drives). */
  wearIndexChange: number | null;
  /** SSD: TB written per drive per year, endurance and years to wear-out. */
  tbWrittenPerDrivePerYear: number | null;
  enduranceTbw: number | null;
  yearsToWearOut: number | null;
}

export interface ConfigResult {
  id: string;
  label: string;
  kind: ConfigKind;
  backingDriveId: string;
  raidLevel: string;
  frontEndIops: number;
  capacityBytes: number;
  backEnd: BackEndIops;
  sizing: SpindleSizing;
  cacheDriveCount: number;
  slotsUsed: number;
  maxSlots: number;
  enclosures: number;
  /** Total power of the configuration, watts (drives, cache SSDs or RAM, enclosures, base system). */
  watts: number;
  lines: LineItem[];
  upfrontUsd: number;
  totalUsd: number;
  /** cumulativeUsd[k] = spent by the end of year k; [0] = day one. Length years + 1. */
  cumulativeUsd: number[];
  /** Front-end IOPS the configuration can sustain (its backing drives' and cache SSDs' limit, not the workload's IOPS); null when unbounded. */
  deliveredIops: number | null;
  /** Cost per IOPS it can sustain: totalUsd ÷ deliveredIops (said "per IOPS it can sustain", never "per delivered IOPS": a configuration with headroom delivers only what the workload asks). */
  costPerDeliveredIopsUsd: number | null;
  usableCapacityBytes: number;
  costPerUsableTbUsd: number;
  backingLife: DriveLife;
  cacheLife: DriveLife | null;
  /** Things the reader must know: `typed-count-short` (a typed count below the need), `over-rating`, `cache-wears-out`. */
  warnings: { code: string; params: Record<string, number | string> }[];
}

export interface Comparison {
  id: string;
  totalUsd: number;
  /** referenceTotal − total (positive: this configuration is cheaper). */
  savingsUsd: number;
  /** savingsUsd ÷ referenceTotal × 100. */
  savingsPct: number;
  /** Year from which this configuration has cost no more than the reference (see breakEvenYear); null: never in the period. */
  breakEvenYear: number | null;
  /**
   * When breakEvenYear is null: the year beyond the period at which this configuration would
   * break even if the last year's running costs of both went on (plan.ts breakEvenBeyondPeriod);
   * null when it would never (or breaks even within the period). Printed "not within N years
   * (year X if the last year's costs continue)", never clamped to the period.
   */
  breakEvenBeyondYear: number | null;
}

/** The plan's figures, without its verdict (what a plan on one IOPS basis computes). */
export interface PlanFigures {
  title: string;
  years: number;
  sizeFor: 'final-year' | 'first-year';
  /** Year of the period the configurations were sized for (1 … years). */
  sizedForYear: number;
  iopsBasis: string;
  /** Front-end IOPS and capacity today and in the sizing year. */
  frontEndIopsToday: number;
  frontEndIops: number;
  capacityBytesToday: number;
  capacityBytes: number;
  /** Front-end bytes per year in the sizing year (drive-life input). */
  readBytesPerYear: number;
  writtenBytesPerYear: number;
  energy: Scenario['energy'];
  referenceId: string;
  /** True when the scenario says its prices are examples (`priceKind: "example"`): print "example prices: replace before use". */
  examplePrices: boolean;
  configurations: ConfigResult[];
  comparisons: Comparison[];
}

export interface PlanResult extends PlanFigures {
  /** The bottom line: the verdict on the scenario's IOPS basis and on the other measured bases (verdict.ts). */
  verdict: PlanVerdict;
}
