import { describe, expect, it } from 'vitest';
import { fleetAggregate, hostIopsOverTime, type HostIops } from './fleet-aggregate.ts';
import { profileWorkload } from './profile.ts';
import { synthCapture } from './testkit.ts';

const host = (name: string, t0: number, iops: number[]): HostIops => ({
  host: name,
  startMs: Float64Array.from(iops.map((_, i) => t0 + i * 60_000)),
  endMs: Float64Array.from(iops.map((_, i) => t0 + (i + 1) * 60_000)),
  iops: Float64Array.from(iops),
});

describe('fleetAggregate', () => {
  it('peaks at the highest per-moment sum, not the sum of the hosts’ peaks', () => {
    // a peaks at 0, b at 2: the sums are 110, 60, 130, 20
    const a = fleetAggregate([host('a', 0, [100, 50, 30, 10]), host('b', 0, [10, 10, 100, 10])]);
    expect(a.peak?.iops).toBe(130);
    expect(a.peak?.startMs).toBe(120_000);
    expect(a.peak?.end).toBe('1970-01-01T00:03:00.000Z');
    expect(a.peak?.hosts.map((h) => [h.host, h.iops, Math.round(h.percent)])).toEqual([['b', 100, 77], ['a', 30, 23]]);
    expect(a.sumOfHostPeaksIops).toBe(200);
    expect(a.meanIops).toBe(80);
    expect(a.p95Iops).toBeCloseTo(127, 9); // type 7 of [20, 60, 110, 130]: 110 + 0.85 × 20
    expect([a.hosts, a.moments]).toEqual([2, 4]);
  });

  it('a host without a usable interval at a moment adds nothing to it; offset hosts make more moments', () => {
    const a = fleetAggregate([host('a', 0, [100, NaN, 100]), host('b', 60_000, [500, 20])]);
    // moments 0, 60 s, 120 s: 100, 500, 120
    expect(a.moments).toBe(3);
    expect(a.peak?.iops).toBe(500);
    expect(a.peak?.hosts.map((h) => h.host)).toEqual(['b']);
  });

  it('no usable interval: no peak', () => {
    expect(fleetAggregate([host('a', 0, [NaN])])).toEqual({ hosts: 0, moments: 0, peak: null, p95Iops: null, meanIops: null, sumOfHostPeaksIops: null, series: { startMs: [], iops: [] } });
  });

  it('a host’s IOPS over time are the series its profile summarises', () => {
    const data = synthCapture({ baselineS: 600, measureS: 0, front: 'dm-0', backing: ['sda'], iopsBefore: 400, latBeforeMs: 5, latAfterMs: 1, missRatio: 0.5, noise: 0.3, seed: 5 });
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    const h = hostIopsOverTime('x', data, p);
    const ok = [...h.iops].filter((v) => !Number.isNaN(v));
    expect(ok.length).toBe(p.appFacing.okIntervals);
    expect(Math.max(...ok)).toBeCloseTo(p.appFacing.percentiles.iops?.max as number, 6);
    const one = fleetAggregate([h]);
    expect(one.peak?.iops).toBeCloseTo(p.appFacing.percentiles.iops?.max as number, 6);
  });
});
