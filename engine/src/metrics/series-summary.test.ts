import { describe, expect, it } from 'vitest';
import { everyNth, mostCommonBucket, nearestSizeIndex, seriesMax, seriesMean, seriesMin, wholeUpTo, seriesStepMs, spanWith, widestStepMs, windowMax, windowValues } from './series-summary.ts';

describe('series summaries', () => {
  it('seriesStepMs: the mean spacing, the fallback below two times', () => {
    expect(seriesStepMs([0, 1000, 3000])).toBe(1500);
    expect(seriesStepMs([5])).toBe(1000);
    expect(seriesStepMs([], 60_000)).toBe(60_000);
  });

  it('widestStepMs: the largest step, never below the floor', () => {
    expect(widestStepMs([[0, 500], [0, 2000, 4000]])).toBe(2000);
    expect(widestStepMs([[0, 10]])).toBe(1000);
    expect(widestStepMs([])).toBe(1000);
  });

  it('seriesMax and seriesMean: null when empty, negatives kept', () => {
    expect(seriesMax([3, 9, 4])).toBe(9);
    expect(seriesMax([-3, -1])).toBe(-1);
    expect(seriesMax([])).toBeNull();
    expect(seriesMin([3, 9, 4])).toBe(3);
    expect(seriesMin([])).toBeNull();
    expect(seriesMean([2, 4, 9])).toBe(5);
    expect(seriesMean([])).toBeNull();
  });

  it('windowMax: the window starts after its start and includes its end', () => {
    const pts = [{ x: 10, y: 100 }, { x: 20, y: 5 }, { x: 30, y: 7 }, { x: 40, y: 50 }];
    expect(windowValues(pts, 10, 30)).toEqual([5, 7]);
    expect(windowMax(pts, 10, 30)).toBe(7);
    expect(windowMax(pts, 40, 90)).toBeNull();
  });

  it('spanWith: the window widened to the points', () => {
    expect(spanWith([5, 40], 10, 30)).toEqual({ min: 5, max: 40 });
    expect(spanWith([], 10, 30)).toEqual({ min: 10, max: 30 });
  });

  it('everyNth: evenly thinned, the last always kept', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i);
    expect(everyNth(xs, 8)).toEqual([0, 3, 6, 9, 12, 15, 18, 19]);
    expect(everyNth([1, 2], 8)).toEqual([1, 2]);
    expect(everyNth([], 8)).toEqual([]);
    expect(everyNth([0, 1, 2, 3, 4], 8, 20)).toEqual([0, 3, 4]);
  });

  it('wholeUpTo: rounded down, capped', () => {
    expect(wholeUpTo(93.7, 90)).toBe(90);
    expect(wholeUpTo(41.9, 90)).toBe(41);
  });

  it('nearestSizeIndex: nearest on a log scale, the first on a tie', () => {
    const gb = 1e9;
    expect(nearestSizeIndex([1 * gb, 4 * gb, 16 * gb], 7 * gb)).toBe(1);
    expect(nearestSizeIndex([1 * gb, 4 * gb, 16 * gb], 9 * gb)).toBe(2);
    expect(nearestSizeIndex([1 * gb, 4 * gb], 2 * gb)).toBe(0);
    expect(nearestSizeIndex([], 2 * gb)).toBe(0);
  });

  it('mostCommonBucket: the most counts in the range, the first on a tie, missing counts 0', () => {
    expect(mostCommonBucket([5, 9, 9, 2], 1, 3)).toBe(1);
    expect(mostCommonBucket([50, 1, 3], 1, 2)).toBe(2);
    expect(mostCommonBucket([0, 0], 0, 4)).toBe(0);
    expect(mostCommonBucket([1], 2, 3)).toBe(2);
  });
});
