import { describe, expect, it } from 'vitest';
import { columnsFromRecords, recordAt } from '../records/columns.ts';
import type { IntervalRecord, IntervalStatus } from '../records/types.ts';
import { INTERVAL_METRIC_KEYS } from '../metrics/interval.ts';
import { INTERVAL_COLUMNS, intervalRow, intervalRowInto } from './intervals.ts';
import { uniform as rng } from '../../../test/support/rng.ts';

describe('intervalRowInto (the per-interval table without an object per row)', () => {
  it('puts the metrics in the table’s metric columns, in INTERVAL_METRIC_KEYS order', () => {
    expect(INTERVAL_COLUMNS.slice(9).map((c) => c.id)).toEqual(INTERVAL_METRIC_KEYS.slice(0, -1));
  });

  it('gives every row’s numbers exactly as intervalRow(recordAt(c, i)), absent as NaN', () => {
    const r = rng(11);
    const statuses: IntervalStatus[] = ['ok', 'ok', 'ok', 'wrap', 'reset', 'clock-jump', 'gap'];
    const maybe = (v: number): number | null => (r() < 0.07 ? null : v);
    const recs: IntervalRecord[] = [];
    for (let i = 0; i < 5000; i++) {
      const intervalMs = [1000, 1000, 997, 1003, 0, 5000][Math.floor(r() * 6)] as number;
      const reads = Math.floor(r() * 3) === 0 ? 0 : Math.floor(r() * 900);
      const writes = Math.floor(r() * 4) === 0 ? 0 : Math.floor(r() * 300);
      recs.push({
        device: i % 3 === 0 ? 'sda' : 'nvme0n1', startMs: 1_763_000_000_000 + i * 1000, endMs: 1_763_000_000_000 + i * 1000 + intervalMs, intervalMs,
        status: statuses[Math.floor(r() * statuses.length)] as IntervalStatus,
        reads: maybe(reads), writes: maybe(writes), readBytes: maybe(reads * 4096), writeBytes: maybe(writes * 8192 + 512),
        readTimeMs: maybe(r() * 900), writeTimeMs: maybe(Math.floor(r() * 90)), busyMs: maybe(Math.floor(r() * 1000)), weightedMs: maybe(r() * 3000),
      });
    }
    const row = new Float64Array(INTERVAL_COLUMNS.length);
    let compared = 0;
    for (const c of columnsFromRecords(recs)) {
      for (let i = 0; i < c.n; i++) {
        const want = intervalRow(recordAt(c, i));
        intervalRowInto(c, i, row);
        for (let j = 0; j < want.length; j++) {
          if (INTERVAL_COLUMNS[j]?.kind === 'text') continue;
          const w = want[j] as number | null;
          // Object.is: the same double, -0 and all
          if (!Object.is(row[j], w ?? NaN)) expect(`${c.device}[${i}].${INTERVAL_COLUMNS[j]?.id} = ${row[j]}`).toBe(`${c.device}[${i}].${INTERVAL_COLUMNS[j]?.id} = ${w}`);
          compared++;
        }
      }
    }
    expect(compared).toBe(5000 * 18);
  });
});
