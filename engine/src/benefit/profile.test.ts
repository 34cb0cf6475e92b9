import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { profileWorkload } from './profile.ts';
import { synthCapture } from './testkit.ts';
import type { StoredPrediction } from './prediction.ts';

/** A capture stopped in its baseline: the synthetic experiment cut at the switch, its phases too. */
function stoppedInBaseline(): ReturnType<typeof synthCapture> {
  const data = synthCapture({ baselineS: 1800, measureS: 600, stepMs: 10_000, iopsBefore: 250, iopsAfter: 900, backing: ['sda'] });
  const base = data.phases.find((p) => p.name === 'baseline');
  if (base === undefined || base.endMs === null) throw new Error('the synthetic capture has no closed baseline');
  const end = base.endMs;
  data.intervals = data.intervals.filter((r) => r.endMs <= end);
  data.phases = [{ name: 'baseline', startMs: base.startMs, endMs: null }];
  return data;
}

describe('profileWorkload (the baseline alone)', () => {
  it('profiles a capture the analysis refuses (no measure window): the baseline window, its IOPS, no before/after', () => {
    const data = stoppedInBaseline();
    const a = analyze(data);
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error.code).toBe('no-measure');
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    expect(p.window.source).toBe('baseline-phase');
    expect(p.window.seconds).toBeCloseTo(1800, 0);
    expect(p.mode).toBe('front-and-backing');
    expect(p.devices.appFacing).toBe('front');
    expect(p.appFacing.means.iops).toBeCloseTo(250, 0);
    expect(p.backing?.means.iops).toBeCloseTo(250, 0); // before the switch the backing carries everything
    expect(p.perDevice.map((d) => d.device)).toEqual([...p.devices.front, 'sda']);
    expect(Object.keys(p)).not.toContain('benefit');
  });

  it('same role rules as the analysis: a named backing device that was guessed front leaves no front', () => {
    const data = stoppedInBaseline();
    const front = data.devices.find((d) => d.role === 'front')?.name as string;
    const p = profileWorkload(data, { backing: [front] });
    if (!p.ok) throw new Error(p.error.message);
    expect(p.mode).toBe('backing-only');
    expect(p.devices).toEqual({ front: [], backing: [front], appFacing: 'backing' });
    expect(p.warnings.map((w) => w.code)).toEqual(['front-named-backing', 'very-short-log', 'busiest-hour-partial']); // 30 minutes: shorter than an hour, a partial busiest hour
    const bad = profileWorkload(data, { backing: ['nope'] });
    expect(bad.ok).toBe(false);
  });
  it('grades the application-facing group against the latency targets, as the analysis grades its baseline', () => {
    const data = stoppedInBaseline();
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    expect(p.health.preset).toBe('generic');
    expect(p.health.devices).toEqual(p.devices.front);
    expect(p.health.window.checks.map((c) => c.metric)).toEqual(['read', 'write']);
    const read = p.health.window.checks[0];
    expect(read?.averageMs).toBeCloseTo(p.appFacing.means.rAwaitMs as number, 9);
    // targets below the average break it: the window is bad; an unknown preset is refused
    const strict = profileWorkload(data, { targets: { readMs: (read?.averageMs as number) / 2 } });
    if (!strict.ok) throw new Error(strict.error.message);
    expect(strict.health.preset).toBe('custom');
    expect(strict.health.window.grade).toBe('bad');
    expect(strict.health.window.checks[0]?.meetsTarget).toBe(false);
    const bad = profileWorkload(data, { targets: 'nonesuch' as unknown as 'generic' }); // as a JSON option file could give it
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('invalid-option');
  });

  it('carries the stored prediction with no measured figure beside it (an imported block trace: no window with the cache on)', () => {
    const data = stoppedInBaseline();
    const none = profileWorkload(data);
    if (!none.ok) throw new Error(none.error.message);
    expect(none.prediction).toEqual({ fromTrace: null, reasons: { fromTrace: 'not-reported' } });
    const stored: StoredPrediction = {
      window: 'all', windowStartUtcMs: 2000, windowEndUtcMs: 20_000, warmupS: 0, devices: ['disk0'], policy: 'lru', method: 'exact-stack', writes: 'bypass',
      blockBytes: 4096, cacheBytes: 1 << 20, footprintBytes: 3 << 20, sampleRate: 1, reads: 3000, writesCount: 300, readHitRatio: 0.718, iosSavedPercent: 65.3, iosSavedUncertaintyPp: 0,
      curve: [{ bytes: 4096, readHitRatio: 0, iosSavedPercent: 0 }, { bytes: 1 << 20, readHitRatio: 0.718, iosSavedPercent: 65.3 }], sizeAnswers: [], skipped: 0, notes: [],
      frontIos: { reads: 3000, writes: 300, total: 3300, seconds: 18, perSecond: 3300 / 18 },
      backingIos: { readMisses: 846, writes: 300, total: 1146, perSecond: 1146 / 18, uncertainty: 0, perSecondUncertainty: 0 },
    };
    data.prediction = stored;
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    const q = p.prediction.fromTrace;
    if (q === null) throw new Error('no prediction');
    // the probe's figures as stored
    expect([q.iosSavedPercent, q.readHitRatio, q.cacheBytes, q.reads, q.writesCount, q.backingIos?.perSecond]).toEqual([65.3, 0.718, 1 << 20, 3000, 300, 1146 / 18]);
    // nothing measured beside them, and said why
    expect([q.measuredIosSavedPercent, q.differencePp, q.backingComparison.measuredPerSecond, q.responseComparison.measuredMs]).toEqual([null, null, null, null]);
    expect(q.reasons['measuredIosSavedPercent']).toBe('no-data');
    expect(q.backingComparison.predictedPerSecond).toBe(1146 / 18);
  });
});
