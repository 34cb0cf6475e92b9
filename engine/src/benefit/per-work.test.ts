import { describe, expect, it } from 'vitest';
import type { WorkCounterRow } from '../records/types.ts';
import { AGG, AGG_K } from './aggregate.ts';
import { perWork, workRate } from './per-work.ts';

/** An AGG vector of the backing group: `ios` I/Os over `sec` seconds. */
function agg(ios: number, sec: number): Float64Array {
  const v = new Float64Array(AGG_K);
  v[AGG.bSec] = sec;
  v[AGG.bReads] = ios * 0.6;
  v[AGG.bWrites] = ios * 0.4;
  return v;
}

const row = (name: string, startMs: number, ratePerSecond: number, instance = '_Total'): WorkCounterRow => ({ name, instance, startMs, endMs: startMs + 15_000, ratePerSecond });
const wins = { baseline: { startMs: 0, endMs: 60_000 }, measure: { startMs: 100_000, endMs: 160_000 } };
const series = (name: string, before: number, after: number, instance?: string): WorkCounterRow[] =>
  [0, 15_000, 30_000, 45_000].flatMap((t) => [row(name, t, before, instance), row(name, 100_000 + t, after, instance)]);

describe('perWork', () => {
  it('work 75 % higher, disks 12 % lower: per unit of work 49.7 % fewer disk I/Os', () => {
    const p = perWork(series('io_ops_per_s', 200, 350), wins, agg(6000, 60), agg(5280, 60));
    expect(p.unit).toBe('process-io');
    expect(p.workChangePercent).toBeCloseTo(75, 9);
    expect(p.diskChangePercent).toBeCloseTo(-12, 9);
    expect(p.diskIosPerWorkBefore).toBeCloseTo(0.5, 9);
    expect(p.diskIosPerWorkAfter).toBeCloseTo(88 / 350, 9);
    expect(p.savedPercent).toBeCloseTo((1 - 0.88 / 1.75) * 100, 9);
    expect(p.workLevel).toBe(false);
    expect(p.reasons).toEqual({});
  });
  it('reads + writes of _Total when IO Data Operations is absent; SQL batches when no process counter', () => {
    const rw = [...series('io_reads_per_s', 150, 150), ...series('io_writes_per_s', 50, 50)];
    const p = perWork(rw, wins, agg(6000, 60), agg(5280, 60));
    expect([p.unit, p.workPerSecondBefore, p.workLevel]).toEqual(['process-io', 200, true]);
    expect(p.savedPercent).toBeCloseTo(12, 9);
    const b = perWork(series('batches_per_s', 20, 40, 'MSSQL$PROD'), wins, agg(6000, 60), agg(5280, 60));
    expect([b.unit, b.instance, b.workChangePercent]).toEqual(['sql-batch', 'MSSQL$PROD', 100]);
  });
  it('no work counter: every figure of work null with its reason, the disks\' rates still said', () => {
    const p = perWork(null, wins, agg(6000, 60), agg(5280, 60));
    expect([p.unit, p.savedPercent, p.workLevel]).toEqual([null, null, null]);
    expect(p.reasons['savedPercent']).toBe('not-reported');
    expect(p.diskIosPerSecondBefore).toBe(100);
    const zero = perWork(series('io_ops_per_s', 0, 10), wins, agg(6000, 60), agg(5280, 60));
    expect(zero.reasons['diskIosPerWorkBefore']).toBe('zero-denominator');
  });
  it('workRate weighs each interval by its overlap with the window', () => {
    expect(workRate([row('io_ops_per_s', 0, 100), row('io_ops_per_s', 15_000, 300)], { startMs: 7_500, endMs: 30_000 })).toBeCloseTo((100 * 7.5 + 300 * 15) / 22.5, 9);
    expect(workRate([row('io_ops_per_s', 0, 100)], { startMs: 20_000, endMs: 30_000 })).toBeNull();
  });
});
