import { describe, expect, it } from 'vitest';
import type { IntervalRecord } from '../records/types.ts';
import { columnsFromRecords } from '../records/columns.ts';
import { buildSeries, buildSeriesFromColumns, deviceWindowView } from './series.ts';
import { summarizeSeries } from './summary.ts';

const rec = (device: string, i: number, reads: number, timeMs: number, status: IntervalRecord['status'] = 'ok'): IntervalRecord => {
  const ok = status === 'ok';
  return {
    device, startMs: i * 1000, endMs: (i + 1) * 1000, intervalMs: 1000, status,
    reads: ok ? reads : null, writes: ok ? 0 : null, readBytes: ok ? reads * 4096 : null, writeBytes: ok ? 0 : null,
    readTimeMs: ok ? timeMs : null, writeTimeMs: ok ? 0 : null, busyMs: ok ? 500 : null, weightedMs: ok ? timeMs : null,
  };
};
const W = { startMs: 0, endMs: 1_000_000 };

describe('summarizeSeries', () => {
  it('means are ratios of sums (time-weighted rates, I/O-weighted latency)', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 100, 100), rec('a', 1, 300, 900)]], W));
    expect(s.means.iops).toBeCloseTo(200, 12);
    expect(s.means.awaitMs).toBeCloseTo(2.5, 12); // 1000 ms / 400, not (1 + 3) / 2
    expect(s.percentiles.iops).toEqual({ p50: 200, p95: 290, p99: 298, max: 300, n: 2 });
    expect(s.totals.reads).toBe(400);
    expect(s.okSeconds).toBe(2);
  });
  it('a reset inside the window: that interval carries nothing and is counted', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 100, 100), rec('a', 1, 0, 0, 'reset'), rec('a', 2, 100, 100)]], W));
    expect(s.totals.reads).toBe(200);
    expect(s.okSeconds).toBe(2);
    expect(s.means.iops).toBeCloseTo(100, 12); // not 200/3
    expect(s.notOk.reset).toBe(1);
  });
  it('a missing interval (gap) does not dilute rates', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 100, 100), rec('a', 5, 100, 100)]], W));
    expect(s.means.iops).toBeCloseTo(100, 12);
    expect(s.okIntervals).toBe(2);
  });
  it('no I/O: latency figures null with reason, rates a real 0', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 0, 0), rec('a', 1, 0, 0)]], W));
    expect(s.means.iops).toBe(0);
    expect(s.means.awaitMs).toBeNull();
    expect(s.means.reasons.awaitMs).toBe('no-io');
    expect(s.means.reasons.rAwaitMs).toBe('no-reads');
    expect(s.percentiles.awaitMs).toBeNull();
    expect(s.percentiles.reasons.awaitMs).toBe('no-io');
  });
  it('no data at all: everything null with no-data', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 0, 0, 'gap')]], W));
    expect(s.totals.reads).toBeNull();
    expect(s.totals.reasons.reads).toBe('no-data');
    expect(s.means.iops).toBeNull();
    expect(s.means.reasons.iops).toBe('no-data');
  });
  it('a group sums counts per interval; a slot is ok only if every member is', () => {
    const a = [rec('a', 0, 100, 100), rec('a', 1, 100, 100)];
    const b = [rec('b', 0, 50, 500), rec('b', 1, 0, 0, 'wrap')];
    const s = summarizeSeries(buildSeries([a, b], W));
    expect(s.okIntervals).toBe(1);
    expect(s.totals.reads).toBe(150);
    expect(s.means.awaitMs).toBeCloseTo(600 / 150, 12);
    expect(s.means.utilPercent).toBeCloseTo(50, 12); // members' average
    expect(s.notOk.wrap).toBe(1);
  });
  it('a member whose intervals start where the group\'s do is added slot by slot; with a start repeated, as the merge join adds it', () => {
    const a = [rec('a', 0, 100, 10), rec('a', 1, 200, 20), rec('a', 2, 300, 30)];
    const b = [rec('b', 0, 1, 1), rec('b', 1, 2, 2), rec('b', 2, 3, 3)];
    const s = buildSeries([a, b], W);
    expect([[...s.reads], [...s.ok]]).toEqual([[101, 202, 303], [1, 1, 1]]);
    // two intervals of one start in each member (a damaged capture): the merge join adds both of
    // b's to the first slot of that start and leaves the second unmatched (not ok), as before
    const twice = (r: IntervalRecord[]): IntervalRecord[] => [r[0] as IntervalRecord, { ...(r[1] as IntervalRecord), startMs: 0, endMs: 1000 }, r[2] as IntervalRecord];
    const d = buildSeries([twice(a), twice(b)], W);
    expect([[...d.reads], [...d.ok]]).toEqual([[103, NaN, 303], [1, 0, 1]]);
  });
  it('records straddling the window edge are left out', () => {
    const s = summarizeSeries(buildSeries([[rec('a', 0, 100, 100), rec('a', 1, 100, 100)]], { startMs: 500, endMs: 2000 }));
    expect(s.okIntervals).toBe(1);
  });
});

describe('deviceWindowView', () => {
  // not-ok intervals of every status, an ok interval with a field absent, and intervals that straddle either edge of the window
  const recs: IntervalRecord[] = [];
  const statuses: IntervalRecord['status'][] = ['ok', 'reset', 'ok', 'wrap', 'gap', 'ok', 'clock-jump', 'ok'];
  for (let i = 0; i < 40; i++) recs.push(rec('a', i, (i * 37) % 101, (i * 13) % 29, statuses[i % statuses.length]));
  recs[9] = { ...(recs[9] as IntervalRecord), busyMs: null };
  recs.push({ ...rec('a', 2, 5, 5), startMs: 2500, endMs: 3500 }, { ...rec('a', 30, 5, 5), startMs: 30500, endMs: 31500 });
  const c = columnsFromRecords(recs)[0];
  for (const w of [{ startMs: 0, endMs: 40_000 }, { startMs: 3000, endMs: 31_000 }, { startMs: 2600, endMs: 30_900 }, { startMs: 50_000, endMs: 60_000 }]) {
    it(`summarizes as the copied series does, window ${w.startMs}–${w.endMs}`, () => {
      if (c === undefined) throw new Error('no columns');
      const view = summarizeSeries(deviceWindowView(c, w));
      expect(view).toEqual(summarizeSeries(buildSeriesFromColumns([c], w)));
    });
  }
});

