// Front and backing group series for the dashboard (app/src/host/series.ts), checked against
// the engine's own per-interval metrics (one implementation of each figure).
import { intervalMetrics, type IntervalRecord } from '@cacheproof/engine';
import { describe, expect, it } from 'vitest';
import { buildGroupSeries } from '../src/host/series.ts';

const T0 = Date.UTC(2026, 0, 1);

function rec(device: string, i: number, reads: number, writes: number, readTimeMs: number, writeTimeMs: number, status: IntervalRecord['status'] = 'ok'): IntervalRecord {
  const ok = status === 'ok';
  return {
    device, startMs: T0 + i * 1000, endMs: T0 + (i + 1) * 1000, intervalMs: 1000, status,
    reads: ok ? reads : null, writes: ok ? writes : null, readBytes: ok ? reads * 4096 : null, writeBytes: ok ? writes * 4096 : null,
    readTimeMs: ok ? readTimeMs : null, writeTimeMs: ok ? writeTimeMs : null, busyMs: ok ? 500 : null, weightedMs: ok ? 600 : null,
  };
}

describe('buildGroupSeries', () => {
  it('equals the engine’s interval metrics for a one-device group, one bucket per interval', () => {
    const front = Array.from({ length: 10 }, (_, i) => rec('f', i, 100 + i, 20, 50 + i, 30));
    const [g] = buildGroupSeries(front, { front: ['f'], backing: [] });
    expect(g?.group).toBe('front');
    expect(g?.t).toHaveLength(10);
    front.forEach((r, i) => {
      const m = intervalMetrics(r);
      expect(g?.iops[i]).toBeCloseTo(m.iops as number, 9);
      expect(g?.latencyMs[i]).toBeCloseTo(m.awaitMs as number, 9);
      expect(g?.mbps[i]).toBeCloseTo(m.mbps as number, 9);
      expect(g?.readIops[i]).toBeCloseTo(r.reads as number, 9);
    });
  });

  it('sums the backing devices’ rates, weights response time by I/Os, and leaves no-data buckets null (never 0)', () => {
    const a = Array.from({ length: 4 }, (_, i) => rec('a', i, 10, 0, 100, 0));
    const b = Array.from({ length: 4 }, (_, i) => rec('b', i, 30, 0, 30, 0, i === 2 ? 'gap' : 'ok'));
    const out = buildGroupSeries([...a, ...b], { front: [], backing: ['a', 'b'] });
    expect(out).toHaveLength(1);
    const g = out[0];
    expect(g?.devices).toEqual(['a', 'b']);
    expect(g?.iops[0]).toBeCloseTo(40, 9);
    // (100 + 30 ms) / (10 + 30 I/Os): I/O-weighted, not the mean of 10 ms and 1 ms.
    expect(g?.latencyMs[0]).toBeCloseTo(130 / 40, 9);
    // Bucket 2: b has a gap, a alone.
    expect(g?.iops[2]).toBeCloseTo(10, 9);
    const onlyGap = buildGroupSeries([rec('a', 0, 10, 0, 1, 0), rec('a', 1, 0, 0, 0, 0, 'reset'), rec('a', 2, 10, 0, 1, 0)], { front: [], backing: ['a'] })[0];
    expect(onlyGap?.iops).toEqual([10, null, 10]);
    expect(onlyGap?.latencyMs[1]).toBeNull();
  });

  it('merges long series into at most 2000 buckets, each a rate over its own covered time', () => {
    const n = 5000;
    const recs = Array.from({ length: n }, (_, i) => rec('f', i, 7, 3, 10, 10));
    const [g] = buildGroupSeries(recs, { front: ['f'], backing: [] });
    expect(g?.t.length).toBe(2000);
    for (const v of g?.iops ?? []) expect(v).toBeCloseTo(10, 9);
    expect(g?.t[g.t.length - 1]).toBe(T0 + n * 1000);
  });

  it('returns no series for devices absent from the capture', () => {
    expect(buildGroupSeries([rec('x', 0, 1, 1, 1, 1)], { front: ['f'], backing: ['b'] })).toEqual([]);
  });
});
