import { describe, expect, it } from 'vitest';
import { columnsFromRecords } from '../records/columns.ts';
import type { IntervalRecord } from '../records/types.ts';
import { bucketGrid, bucketSums, bucketSumsOnTwoGrids, chartLines, columnsSpan, seriesOfBuckets, type BucketGrid } from './buckets.ts';

/** One 1 s interval of `reads` reads (4 KiB each, `ms` ms of read time each), or a status without numbers. */
function rec(device: string, startMs: number, reads: number | null, o: Partial<IntervalRecord> = {}): IntervalRecord {
  const has = reads !== null;
  return {
    device, startMs, endMs: startMs + 1000, intervalMs: 1000, status: has ? 'ok' : 'gap',
    reads, writes: has ? 0 : null, readBytes: has ? reads * 4096 : null, writeBytes: has ? 0 : null,
    readTimeMs: has ? reads * 2 : null, writeTimeMs: has ? 0 : null, busyMs: has ? 10 : null, weightedMs: has ? 10 : null, ...o,
  };
}

const line = (records: IntervalRecord[], maxPoints: number) => {
  const cols = columnsFromRecords(records);
  const span = columnsSpan(cols);
  const grid = bucketGrid(span.t0, span.t1, maxPoints, span.stepMs);
  if (grid === null) throw new Error('no grid');
  return seriesOfBuckets(cols.map((c) => bucketSums(c, grid)));
};

describe('bucketGrid', () => {
  it('makes at most maxPoints equal buckets, none shorter than one step', () => {
    expect(bucketGrid(0, 10_000, 4, 1000)).toEqual({ t0: 0, bucketMs: 2500, n: 4 });
    expect(bucketGrid(0, 10_000, 480, 1000)).toEqual({ t0: 0, bucketMs: 1000, n: 10 });
    expect(bucketGrid(5, 5, 10)).toBeNull();
  });
});

describe('bucketSumsOnTwoGrids', () => {
  it('gives each grid the sums bucketSums gives it, bit for bit, with gaps, missing fields and intervals out of the grid', () => {
    const records: IntervalRecord[] = [];
    for (let i = 0; i < 997; i++) {
      const t = 1_700_000_000_000 + i * 1000;
      if (i % 17 === 0) records.push(rec('a', t, null));
      else if (i % 13 === 0) records.push(rec('a', t, 7 + (i % 5), { readTimeMs: null, weightedMs: null }));
      else if (i % 11 === 0) records.push(rec('a', t, 3, { readBytes: null, intervalMs: 1000 + (i % 3) * 0.1 }));
      else records.push(rec('a', t, (i * 7919) % 1000 / 3, { writes: i % 4, writeTimeMs: (i % 9) * 0.37, writeBytes: 512 * (i % 4) }));
    }
    const c = columnsFromRecords(records)[0];
    if (c === undefined) throw new Error('no columns');
    const span = columnsSpan([c]);
    const grids: BucketGrid[] = [2000, 480, 37].map((n) => bucketGrid(span.t0, span.t1, n, span.stepMs) as BucketGrid);
    // and a grid that starts inside the intervals (those before it go to its first bucket, those after to its last)
    grids.push({ t0: span.t0 + 100_000.5, bucketMs: 3333.3, n: 200 });
    for (const a of grids) {
      for (const b of grids) {
        const [s, t] = bucketSumsOnTwoGrids(c, a, b);
        expect(s).toEqual(bucketSums(c, a));
        expect(t).toEqual(bucketSums(c, b));
      }
    }
  });
});

describe('seriesOfBuckets: the one bucketing behind every chart line', () => {
  it('IOPS is the bucket\'s I/Os over its covered seconds; a bucket with no numbers is null, never 0', () => {
    const s = line([rec('a', 0, 100), rec('a', 1000, 300), rec('a', 2000, null), rec('a', 3000, null, { status: 'reset' })], 2);
    expect(s.iops).toEqual([200, null]);
    expect(s.latencyMs).toEqual([2, null]);
    expect(s.mbps).toEqual([(400 * 4096) / 2 / 1e6, null]);
    expect(s.t).toEqual([2000, 4000]);
    expect(s.mid).toEqual([1000, 3000]);
  });

  it('a gap inside a bucket lowers neither IOPS nor MB/s: rates are over the covered time only', () => {
    const s = line([rec('a', 0, 100), rec('a', 1000, null), rec('a', 2000, 100), rec('a', 3000, 100)], 2);
    expect(s.iops).toEqual([100, 100]);
  });

  it('response time is I/O-weighted over the intervals whose times are present: a missing time is not 0', () => {
    // 100 reads at 2 ms, then 300 reads whose time is absent (an import without the counter).
    const s = line([rec('a', 0, 100), rec('a', 1000, 300, { readTimeMs: null })], 1);
    expect(s.iops).toEqual([200]);
    expect(s.latencyMs).toEqual([2]);
    // With no timed interval at all the response time is absent, while IOPS is known.
    const none = line([rec('a', 0, 100, { readTimeMs: null })], 1);
    expect(none.iops).toEqual([100]);
    expect(none.latencyMs).toEqual([null]);
  });

  it('MB/s is over the intervals whose bytes are present, and null when none has them', () => {
    const s = line([rec('a', 0, 100), rec('a', 1000, 300, { readBytes: null })], 1);
    expect(s.mbps).toEqual([(100 * 4096) / 1e6]);
    expect(line([rec('a', 0, 100, { readBytes: null })], 1).mbps).toEqual([null]);
  });

  it('an interval belongs to the bucket holding its mid-point', () => {
    const s = line([rec('a', 0, 10), rec('a', 1000, 20), rec('a', 2000, 30), rec('a', 3000, 40)], 4);
    expect(s.iops).toEqual([10, 20, 30, 40]);
  });
});

describe('chartLines: devices and groups on one grid', () => {
  it('a group adds its devices\' rates and weights their response times by I/Os; devices and groups share the time axis', () => {
    const records = [rec('a', 0, 100), rec('a', 1000, 100), rec('b', 0, 300, { readTimeMs: 300 * 4 }), rec('b', 1000, null)];
    const l = chartLines(columnsFromRecords(records), ['a', 'b'], [{ group: 'backing', devices: ['a', 'b', 'missing'] }], 100);
    expect(l.devices.map((d) => d.device)).toEqual(['a', 'b']);
    const g = l.groups[0];
    expect(g?.devices).toEqual(['a', 'b']);
    expect(g?.line.iops).toEqual([400, 100]);
    expect(g?.line.latencyMs).toEqual([(100 * 2 + 300 * 4) / 400, 2]);
    expect(l.devices[1]?.line.iops).toEqual([300, null]);
    expect(g?.line.t).toEqual(l.devices[0]?.line.t);
  });

  it('a group with none of its devices present is left out', () => {
    expect(chartLines(columnsFromRecords([rec('a', 0, 1)]), [], [{ group: 'front', devices: ['x'] }], 10).groups).toEqual([]);
  });
});
