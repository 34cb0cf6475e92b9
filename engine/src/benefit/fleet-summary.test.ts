import { describe, expect, it } from 'vitest';
import { fleetAggregateOfSummary, fleetFiguresOfSummary, parseFleetSummary, type FleetSummary, type FleetSummaryHost } from './fleet-summary.ts';

const host = (name: string, over: Partial<FleetSummaryHost> = {}): FleetSummaryHost => ({
  host: name, devices: 2, okIntervals: 60, reads: 7200, writes: 3600, readBytes: 7200 * 4096, writeBytes: 3600 * 8192,
  readTimeMs: 7200 * 2, writeTimeMs: 3600 * 1, checkedRead: 60, checkedWrite: 60, breakingRead: 0, breakingWrite: 0, peakIops: 5, ...over,
});

const summary = (over: Partial<FleetSummary> = {}): FleetSummary => ({
  format: 'cacheproof-fleet-summary', version: 1, url: 'http://127.0.0.1:9090', selector: '{job="node"}',
  startMs: 0, endMs: 3_600_000, stepMs: 60_000, breakingMs: 20,
  hosts: [host('a'), host('b', { peakIops: 7 })],
  momentStartMs: [0, 60_000, 120_000, 180_000], momentIops: [3, 9, 9, 6],
  peakHosts: [{ host: 'a', iops: 4 }, { host: 'b', iops: 5 }, { host: 'c', iops: 0 }],
  queries: 15, bytes: 1000, ...over,
});

describe('fleet summary (PromQL pushdown)', () => {
  it('gives a host the profile means: ratio of sums over the counted intervals', () => {
    const f = fleetFiguresOfSummary(host('a'), 60_000, 3_600_000, 20);
    expect(f.iopsBefore).toBe(10_800 / 3600);
    expect(f.mbpsBefore).toBe((7200 * 4096 + 3600 * 8192) / 3600 / 1e6);
    expect(f.latencyBeforeMs).toBe((14_400 + 3600) / 10_800);
    expect(f.healthBefore).toBe('good');
    expect(f.secondsBefore).toBe(3600);
  });
  it('grades health by the engine rule: over 5 % of intervals breaking is a warning, an average over the target is bad', () => {
    expect(fleetFiguresOfSummary(host('a', { breakingRead: 4 }), 60_000, 3_600_000, 20).healthBefore).toBe('warning');
    expect(fleetFiguresOfSummary(host('a', { breakingRead: 3 }), 60_000, 3_600_000, 20).healthBefore).toBe('good');
    expect(fleetFiguresOfSummary(host('a', { readTimeMs: 7200 * 20 }), 60_000, 3_600_000, 20).healthBefore).toBe('bad');
    expect(fleetFiguresOfSummary(host('a', { okIntervals: 0 }), 60_000, 3_600_000, 20).healthBefore).toBe('no-data');
  });
  it('sums the fleet as fleetAggregate does: first highest moment, type-7 p95, mean, hosts making the peak', () => {
    const a = fleetAggregateOfSummary(summary());
    expect(a.peak?.iops).toBe(9);
    expect(a.peak?.startMs).toBe(60_000);
    expect(a.peak?.endMs).toBe(120_000);
    expect(a.peak?.hosts).toEqual([{ host: 'b', iops: 5, percent: 500 / 9 }, { host: 'a', iops: 4, percent: 400 / 9 }]);
    expect(a.p95Iops).toBeCloseTo(9, 12);
    expect(a.meanIops).toBe(27 / 4);
    expect(a.sumOfHostPeaksIops).toBe(12);
    expect(a.hosts).toBe(2);
    expect(a.moments).toBe(4);
  });
  it('refuses what is not a summary, saying what is wrong', () => {
    expect(parseFleetSummary(summary())).toEqual({ ok: true, summary: summary() });
    expect(parseFleetSummary({ format: 'x' })).toMatchObject({ ok: false });
    const bad = summary({ hosts: [{ ...host('a'), reads: 'many' as unknown as number }] });
    expect(parseFleetSummary(bad)).toEqual({ ok: false, why: 'hosts[0].reads is not a number' });
    expect(parseFleetSummary(summary({ momentIops: [1] }))).toMatchObject({ ok: false });
  });
});
