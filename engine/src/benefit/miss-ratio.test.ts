import { describe, expect, it } from 'vitest';
import { missRatioCurve, readMissPercent } from './miss-ratio.ts';

describe('readMissPercent', () => {
  it('100 × (1 − hit ratio), 0 (never −0) at a full hit ratio', () => {
    expect(readMissPercent(0.8)).toBeCloseTo(20, 12);
    expect(readMissPercent(0)).toBe(100);
    expect(Object.is(readMissPercent(1), 0)).toBe(true);
    expect(missRatioCurve([{ bytes: 1e9, readHitRatio: 0.25 }, { bytes: 2e9, readHitRatio: 0.5 }])).toEqual([{ bytes: 1e9, missPercent: 75 }, { bytes: 2e9, missPercent: 50 }]);
  });
});
