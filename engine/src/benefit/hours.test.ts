import { describe, expect, it } from 'vitest';
import { profileWorkload } from './profile.ts';
import { synthCapture, T0 } from './testkit.ts';

const HOUR = 3_600_000;

/** A baseline alone of `seconds` at 60 s steps, 250 IOPS, the intervals from `fromMs` to `toMs` at `k` times the I/O. */
function capture(seconds: number, fromMs: number, toMs: number, k: number): ReturnType<typeof synthCapture> {
  const data = synthCapture({ baselineS: seconds, measureS: 600, stepMs: 60_000, iopsBefore: 250, iopsAfter: 900, backing: ['sda'] });
  const base = data.phases.find((x) => x.name === 'baseline');
  const end = base?.endMs as number;
  data.intervals = data.intervals.filter((r) => r.endMs <= end).map((r) => (r.startMs >= fromMs && r.endMs <= toMs ? { ...r, reads: (r.reads ?? 0) * k, writes: (r.writes ?? 0) * k } : r));
  data.phases = [{ name: 'baseline', startMs: base?.startMs as number, endMs: null }];
  return data;
}

describe('hourlyProfile: IOPS per clock hour and day, the busiest hour', () => {
  it('an hour\'s IOPS is its I/Os over its seconds; an hour covered less than half as long as the best is never named the busiest', () => {
    // 2 h 5 min: the last 5 minutes (02:00–02:05) at ten times the I/O, the hour 01:00–02:00 at twice
    const p = profileWorkload(capture(2 * 3600 + 300, T0 + HOUR, T0 + 2 * HOUR + 300_000, 2));
    if (!p.ok) throw new Error(p.error.message);
    const day = p.hours.iops[0] as (number | null)[];
    expect(p.hours.days).toEqual([T0]);
    expect(day[1]).toBeCloseTo(2 * (day[0] as number), 6);
    expect(p.hours.seconds[0]?.slice(0, 3)).toEqual([3600, 3600, 300]);
    // 02:00 is as busy per second as 01:00, but 5 minutes of it is no busiest hour
    expect(day[2]).toBeCloseTo(day[1] as number, 6);
    expect(p.hours.busiest).toEqual({ startMs: T0 + HOUR, endMs: T0 + 2 * HOUR, iops: day[1], coveredSeconds: 3600 });
    const q = profileWorkload(capture(2 * 3600 + 300, T0 + 2 * HOUR, T0 + 2 * HOUR + 300_000, 10));
    if (!q.ok) throw new Error(q.error.message);
    expect(q.hours.iops[0]?.[2]).toBeGreaterThan(5 * (q.hours.iops[0]?.[0] as number));
    expect(q.hours.busiest?.startMs).not.toBe(T0 + 2 * HOUR);
  });

  it('equal hours: the earliest is named', () => {
    const p = profileWorkload(capture(3 * 3600, 0, 0, 1));
    if (!p.ok) throw new Error(p.error.message);
    expect(p.hours.busiest?.startMs).toBe(T0);
  });
});
