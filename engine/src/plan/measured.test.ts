import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { synthCapture } from '../benefit/testkit.ts';
import type { CaptureData } from '../records/types.ts';
import { profileWorkload } from '../benefit/profile.ts';
import { measuredWorkload, measuredWorkloadFromProfile } from './measured.ts';
import { scenarioFromMeasurement } from './measured.ts';
import { EXAMPLE_SCENARIO } from './template.ts';
import { inputProvenance } from './provenance.ts';

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

  it('backing sizes not recorded (a PerfMon log): no capacity, and the prefill keeps its base\'s, for a person to replace', () => {
    const { report, data } = analyzed({ baselineS: 1800, measureS: 1800, stepMs: 10_000 }, {});
    const m = measuredWorkload(report, data);
    if (typeof m === 'string') throw new Error(m);
    expect(m.backingCapacityBytes).toBeNull();
    expect(scenarioFromMeasurement(m).workload.capacityBytes).toBe(EXAMPLE_SCENARIO.workload.capacityBytes);
    // the report's provenance says it is the example's figure, not a measurement nor a typed one
    expect(inputProvenance(scenarioFromMeasurement(m), m, true).find((r) => r.input === 'capacity')?.source).toBe('notRecorded');
  });

  it('says why when the baseline has no completed I/O', () => {
    const { report, data } = analyzed({ baselineS: 1800, measureS: 1800, stepMs: 10_000, iopsBefore: 0, iopsAfter: 0 }, { sda: TB });
    expect(measuredWorkload(report, data)).toBe('the baseline window has no completed I/O to plan from');
  });
});

describe('measuredWorkloadFromProfile (a log with no switch: capacity planning without a cache)', () => {
  /** The synthetic capture cut to its baseline: no switch, no measure phase, as an imported log without --switch-at. */
  function baselineOnly(o: Parameters<typeof synthCapture>[0], sizes: Record<string, number | null>): CaptureData {
    const data = synthCapture(o);
    for (const d of data.devices) if (d.name in sizes) d.sizeBytes = sizes[d.name] ?? null;
    const end = (data.phases.find((p) => p.name === 'baseline') as { endMs: number }).endMs;
    return { ...data, phases: [], intervals: data.intervals.filter((r) => r.endMs <= end) };
  }

  it('the same figures as the analysis of the same baseline, with no hit share and nothing after', () => {
    const o = { baselineS: 1800, measureS: 1800, stepMs: 10_000, iopsBefore: 250, iopsAfter: 250, readShare: 0.7, requestBytes: 4096, missRatio: 0.1, backing: ['sda', 'sdb'] };
    const sizes = { sda: 1 * TB, sdb: 2 * TB };
    const { report, data: whole } = analyzed(o, sizes);
    const full = measuredWorkload(report, whole);
    const data = baselineOnly(o, sizes);
    expect(analyze(data).ok).toBe(false);
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    const m = measuredWorkloadFromProfile(p, data);
    if (typeof m === 'string' || typeof full === 'string') throw new Error(String(m));
    expect(m).toEqual({ ...full, readHitShare: null, writeHitShare: null, backingBytesPerYearAfter: null });
    // the prefilled scenario keeps the example's hit shares and their source
    const s = scenarioFromMeasurement(m);
    const ex = EXAMPLE_SCENARIO.configurations.find((c) => c.cache !== undefined);
    const got = s.configurations.find((c) => c.id === ex?.id);
    expect(got?.cache?.readHitShare).toBe(ex?.cache?.readHitShare);
    expect(got?.cache?.hitShareSource).toBe(ex?.cache?.hitShareSource);
    expect(s.workload.iops.p95).toBeCloseTo(250, 6);
  });

  it('a log of the application-facing volumes alone takes capacity and bytes from them (no capacity when their sizes are not recorded)', () => {
    const o = { baselineS: 600, measureS: 600, stepMs: 10_000, iopsBefore: 100, readShare: 0.5, requestBytes: 8192, backing: [] as string[] };
    const p0 = profileWorkload(baselineOnly(o, { loop0: 5 * TB }));
    if (!p0.ok) throw new Error(p0.error.message);
    expect(p0.mode).toBe('front-only');
    const m = measuredWorkloadFromProfile(p0, baselineOnly(o, { loop0: 5 * TB }));
    if (typeof m === 'string') throw new Error(m);
    expect(m.backingCapacityBytes).toBe(5 * TB);
    expect(m.backingBytesPerYearBefore.readBytes).toBeCloseTo(50 * 8192 * SECONDS_PER_YEAR, -3);
    const unsized = measuredWorkloadFromProfile(p0, baselineOnly(o, {}));
    expect(typeof unsized === 'string' ? unsized : unsized.backingCapacityBytes).toBeNull();
  });
});
