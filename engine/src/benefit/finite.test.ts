/**
 * Property test: no figure of an analysis, a workload profile or a TCO plan is `-0`, `NaN` or
 * `±Infinity` (ARCHITECTURE.md: "No figure is -0, NaN or Infinity in any output; absent is
 * null with its reason"), over random captures — including measure windows that carry more
 * backing I/O than the baseline (a miss ratio above 1), idle intervals, zero latencies, one
 * backing device or several, and backing-only captures.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { profileWorkload } from './profile.ts';
import { mulberry32 } from './prng.ts';
import { synthCapture, nullsWithoutReason } from './testkit.ts';
import { nonFinitePaths, withoutNegativeZero } from '../metrics/finite.ts';
import { measuredWorkload, measuredWorkloadFromProfile, scenarioFromMeasurement } from '../plan/measured.ts';
import { planScenario } from '../plan/plan.ts';
import type { CaptureData } from '../records/types.ts';

function randomCapture(seed: number): CaptureData {
  const r = mulberry32(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const c = synthCapture({
    baselineS: 30 + Math.floor(r() * 300), measureS: 30 + Math.floor(r() * 300), warmupS: pick([0, 0, 10]),
    front: pick(['loop0', 'loop0', null]), backing: pick([['sda'], ['sda', 'sdb'], ['sda', 'sdb', 'sdc']]),
    iopsBefore: pick([0, 1, 50, 900, 20_000]) * r(), iopsAfter: pick([0, 1, 50, 900, 20_000]) * r(),
    readShare: pick([0, 1, r()]), requestBytes: pick([512, 4096, 65_536, 1 << 20]),
    // above 1: the measure window sends more I/O to the backing drives than the front received
    missRatio: pick([0, 0.05, 0.5, 1, 1.3, 3]), latBeforeMs: pick([0, 0.01, 8, 40 * r()]), latAfterMs: pick([0, 0.1, 8, 60 * r()]),
    noise: pick([0, 0.3, 0.9]), seed,
  });
  // idle stretches and intervals with I/O but no time, as imports of coarse counters give
  for (const x of c.intervals) {
    const u = r();
    if (u < 0.05) Object.assign(x, { reads: 0, writes: 0, readBytes: 0, writeBytes: 0, readTimeMs: 0, writeTimeMs: 0, busyMs: 0, weightedMs: 0 });
    else if (u < 0.08) Object.assign(x, { readTimeMs: 0, writeTimeMs: 0, busyMs: 0, weightedMs: 0 });
  }
  return c;
}

describe('no -0, NaN or Infinity in any figure', () => {
  it('analyze, profileWorkload and planScenario over 150 random captures', () => {
    let analysed = 0, planned = 0, worse = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const cap = randomCapture(seed);
      const a = analyze(cap, { seed: 1, bootstrapReplicates: 200 });
      expect(nonFinitePaths(a), `analyze, seed ${seed}`).toEqual([]);
      const p = profileWorkload(cap);
      expect(nonFinitePaths(p), `profile, seed ${seed}`).toEqual([]);
      if (a.ok) {
        analysed++;
        expect(nullsWithoutReason(a.benefit), `benefit nulls, seed ${seed}`).toEqual([]);
        const t = a.benefit.ioTimeSaved;
        if (t.eliminatedPerSecond !== null && t.eliminatedPerSecond <= 0) {
          worse++;
          // nothing kept off the drives: no signed zero or negative time, but null and why
          expect(t.perHourSeconds).toBeNull();
          expect(t.reasons.perHourSeconds).toBe('none-eliminated');
        }
        const m = measuredWorkload(a, cap);
        if (typeof m !== 'string') {
          const plan = planScenario(scenarioFromMeasurement(m));
          expect(nonFinitePaths(plan), `plan from analysis, seed ${seed}`).toEqual([]);
          planned++;
        }
      }
      if (p.ok) {
        const m = measuredWorkloadFromProfile(p, cap);
        if (typeof m !== 'string') expect(nonFinitePaths(planScenario(scenarioFromMeasurement(m))), `plan from profile, seed ${seed}`).toEqual([]);
      }
    }
    // the generator reaches the cases the property is about
    expect(analysed).toBeGreaterThan(100);
    expect(planned).toBeGreaterThan(50);
    expect(worse).toBeGreaterThan(10);
  });

  it('the runs-test case: 8.5 more backing I/Os per second after, 0 ms before, is "none kept off", not -0 s', () => {
    const cap = synthCapture({ baselineS: 60, measureS: 60, front: null, iopsBefore: 10, iopsAfter: 10, missRatio: 1.85, latBeforeMs: 0, seed: 3 });
    const a = analyze(cap, { seed: 1 });
    if (!a.ok) throw new Error(a.error.message);
    expect(a.benefit.ioTimeSaved.perHourSeconds).toBeNull();
    expect(a.benefit.ioTimeSaved.totalSeconds).toBeNull();
    expect(a.benefit.ioTimeSaved.reasons).toMatchObject({ perHourSeconds: 'none-eliminated', totalSeconds: 'none-eliminated' });
    expect(nonFinitePaths(a)).toEqual([]);
  });

  it('withoutNegativeZero rewrites every -0 (objects, arrays, float arrays) and nonFinitePaths names each bad leaf', () => {
    const v = withoutNegativeZero({ a: -0, b: [1, -0, { c: -0 }], f: Float64Array.of(-0, 2) });
    expect(Object.is(v.a, 0)).toBe(true);
    expect(Object.is(v.b[1], 0)).toBe(true);
    expect(Object.is((v.b[2] as { c: number }).c, 0)).toBe(true);
    expect(Object.is(v.f[0], 0)).toBe(true);
    expect(nonFinitePaths({ x: { y: [0, Number.NaN] }, z: -0, w: Infinity })).toEqual(['x.y[1] = NaN', 'z = -0', 'w = Infinity']);
  });
});
