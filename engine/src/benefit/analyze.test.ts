import { describe, expect, it } from 'vitest';
import type { CaptureData, IntervalRecord } from '../records/types.ts';
import type { AnalysisResult } from './analyze.ts';
import { buildSeries, buildSeriesFromColumns, GroupSeriesBuilder } from '../metrics/series.ts';
import { columnsFromRecords, growColumns } from '../records/columns.ts';
import type { ColumnSource } from '../records/source.ts';
import { memorySource } from '../records/source.ts';
import { summarizeSeries } from '../metrics/summary.ts';
import { groupByDevice } from '../records/window.ts';
import { analyze, deviceWindowSummaries } from './analyze.ts';
import type { AnalysisReport } from './result.ts';
import { nullsWithoutReason, synthCapture, T0 } from './testkit.ts';

const H = 3_600_000;

function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error('unexpected null');
  return v;
}

function report(r: AnalysisResult): AnalysisReport {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

/** Value of a dotted path in a JSON object. */
function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

/** Exact Σ reads + writes of ok intervals of the named devices wholly inside [start, end]. */
function backingDelta(data: CaptureData, devices: string[], start: string, end: string): number {
  const s = Date.parse(start), e = Date.parse(end);
  return data.intervals
    .filter((r) => devices.includes(r.device) && r.status === 'ok' && r.startMs >= s && r.endMs <= e)
    .reduce((sum, r) => sum + (r.reads ?? 0) + (r.writes ?? 0), 0);
}

describe('analyze: front-and-backing', () => {
  const data = synthCapture({ baselineS: 4 * 3600, measureS: 4 * 3600, stepMs: 5000, noise: 0.2, missRatio: 0.05, latBeforeMs: 8, latAfterMs: 0.5 });
  const r = report(analyze(data, { seed: 1 }));
  const json = JSON.parse(JSON.stringify(r)) as unknown;

  it('has every documented dotted path', () => {
    for (const p of [
      'mode', 'windows.baseline.start', 'windows.baseline.end', 'windows.measure.start', 'windows.measure.end',
      'windows.warmupExcludedSeconds', 'devices.front', 'devices.backing', 'benefit.iosToBacking.before',
      'benefit.iosToBacking.after', 'benefit.iosSavedPercent.value', 'benefit.iosSavedPercent.ci95',
      'benefit.latencyMs.before', 'benefit.latencyMs.after', 'benefit.latencyMs.reductionPercent', 'benefit.latencyMs.speedup',
      'benefit.normalizedIops.before', 'benefit.normalizedIops.after', 'benefit.throughputMBps.before',
      'benefit.throughputMBps.after', 'benefit.cacheServedPercent.reads', 'benefit.cacheServedPercent.writes',
      'health', 'hourly', 'warnings', 'perDevice', 'latencyDistribution.baseline', 'latencyDistribution.measure',
      'benefit.ioTimeSaved.perHourSeconds', 'benefit.ioTimeSaved.totalSeconds',
      'benefit.ioTimeMeasured.beforePerHourSeconds', 'benefit.ioTimeMeasured.afterPerHourSeconds', 'benefit.ioTimeMeasured.savedPercent',
    ]) expect(get(json, p), p).not.toBeUndefined();
  });
  it('delivered IOPS (beside normalized IOPS): the application-facing I/Os per second of each window', () => {
    const d = r.benefit.deliveredIops;
    const w = r.benefit.totalWork;
    expect(d.before).toBeCloseTo((w.before.ios as number) / w.before.seconds, 9);
    expect(d.after).toBeCloseTo((w.after.ios as number) / w.after.seconds, 9);
    expect(d.before).toBeCloseTo((r.benefit.deliveredIopsPerSpindle.before as number) * r.benefit.deliveredIopsPerSpindle.spindles, 9);
    // the synthetic front carries the same load throughout: delivered IOPS stay level while normalized IOPS rise with the speed-up
    expect((d.after as number) / (d.before as number)).toBeCloseTo(1, 1);
    expect((r.benefit.normalizedIops.after as number) / (r.benefit.normalizedIops.before as number)).toBeGreaterThan(5);
  });
  it('I/O time saved: the backing I/Os per second kept off the drives × the backing drives\' baseline await, per hour and over the measure window', () => {
    const t = r.benefit.ioTimeSaved;
    const io = r.benefit.iosToBacking;
    const avg = r.groups.backing?.baseline.means.awaitMs as number;
    // from the I/Os saved comparison itself (backing I/Os per front I/O): the share is the I/Os saved
    expect(t.sharePercent).toBeCloseTo(r.benefit.iosSavedPercent.value as number, 9);
    expect(t.eliminatedPerSecond).toBeGreaterThan(0);
    expect(io.afterPerSecond).toBeLessThan(io.beforePerSecond as number);
    expect(t.avgResponseMsBefore).toBe(avg);
    expect(t.perHourSeconds).toBeCloseTo(((t.eliminatedPerSecond as number) * avg * 3600) / 1000, 6);
    expect(t.totalSeconds).toBeCloseTo(((t.eliminatedPerSecond as number) * avg * r.windows.measure.seconds) / 1000, 6);
    // the synthetic workload: 95% of the backing I/O removed at ~8 ms each
    expect(avg).toBeGreaterThan(6);
    expect(t.perHourSeconds).toBeGreaterThan(0);
  });
  it('mode, windows (ISO UTC), devices', () => {
    expect(r.mode).toBe('front-and-backing');
    expect(r.windows.baseline.start).toBe('2026-01-01T00:00:00.000Z');
    expect(r.windows.baseline.end).toBe('2026-01-01T04:00:00.000Z');
    // 4 h measure < 10 h: warm-up = 10% = 24 min
    expect(r.windows.warmupExcludedSeconds).toBeCloseTo(1440, 9);
    expect(r.windows.measure.start).toBe('2026-01-01T04:24:00.000Z');
    expect(r.devices.front).toEqual(['loop0']);
    expect(r.devices.backing).toEqual(['sda']);
  });
  it('iosToBacking equals the sum of backing reads + writes deltas exactly', () => {
    expect(r.benefit.iosToBacking.before).toBe(backingDelta(data, ['sda'], r.windows.baseline.start, r.windows.baseline.end));
    expect(r.benefit.iosToBacking.after).toBe(backingDelta(data, ['sda'], r.windows.measure.start, r.windows.measure.end));
  });
  it('benefit figures (tolerances from the synthetic miss ratio 5% ± noise, latency 8 → 0.5 ms)', () => {
    expect(Math.abs((r.benefit.iosSavedPercent.value as number) - 95)).toBeLessThan(0.5);
    expect(Math.abs((r.benefit.latencyMs.before as number) - 8)).toBeLessThan(0.1);
    expect(Math.abs((r.benefit.latencyMs.after as number) - 0.5)).toBeLessThan(0.02);
    const b = r.benefit.latencyMs.before as number, a = r.benefit.latencyMs.after as number;
    expect(r.benefit.latencyMs.reductionPercent).toBeCloseTo(((b - a) / b) * 100, 9);
    expect(r.benefit.latencyMs.speedup).toBeCloseTo(b / a, 9);
    expect(r.benefit.normalizedIops.before).toBeCloseTo(1000 / b, 9);
    expect(r.benefit.normalizedIops.after).toBeCloseTo(1000 / a, 9);
    expect(Math.abs((r.benefit.throughputMBps.before as number) - 100 * 4096 / 1e6)).toBeLessThan(0.01);
    expect(Math.abs((r.benefit.cacheServedPercent.reads as number) - 95)).toBeLessThan(0.5);
    expect(Math.abs((r.benefit.cacheServedPercent.writes as number) - 95)).toBeLessThan(1);
    expect(Math.abs((r.benefit.deliveredIopsPerSpindle.after as number) - 100)).toBeLessThan(1);
  });
  it('ci95 contains the point estimate', () => {
    const ci = must(r.benefit.iosSavedPercent.ci95);
    const v = r.benefit.iosSavedPercent.value as number;
    expect(ci.low).toBeLessThanOrEqual(v);
    expect(ci.high).toBeGreaterThanOrEqual(v);
    const lci = must(r.benefit.latencyMs.reductionPercentCi95);
    const lv = r.benefit.latencyMs.reductionPercent as number;
    expect(lci.low).toBeLessThanOrEqual(lv);
    expect(lci.high).toBeGreaterThanOrEqual(lv);
    expect(r.uncertainty.blocks.baseline).toBe(12);
  });
  it('every null in the JSON has a reason', () => {
    expect(nullsWithoutReason(json)).toEqual([]);
  });
  it('no NaN or Infinity anywhere', () => {
    expect(JSON.stringify(r)).not.toMatch(/NaN|Infinity/);
    const walk = (v: unknown): void => {
      if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(r);
  });
  it('no drift warning for a steady workload; short-window warning present', () => {
    expect(r.warnings.map((w) => w.code)).not.toContain('workload-drift');
    expect(r.warnings.map((w) => w.code)).toContain('short-window');
    expect(r.drift.checked).toBe(true);
  });
  it('health: baseline 8 ms passes generic 20 ms; exchange-log 10 ms writes pass; a 5 ms write target fails before and passes after', () => {
    expect(r.health.preset).toBe('generic');
    expect(r.health.baseline.grade).toBe('good');
    const strict = report(analyze(data, { seed: 1, targets: { writeMs: 5 } }));
    expect(strict.health.preset).toBe('custom');
    expect(strict.health.baseline.grade).toBe('bad');
    expect(strict.health.baseline.checks[0]?.intervalsBreaking).toBeGreaterThan(0);
    expect(strict.health.baseline.checks[0]?.hoursBreaking.length).toBe(4);
    expect(strict.health.measure.grade).toBe('good');
  });
});

describe('analyze: edge cases', () => {
  it('a reset inside the measure window: interval skipped, warned, totals still exact', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000 });
    const idx = data.intervals.findIndex((x) => x.device === 'sda' && x.startMs === T0 + 5400_000);
    const resetRec: IntervalRecord = { ...(data.intervals[idx] as IntervalRecord), status: 'reset', reads: null, writes: null, readBytes: null, writeBytes: null, readTimeMs: null, writeTimeMs: null, busyMs: null, weightedMs: null };
    data.intervals[idx] = resetRec;
    const r = report(analyze(data, {}));
    expect(r.warnings.find((w) => w.code === 'interval-reset')?.device).toBe('sda');
    expect(r.benefit.iosToBacking.after).toBe(backingDelta(data, ['sda'], r.windows.measure.start, r.windows.measure.end));
    expect(r.benefit.iosSavedPercent.value).toBeCloseTo(95, 0);
  });
  it('two backing devices, one with a gap: iosToBacking is still the exact sum of deltas', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, backing: ['sda', 'sdb'], noise: 0.3 });
    const i = data.intervals.findIndex((x) => x.device === 'sdb' && x.startMs === T0 + 600_000);
    data.intervals[i] = { ...(data.intervals[i] as IntervalRecord), status: 'gap', reads: null, writes: null };
    const r = report(analyze(data, {}));
    expect(r.benefit.iosToBacking.before).toBe(backingDelta(data, ['sda', 'sdb'], r.windows.baseline.start, r.windows.baseline.end));
    expect(r.benefit.iosToBacking.after).toBe(backingDelta(data, ['sda', 'sdb'], r.windows.measure.start, r.windows.measure.end));
  });
  it('a missing interval (gap) in the baseline: rates are per covered second', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000 });
    // drop 10 minutes of records of every device, and mark the interval spanning the hole as a gap
    const from = T0 + 1200_000, to = T0 + 1800_000;
    data.intervals = data.intervals.filter((x) => x.startMs < from || x.startMs >= to);
    for (const d of ['loop0', 'sda']) {
      data.intervals.push({ device: d, startMs: from, endMs: to, intervalMs: 600_000, status: 'gap', reads: null, writes: null, readBytes: null, writeBytes: null, readTimeMs: null, writeTimeMs: null, busyMs: null, weightedMs: null });
    }
    const r = report(analyze(data, {}));
    expect(r.benefit.iosToBacking.beforePerSecond).toBeCloseTo(100, 6);
    expect(r.groups.front?.baseline.okSeconds).toBe(3000);
    expect(r.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['interval-gap', 'low-coverage']));
  });
  it('a window with no I/O: latency figures null with a reason, never 0 or NaN', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, iopsAfter: 0 });
    const r = report(analyze(data, {}));
    expect(r.benefit.latencyMs.after).toBeNull();
    expect(r.benefit.latencyMs.reasons.after).toBe('no-io');
    expect(r.benefit.latencyMs.speedup).toBeNull();
    expect(r.benefit.latencyMs.reasons.speedup).toBe('no-io');
    expect(r.benefit.normalizedIops.after).toBeNull();
    expect(r.benefit.iosSavedPercent.value).toBeNull();
    expect(r.benefit.iosSavedPercent.reasons.value).toBe('no-io');
    expect(r.benefit.cacheServedPercent.reads).toBeNull();
    expect(r.benefit.iosToBacking.after).toBe(0); // a real, measured zero
    expect(r.latencyDistribution.measure).toBeNull();
    expect(nullsWithoutReason(JSON.parse(JSON.stringify(r)))).toEqual([]);
  });
  it('unequal window lengths: compared per front I/O, not by totals', () => {
    const data = synthCapture({ baselineS: 2 * 3600, measureS: 8 * 3600, stepMs: 10_000, missRatio: 0.1 });
    const r = report(analyze(data, { warmupMs: 0 }));
    expect(r.benefit.iosToBacking.after).toBeGreaterThan(0);
    expect(Math.abs((r.benefit.iosSavedPercent.value as number) - 90)).toBeLessThan(0.5);
    expect(r.warnings.map((w) => w.code)).toContain('unequal-windows');
    expect(r.benefit.totalWork.after.ios).toBeCloseTo(4 * (r.benefit.totalWork.before.ios as number), -2);
  });
  it('backing-only capture: per-second comparison, standing warning, served share null with reason', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, front: null, backing: ['sda', 'sdb'], missRatio: 0.2 });
    const r = report(analyze(data, {}));
    expect(r.mode).toBe('backing-only');
    expect(r.devices.front).toEqual([]);
    expect(r.benefit.iosSavedPercent.method).toBe('backing-per-second');
    expect(Math.abs((r.benefit.iosSavedPercent.value as number) - 80)).toBeLessThan(0.5);
    expect(r.warnings[0]?.code).toBe('backing-only-mode');
    expect(r.benefit.cacheServedPercent.reads).toBeNull();
    expect(r.benefit.cacheServedPercent.reasons.reads).toBe('backing-only-mode');
    expect(r.drift.checked).toBe(false);
    expect(r.benefit.iosToBacking.before).toBe(backingDelta(data, ['sda', 'sdb'], r.windows.baseline.start, r.windows.baseline.end));
    expect(r.devices.spindles).toBe(2);
  });
  it('a device named in the options takes that role; guessed roles fill only what the options leave out', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, front: 'loop0', backing: ['sda', 'sdb'], missRatio: 0.2 });
    // --backing loop0 on a capture that guessed loop0 as front: no front is left, backing-only.
    const b = report(analyze(data, { backing: ['loop0'] }));
    expect(b.devices.front).toEqual([]);
    expect(b.devices.backing).toEqual(['loop0']);
    expect(b.mode).toBe('backing-only');
    expect(b.warnings.slice(0, 2).map((w) => [w.code, w.params?.['device']])).toEqual([['front-named-backing', 'loop0'], ['backing-only-mode', undefined]]);
    // --front sda: sda leaves the guessed backing group.
    const f = report(analyze(data, { front: ['sda'] }));
    expect(f.devices.front).toEqual(['sda']);
    expect(f.devices.backing).toEqual(['sdb']);
    expect(f.warnings[0]?.code).toBe('backing-named-front');
    // Guessed roles alone, and options that agree with them: no override warning.
    for (const o of [{}, { backing: ['sda', 'sdb'] }, { front: ['loop0'] }]) {
      expect(report(analyze(data, o)).warnings.map((w) => w.code)).not.toEqual(expect.arrayContaining(['front-named-backing']));
    }
    // The same device named in both groups is still refused.
    const both = analyze(data, { front: ['sda'], backing: ['sda'] });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(both.error).toEqual({ code: 'invalid-option', message: 'Device "sda" cannot be both front and backing.' });
  });
  it('drift warning when front IOPS rises by 40% (threshold 25%), none at threshold 50%', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, iopsBefore: 100, iopsAfter: 140 });
    const r = report(analyze(data, {}));
    const codes = r.warnings.filter((w) => w.code === 'workload-drift').map((w) => w.params?.metric);
    expect(codes).toEqual(['iops', 'bytesPerSec']);
    expect(r.drift.metrics.iops.changePercent).toBeCloseTo(40, 0);
    expect(r.drift.metrics.readSharePercent.exceeds).toBe(false);
    const r2 = report(analyze(data, { driftThresholdPercent: 50 }));
    expect(r2.warnings.map((w) => w.code)).not.toContain('workload-drift');
  });
  it('matched hours: only UTC hours of the day present in both windows', () => {
    // baseline 00:00–06:00, measure 06:00–12:00 (no warm-up): no hour in common
    const a = report(analyze(synthCapture({ baselineS: 6 * 3600, measureS: 6 * 3600, stepMs: 60_000 }), { warmupMs: 0 }));
    expect(a.hourly).toEqual([]);
    expect(a.benefit.matchedHours.iosSavedPercent).toBeNull();
    expect(a.benefit.matchedHours.reasons.iosSavedPercent).toBe('no-matched-hours');
    // baseline 00:00–24:00, measure 24:00–30:00 → hours 0..5 matched
    const b = report(analyze(synthCapture({ baselineS: 24 * 3600, measureS: 6 * 3600, stepMs: 60_000 }), { warmupMs: 0 }));
    expect(b.hourly.map((h) => h.hour)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b.benefit.matchedHours.hours).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b.hourly[0]?.iosSavedPercent).toBeCloseTo(95, 0);
    expect(b.hourly[0]?.baseline.seconds).toBe(3600);
    expect(b.benefit.matchedHours.iosSavedPercent).toBeCloseTo(95, 0);
  });
  it('expected bad requests come back as { ok: false, error: { code, message } }', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 60_000 });
    const cases: [Parameters<typeof analyze>[1], string, CaptureData?][] = [
      [{ front: 'sdz' }, 'unknown-device'],
      [{ backing: ['sdz'] }, 'unknown-device'],
      [{ baseline: { startMs: T0 - 10 * H, endMs: T0 - 9 * H } }, 'window-outside-data'],
      [{}, 'no-baseline', { ...data, phases: data.phases.filter((p) => p.name !== 'baseline') }],
      [{ targets: 'nope' as 'generic' }, 'invalid-option'],
      [{}, 'no-devices', { ...data, devices: data.devices.map((d) => ({ ...d, role: 'other' as const })) }],
    ];
    for (const [opts, code, d] of cases) {
      const r = analyze(d ?? data, opts);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe(code);
        expect(r.error.message).toMatch(/^[A-Z].*\.$/);
      }
    }
  });
  it('per-device summaries equal a direct summary of each device (storage reuse is invisible)', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, backing: ['sda'], others: ['sdb', 'sdc', 'sdd'], noise: 0.3 });
    data.intervals = data.intervals.filter((x) => !(x.device === 'sdc' && x.startMs > T0 + 1800_000)); // sdc shorter than the others
    const r = report(analyze(data, {}));
    const byDev = groupByDevice(data.intervals);
    for (const d of r.perDevice) {
      for (const k of ['baseline', 'measure'] as const) {
        const w = { startMs: Date.parse(r.windows[k].start), endMs: Date.parse(r.windows[k].end) };
        expect(d[k]).toEqual(summarizeSeries(buildSeries([byDev.get(d.device) ?? []], w)));
      }
    }
  });
  it('device overrides: --front and --backing', () => {
    const data = synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 60_000, backing: ['sda', 'sdb'], others: ['sdc'] });
    const r = report(analyze(data, { front: 'loop0', backing: ['sda'] }));
    expect(r.devices.backing).toEqual(['sda']);
    expect(r.devices.other).toEqual(['sdb', 'sdc']);
    expect(r.perDevice.map((d) => d.device)).toEqual(['loop0', 'sda', 'sdb', 'sdc']);
  });
});

describe('analyze: bootstrap', () => {
  const opts = { seed: 11, warmupMs: 0 };
  it('same input ⇒ same interval; another seed ⇒ (slightly) another', () => {
    const data = synthCapture({ baselineS: 6 * 3600, measureS: 6 * 3600, stepMs: 10_000, noise: 0.5, seed: 3 });
    const a = report(analyze(data, opts)), b = report(analyze(data, opts)), c = report(analyze(data, { ...opts, seed: 12 }));
    expect(a.benefit.iosSavedPercent.ci95).toEqual(b.benefit.iosSavedPercent.ci95);
    expect(a.benefit.latencyMs.reductionPercentCi95).toEqual(b.benefit.latencyMs.reductionPercentCi95);
    expect(c.benefit.iosSavedPercent.ci95).not.toEqual(a.benefit.iosSavedPercent.ci95);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
  it('the interval narrows as windows grow (2 h → 8 h → 32 h, same noise)', () => {
    const width = (hours: number): { saved: number; lat: number } => {
      const r = report(analyze(synthCapture({ baselineS: hours * 3600, measureS: hours * 3600, stepMs: 10_000, noise: 0.6, seed: 5 }), opts));
      const s = r.benefit.iosSavedPercent, l = r.benefit.latencyMs;
      expect(must(s.ci95).low).toBeLessThanOrEqual(s.value as number);
      expect(must(s.ci95).high).toBeGreaterThanOrEqual(s.value as number);
      expect(must(l.reductionPercentCi95).low).toBeLessThanOrEqual(l.reductionPercent as number);
      expect(must(l.reductionPercentCi95).high).toBeGreaterThanOrEqual(l.reductionPercent as number);
      return { saved: must(s.ci95).high - must(s.ci95).low, lat: must(l.reductionPercentCi95).high - must(l.reductionPercentCi95).low };
    };
    const w2 = width(2), w8 = width(8), w32 = width(32);
    expect(w8.saved).toBeLessThan(w2.saved);
    expect(w32.saved).toBeLessThan(w8.saved);
    expect(w8.lat).toBeLessThan(w2.lat);
    expect(w32.lat).toBeLessThan(w8.lat);
  });
});

describe('analyze: one device at a time (a ColumnSource)', () => {
  const data = synthCapture({ baselineS: 2 * 3600, measureS: 2 * 3600, stepMs: 5000, noise: 0.2, missRatio: 0.1, latBeforeMs: 6, latAfterMs: 1, backing: ['sda', 'sdb'] });
  it('gives the same JSON as the columns in memory, loads each device once and shows each to the hook', () => {
    const columns = columnsFromRecords(data.intervals);
    const inMemory = JSON.stringify(analyze(data, { seed: 5 }));
    const loads: string[] = [];
    const mem = memorySource(columns);
    const source: ColumnSource = {
      devices: mem.devices,
      // a copy each time, as a file-backed source returns: nothing may depend on identity
      load: (d) => { loads.push(d); const c = mem.load(d); return growColumns(c, c.n); },
    };
    const seen: string[] = [];
    const streamed = JSON.stringify(analyze({ ...data, source }, { seed: 5 }, { onDevice: (c) => seen.push(c.device) }));
    expect(streamed).toBe(inMemory);
    expect([...loads].sort()).toEqual(columns.map((c) => c.device).sort());
    expect(seen.sort()).toEqual(loads.sort());
  });
  it('a group built member by member equals the group built at once, gaps and all', () => {
    const columns = columnsFromRecords(data.intervals.filter((r) => !(r.device === 'sdb' && r.startMs % 35_000 === 0)));
    const w = { startMs: T0 + 600_000, endMs: T0 + 3 * H };
    const g = new GroupSeriesBuilder(w, columns.length);
    for (const c of columns) g.add(c);
    expect(g.finish()).toEqual(buildSeriesFromColumns(columns, w));
    expect(columns.map((c) => c.device)).toEqual(['loop0', 'sda', 'sdb']);
    expect(g.finish().ok.includes(0)).toBe(true);
  });
  it('window by window (a source with loadRange) gives the same JSON, each device read once per window, none whole', () => {
    // gaps in one member, an idle other device, and a range read that returns more than the window (a block that straddles its edge)
    const recs = data.intervals.filter((r) => !(r.device === 'sdb' && r.startMs % 35_000 === 0));
    const idle = recs.filter((r) => r.device === 'sda').map((r) => ({ ...r, device: 'sdz', reads: 0, writes: 0 }));
    const capture = { ...data, intervals: [...recs, ...idle] };
    const mem = memorySource(columnsFromRecords(capture.intervals));
    const inMemory = JSON.stringify(analyze(capture, { seed: 5 }));
    const ranges: string[] = [];
    const source: ColumnSource = {
      devices: mem.devices,
      load: () => { throw new Error('a device read whole'); },
      loadRange: (d, w) => {
        ranges.push(d);
        const c = mem.load(d);
        let lo = 0, hi = 0;
        while (lo < c.n && (c.startMs[lo] as number) < w.startMs - 60_000) lo++;
        while (hi < c.n && (c.startMs[hi] as number) <= w.endMs + 60_000) hi++;
        const out = growColumns(c, c.n);
        for (const k of ['startMs', 'endMs', 'intervalMs', 'status', 'ok', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const) out[k].set(c[k].subarray(lo, hi));
        out.n = hi - lo;
        return out;
      },
    };
    const asked: string[] = [];
    const elsewhere = {
      summariesElsewhere: (wins: Parameters<NonNullable<Parameters<typeof analyze>[2]>['summariesElsewhere'] & object>[0], devices: readonly string[]) => {
        const sda = devices.filter((d) => d === 'sda');
        return { devices: new Set(sda), get: (d: string) => { asked.push(d); return deviceWindowSummaries(mem.load(d), wins); } };
      },
    };
    expect(JSON.stringify(analyze({ ...capture, source }, { seed: 5 }))).toBe(inMemory);
    expect(ranges.filter((d) => d === 'sdz')).toHaveLength(2);
    expect(JSON.stringify(analyze({ ...capture, source }, { seed: 5 }, elsewhere))).toBe(inMemory);
    expect(asked).toEqual(['sda']);
    // a hook that lets the pass claim a device (the other side had not begun it): that one is summarized here, never asked for
    const claimed: string[] = [];
    const sharing = {
      summariesElsewhere: (wins: Parameters<NonNullable<Parameters<typeof analyze>[2]>['summariesElsewhere'] & object>[0]) => ({
        devices: new Set(['sda', 'sdb']),
        get: (d: string) => { asked.push(d); return deviceWindowSummaries(mem.load(d), wins); },
        claim: (d: string) => { claimed.push(d); return d === 'sdb'; },
      }),
    };
    asked.length = 0;
    expect(JSON.stringify(analyze({ ...capture, source }, { seed: 5 }, sharing))).toBe(inMemory);
    expect([asked, claimed]).toEqual([['sda'], ['sda', 'sdb']]);
    // a device summarized elsewhere and in neither group (sdz, other) is not read by the pass at all
    ranges.length = 0;
    const away = {
      summariesElsewhere: (wins: Parameters<NonNullable<Parameters<typeof analyze>[2]>['summariesElsewhere'] & object>[0]) => ({
        devices: new Set(['sdz']),
        get: (d: string) => deviceWindowSummaries(mem.load(d), wins),
      }),
    };
    expect(JSON.stringify(analyze({ ...capture, source }, { seed: 5 }, away))).toBe(inMemory);
    expect(ranges.filter((d) => d === 'sdz')).toEqual([]);
    expect(ranges.filter((d) => d === 'sda')).toHaveLength(2);
  });
});

