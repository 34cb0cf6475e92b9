import type { IntervalRecord } from './types.ts';

/** A half-open span of wall-clock time, UTC epoch milliseconds: `[startMs, endMs)`. */
export interface TimeWindow {
  /** Start, UTC epoch ms (inclusive). */
  startMs: number;
  /** End, UTC epoch ms (an interval ending exactly here is inside). */
  endMs: number;
}

/**
 * Whether an interval record lies wholly inside a window: `startMs >= window.startMs` and
 * `endMs <= window.endMs`. Records that straddle a boundary are left out, never prorated, so
 * that sums over a window equal the counter deltas between the two samples that bound it.
 *
 * @example
 * inWindow({ startMs: 1000, endMs: 2000 } as IntervalRecord, { startMs: 1000, endMs: 2000 }) // true
 * inWindow({ startMs: 1500, endMs: 2500 } as IntervalRecord, { startMs: 1000, endMs: 2000 }) // false
 */
export function inWindow(rec: Pick<IntervalRecord, 'startMs' | 'endMs'>, window: TimeWindow): boolean {
  return rec.startMs >= window.startMs && rec.endMs <= window.endMs;
}

/**
 * Splits records by device name, keeping each device's records in ascending `startMs`
 * (sorted once, only when the input is not already in order). O(n) for ordered input.
 *
 * @example
 * groupByDevice([{ device: 'sda', startMs: 0 }, { device: 'sdb', startMs: 0 }] as IntervalRecord[]).get('sda')?.length // 1
 */
export function groupByDevice(records: readonly IntervalRecord[]): Map<string, IntervalRecord[]> {
  // count first, then fill exact-size arrays: no regrowth, one map lookup per record per pass
  const slots = new Map<string, { n: number; list: IntervalRecord[] }>();
  for (const r of records) {
    const slot = slots.get(r.device);
    if (slot === undefined) slots.set(r.device, { n: 1, list: [] });
    else slot.n++;
  }
  const out = new Map<string, IntervalRecord[]>();
  for (const [name, slot] of slots) {
    slot.list = new Array<IntervalRecord>(slot.n);
    slot.n = 0;
    out.set(name, slot.list);
  }
  for (const r of records) {
    const slot = slots.get(r.device) as { n: number; list: IntervalRecord[] };
    slot.list[slot.n++] = r;
  }
  for (const list of out.values()) {
    let sorted = true;
    for (let i = 1; i < list.length; i++) {
      if ((list[i] as IntervalRecord).startMs < (list[i - 1] as IntervalRecord).startMs) {
        sorted = false;
        break;
      }
    }
    if (!sorted) list.sort((a, b) => a.startMs - b.startMs);
  }
  return out;
}

/**
 * Formats UTC epoch milliseconds as an ISO-8601 UTC string (`Z` suffix, millisecond precision).
 *
 * @example
 * isoUtc(0) // '1970-01-01T00:00:00.000Z'
 */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
