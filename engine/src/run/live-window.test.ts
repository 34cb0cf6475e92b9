import { describe, expect, it } from 'vitest';
import { earlierWindowEndMs, laterWindowEndMs, liveWindowRange, seriesFirstMs, seriesLastMs, wholeSecondTicks } from './live-window.ts';

const H = 3_600_000;

describe('live window', () => {
  it('finds the first and last points over every series', () => {
    // series end at 5000 and 9000: the last is 9000; they start at 1000 and 3000: the first is 1000
    expect(seriesLastMs([[1000, 5000], [3000, 9000], []])).toBe(9000);
    expect(seriesFirstMs([[1000, 5000], [3000, 9000], []])).toBe(1000);
    // nothing held: last 0 (the start of the live request), first unknown
    expect(seriesLastMs([[], []])).toBe(0);
    expect(seriesFirstMs([])).toBeNull();
  });

  it('live: the last hour, starting no earlier than the first point', () => {
    // points from 10 s to 70 s, last sample at 80 s: ends at 80 s, starts at the first point (10 s), no earlier hour
    expect(liveWindowRange({ viewEndMs: null, lastMs: 70_000, firstMs: 10_000, lastSampleMs: 80_000, startedMs: 5_000 }))
      .toEqual({ fromMs: 10_000, toMs: 80_000, hasEarlier: false });
    // two hours of points from 0: the hour 1 h → 2 h; the run started at 0 < 2 h − 1 h, so an earlier hour exists
    expect(liveWindowRange({ viewEndMs: null, lastMs: 2 * H, firstMs: 0, lastSampleMs: null, startedMs: 0 }))
      .toEqual({ fromMs: H, toMs: 2 * H, hasEarlier: true });
  });

  it('an earlier hour spans one hour; an empty window is one second wide', () => {
    // view ending at 3 h: 2 h → 3 h; the run started at 1 h < 2 h
    expect(liveWindowRange({ viewEndMs: 3 * H, lastMs: 3 * H, firstMs: 2 * H, lastSampleMs: 5 * H, startedMs: H }))
      .toEqual({ fromMs: 2 * H, toMs: 3 * H, hasEarlier: true });
    // no points, no sample: end 0, from max(−1 h, −1 h) = −1 h, to 0; no start known
    expect(liveWindowRange({ viewEndMs: null, lastMs: 0, firstMs: null, lastSampleMs: null, startedMs: null }))
      .toEqual({ fromMs: -H, toMs: 0, hasEarlier: false });
    // a single point at 50 s: from 50 s, to max(50 s, 51 s) = 51 s
    expect(liveWindowRange({ viewEndMs: null, lastMs: 50_000, firstMs: 50_000, lastSampleMs: 50_000, startedMs: null }))
      .toEqual({ fromMs: 50_000, toMs: 51_000, hasEarlier: false });
  });

  it('steps an hour back and forth, back to live at the last sample', () => {
    // live, last sample at 5 h after the points (4 h): the hour before ends at 5 h − 1 h = 4 h
    expect(earlierWindowEndMs(null, 4 * H, 5 * H)).toBe(4 * H);
    expect(earlierWindowEndMs(2 * H, 4 * H, 5 * H)).toBe(H);
    // 2 h + 1 h = 3 h < 5 h: stays an earlier hour; 4 h + 1 h = 5 h reaches the last sample: live
    expect(laterWindowEndMs(2 * H, 5 * H)).toBe(3 * H);
    expect(laterWindowEndMs(4 * H, 5 * H)).toBeNull();
  });

  it('ticks: whole seconds shown + 1, between 2 and 7', () => {
    expect(wholeSecondTicks(0, 500)).toBe(2); // floor(0.5) + 1 = 1 → at least 2
    expect(wholeSecondTicks(0, 4_000)).toBe(5); // 4 + 1
    expect(wholeSecondTicks(0, H)).toBe(7); // 3601 → at most 7
  });
});
