import { describe, expect, it } from 'vitest';
import { traceBudgetMaxBytes } from './trace-budget.ts';

describe('trace budget', () => {
  it('stores at most the budget’s share of the plan', () => {
    // 300 MB per 24 h over 49 h = 300e6 × 176 400 / 86 400 = 612.5e6
    expect(traceBudgetMaxBytes(300e6, 176_400)).toBe(612.5e6);
    // half a day: half the budget; no time: nothing
    expect(traceBudgetMaxBytes(1e9, 43_200)).toBe(5e8);
    expect(traceBudgetMaxBytes(1e9, 0)).toBe(0);
  });
});
