import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { synthCapture } from '../benefit/testkit.ts';
import type { CaptureData } from '../records/types.ts';
import { measuredWorkload } from './measured.ts';

const TB = 1e12;
const SECONDS_PER_YEAR = 8766 * 3600;

function analyzed(o: Parameters<typeof synthCapture>[0], sizes: Record<string, number | null>): { report: AnalysisReport; data: CaptureData } {
  const data = synthCapture(o);
  for (const d of data.devices) if (d.name in sizes) d.sizeBytes = sizes[d.name] ?? null;
  const report = analyze(data);
  if (!report.ok) throw new Error(report.error.message);
  return { report, data };
}

describe('measuredWorkload (the planner input from an analysis)', () => {
  it('front and backing: baseline IOPS, read share and request size of the front, backing bytes per year, capacity and hit shares', () => {
    const { report, data } = analyzed(
      { baselineS: 1800, measureS: 1800, stepMs: 10_000, iopsBefore: 250, iopsAfter: 250, readShare: 0.7, requestBytes: 4096, missRatio: 0.1, backing: ['sda', 'sdb'] },
      { sda: 1 * TB, sdb: 2 * TB },
    );
    const m = measuredWorkload(report, data);
    if (typeof m === 'string') throw new Error(m);
    expect(m.iopsMean).toBeCloseTo(250, 6);
    expect(m.iopsP95).toBeCloseTo(250, 6);
    expect(m.iopsPeak).toBeCloseTo(250, 6);
    expect(m.readShare).toBeCloseTo(0.7, 6);
    expect(m.avgRequestBytes).toBe(4096);
    expect(m.backingCapacityBytes).toBe(3 * TB);
    // before the switch the backing carries every front I/O: 175 reads/s × 4096 B for a year
    expect(m.backingBytesPerYearBefore.readBytes).toBeCloseTo(175 * 4096 * SECONDS_PER_YEAR, -3);
    expect(m.backingBytesPerYearBefore.writtenBytes).toBeCloseTo(75 * 4096 * SECONDS_PER_YEAR, -3);
    expect(m.backingBytesPerYearAfter?.readBytes).toBeCloseTo(17.5 * 4096 * SECONDS_PER_YEAR, -9);
    // hit shares are the analysis's cache-served percentages, as shares
    expect(m.readHitShare).toBeCloseTo((report.benefit.cacheServedPercent.reads as number) / 100, 9);
    expect(m.readHitShare).toBeCloseTo(0.9, 2);
    expect(m.writeHitShare).toBeCloseTo(0.9, 2);
    expect(m.cacheMode).toBeNull();
  });

  it('backing only: no measured hit shares (nothing to compare the backing with)', () => {
    const { report, data } = analyzed({ baselineS: 1800, measureS: 1800, stepMs: 10_000, front: null }, { sda: TB });
    expect(report.mode).toBe('backing-only');
    const m = measuredWorkload(report, data);
    if (typeof m === 'string') throw new Error(m);
    expect(m.readHitShare).toBeNull();
    expect(m.writeHitShare).toBeNull();
    expect(m.iopsMean).toBeCloseTo(100, 6);
  });

  it('says why when the backing sizes are not recorded', () => {
    const { report, data } = analyzed({ baselineS: 1800, measureS: 1800, stepMs: 10_000 }, {});
    expect(measuredWorkload(report, data)).toMatch(/does not record the sizes of its backing devices/);
  });

  it('says why when the baseline has no completed I/O', () => {
    const { report, data } = analyzed({ baselineS: 1800, measureS: 1800, stepMs: 10_000, iopsBefore: 0, iopsAfter: 0 }, { sda: TB });
    expect(measuredWorkload(report, data)).toBe('the baseline window has no completed I/O to plan from');
  });
});
