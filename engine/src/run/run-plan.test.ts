import { describe, expect, it } from 'vitest';
import { clampPercent, etaEndMs, phaseWidths, plannedEndMs, plannedRunSeconds, sharePercent, totalSeconds } from './run-plan.ts';

const plan = { baselineSeconds: 60, warmupSeconds: 30, measureSeconds: 110 };

describe('run plan figures', () => {
  it('sums the windows and finds the planned end', () => {
    // 60 + 30 + 110 = 200 s; started at 1000 ms: ends at 1000 + 200 000 = 201 000 ms
    expect(plannedRunSeconds(plan)).toBe(200);
    expect(plannedEndMs(1000, plan)).toBe(201_000);
    expect(plannedEndMs(null, plan)).toBeNull();
  });

  it('gives each window its tenths of the timeline', () => {
    // 60/200·10 = 3, 30/200·10 = 1.5, 110/200·10 = 5.5
    expect(phaseWidths(plan)).toEqual({ baseline: 3, warmup: 1.5, measure: 5.5 });
    // a plan of no time counts as 1 s: every width 0, none NaN
    expect(phaseWidths({ baselineSeconds: 0, warmupSeconds: 0, measureSeconds: 0 })).toEqual({ baseline: 0, warmup: 0, measure: 0 });
  });

  it('ends an estimate on the clock, holds a percent, prints a share', () => {
    expect(etaEndMs(1_000_000, 90)).toBe(1_090_000); // 1 000 000 + 90 · 1000
    expect(clampPercent(104.2)).toBe(100);
    expect(clampPercent(-3)).toBe(0);
    expect(clampPercent(42.5)).toBe(42.5);
    // 0.05 → 5 % with two decimals (below 10 %); 0.25 → 25 % with one; 1 → 100 % with one
    expect(sharePercent(0.05)).toEqual({ percent: 5, digits: 2 });
    expect(sharePercent(0.25)).toEqual({ percent: 25, digits: 1 });
    expect(sharePercent(1)).toEqual({ percent: 100, digits: 1 });
  });

  it('sums durations', () => {
    expect(totalSeconds([60, 30, 110])).toBe(200); // 60 + 30 + 110
    expect(totalSeconds([])).toBe(0);
  });
});
