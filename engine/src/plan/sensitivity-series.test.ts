import { describe, expect, it } from 'vitest';
import { scaledIopsTargets, tornadoChangePct, tornadoSide } from './sensitivity-series.ts';
import type { SavingsSensitivity, TornadoBar } from './tornado.ts';

const bar = (low: number | null, high: number | null): TornadoBar => ({
  input: 'energyPrice', baseValue: 0.15, lowValue: 0.12, highValue: 0.18, savingsLowUsd: low, savingsHighUsd: high,
  swingUsd: low === null || high === null ? null : Math.abs(high - low), errorCode: low === null || high === null ? 'capacity-too-large' : null,
});
const sens: SavingsSensitivity = { configId: 'c', referenceId: 'r', change: 0.2, years: 4, baseSavingsUsd: 100, bars: [bar(60, 130), bar(120, 90), bar(null, 110)] };

describe('the Planner sensitivity series', () => {
  it('tornadoSide: from the base to the moved savings, low end first; the base alone where a plan failed', () => {
    expect(tornadoSide(sens, 'low')).toEqual([[60, 100], [100, 120], [100, 100]]);
    expect(tornadoSide(sens, 'high')).toEqual([[100, 130], [90, 100], [100, 110]]);
  });

  it('tornadoChangePct: the change as a percent', () => {
    expect(tornadoChangePct(sens)).toBeCloseTo(20, 12);
  });

  it('scaledIopsTargets: whole IOPS', () => {
    expect(scaledIopsTargets(20_001, [0.5, 1, 2])).toEqual([10_001, 20_001, 40_002]);
    expect(scaledIopsTargets(3, [0.25])).toEqual([1]);
  });
});
