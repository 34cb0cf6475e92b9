/**
 * PAL-style time slices on a generated 3-day log (60 s intervals, two disks at 5 ms): a 60-minute
 * run of 40 ms reads on one disk, which the window's averages hide (5.5 ms, 1.4 % of intervals),
 * is marked critical in exactly its slice, named in the alerts list, and leaves the grade `bad`;
 * the same log without the run stays `good`.
 */
import { describe, expect, it } from 'vitest';
import { profileWorkload, type WorkloadProfile } from './profile.ts';
import { synthCapture, T0 } from './testkit.ts';
import { CRITICAL_RUN_MS, sliceLengthMs, sliceLevels } from './time-slices.ts';

const HOUR = 3_600_000;
/** The run: day 2, 10:00–11:00 after the log's start hour. */
const RUN_START = Math.floor(T0 / HOUR) * HOUR + 34 * HOUR;

function profile(withRun: boolean): WorkloadProfile {
  const data = synthCapture({ baselineS: 3 * 86_400, measureS: 600, stepMs: 60_000, iopsBefore: 50, front: null, backing: ['sda', 'sdb'], latBeforeMs: 5, t0: Math.floor(T0 / HOUR) * HOUR });
  const base = data.phases.find((p) => p.name === 'baseline');
  data.intervals = data.intervals.filter((r) => r.endMs <= (base?.endMs as number)).map((r) =>
    withRun && r.device === 'sda' && r.startMs >= RUN_START && r.startMs < RUN_START + HOUR ? { ...r, readTimeMs: (r.reads ?? 0) * 40 } : r);
  data.phases = [{ name: 'baseline', startMs: base?.startMs as number, endMs: null }];
  const p = profileWorkload(data, {});
  if (!p.ok) throw new Error(p.error.message);
  return p;
}

describe('PAL-style time slices', () => {
  it('picks the slice length from the log: 72 one-hour slices for 3 days, a minute for 10 minutes', () => {
    expect(sliceLengthMs(3 * 86_400_000)).toBe(HOUR);
    expect(sliceLengthMs(600_000)).toBe(60_000);
    expect(sliceLevels({ readMs: 25, writeMs: 25, warnMs: 15 }, 'read')).toEqual({ warnMs: 15, criticalMs: 25 });
    expect(sliceLevels({ readMs: 20 }, 'read')).toEqual({ warnMs: 12, criticalMs: 20 });
    expect(sliceLevels({ readMs: 20 }, 'write')).toBeNull();
  });

  it('marks exactly the run\'s slice critical, names it in the alerts, and the grade is not good', () => {
    const p = profile(true);
    const s = p.slices;
    expect(s.sliceMs).toBe(HOUR);
    expect(s.slices).toBe(72);
    const row = s.rows.find((r) => r.device === 'sda' && r.counter === 'read');
    const critical = row?.level.flatMap((lv, k) => (lv === 'critical' ? [s.startMs + k * s.sliceMs] : [])) ?? [];
    expect(critical).toEqual([RUN_START]);
    expect(row?.warning).toBe(0);
    // every other row and slice stays ok
    for (const r of s.rows.filter((x) => x !== row)) expect(r.level.every((lv) => lv === 'ok')).toBe(true);
    expect(s.alerts).toEqual([{ device: 'sda', counter: 'read', level: 'critical', startMs: RUN_START, endMs: RUN_START + HOUR, worstMs: 40, slices: 1 }]);
    // the window's averages alone would have passed
    const read = p.health.window.checks.find((c) => c.metric === 'read');
    expect(read?.meetsTarget).toBe(true);
    expect(s.longestCriticalMs).toBeGreaterThanOrEqual(CRITICAL_RUN_MS);
    expect(p.health.window.grade).toBe('bad');
    expect(p.health.gradeRule).toBe('sustained-critical');
  });

  it('the same log without the run stays good, with no alert', () => {
    const p = profile(false);
    expect(p.slices.alerts).toEqual([]);
    expect(p.health.window.grade).toBe('good');
    expect(p.health.gradeRule).toBe('averages');
  });
});
