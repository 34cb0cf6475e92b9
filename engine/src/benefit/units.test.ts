import { describe, expect, it } from 'vitest';
import { AGG, AGG_K, aggregateWindow, blockLengthMs } from './aggregate.ts';
import { blockBootstrap } from './bootstrap.ts';
import { checkDrift } from './drift.ts';
import { averageLatencyMs, cacheServedPercent, iosSavedPercent, ioTimeSaved, latencyReductionPercent, normalizedIops, speedup } from './figures.ts';
import { buildSeries, type Series } from '../metrics/series.ts';
import type { IntervalRecord } from '../records/types.ts';
import { gradeHealth, MAX_SPANS, resolveTargets, TARGET_PRESETS } from './health.ts';

const vec = (fields: Partial<Record<keyof typeof AGG, number>>): Float64Array => {
  const v = new Float64Array(AGG_K);
  for (const [k, x] of Object.entries(fields)) v[AGG[k as keyof typeof AGG]] = x;
  return v;
};

describe('benefit figures', () => {
  const TOL = 1e-9;
  it.each([
    // name, baseline, measure, expected saved %
    ['one-to-one stack, 5% misses', { jSec: 10, jFReads: 1000, jBReads: 1000 }, { jSec: 10, jFReads: 1200, jBReads: 60 }, 95],
    ['baseline amplification 2× corrected', { jSec: 10, jFReads: 1000, jBReads: 2000 }, { jSec: 10, jFReads: 1000, jBReads: 200 }, 90],
    ['more backing I/O after: negative', { jSec: 10, jFWrites: 100, jBWrites: 100 }, { jSec: 10, jFWrites: 100, jBWrites: 150 }, -50],
  ])('iosSavedPercent front-and-backing: %s', (_n, b, m, want) => {
    expect(Math.abs((iosSavedPercent('front-and-backing', vec(b), vec(m)).value as number) - want)).toBeLessThan(TOL);
  });
  it('iosSavedPercent backing-only compares per second', () => {
    const f = iosSavedPercent('backing-only', vec({ bSec: 100, bReads: 1000 }), vec({ bSec: 50, bReads: 100 }));
    expect(f.value).toBeCloseTo(80, 9); // 10/s → 2/s
  });
  it.each([
    ['no baseline data', vec({}), vec({ jSec: 1, jFReads: 1 }), 'no-data'],
    ['no front I/O', vec({ jSec: 1 }), vec({ jSec: 1, jFReads: 1 }), 'no-io'],
    ['no backing I/O before', vec({ jSec: 1, jFReads: 5 }), vec({ jSec: 1, jFReads: 1 }), 'no-backing-io-baseline'],
  ])('iosSavedPercent null with reason: %s', (_n, b, m, reason) => {
    expect(iosSavedPercent('front-and-backing', b, m)).toEqual({ value: null, reason });
  });
  it('latency, reduction, speed-up, normalized IOPS (DOMAIN example: 10.7 → 1 ms)', () => {
    const b = averageLatencyMs('front-and-backing', vec({ fSec: 1, fLatIos: 100, fLatMs: 1070 }));
    const a = averageLatencyMs('front-and-backing', vec({ fSec: 1, fLatIos: 100, fLatMs: 100 }));
    expect(b.value).toBeCloseTo(10.7, 12);
    expect(latencyReductionPercent(b, a).value).toBeCloseTo(90.654205607, 6);
    expect(speedup(b, a).value).toBeCloseTo(10.7, 12);
    expect(normalizedIops(a).value).toBeCloseTo(1000, 9);
    expect(speedup(b, { value: 0 })).toEqual({ value: null, reason: 'zero-denominator' });
    expect(averageLatencyMs('front-and-backing', vec({ fSec: 1 }))).toEqual({ value: null, reason: 'no-io' });
  });
  it('cacheServedPercent reads and writes apart', () => {
    const m = vec({ jSec: 1, jFReads: 1000, jBReads: 30, jFWrites: 100, jBWrites: 100 });
    expect(cacheServedPercent(m, 'reads').value).toBeCloseTo(97, 9);
    expect(cacheServedPercent(m, 'writes').value).toBeCloseTo(0, 9);
    expect(cacheServedPercent(vec({ jSec: 1 }), 'writes')).toEqual({ value: null, reason: 'no-writes' });
  });
});

describe('blockBootstrap', () => {
  const blocks = (n: number, rate: number, spread: number): Float64Array[] =>
    Array.from({ length: n }, (_, i) => vec({ bSec: 3600, bReads: 3600 * rate * (1 + spread * Math.sin(i * 1.7)) }));
  const stat = (b: Float64Array, m: Float64Array): number | null => iosSavedPercent('backing-only', b, m).value;
  it('reproducible, contains the point, narrower with more blocks', () => {
    const width = (n: number): number => {
      const b = blocks(n, 100, 0.3), m = blocks(n, 10, 0.3);
      const point = stat(b.reduce((s, v) => s.map((x, k) => x + (v[k] as number)), new Float64Array(AGG_K)), m.reduce((s, v) => s.map((x, k) => x + (v[k] as number)), new Float64Array(AGG_K)));
      const r1 = blockBootstrap(b, m, [stat], [point], 1000, 9);
      const r2 = blockBootstrap(b, m, [stat], [point], 1000, 9);
      expect(r1).toEqual(r2);
      const ci = r1.intervals[0];
      if (!ci || point === null) throw new Error('no interval');
      expect(ci.low).toBeLessThanOrEqual(point);
      expect(ci.high).toBeGreaterThanOrEqual(point);
      return ci.high - ci.low;
    };
    expect(width(96)).toBeLessThan(width(12));
  });
  it('block length: hours from 12 h on, else 12 equal blocks', () => {
    expect(blockLengthMs(24 * 3_600_000)).toBe(3_600_000);
    expect(blockLengthMs(12 * 3_600_000)).toBe(3_600_000);
    expect(blockLengthMs(6 * 3_600_000)).toBe(1_800_000);
  });
});

describe('checkDrift', () => {
  const before = { iops: 100, readSharePercent: 70, meanRequestBytes: 8192, bytesPerSec: 819_200 };
  it.each([
    ['steady', before, []],
    ['+40% load', { iops: 140, readSharePercent: 70, meanRequestBytes: 8192, bytesPerSec: 1_146_880 }, ['iops', 'bytesPerSec']],
    ['read share 70 → 35 (−50%)', { ...before, readSharePercent: 35 }, ['readSharePercent']],
    ['request size doubles', { ...before, meanRequestBytes: 16384, bytesPerSec: 1_638_400 }, ['meanRequestBytes', 'bytesPerSec']],
    ['exactly 25% is not more than 25%', { ...before, iops: 125 }, []],
  ])('%s', (_n, after, want) => {
    expect(checkDrift(before, after, 25).exceeded).toEqual(want);
  });
  it('backing-only: not checked, nulls with reasons', () => {
    const d = checkDrift(null, null);
    expect(d.checked).toBe(false);
    expect(d.metrics.iops.reasons.before).toBe('backing-only-mode');
  });
});

describe('health grading', () => {
  const rec = (i: number, reads: number, readMs: number, writes = 0, writeMs = 0): IntervalRecord => ({
    device: 'd', startMs: i * 600_000, endMs: (i + 1) * 600_000, intervalMs: 600_000, status: 'ok',
    reads, writes, readBytes: reads * 4096, writeBytes: writes * 4096, readTimeMs: reads * readMs, writeTimeMs: writes * writeMs, busyMs: 0, weightedMs: 0,
  });
  // 2 hours of 10-minute intervals; the second hour reads at 30 ms
  const recs = Array.from({ length: 12 }, (_, i) => rec(i, 100, i >= 6 ? 30 : 5, 10, 2));
  const s = buildSeries([recs], { startMs: 0, endMs: 2 * 3_600_000 });
  it.each([
    ['exchange-db', 'warning', 2], // read average 17.5 ms < 20 ms, but half the intervals break it; writes 2 ms
    ['sqlserver-data', 'bad', 3],
    ['exchange-log', 'good', 1],
  ] as const)('%s → %s', (preset, grade, nChecks) => {
    const h = gradeHealth(s, TARGET_PRESETS[preset]);
    expect(h.grade).toBe(grade);
    expect(h.checks.length).toBe(nChecks);
  });
  it('reports breaking intervals, spans and hours', () => {
    const h = gradeHealth(s, { readMs: 20 });
    const c = h.checks[0];
    expect(c?.averageMs).toBeCloseTo(17.5, 9);
    expect(c?.meetsTarget).toBe(true);
    expect(c?.intervalsBreaking).toBe(6);
    expect(c?.breakingPercent).toBeCloseTo(50, 9);
    expect(c?.hoursBreaking).toEqual(['1970-01-01T01:00:00.000Z']);
    expect(c?.spans).toEqual([{ start: '1970-01-01T01:00:00.000Z', end: '1970-01-01T02:00:00.000Z', worstMs: 30, intervals: 6 }]);
    expect(h.grade).toBe('warning');
  });
  it('a run that ends before the window does ends at its last breaking interval, and runs of several intervals each end at their own last', () => {
    // 10-minute intervals: breaking at 0-2 (one run of 3), passing at 3, breaking at 4-5, passing after
    const recs2 = Array.from({ length: 9 }, (_, i) => rec(i, 100, i <= 2 || i === 4 || i === 5 ? 30 : 5));
    const c = gradeHealth(buildSeries([recs2], { startMs: 0, endMs: 9 * 600_000 }), { readMs: 20 }).checks[0];
    expect(c?.spans).toEqual([
      { start: '1970-01-01T00:00:00.000Z', end: '1970-01-01T00:30:00.000Z', worstMs: 30, intervals: 3 },
      { start: '1970-01-01T00:40:00.000Z', end: '1970-01-01T01:00:00.000Z', worstMs: 30, intervals: 2 },
    ]);
    expect(c?.hoursBreaking).toEqual(['1970-01-01T00:00:00.000Z']);
  });
  it('the worst breaking interval is over every run, not the first MAX_SPANS listed (120 runs, the worst in the last)', () => {
    // alternate breaking (25 ms, the last at 90 ms) and passing (5 ms) intervals: 120 one-interval runs
    const many = Array.from({ length: 240 }, (_, i) => rec(i, 100, i % 2 === 1 ? 5 : i === 238 ? 90 : 25));
    const c = gradeHealth(buildSeries([many], { startMs: 0, endMs: 240 * 600_000 }), { readMs: 20 }).checks[0];
    expect(c?.spansTotal).toBe(120);
    expect(c?.spans.length).toBe(MAX_SPANS);
    expect(Math.max(...(c?.spans ?? []).map((x) => x.worstMs))).toBe(25);
    // every listed run ends where its one interval ends (a run's end is written when the next one opens)
    expect(c?.spans.map((x) => [x.start, x.end])).toEqual(c?.spans.map((_, k) => [new Date(2 * k * 600_000).toISOString(), new Date((2 * k + 1) * 600_000).toISOString()]));
    expect(c?.worstMs).toBe(90);
    const none = gradeHealth(s, { readMs: 100 }).checks[0];
    expect(none?.worstMs).toBeNull();
    expect(none?.reasons['worstMs']).toBe('none-breaking');
  });
  it('the PAL preset: averages warn at 15 ms and are critical at 25 ms, reads and writes alike', () => {
    expect(TARGET_PRESETS.pal).toEqual({ readMs: 25, writeMs: 25, warnMs: 15 });
    const steady = (readMs: number): Series => buildSeries([Array.from({ length: 12 }, (_, i) => rec(i, 100, readMs, 10, 2))], { startMs: 0, endMs: 2 * 3_600_000 });
    expect(gradeHealth(steady(10), TARGET_PRESETS.pal).grade).toBe('good');
    // every interval meets 25 ms, but the 18 ms read average is over PAL's 15 ms warning
    const warn = gradeHealth(steady(18), TARGET_PRESETS.pal);
    expect(warn.checks.every((c) => c.meetsTarget === true && c.intervalsBreaking === 0)).toBe(true);
    expect(warn.grade).toBe('warning');
    expect(gradeHealth(steady(26), TARGET_PRESETS.pal).grade).toBe('bad');
    // at the warning level warns, as a target is met only strictly below it
    expect(gradeHealth(steady(15), TARGET_PRESETS.pal).grade).toBe('warning');
  });
  it('user-defined targets and presets resolve; unknown preset is null', () => {
    expect(resolveTargets({ transferMs: 3 })).toEqual({ transferMs: 3 });
    expect(resolveTargets('sharepoint')).toEqual({ readMs: 20, writeMs: 20 });
    expect(resolveTargets('exchange-db')).toEqual({ readMs: 20, writeMs: 20 });
    expect(resolveTargets('nope')).toBeNull();
  });
});

describe('ioTimeSaved (Condusiv: I/Os eliminated × average response time before)', () => {
  it('worked by hand: 500 → 50 backing I/O/s at 8 ms before, over a 2-hour measure window', () => {
    const r = ioTimeSaved(500, 50, 8, 7200);
    // 450 I/O/s × 8 ms = 3.6 s of drive time per second … × 3600 s = 12 960 s per hour; × 7200 s = 25 920 s
    // the share: 12 960 s of the baseline's 500 × 8 ms × 3600 = 14 400 s of drive time per hour = 90 %
    expect(r).toEqual({ perHourSeconds: 12_960, totalSeconds: 25_920, sharePercent: 90, eliminatedPerSecond: 450, avgResponseMsBefore: 8, method: 'eliminated-ios-x-backing-await-before', reasons: {} });
  });
  it('the share of the baseline drive time: 100 → 19 I/O/s at 10 ms is 81 % less time on I/O, 2,916 s less per hour', () => {
    const r = ioTimeSaved(100, 19, 10, 3600);
    expect(r.sharePercent).toBeCloseTo(81, 9);
    expect(r.perHourSeconds).toBeCloseTo(2916, 9);
    // drives that spent no time on I/O in the baseline (0 ms await): no share, said why
    const zero = ioTimeSaved(100, 19, 0, 3600);
    expect(zero.sharePercent).toBeNull();
    expect(zero.reasons.sharePercent).toBe('zero-denominator');
  });
  it('null with the reason none-eliminated when as many or more I/Os reached the drives, and null with a reason when a figure is missing', () => {
    const more = ioTimeSaved(100, 150, 2, 3600);
    expect(more.perHourSeconds).toBeNull();
    expect(more.eliminatedPerSecond).toBe(-50);
    expect(more.reasons).toEqual({ perHourSeconds: 'none-eliminated', totalSeconds: 'none-eliminated', sharePercent: 'none-eliminated' });
    expect(ioTimeSaved(100, 100, 0, 3600).reasons.perHourSeconds).toBe('none-eliminated');
    const none = ioTimeSaved(null, 50, 8, 7200);
    expect(none.perHourSeconds).toBeNull();
    expect(none.reasons).toEqual({ eliminatedPerSecond: 'no-data', perHourSeconds: 'no-data', totalSeconds: 'no-data', sharePercent: 'no-data' });
    expect(ioTimeSaved(500, 50, null, 7200).reasons.avgResponseMsBefore).toBe('no-data');
  });
});

describe('window aggregates', () => {
  const rec = (i: number, status: IntervalRecord['status'], reads: number, writes: number, bytes: number | null, timeMs: number | null): IntervalRecord => ({
    device: 'd', startMs: i * 600_000, endMs: (i + 1) * 600_000, intervalMs: 600_000, status,
    reads, writes, readBytes: bytes, writeBytes: bytes === null ? null : 0, readTimeMs: timeMs, writeTimeMs: timeMs === null ? null : 0, busyMs: 0, weightedMs: 0,
  });
  const window = { startMs: 0, endMs: 3 * 600_000 };
  it('sums each group into its own six slots and the joint slots only where both are ok', () => {
    // front: ok, ok without bytes or time, not ok; backing: ok, ok, ok without time
    const front = buildSeries([[rec(0, 'ok', 10, 1, 1000, 50), rec(1, 'ok', 20, 2, null, null), rec(2, 'reset', 99, 99, 99, 99)]], window);
    const backing = buildSeries([[rec(0, 'ok', 3, 4, 300, 7), rec(1, 'ok', 5, 6, 500, 11), rec(2, 'ok', 7, 8, 700, null)]], window);
    const t = aggregateWindow(front, backing, window).total;
    expect([t[AGG.fSec], t[AGG.fReads], t[AGG.fWrites], t[AGG.fBytes], t[AGG.fLatIos], t[AGG.fLatMs]]).toEqual([1200, 30, 3, 1000, 11, 50]);
    expect([t[AGG.bSec], t[AGG.bReads], t[AGG.bWrites], t[AGG.bBytes], t[AGG.bLatIos], t[AGG.bLatMs]]).toEqual([1800, 15, 18, 1500, 18, 18]);
    expect([t[AGG.jSec], t[AGG.jFReads], t[AGG.jFWrites], t[AGG.jBReads], t[AGG.jBWrites]]).toEqual([1200, 30, 3, 8, 10]);
  });
});
