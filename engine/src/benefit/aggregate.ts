import type { Series } from '../metrics/series.ts';
import type { TimeWindow } from '../records/window.ts';
import { HOUR_MS } from './windows.ts';

/**
 * Layout of an aggregate vector: additive sums over the intervals of a block, an hour of the
 * day, or a whole window. `f*` = application-facing (front) group over its `ok` intervals,
 * `b*` = backing group over its `ok` intervals, `j*` = intervals where both groups are `ok`
 * (the exact-attribution set). Seconds are Σ Δt; latency sums only where time was reported.
 * The front's six sums and the backing's six are in the same order (addSide relies on it).
 */
export const AGG = {
  fSec: 0, fReads: 1, fWrites: 2, fBytes: 3, fLatIos: 4, fLatMs: 5,
  bSec: 6, bReads: 7, bWrites: 8, bBytes: 9, bLatIos: 10, bLatMs: 11,
  jSec: 12, jFReads: 13, jFWrites: 14, jBReads: 15, jBWrites: 16,
} as const;
/** Length of an aggregate vector. */
export const AGG_K = 17;

export interface WindowAggregates {
  /** Sum over the whole window. */
  total: Float64Array;
  /** Non-empty blocks, in time order. */
  blocks: Float64Array[];
  /** Block length, ms. */
  blockMs: number;
  /** Index = UTC hour of the day (0–23); null where the window has no `ok` interval starting in that hour. */
  hours: (Float64Array | null)[];
}

/** Minimum number of blocks a window is cut into for the bootstrap. */
export const MIN_BLOCKS = 12;

/**
 * Block length for the bootstrap, ms: one hour when the window holds at least 12 hours,
 * otherwise the window split into 12 equal blocks.
 *
 * @example
 * blockLengthMs(24 * 3_600_000) // 3_600_000
 * blockLengthMs(2 * 3_600_000)  // 600_000 (10 min)
 */
export function blockLengthMs(windowMs: number): number {
  return windowMs >= MIN_BLOCKS * HOUR_MS ? HOUR_MS : windowMs / MIN_BLOCKS;
}

/** Offsets of one group's six sums from its first (`AGG.fSec` for the front, `AGG.bSec` for the backing: laid out alike). */
const SIDE = { sec: 0, reads: 1, writes: 2, bytes: 3, latIos: 4, latMs: 5 } as const;

/** Adds slot `i` of one group's series to its six sums, which start at `at`; whether the slot was `ok`. */
function addSide(v: Float64Array, s: Series | null, i: number, at: number): boolean {
  if (s === null || i < 0 || s.ok[i] !== 1) return false;
  const r = s.reads[i] as number, w = s.writes[i] as number;
  v[at + SIDE.sec] = (v[at + SIDE.sec] as number) + (s.intervalMs[i] as number) / 1000;
  v[at + SIDE.reads] = (v[at + SIDE.reads] as number) + r;
  v[at + SIDE.writes] = (v[at + SIDE.writes] as number) + w;
  const by = (s.readBytes[i] as number) + (s.writeBytes[i] as number);
  if (!Number.isNaN(by)) v[at + SIDE.bytes] = (v[at + SIDE.bytes] as number) + by;
  const t = (s.readTimeMs[i] as number) + (s.writeTimeMs[i] as number);
  if (!Number.isNaN(t)) {
    v[at + SIDE.latIos] = (v[at + SIDE.latIos] as number) + r + w;
    v[at + SIDE.latMs] = (v[at + SIDE.latMs] as number) + t;
  }
  return true;
}

function addSlot(v: Float64Array, fs: Series | null, fi: number, bs: Series | null, bi: number): void {
  const fOk = addSide(v, fs, fi, AGG.fSec);
  const bOk = addSide(v, bs, bi, AGG.bSec);
  if (fOk && bOk && fs !== null && bs !== null) {
    v[AGG.jSec] = (v[AGG.jSec] as number) + (fs.intervalMs[fi] as number) / 1000;
    v[AGG.jFReads] = (v[AGG.jFReads] as number) + (fs.reads[fi] as number);
    v[AGG.jFWrites] = (v[AGG.jFWrites] as number) + (fs.writes[fi] as number);
    v[AGG.jBReads] = (v[AGG.jBReads] as number) + (bs.reads[bi] as number);
    v[AGG.jBWrites] = (v[AGG.jBWrites] as number) + (bs.writes[bi] as number);
  }
}

/**
 * Aggregates a window once, in one merge pass over the front and backing series (both in
 * ascending start order; matched by interval start): the window total, the bootstrap blocks
 * ({@link blockLengthMs}, by interval start) and the 24 UTC hours of the day. Linear in the
 * number of intervals. Either series may be null (backing-only mode has no front).
 *
 * @example
 * const agg = aggregateWindow(frontSeries, backingSeries, { startMs, endMs });
 * agg.total[AGG.bReads] + agg.total[AGG.bWrites] // backing I/Os over ok intervals
 */
export function aggregateWindow(front: Series | null, backing: Series | null, window: TimeWindow): WindowAggregates {
  const windowMs = window.endMs - window.startMs;
  const blockMs = blockLengthMs(windowMs);
  const nBlocks = Math.max(1, Math.ceil(windowMs / blockMs - 1e-9));
  const blocks = Array.from({ length: nBlocks }, () => new Float64Array(AGG_K));
  const hours: (Float64Array | null)[] = Array.from({ length: 24 }, () => null);
  const total = new Float64Array(AGG_K);
  const nf = front?.n ?? 0, nb = backing?.n ?? 0;
  let i = 0, j = 0;
  while (i < nf || j < nb) {
    const fStart = i < nf ? ((front as Series).startMs[i] as number) : Infinity;
    const bStart = j < nb ? ((backing as Series).startMs[j] as number) : Infinity;
    let fi = -1, bi = -1, start: number;
    if (fStart === bStart) { fi = i++; bi = j++; start = fStart; }
    else if (fStart < bStart) { fi = i++; start = fStart; }
    else { bi = j++; start = bStart; }
    const okAny = (fi >= 0 && (front as Series).ok[fi] === 1) || (bi >= 0 && (backing as Series).ok[bi] === 1);
    if (!okAny) continue;
    const b = Math.min(nBlocks - 1, Math.max(0, Math.floor((start - window.startMs) / blockMs)));
    const h = Math.floor(start / HOUR_MS) % 24;
    let hv = hours[h] ?? null;
    if (hv === null) { hv = new Float64Array(AGG_K); hours[h] = hv; }
    addSlot(total, front, fi, backing, bi);
    addSlot(blocks[b] as Float64Array, front, fi, backing, bi);
    addSlot(hv, front, fi, backing, bi);
  }
  return {
    total,
    blocks: blocks.filter((v) => (v[AGG.fSec] as number) > 0 || (v[AGG.bSec] as number) > 0),
    blockMs,
    hours,
  };
}
