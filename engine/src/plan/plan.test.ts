import { describe, expect, it } from 'vitest';
import exampleJson from '../../../samples/scenarios/example.tco.json';
import {
  EXAMPLE_SCENARIO,
  backEndIops,
  breakEvenBeyondPeriod,
  breakEvenYear,
  cacheHostBytesWrittenPerYear,
  evaluateConfiguration,
  parseScenario,
  planScenario,
  scenarioFromMeasurement,
  sensitivity,
  spindleCount,
  ssdEnduranceTbw,
  ssdYearsToWearOut,
  type MeasuredWorkload,
  type Scenario,
  type ScenarioInput,
} from './index.ts';
import { MODEL_FIXTURE } from './plan.fixture.ts';

/** The model fixture (plan.fixture.ts), not the shipped example: the hand computations below are written against its numbers. */
function example(): Scenario {
  const r = parseScenario(MODEL_FIXTURE);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function clone(): ScenarioInput {
  return JSON.parse(JSON.stringify(MODEL_FIXTURE)) as ScenarioInput;
}
function errorOf(input: unknown): { code: string; path: string; message: string } {
  const r = parseScenario(input);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

describe('spindle count by hand', () => {
  // Workload: 10 000 front-end IOPS, 60 % reads, 10 TB usable, drives of 150 IOPS and 2 TB.
  // reads 6 000/s, writes 4 000/s.
  it('RAID 5 (4+1): 6 000 + 4 000 × 4 = 22 000 back-end IOPS → ceil(146.67) = 147 → 30 groups of 5 = 150', () => {
    const raid = { level: '5' as const, groupSize: 5 };
    const be = backEndIops(10_000, 0.6, raid);
    expect(be.backEndIops).toBeCloseTo(22_000, 6);
    const s = spindleCount({ backEndIops: be.backEndIops, driveIops: 150, capacityBytes: 10e12, driveCapacityBytes: 2e12, raid });
    expect(s.countForIops).toBe(147);
    // capacity: 10 / 2 = 5 data drives → ceil(5 / 4) = 2 groups → 10 drives
    expect(s.countForCapacity).toBe(10);
    expect(s.driveCount).toBe(150);
    expect(s.groups).toBe(30);
    expect(s.binding).toBe('iops');
    expect(s.usableCapacityBytes).toBe(30 * 4 * 2e12);
  });
  it('RAID 10 (groups of 4): 6 000 + 4 000 × 2 = 14 000 → ceil(93.33) = 94 → 24 groups of 4 = 96', () => {
    const raid = { level: '10' as const, groupSize: 4 };
    const be = backEndIops(10_000, 0.6, raid);
    expect(be.backEndIops).toBeCloseTo(14_000, 6);
    const s = spindleCount({ backEndIops: be.backEndIops, driveIops: 150, capacityBytes: 10e12, driveCapacityBytes: 2e12, raid });
    expect(s.countForIops).toBe(94);
    // capacity: 5 data drives → ceil(5 / 2) = 3 groups → 12 drives
    expect(s.countForCapacity).toBe(12);
    expect(s.driveCount).toBe(96);
  });
  it('RAID 6 and custom penalties', () => {
    expect(backEndIops(100, 0.5, { level: '6', groupSize: 6 }).backEndIops).toBeCloseTo(50 + 50 * 6, 9);
    expect(backEndIops(100, 0.5, { level: 'custom', groupSize: 3, writePenalty: 3, redundantDrivesPerGroup: 1 }).backEndIops).toBeCloseTo(200, 9);
    expect(backEndIops(100, 0.5, { level: '0', groupSize: 1 }).backEndIops).toBeCloseTo(100, 9);
  });
  it('capacity wins over IOPS: 1 000 IOPS, 60 % reads, RAID 5, but 100 TB on 2 TB drives', () => {
    const raid = { level: '5' as const, groupSize: 5 };
    const be = backEndIops(1_000, 0.6, raid); // 600 + 400 × 4 = 2 200 → 15 drives for IOPS
    const s = spindleCount({ backEndIops: be.backEndIops, driveIops: 150, capacityBytes: 100e12, driveCapacityBytes: 2e12, raid });
    expect(s.countForIops).toBe(15);
    // 50 data drives → ceil(50 / 4) = 13 groups → 65 drives
    expect(s.countForCapacity).toBe(65);
    expect(s.driveCount).toBe(65);
    expect(s.binding).toBe('capacity');
  });
  it('the RAID minimum wins on a tiny load', () => {
    const s = spindleCount({ backEndIops: 10, driveIops: 150, capacityBytes: 1e9, driveCapacityBytes: 2e12, raid: { level: '6', groupSize: 8 } });
    expect(s.driveCount).toBe(8);
  });
});

describe('cache effects', () => {
  it('write-back reduces back-end writes by the write hit share; write-through does not', () => {
    const raid = { level: '5' as const, groupSize: 5 };
    const wb = backEndIops(10_000, 0.6, raid, { readHitShare: 0.5, writeHitShare: 0.75, mode: 'write-back' });
    const wt = backEndIops(10_000, 0.6, raid, { readHitShare: 0.5, writeHitShare: 0.75, mode: 'write-through' });
    expect(wb.destagedWriteIops).toBeCloseTo(1_000, 9); // 4 000 × (1 − 0.75)
    expect(wt.destagedWriteIops).toBeCloseTo(4_000, 9); // every write goes on
    expect(wb.backEndIops).toBeCloseTo(3_000 + 1_000 * 4, 9);
    expect(wt.backEndIops).toBeCloseTo(3_000 + 4_000 * 4, 9);
  });
  it('a hit share of 0 makes the cache configuration no better than all-HDD', () => {
    const input = clone();
    const cfg = input.configurations[1];
    if (cfg === undefined) throw new Error('fixture');
    // Same drives and RAID as the reference, and a cache that hits nothing.
    cfg.backing = { driveId: 'hdd-10k-sas-1.2tb', raid: { level: '10', groupSize: 4 } };
    if (cfg.cache !== undefined) {
      cfg.cache.readHitShare = 0;
      cfg.cache.writeHitShare = 0;
    }
    const r = parseScenario(input);
    if (!r.ok) throw new Error(r.error.message);
    const plan = planScenario(r.value);
    if (!plan.ok) throw new Error(plan.error.message);
    const [hdd, cache] = plan.value.configurations;
    expect(cache?.sizing.driveCount).toBe(hdd?.sizing.driveCount);
    expect(cache?.totalUsd).toBeGreaterThanOrEqual(hdd?.totalUsd ?? Infinity);
    expect(plan.value.comparisons[1]?.savingsPct).toBeLessThanOrEqual(0);
  });
  it('sensitivity: drive count falls as the hit share rises, and a hit share of 0 equals no savings', () => {
    const points = sensitivity(example(), 1, 'hitShare', [0, 0.3, 0.5, 0.9]);
    // hit 0 under RAID 5: 14 000 + 6 000 × 4 = 38 000 → 272 → 275 drives + 2 cache SSDs > 264 slots: cannot be built;
    // hit 0.3: 9 800 + 4 200 × 4 = 26 600 → 190; hit 0.5: 7 000 + 3 000 × 4 = 19 000 → 136 → 140;
    // hit 0.9: 1 400 + 600 × 4 = 3 800 → 28 → capacity 30 wins.
    expect(points.map((p) => p.driveCount)).toEqual([null, 190, 140, 30]);
    expect(points[0]?.errorCode).toBe('iops-too-high');
    expect(points[1]?.totalUsd).toBeGreaterThan(points[3]?.totalUsd ?? Infinity);
  });
  it('sensitivity: IOPS target and growth rate', () => {
    const s = example();
    const byIops = sensitivity(s, 0, 'iopsTarget', [10_000, 20_000]);
    expect(byIops.map((p) => p.driveCount)).toEqual([96, 188]); // 13 000 → 93 → 96; 26 000 → 186 → 188
    const byGrowth = sensitivity(s, 2, 'growthRate', [0, 0.5]);
    // all-flash SATA is capacity-bound: 20 TB → 11 data → 3 groups → 15; 20 × 1.5³ = 67.5 TB → 36 data → 9 groups → 45,
    // and the IOPS grow too: 20 000 × 3.375 = 67 500 → 14 000 × 3.375 + 6 000 × 3.375 × 4 = 128 250 → 3 drives.
    expect(byGrowth.map((p) => p.driveCount)).toEqual([15, 45]);
    // 300 %/yr: 20 000 × 4³ = 1 280 000 IOPS in year 4 — the IOPS, not the capacity, overflow the 264 slots.
    const tooBig = sensitivity(s, 0, 'growthRate', [3]);
    expect(tooBig[0]?.errorCode).toBe('iops-too-high');
  });
});

describe('drive life', () => {
  it('SSD years to wear-out for a given fill rate, by hand', () => {
    // 100 TB read per year, 80 % hits, all misses filled → 20 TB of fills; 50 TB written → 70 TB of host writes.
    const host = cacheHostBytesWrittenPerYear(100e12, 50e12, 0.8, 1);
    expect(host).toBeCloseTo(70e12, 0);
    // Endurance: 1 DWPD × 1.92 TB × 365 × 5 years = 3 504 TBW.
    const tbw = ssdEnduranceTbw({ capacityBytes: 1.92e12, dwpd: 1, warrantyYears: 5, enduranceTbw: undefined });
    expect(tbw).toBeCloseTo(3504, 9);
    // RAID 1 pair: each SSD writes all 70 TB; WAF 2 → 140 TB/yr per drive → 3 504 / 140 = 25.03 years.
    const w = ssdYearsToWearOut(host, { level: '1', groupSize: 2 }, 2, 2, 3504);
    expect(w.tbWrittenPerDrivePerYear).toBeCloseTo(140, 9);
    expect(w.yearsToWearOut).toBeCloseTo(3504 / 140, 9);
  });
  it('HDD wear index before and after the cache in the fixture', () => {
    const plan = planScenario(example());
    if (!plan.ok) throw new Error(plan.error.message);
    const c = plan.value.configurations[1];
    // Front-end: 8 000 mean IOPS × 8 192 B × 31 557 600 s: reads 0.7 → 1 447.70 TB, writes 0.3 → 620.45 TB.
    const readTb = (8000 * 0.7 * 8192 * 31_557_600) / 1e12;
    const writeTb = (8000 * 0.3 * 8192 * 31_557_600) / 1e12;
    expect(plan.value.readBytesPerYear / 1e12).toBeCloseTo(readTb, 6);
    // Before (no cache), RAID 5 on 55 drives: (1 447.70 + 620.45 × 4) / 55 = 71.45 TB/drive/yr.
    expect(c?.backingLife.tbPerDrivePerYearBefore).toBeCloseTo((readTb + writeTb * 4) / 55, 6);
    // After: reads × 0.2, writes × 0.2 (write-back, 80 % absorbed) → 14.29 TB/drive/yr.
    expect(c?.backingLife.tbPerDrivePerYearAfter).toBeCloseTo((readTb * 0.2 + writeTb * 0.2 * 4) / 55, 6);
    expect(c?.backingLife.wearIndexAfter).toBeCloseTo((readTb * 0.2 + writeTb * 0.8) / 55 / 550, 9);
    expect(c?.backingLife.wearIndexChange).toBeLessThan(0);
    // Cache: fills 1 447.70 × 0.2 + writes 620.45 = 909.99 TB per SSD per year (RAID 1), 3 504 TBW → 3.85 years.
    expect(c?.cacheLife?.tbWrittenPerDrivePerYear).toBeCloseTo(readTb * 0.2 + writeTb, 6);
    expect(c?.cacheLife?.yearsToWearOut).toBeCloseTo(3504 / (readTb * 0.2 + writeTb), 9);
    expect(c?.backingLife.expectedFailures).toBeCloseTo(0.005 * 55 * 4, 12);
    expect(c?.warnings.map((w) => w.code)).toEqual(['cache-wears-out']);
  });
});

describe('break-even', () => {
  it('interpolates inside the crossing year', () => {
    expect(breakEvenYear([100, 105, 110], [60, 85, 110])).toBeCloseTo(2, 12);
    expect(breakEvenYear([100, 110, 120], [60, 90, 130])).toBeCloseTo(1 + 20 / 30, 12);
    expect(breakEvenYear([100, 110, 120], [50, 80, 110])).toBeNull();
    expect(breakEvenYear([10, 20], [50, 60])).toBe(0);
    // Beyond the period, not clamped: d = 10 closing by 30 − 10 = 20 a year → year 2.5.
    expect(breakEvenBeyondPeriod([100, 110, 120], [50, 80, 110])).toBeCloseTo(2.5, 12);
    // Dearer every year, and no cheaper to run: never.
    expect(breakEvenBeyondPeriod([100, 140, 180], [50, 80, 110])).toBeNull();
    // Within the period: the in-period figure is the one to print.
    expect(breakEvenBeyondPeriod([100, 105, 110], [60, 85, 110])).toBeNull();
  });
});

describe('bad input names the field', () => {
  it('a negative price', () => {
    const input = clone();
    (input.drives[0] as { priceUsd: number }).priceUsd = -250;
    expect(errorOf(input)).toMatchObject({ path: 'drives[0].priceUsd', message: 'drives[0].priceUsd: must be at least 0, got -250.' });
  });
  it('zero IOPS per drive', () => {
    const input = clone();
    (input.drives[1] as { iops: number }).iops = 0;
    expect(errorOf(input)).toMatchObject({ code: 'not-above', path: 'drives[1].iops', message: 'drives[1].iops: must be greater than 0, got 0.' });
  });
  it('an unknown RAID level', () => {
    const input = clone();
    (input.configurations[0]?.backing.raid as { level: string }).level = '7';
    const e = errorOf(input);
    expect(e.path).toBe('configurations[0].backing.raid.level');
    expect(e.message).toBe('configurations[0].backing.raid.level: "7" is not one of 0, 1, 5, 6, 10, custom.');
  });
  it('a RAID group that does not fit its level', () => {
    const input = clone();
    (input.configurations[1]?.backing.raid as { groupSize: number }).groupSize = 2;
    expect(errorOf(input).path).toBe('configurations[1].backing.raid.groupSize');
  });
  it('a capacity larger than the system can hold with any of its drives', () => {
    const input = clone();
    input.workload.capacityBytes = 500e12; // × 1.331 = 665.5 TB → 555 data drives of 1.2 TB → 1 112 drives in RAID 10 > 264 slots
    const r = parseScenario(input);
    if (!r.ok) throw new Error(r.error.message);
    const plan = planScenario(r.value);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.error.code).toBe('capacity-too-large');
    expect(plan.error.path).toBe('workload.capacityBytes');
    expect(plan.error.message).toBe(
      'workload.capacityBytes: 665.5 TB in year 4 needs 1112 drives of "hdd-10k-sas-1.2tb" in configuration "All HDD, RAID 10", more than the 264 drive slots its system allows (configurations[0].system.builtInSlots + configurations[0].system.maxEnclosures × configurations[0].enclosure.slots).',
    );
  });
  it('malformed: wrong types, missing fields, unknown references, newer versions', () => {
    expect(errorOf({ ...clone(), years: 'four' })).toMatchObject({ code: 'wrong-type', path: 'years' });
    const noWorkload: Record<string, unknown> = { ...clone() };
    delete noWorkload.workload;
    expect(errorOf(noWorkload)).toMatchObject({ code: 'missing', path: 'workload' });
    const badRef = clone();
    if (badRef.configurations[0]) badRef.configurations[0].backing.driveId = 'nope';
    expect(errorOf(badRef)).toMatchObject({ code: 'unknown-drive', path: 'configurations[0].backing.driveId' });
    expect(errorOf({ ...clone(), version: 2 })).toMatchObject({ code: 'too-new', path: 'version' });
    expect(errorOf([])).toMatchObject({ code: 'wrong-type', path: '' });
    const basis = clone();
    basis.workload.iops = { basis: 'peak', p95: 100 };
    expect(errorOf(basis)).toMatchObject({ code: 'missing', path: 'workload.iops.peak' });
    expect(errorOf({ ...clone(), energy: { usdPerKwh: -1, pue: 1.5 } })).toMatchObject({ path: 'energy.usdPerKwh' });
  });
});

describe('samples', () => {
  it('the shipped example equals the template', () => {
    const a = parseScenario(exampleJson);
    const b = parseScenario(EXAMPLE_SCENARIO);
    expect(a.ok && b.ok && a.value).toEqual(b.ok && b.value);
  });
});

describe('scenarioFromMeasurement', () => {
  const m: MeasuredWorkload = {
    iopsP95: 12_000,
    iopsPeak: 15_000,
    iopsMean: 5_000,
    readShare: 0.75,
    avgRequestBytes: 16_384,
    readHitShare: null,
    writeHitShare: 0.6,
    cacheMode: 'write-back',
    backingCapacityBytes: 10e12,
    backingBytesPerYearBefore: { readBytes: 400e12, writtenBytes: 100e12 },
    backingBytesPerYearAfter: { readBytes: 100e12, writtenBytes: 40e12 },
  };
  it('fills the workload and the cache hit shares, deriving the read hit share from bytes', () => {
    const s = scenarioFromMeasurement(m);
    expect(s.workload.iops).toEqual({ basis: 'p95', p95: 12_000, peak: 15_000, mean: 5_000 });
    expect(s.workload.capacityBytes).toBe(10e12);
    expect(s.workload.yearlyReadBytes).toBe(400e12);
    const cache = s.configurations[1]?.cache;
    expect(cache?.readHitShare).toBeCloseTo(0.75, 12); // 1 − 100 / 400
    expect(cache?.writeHitShare).toBe(0.6);
    expect(cache?.hitShareSource).toBe('measured');
    expect(parseScenario(s).ok).toBe(true);
    expect(evaluateConfiguration(s, 1).ok).toBe(true);
  });
});
