import { describe, expect, it } from 'vitest';
import { compareEngineStats, ENGINE_DIFFERENCE_POINTS } from './engine-stats.ts';
import type { EngineRecords, EngineStatSample } from '../records/engine.ts';
import { analyze } from './analyze.ts';
import { synthCapture, T0 } from './testkit.ts';

function must<T>(x: T | null | undefined): T {
  if (x === null || x === undefined) throw new Error('expected a value');
  return x;
}

const W = { startMs: 10_000, endMs: 20_000 };
const s = (atMs: number, name: string, value: number, unit = 'bios', window = 'cumulative'): EngineStatSample => ({ atMs, name, value, unit, window });
const rec = (stats: EngineStatSample[], adapter = 'dm-cache'): EngineRecords => ({ adapter, device: 'vg-data', actions: [], stats });

describe('compareEngineStats (figures worked by hand)', () => {
  it('dm-cache: differences over the measure window only, reads, writes and all I/O', () => {
    const r = compareEngineStats(rec([
      // before the window (warm-up): never used
      s(5_000, 'read_hits', 0), s(5_000, 'read_misses', 0), s(5_000, 'write_hits', 0), s(5_000, 'write_misses', 0),
      s(10_000, 'read_hits', 1000), s(10_000, 'read_misses', 500), s(10_000, 'write_hits', 100), s(10_000, 'write_misses', 100),
      s(15_000, 'read_hits', 1500), s(15_000, 'read_misses', 550),
      s(20_000, 'read_hits', 1900), s(20_000, 'read_misses', 600), s(20_000, 'write_hits', 140), s(20_000, 'write_misses', 260),
      s(20_000, 'dirty_bytes', 4096, 'bytes', 'current'),
      // after the window: never used
      s(25_000, 'read_hits', 9999), s(25_000, 'read_misses', 9999),
    ]), W, { reads: 85, writes: 30, all: 70 });
    expect(r).not.toBeNull();
    const x = must(r);
    // reads: hits 1900 − 1000 = 900, misses 600 − 500 = 100 → 900 / 1000 = 90 %; counters 85 % → +5 points, not more than 5
    expect(x.shares.reads).toEqual({ enginePercent: 90, countersPercent: 85, differencePoints: 5, exceeds: false, engineHits: 900, engineTotal: 1000, reasons: {} });
    // writes: hits 40, misses 160 → 20 %; counters 30 % → −10 points: exceeds
    expect(x.shares.writes.enginePercent).toBe(20);
    expect(x.shares.writes.differencePoints).toBe(-10);
    expect(x.shares.writes.exceeds).toBe(true);
    // all: (900 + 40) / (1000 + 200) = 78.333… %; counters 70 % → 8.333… points
    expect(x.shares.all.enginePercent).toBeCloseTo(78.3333, 3);
    expect(x.shares.all.differencePoints).toBeCloseTo(8.3333, 3);
    expect(x.shares.all.exceeds).toBe(true);
    expect(x.thresholdPoints).toBe(ENGINE_DIFFERENCE_POINTS);
    expect(x.notes).toEqual(['bios-not-requests', 'write-hits-reach-backing', 'measure-window-only']);
    expect(x.counters.find((c) => c.name === 'dirty_bytes')).toEqual({ name: 'dirty_bytes', unit: 'bytes', window: 'current', method: 'last', value: 4096, reasons: {} });
    expect(x.counters.find((c) => c.name === 'read_hits')?.value).toBe(900);
    expect(x.samples).toBe(11); // 4 reads at 10 s, 2 at 15 s, 5 at 20 s
  });

  it('Open CAS: partial misses and pass-through count as not served', () => {
    const r = compareEngineStats(rec([
      s(10_000, 'read_hits', 0, 'requests'), s(10_000, 'read_partial_misses', 0, 'requests'), s(10_000, 'read_full_misses', 0, 'requests'), s(10_000, 'pass_through_reads', 0, 'requests'),
      s(20_000, 'read_hits', 600, 'requests'), s(20_000, 'read_partial_misses', 100, 'requests'), s(20_000, 'read_full_misses', 200, 'requests'), s(20_000, 'pass_through_reads', 100, 'requests'),
    ], 'opencas'), W, { reads: 62, writes: null, all: null });
    // 600 / (600 + 100 + 200 + 100) = 60 %; counters 62 % → −2 points
    expect(must(r).shares.reads.enginePercent).toBe(60);
    expect(must(r).shares.reads.differencePoints).toBe(-2);
    expect(must(r).shares.reads.exceeds).toBe(false);
    expect(must(r).shares.writes.reasons).toEqual({ enginePercent: 'engine-has-no-counters', countersPercent: 'counters-no-share', differencePoints: 'engine-has-no-counters' });
    // all I/O: no write counters, so the read share stands for nothing else
    expect(must(r).shares.all.enginePercent).toBeNull();
    expect(must(r).notes).toContain('partial-misses');
    expect(must(r).notes).toContain('bypassed-io');
  });

  it('bcache: no read/write split, all I/O from cache_hits over hits, misses and bypassed', () => {
    const r = compareEngineStats(rec([
      s(10_000, 'cache_hits', 100, 'requests'), s(10_000, 'cache_misses', 10, 'requests'), s(10_000, 'cache_bypass_hits', 0, 'requests'), s(10_000, 'cache_bypass_misses', 0, 'requests'),
      s(20_000, 'cache_hits', 400, 'requests'), s(20_000, 'cache_misses', 60, 'requests'), s(20_000, 'cache_bypass_hits', 20, 'requests'), s(20_000, 'cache_bypass_misses', 30, 'requests'),
      s(20_000, 'cache_hits', 55, 'requests', 'decaying-5min'),
    ], 'bcache'), W, { reads: 80, writes: 10, all: 60 });
    // 300 / (300 + 50 + 20 + 30) = 75 %; counters 60 % → 15 points
    expect(must(r).shares.all.enginePercent).toBe(75);
    expect(must(r).shares.all.differencePoints).toBe(15);
    expect(must(r).shares.all.exceeds).toBe(true);
    expect(must(r).shares.reads.reasons['enginePercent']).toBe('engine-has-no-counters');
    expect(must(r).notes).toContain('no-read-write-split');
    // the decaying average is reported as read, never differenced
    expect(must(r).counters.find((c) => c.window === 'decaying-5min')).toMatchObject({ method: 'last', value: 55 });
  });

  it('a counter that goes backwards, or one read only once, gives no share', () => {
    const reset = compareEngineStats(rec([
      s(10_000, 'read_hits', 500), s(10_000, 'read_misses', 50), s(15_000, 'read_hits', 10), s(15_000, 'read_misses', 1), s(20_000, 'read_hits', 20), s(20_000, 'read_misses', 2),
    ]), W, { reads: 90, writes: null, all: null });
    expect(must(reset).shares.reads.enginePercent).toBeNull();
    expect(must(reset).shares.reads.reasons['enginePercent']).toBe('engine-counter-reset');
    const once = compareEngineStats(rec([s(12_000, 'read_hits', 5), s(12_000, 'read_misses', 5)]), W, { reads: 90, writes: null, all: null });
    expect(must(once).shares.reads.reasons['enginePercent']).toBe('too-few-engine-samples');
  });

  it('an adapter without counters (loop-dio): the actions, no engine share, the counters’ share kept', () => {
    const r = compareEngineStats({ adapter: 'loop-dio', device: 'loop5', stats: [], actions: [{
      startMs: 12_000, endMs: 12_050, adapter: 'loop-dio', device: 'loop5', action: 'enable', step: 'run losetup --direct-io=off /dev/loop5',
      output: '', exitStatus: 0, ok: true, modeBefore: 'direct-io', modeAfter: 'page-cache',
    }] }, W, { reads: 97, writes: 0, all: 80 });
    expect(must(r).shares.reads).toMatchObject({ enginePercent: null, countersPercent: 97, exceeds: false, reasons: { enginePercent: 'engine-has-no-counters' } });
    expect(must(r).actions).toEqual([{ start: '1970-01-01T00:00:12.000Z', end: '1970-01-01T00:00:12.050Z', startMs: 12_000, action: 'enable', step: 'run losetup --direct-io=off /dev/loop5', ok: true, exitStatus: 0, modeBefore: 'direct-io', modeAfter: 'page-cache', output: '', reasons: {} }]);
    expect(must(r).notes).toEqual([]);
  });

  it('no adapter: null', () => {
    expect(compareEngineStats(undefined, W, { reads: 1, writes: 1, all: 1 })).toBeNull();
  });
});

describe('analyze: engineStats and the 5-point warning', () => {
  // 100 front I/O/s, 70 % reads, 5 % of front I/O reaches the backing device after the switch: counters show 95 % served
  const base = { baselineS: 600, measureS: 600, iopsBefore: 100, iopsAfter: 100, missRatio: 0.05 };
  const measureStart = T0 + 600_000, measureEnd = T0 + 1_200_000;
  const withEngine = (hitsPerRead: number) => {
    const data = synthCapture(base);
    // the engine read every 10 s of the measure phase; 70 reads/s, of which hitsPerRead were hits
    const stats: EngineStatSample[] = [];
    for (let t = measureStart; t <= measureEnd; t += 10_000) {
      const reads = 70 * ((t - measureStart) / 1000);
      stats.push(s(t, 'read_hits', reads * hitsPerRead), s(t, 'read_misses', reads * (1 - hitsPerRead)));
    }
    data.engine = { adapter: 'dm-cache', device: 'vg-data', actions: [], stats };
    return analyze(data, { bootstrapReplicates: 10 });
  };

  it('within 5 points: the comparison, no warning', () => {
    const r = withEngine(0.93);
    if (!r.ok) throw new Error(r.error.message);
    // the counters' share: 5 % of front I/O reached the backing device (synthCapture rounds per interval)
    expect(Math.abs((r.benefit.cacheServedPercent.reads as number) - 95)).toBeLessThan(1);
    expect(r.cacheEngine.comparison?.shares.reads.enginePercent).toBeCloseTo(93, 6);
    expect(r.cacheEngine.comparison?.shares.reads.countersPercent).toBe(r.benefit.cacheServedPercent.reads);
    expect(r.warnings.some((w) => w.code === 'engine-counters-differ')).toBe(false);
  });

  it('more than 5 points apart: warning engine-counters-differ with its params', () => {
    const r = withEngine(0.8);
    if (!r.ok) throw new Error(r.error.message);
    const w = r.warnings.find((x) => x.code === 'engine-counters-differ');
    expect(w?.params?.['kind']).toBe('reads');
    expect(w?.params?.['enginePercent']).toBeCloseTo(80, 6);
    expect(w?.params?.['differencePoints']).toBeCloseTo((r.benefit.cacheServedPercent.reads as number) - 80, 6);
    expect(r.cacheEngine.comparison?.shares.reads.exceeds).toBe(true);
  });

  it('a capture without an adapter: engineStats null', () => {
    const r = analyze(synthCapture(base), { bootstrapReplicates: 10 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.cacheEngine).toEqual({ comparison: null, reasons: { comparison: 'no-adapter' } });
  });
});
