import { describe, expect, it } from 'vitest';
import { HEAT_LEVELS, heatLevel, heatShare } from './heat.ts';

describe('heatmap shading: one scale for the screen and every report format', () => {
  it('a cell is its share of the busiest hour, in 10 steps rounded to the nearest', () => {
    expect(HEAT_LEVELS).toBe(10);
    expect(heatShare(250, 1000)).toBe(0.25);
    expect(heatLevel(0.25)).toBe(3);
    expect(heatLevel(0.24)).toBe(2);
    // the screen's old 5 steps rounded down put 0.99 one step below the busiest cell; it is the top step now, as in the PDF
    expect(heatLevel(0.99)).toBe(10);
    expect(heatLevel(0.04)).toBe(0);
  });
  it('no share without a value or a busy hour; never outside 0..1', () => {
    expect(heatShare(null, 10)).toBeNull();
    expect(heatShare(5, null)).toBeNull();
    expect(heatShare(5, 0)).toBeNull();
    expect(heatShare(20, 10)).toBe(1);
    expect(heatLevel(-1)).toBe(0);
  });
});
