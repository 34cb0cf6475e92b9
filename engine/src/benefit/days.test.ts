import { describe, expect, it } from 'vitest';
import { profileWorkload } from './profile.ts';
import { nullsWithoutReason, synthCapture } from './testkit.ts';

const HOUR = 3_600_000;

/** A backing-only capture of 60 h from 12:00 UTC at 10 min steps with noise, its second day's 06:00–09:00 missing (a gap) and its last 24 h (the third day) left without data. */
function threeDays(): ReturnType<typeof synthCapture> {
  const t0 = Date.UTC(2026, 2, 2, 12);
  const data = synthCapture({ t0, baselineS: 60 * 3600, measureS: 600, stepMs: 600_000, front: null, backing: ['sdb'], iopsBefore: 300, noise: 0.4, seed: 3 });
  const gapFrom = Date.UTC(2026, 2, 3, 6), gapTo = Date.UTC(2026, 2, 3, 9);
  data.intervals = data.intervals.filter((r) => r.startMs < t0 + 36 * HOUR && !(r.startMs >= gapFrom && r.startMs < gapTo));
  data.phases = [{ name: 'baseline', startMs: t0, endMs: t0 + 60 * HOUR }];
  return data;
}

describe('dailyProfile (the profile per UTC calendar day)', () => {
  it('lists every calendar day the window touches, its figures the window summary of that day\'s intervals, each peak with its time', () => {
    const p = profileWorkload(threeDays());
    if (!p.ok) throw new Error(p.error.message);
    expect(p.days.map((d) => d.day)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04']);
    const [d1, d2, d3] = p.days;
    if (d1 === undefined || d2 === undefined || d3 === undefined) throw new Error('three days');
    // 12 h of 10-min intervals on the first day, 24 h less the 3 h gap on the second, nothing on the third
    expect(d1.okIntervals).toBe(72);
    expect(d2.okIntervals).toBe(144 - 18);
    expect(d1.startMs).toBe(p.window.startMs);
    expect(d3.endMs).toBe(p.window.endMs);
    // the window's peak is one of the days' peaks, at the same time; the window's I/Os are the days' I/Os
    const peak = p.appFacing.percentiles.iops?.max;
    expect(Math.max(d1.iops.peak ?? 0, d2.iops.peak ?? 0)).toBe(peak);
    const ios = (d: typeof d1): number => (d.iops.mean ?? 0) * d.okSeconds;
    expect(ios(d1) + ios(d2)).toBeCloseTo(p.appFacing.totals.ios ?? NaN, 6);
    for (const d of [d1, d2]) {
      for (const f of [d.iops, d.mbps, d.awaitMs]) {
        expect(f.peak).toBeGreaterThanOrEqual(f.p95 ?? Infinity);
        expect(f.peakAtMs).toBeGreaterThanOrEqual(d.startMs);
        expect(f.peakAtMs).toBeLessThan(d.endMs);
        expect(f.peakAt).toBe(new Date(f.peakAtMs as number).toISOString());
      }
    }
    // a day with no interval keeps its row: null figures, each with its reason
    expect(d3.okIntervals).toBe(0);
    expect(d3.iops).toMatchObject({ mean: null, p95: null, peak: null, peakAt: null, reasons: { mean: 'no-data', p95: 'no-data', peak: 'no-data' } });
    expect(nullsWithoutReason(p.days)).toEqual([]);
    expect(JSON.stringify(p.days)).not.toMatch(/NaN|Infinity|-0[,}]/);
  });
});
