import { describe, expect, it } from 'vitest';
import { openingProgress, timeSpan } from './opening.ts';

describe('opening progress', () => {
  it('fills 80 % while reading, the rest while analysing', () => {
    // 250/1000 = 0.25: bar 80 × 0.25 = 20, 25 % read
    expect(openingProgress('read', 250, 1000)).toEqual({ barValue: 20, readPercent: 25 });
    // devices 1 of 3: 80 + 20/3 = 86.67 → 87
    expect(openingProgress('analyze', 1, 3).barValue).toBe(87);
    expect(openingProgress('analyze', 1, 3).readPercent).toBeCloseTo(33.333, 3); // 100 × 1/3
    // more done than said: held to 1; nothing to do: 0
    expect(openingProgress('read', 12, 10)).toEqual({ barValue: 80, readPercent: 100 });
    expect(openingProgress('read', 0, 0)).toEqual({ barValue: 0, readPercent: 0 });
  });

  it('spans from the earliest start to the latest end', () => {
    expect(timeSpan([3000, 1000], [4000, 9000])).toEqual({ startMs: 1000, endMs: 9000 });
    expect(timeSpan([], [])).toEqual({ startMs: null, endMs: null });
  });
});
