import type { DeviceColumns } from '../records/columns.ts';
import { allocColumns, columnsFromRecords, COUNT_COLUMNS } from '../records/columns.ts';
import type { IntervalRecord } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';

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

function emptyNotOk(): NotOkCounts {
  return { reset: 0, wrap: 0, gap: 0, 'clock-jump': 0, incomplete: 0 };
}

/** NotOkCounts key of a status code (an `ok` slot that is not usable is `incomplete`). */
const NOT_OK_KEY: readonly (keyof NotOkCounts)[] = ['incomplete', 'wrap', 'reset', 'clock-jump', 'gap'];

function alloc(n: number, members: number): Series {
  const f = (): Float64Array => new Float64Array(n).fill(NaN);
  return {
    n, members, startMs: new Float64Array(n), endMs: new Float64Array(n), intervalMs: new Float64Array(n),
    ok: new Uint8Array(n), reads: f(), writes: f(), readBytes: f(), writeBytes: f(), readTimeMs: f(),
    writeTimeMs: f(), busyMs: f(), weightedMs: f(), notOk: emptyNotOk(),
  };
}

/** Slots of a device's columns wholly inside the window: `[lo, end)` plus whether every slot in that range is. */
function insideRange(c: DeviceColumns, window: TimeWindow): { lo: number; end: number; all: boolean } {
  let lo = 0, hi = c.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((c.startMs[mid] as number) < window.startMs) lo = mid + 1;
    else hi = mid;
  }
  const coded = runEnd(c.startMs, c.endMs, lo, c.n, window.endMs);
  return coded >= 0 ? { lo, end: coded, all: true } : { lo, end: -coded - 1, all: false };
}

/**
 * The end of the run of slots from `from` (below `n`) that start before `windowEnd`, as is when
 * every one of them also ends by `windowEnd`, else as −(end + 1). A function of its own, on typed
 * arrays: as a loop inside {@link insideRange} it was deoptimized at the return after the loop
 * about 30 times in one analysis, each time finishing its 86,400 slots in the interpreter.
 */
function runEnd(startMs: Float64Array, endMs: Float64Array, from: number, n: number, windowEnd: number): number {
  let end = from, all = true;
  while (end < n && (startMs[end] as number) < windowEnd) {
    if ((endMs[end] as number) > windowEnd) all = false;
    end++;
  }
  return all ? end : -end - 1;
}

const isInside = (c: DeviceColumns, i: number, window: TimeWindow): boolean =>
  (c.startMs[i] as number) >= window.startMs && (c.endMs[i] as number) <= window.endMs;

/**
 * Builds the series of one device or of a group of devices over a window from per-device
 * columns (each in ascending `startMs`). Intervals wholly inside the window only (see
 * `inWindow`). A single device whose intervals in the window all carry numbers is returned as
 * views on its columns, without copying; a group is joined on interval start in one merge pass
 * per extra member. Linear in the intervals of the window.
 *
 * @example
 * const s = buildSeriesFromColumns([sdaColumns, sdbColumns], { startMs: t0, endMs: t1 });
 * // s.reads[i] = reads of sda + reads of sdb in the interval starting at s.startMs[i]
 */
export function buildSeriesFromColumns(perDevice: readonly DeviceColumns[], window: TimeWindow): Series {
  const first = perDevice[0] ?? allocColumns('', 0);
  if (perDevice.length <= 1) {
    const r0 = insideRange(first, window);
    if (r0.all) {
      let allOk = true;
      for (let i = r0.lo; i < r0.end; i++) if (first.ok[i] !== 1) { allOk = false; break; }
      if (allOk) {
        const v = (a: Float64Array): Float64Array => a.subarray(r0.lo, r0.end);
        return {
          n: r0.end - r0.lo, members: 1, startMs: v(first.startMs), endMs: v(first.endMs), intervalMs: v(first.intervalMs),
          ok: first.ok.subarray(r0.lo, r0.end), reads: v(first.reads), writes: v(first.writes), readBytes: v(first.readBytes),
          writeBytes: v(first.writeBytes), readTimeMs: v(first.readTimeMs), writeTimeMs: v(first.writeTimeMs), busyMs: v(first.busyMs),
          weightedMs: v(first.weightedMs), notOk: emptyNotOk(),
        };
      }
    }
  }
  const g = new GroupSeriesBuilder(window, perDevice.length);
  if (perDevice.length === 0) g.add(first);
  for (const c of perDevice) g.add(c);
  return g.finish();
}

/** The `ok` flags of {@link deviceWindowView}, one buffer grown as needed (a view is read before the next is made). */
let viewOk = new Uint8Array(0);

/**
 * One device's intervals in a window as a {@link Series} for {@link summarizeSeries} (which reads
 * `n`, `members`, `notOk` and the `ok` slots only), without copying its columns: the numeric
 * columns are views on the device's, and `ok` marks the `ok` intervals wholly inside the window
 * (a copy of the device's flags, in a buffer reused by the next call). Slots that are not `ok`
 * keep the device's values, so use it to summarize, not as a series to draw or join. Summarizes
 * to the same figures as {@link buildSeriesFromColumns} of the device alone.
 *
 * @example
 * summarizeSeries(deviceWindowView(sda, window)) // deep-equal to summarizeSeries(buildSeriesFromColumns([sda], window))
 */
export function deviceWindowView(c: DeviceColumns, window: TimeWindow): Series {
  const { lo, end, all } = insideRange(c, window);
  const n = end - lo;
  if (viewOk.length < n) viewOk = new Uint8Array(Math.max(n, Math.ceil(viewOk.length * 1.5)));
  const ok = viewOk.subarray(0, n);
  const notOk = emptyNotOk();
  const cOk = c.ok, status = c.status, cStart = c.startMs, cEnd = c.endMs, wStart = window.startMs, wEnd = window.endMs;
  for (let i = lo; i < end; i++) {
    if (!all && !((cStart[i] as number) >= wStart && (cEnd[i] as number) <= wEnd)) { ok[i - lo] = 0; continue; }
    const o = cOk[i] === 1 ? 1 : 0;
    ok[i - lo] = o;
    if (o === 0) notOk[NOT_OK_KEY[status[i] as number] ?? 'gap']++;
  }
  const v = (a: Float64Array): Float64Array => a.subarray(lo, end);
  return {
    n, members: 1, startMs: v(c.startMs), endMs: v(c.endMs), intervalMs: v(c.intervalMs), ok, reads: v(c.reads), writes: v(c.writes),
    readBytes: v(c.readBytes), writeBytes: v(c.writeBytes), readTimeMs: v(c.readTimeMs), writeTimeMs: v(c.writeTimeMs), busyMs: v(c.busyMs),
    weightedMs: v(c.weightedMs), notOk,
  };
}

/** A group's slots from its first member: its intervals wholly inside the window, copied (a not-ok slot keeps NaN counts). */
function firstMemberSlots(c: DeviceColumns, window: TimeWindow, members: number): Series {
  const r0 = insideRange(c, window);
  if (r0.all) return copyRun(c, r0.lo, r0.end, members);
  let count = 0;
  for (let i = r0.lo; i < r0.end; i++) if (isInside(c, i, window)) count++;
  const s = alloc(count, members);
  let k = 0;
  for (let i = r0.lo; i < r0.end; i++) {
    if (!isInside(c, i, window)) continue;
    s.startMs[k] = c.startMs[i] as number;
    s.endMs[k] = c.endMs[i] as number;
    s.intervalMs[k] = c.intervalMs[i] as number;
    if (c.ok[i] !== 1) {
      s.notOk[NOT_OK_KEY[c.status[i] as number] ?? 'gap']++;
      k++;
      continue;
    }
    s.ok[k] = 1;
    for (const key of COUNT_COLUMNS) s[key][k] = c[key][i] as number;
    k++;
  }
  return s;
}

/** The slots `[lo, end)` of a member whose intervals there all lie inside the window: one run, copied column by column. */
function copyRun(c: DeviceColumns, lo: number, end: number, members: number): Series {
  const count = end - lo;
  // copies of the columns (slice: no NaN fill of arrays about to be written over), in alloc's field order
  const v = (a: Float64Array): Float64Array => a.slice(lo, end);
  const s: Series = {
    n: count, members, startMs: v(c.startMs), endMs: v(c.endMs), intervalMs: v(c.intervalMs), ok: c.ok.slice(lo, end), reads: v(c.reads),
    writes: v(c.writes), readBytes: v(c.readBytes), writeBytes: v(c.writeBytes), readTimeMs: v(c.readTimeMs), writeTimeMs: v(c.writeTimeMs),
    busyMs: v(c.busyMs), weightedMs: v(c.weightedMs), notOk: emptyNotOk(),
  };
  const ok = c.ok, status = c.status;
  for (let i = lo; i < end; i++) if (ok[i] !== 1) s.notOk[NOT_OK_KEY[status[i] as number] ?? 'gap']++;
  // a slot that is not ok keeps no counts
  for (let k = 0; k < count; k++) {
    if (s.ok[k] === 1) continue;
    for (const key of COUNT_COLUMNS) s[key][k] = NaN;
  }
  return s;
}

/**
 * Whether `cStart[lo + j]` is `sStart[j]` for every slot j of `sStart`, and these starts strictly
 * ascend (with two slots of one start, the merge join adds both members' intervals to the first).
 */
function sameStarts(sStart: Float64Array, cStart: Float64Array, lo: number): boolean {
  let prev = -Infinity;
  for (let j = 0; j < sStart.length; j++) {
    const t = sStart[j] as number;
    if (cStart[lo + j] !== t || !(t > prev)) return false;
    prev = t;
  }
  return true;
}

/**
 * Builds a group's series over a window one member at a time, so that a caller can load a
 * device, add it, and drop it before loading the next ({@link buildSeriesFromColumns} is this
 * with every member at hand). The first member gives the slots (its intervals wholly inside the
 * window, copied); each further member is merge-joined on interval start: its counts are added
 * to the slot with the same start, and a slot it lacks or where it is not `ok` is not `ok`.
 * Memory: the slots of the window, whatever the number of members.
 *
 * @example
 * const g = new GroupSeriesBuilder({ startMs: t0, endMs: t1 }, 2);
 * g.add(load('sdb')); g.add(load('sdc'));
 * const s = g.finish(); // the same as buildSeriesFromColumns([sdb, sdc], window)
 */
export class GroupSeriesBuilder {
  private s: Series | null = null;
  private seen: Uint8Array | null = null;
  private added = 0;
  private readonly window: TimeWindow;
  private readonly members: number;
  /** @param members the number of members that will be added (utilization is averaged over them) */
  constructor(window: TimeWindow, members: number) {
    this.window = window;
    this.members = members;
  }

  /** Adds a member: the first gives the slots, each further one is joined on interval start. */
  add(c: DeviceColumns): void {
    this.added++;
    if (this.s === null) this.s = firstMemberSlots(c, this.window, Math.max(1, this.members));
    else this.join(c);
  }

  /** Merge-joins a further member into the slots: its counts added where its start matches, `ok` cleared where it lacks the slot or is not ok. */
  private join(c: DeviceColumns): void {
    const window = this.window;
    const s = this.s as Series;
    const r = insideRange(c, window);
    // a member whose slots start where the group's do, one for one (a probe samples every device
    // at once): its slot i is the group's i − lo, the merge's search skipped (it would find the same)
    const aligned = r.all && r.end - r.lo === s.n && sameStarts(s.startMs, c.startMs, r.lo);
    this.seen ??= new Uint8Array(s.n);
    const seen = this.seen;
    seen.fill(0);
    // the columns in locals: the loop reads typed arrays only (property loads on objects of several
    // shapes, each iteration, made it several times slower)
    const sn = s.n, sStart = s.startMs, sOk = s.ok;
    const sR = s.reads, sW = s.writes, sRB = s.readBytes, sWB = s.writeBytes, sRT = s.readTimeMs, sWT = s.writeTimeMs, sB = s.busyMs, sQ = s.weightedMs;
    const cStart = c.startMs, cEnd = c.endMs, cOk = c.ok, cStatus = c.status;
    const cR = c.reads, cW = c.writes, cRB = c.readBytes, cWB = c.writeBytes, cRT = c.readTimeMs, cWT = c.writeTimeMs, cB = c.busyMs, cQ = c.weightedMs;
    const wStart = window.startMs, wEnd = window.endMs, all = r.all, lo = r.lo;
    let j = 0; // merge join on start: both sides ascending
    for (let i = lo; i < r.end; i++) {
      const start = cStart[i] as number;
      if (!all && !(start >= wStart && (cEnd[i] as number) <= wEnd)) continue;
      const okHere = cOk[i] === 1;
      if (!okHere) s.notOk[NOT_OK_KEY[cStatus[i] as number] ?? 'gap']++;
      if (aligned) j = i - lo;
      else {
        while (j < sn && (sStart[j] as number) < start) j++;
        if (j >= sn || sStart[j] !== start) continue; // a slot the first member does not have: not comparable
      }
      seen[j] = 1;
      if (!okHere || sOk[j] === 0) {
        sOk[j] = 0;
        continue;
      }
      sR[j] = (sR[j] as number) + (cR[i] as number);
      sW[j] = (sW[j] as number) + (cW[i] as number);
      sRB[j] = (sRB[j] as number) + (cRB[i] as number);
      sWB[j] = (sWB[j] as number) + (cWB[i] as number);
      sRT[j] = (sRT[j] as number) + (cRT[i] as number);
      sWT[j] = (sWT[j] as number) + (cWT[i] as number);
      sB[j] = (sB[j] as number) + (cB[i] as number);
      sQ[j] = (sQ[j] as number) + (cQ[i] as number);
    }
    for (let i = 0; i < sn; i++) if (seen[i] === 0) sOk[i] = 0;
  }

  /** The group's series (members not ok in a slot leave NaN counts there). */
  finish(): Series {
    if (this.s === null) this.add(allocColumns('', 0));
    const s = this.s as Series;
    if (this.added > 1) {
      for (let i = 0; i < s.n; i++) {
        if (s.ok[i] === 1) continue;
        s.reads[i] = s.writes[i] = s.readBytes[i] = s.writeBytes[i] = NaN;
        s.readTimeMs[i] = s.writeTimeMs[i] = s.busyMs[i] = s.weightedMs[i] = NaN;
      }
    }
    return s;
  }
}

/**
 * Builds the series of one device or of a group of devices over a window from records: each
 * inner array holds one device's records (see `groupByDevice`). The same as
 * {@link buildSeriesFromColumns} on those records' columns.
 *
 * @example
 * const s = buildSeries([recordsOfSda, recordsOfSdb], { startMs: t0, endMs: t1 });
 * // s.reads[i] = reads of sda + reads of sdb in the interval starting at s.startMs[i]
 */
export function buildSeries(perDevice: readonly (readonly IntervalRecord[])[], window: TimeWindow): Series {
  return buildSeriesFromColumns(perDevice.map((list) => columnsOfList(list)), window);
}

/** One device's records (whatever their `device` field says) as columns, sorted by start. */
function columnsOfList(list: readonly IntervalRecord[]): DeviceColumns {
  if (list.length === 0) return allocColumns('', 0);
  const relabelled = list.map((r) => (r.device === (list[0] as IntervalRecord).device ? r : { ...r, device: (list[0] as IntervalRecord).device }));
  return columnsFromRecords(relabelled)[0] as DeviceColumns;
}
