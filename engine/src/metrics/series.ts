import type { IntervalRecord, IntervalStatus } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { inWindow } from '../records/window.ts';

/** Counts of intervals that carry no numbers, by status. */
export interface NotOkCounts {
  reset: number;
  wrap: number;
  gap: number;
  'clock-jump': number;
  /** `ok` status but reads or writes absent (an import that lacks the counter). */
  incomplete: number;
}

/**
 * A device or a group of devices over one window, as columns (struct of arrays), one slot per
 * interval start, ascending. For a group, counts are summed over the member devices per slot,
 * and a slot is `ok` only when every member has an `ok` interval with that start (members are
 * sampled together: one read of /proc/diskstats, one PerfMon row). Numeric columns hold NaN
 * where a member's field is absent; not-ok slots hold NaN everywhere.
 */
export interface Series {
  n: number;
  members: number;
  startMs: Float64Array;
  endMs: Float64Array;
  /** Δt, ms (monotonic). For a group: the first member's Δt. */
  intervalMs: Float64Array;
  ok: Uint8Array;
  reads: Float64Array;
  writes: Float64Array;
  readBytes: Float64Array;
  writeBytes: Float64Array;
  readTimeMs: Float64Array;
  writeTimeMs: Float64Array;
  busyMs: Float64Array;
  weightedMs: Float64Array;
  /** Not-ok intervals inside the window, summed over members. */
  notOk: NotOkCounts;
}

const num = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);

function emptyNotOk(): NotOkCounts {
  return { reset: 0, wrap: 0, gap: 0, 'clock-jump': 0, incomplete: 0 };
}

function countNotOk(c: NotOkCounts, status: IntervalStatus): void {
  if (status === 'ok') c.incomplete++;
  else c[status]++;
}

function alloc(n: number, members: number, reuse?: Series): Series {
  if (reuse !== undefined && reuse.startMs.length >= n) {
    const v = (a: Float64Array): Float64Array => a.subarray(0, n).fill(NaN);
    return {
      n, members, startMs: reuse.startMs.subarray(0, n), endMs: reuse.endMs.subarray(0, n),
      intervalMs: reuse.intervalMs.subarray(0, n), ok: reuse.ok.subarray(0, n).fill(0),
      reads: v(reuse.reads), writes: v(reuse.writes), readBytes: v(reuse.readBytes), writeBytes: v(reuse.writeBytes),
      readTimeMs: v(reuse.readTimeMs), writeTimeMs: v(reuse.writeTimeMs), busyMs: v(reuse.busyMs),
      weightedMs: v(reuse.weightedMs), notOk: emptyNotOk(),
    };
  }
  const f = (): Float64Array => new Float64Array(n).fill(NaN);
  return {
    n, members, startMs: new Float64Array(n), endMs: new Float64Array(n), intervalMs: new Float64Array(n),
    ok: new Uint8Array(n), reads: f(), writes: f(), readBytes: f(), writeBytes: f(), readTimeMs: f(),
    writeTimeMs: f(), busyMs: f(), weightedMs: f(), notOk: emptyNotOk(),
  };
}

function recOk(r: IntervalRecord): boolean {
  return r.status === 'ok' && r.intervalMs > 0 && r.reads !== null && r.writes !== null;
}

/**
 * Builds the series of one device or of a group of devices over a window. Each inner array
 * holds one device's records in ascending `startMs` (see `groupByDevice`). Records wholly
 * inside the window only (see `inWindow`). Linear for one device; one hash join per extra member.
 *
 * @example
 * const s = buildSeries([recordsOfSda, recordsOfSdb], { startMs: t0, endMs: t1 });
 * // s.reads[i] = reads of sda + reads of sdb in the interval starting at s.startMs[i]
 */
export function buildSeries(perDevice: readonly (readonly IntervalRecord[])[], window: TimeWindow, reuse?: Series): Series {
  const first = perDevice[0] ?? [];
  /** Records of a list wholly inside the window (binary search to the window start, then scan). */
  const inside = (list: readonly IntervalRecord[]): IntervalRecord[] => {
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as IntervalRecord).startMs < window.startMs) lo = mid + 1;
      else hi = mid;
    }
    let end = lo, count = 0;
    while (end < list.length && (list[end] as IntervalRecord).startMs < window.endMs) {
      if (inWindow(list[end] as IntervalRecord, window)) count++;
      end++;
    }
    if (count === end - lo) return list.slice(lo, end);
    const out: IntervalRecord[] = [];
    for (let i = lo; i < end; i++) if (inWindow(list[i] as IntervalRecord, window)) out.push(list[i] as IntervalRecord);
    return out;
  };
  const base = inside(first);
  const s = alloc(base.length, Math.max(1, perDevice.length), reuse);
  const index = perDevice.length > 1 ? new Map<number, number>() : null;
  for (let i = 0; i < base.length; i++) {
    const r = base[i] as IntervalRecord;
    s.startMs[i] = r.startMs;
    s.endMs[i] = r.endMs;
    s.intervalMs[i] = r.intervalMs;
    index?.set(r.startMs, i);
    if (!recOk(r)) {
      countNotOk(s.notOk, r.status);
      continue;
    }
    s.ok[i] = 1;
    s.reads[i] = num(r.reads);
    s.writes[i] = num(r.writes);
    s.readBytes[i] = num(r.readBytes);
    s.writeBytes[i] = num(r.writeBytes);
    s.readTimeMs[i] = num(r.readTimeMs);
    s.writeTimeMs[i] = num(r.writeTimeMs);
    s.busyMs[i] = num(r.busyMs);
    s.weightedMs[i] = num(r.weightedMs);
  }
  if (index === null) return s;
  for (let d = 1; d < perDevice.length; d++) {
    const seen = new Uint8Array(s.n);
    for (const r of inside(perDevice[d] ?? [])) {
      const i = index.get(r.startMs);
      if (!recOk(r)) countNotOk(s.notOk, r.status);
      if (i === undefined) continue; // a slot the first member does not have: not comparable
      seen[i] = 1;
      if (!recOk(r) || s.ok[i] === 0) {
        s.ok[i] = 0;
        continue;
      }
      s.reads[i] = (s.reads[i] as number) + num(r.reads);
      s.writes[i] = (s.writes[i] as number) + num(r.writes);
      s.readBytes[i] = (s.readBytes[i] as number) + num(r.readBytes);
      s.writeBytes[i] = (s.writeBytes[i] as number) + num(r.writeBytes);
      s.readTimeMs[i] = (s.readTimeMs[i] as number) + num(r.readTimeMs);
      s.writeTimeMs[i] = (s.writeTimeMs[i] as number) + num(r.writeTimeMs);
      s.busyMs[i] = (s.busyMs[i] as number) + num(r.busyMs);
      s.weightedMs[i] = (s.weightedMs[i] as number) + num(r.weightedMs);
    }
    for (let i = 0; i < s.n; i++) if (seen[i] === 0) s.ok[i] = 0;
  }
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] === 1) continue;
    s.reads[i] = s.writes[i] = s.readBytes[i] = s.writeBytes[i] = NaN;
    s.readTimeMs[i] = s.writeTimeMs[i] = s.busyMs[i] = s.weightedMs[i] = NaN;
  }
  return s;
}
