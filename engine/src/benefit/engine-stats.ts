/**
 * The cache engine's own account of itself (capture tables `engine_actions` and `engine_stats`,
 * docs/capture-schema.md, docs/adapters.md) beside the disk counters: what share of the I/O the
 * engine says it served from its cache, against the share the front and backing counters show,
 * with a warning when they differ by more than {@link ENGINE_DIFFERENCE_POINTS} percentage points.
 * docs/metrics.md § Engine statistics.
 */
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import type { EngineRecords, EngineStatSample } from '../records/engine.ts';

/** The largest difference, in percentage points, between the engine's share and the counters' share before a warning. */
export const ENGINE_DIFFERENCE_POINTS = 5;

/** Why a share of the comparison is null. */
export type EngineReason =
  /** The engine keeps no hit/miss counters of this kind (loop-dio: the page cache has none per device; bcache: no read/write split). */
  | 'engine-has-no-counters'
  /** Fewer than two counter reads inside the measure window: nothing to difference. */
  | 'too-few-engine-samples'
  /** A cumulative counter went backwards inside the window (engine restarted or counters cleared). */
  | 'engine-counter-reset'
  /** The engine counted no I/O of this kind in the window. */
  | 'engine-no-io'
  /** The disk counters give no share (no front device, no I/O): see benefit.cacheServedPercent. */
  | 'counters-no-share'
  /** The capture was recorded without a cache-engine adapter (manual switch, imports, older captures). */
  | 'no-adapter'
  /** A step with no exit status: a sysfs write, a command that timed out or could not start. */
  | 'no-exit-status'
  /** The adapter could not read the engine's mode. */
  | 'mode-unknown';

/** Which counting differences apply to this engine (each explains part of a gap between the two shares). */
export type EngineNote =
  /** Partial misses (part of a request in cache) are counted as misses. */
  | 'partial-misses'
  /** Bypassed (pass-through) I/O is counted as not served by the cache. */
  | 'bypassed-io'
  /** The engine counts bios (after splitting and merging), the disk counters completed requests. */
  | 'bios-not-requests'
  /** The engine does not split hits into reads and writes: only the share of all I/O is compared. */
  | 'no-read-write-split'
  /** A write hit in write-through mode still reaches the backing device: the counters show it as not served. */
  | 'write-hits-reach-backing'
  /** The engine's counters are differenced over the measure window only: the warm-up is excluded on both sides. */
  | 'measure-window-only';

/** One share: the engine's, the counters', and their difference. */
export interface EngineShare {
  /** Hits ÷ (hits + misses) × 100 from the engine's cumulative counters over the measure window; null with a reason. */
  enginePercent: number | null;
  /** The counters' cache-served share of the same kind over the measure window, percent (benefit.cacheServedPercent; `all`: reads and writes together). */
  countersPercent: number | null;
  /** enginePercent − countersPercent, percentage points. */
  differencePoints: number | null;
  /** |differencePoints| > {@link ENGINE_DIFFERENCE_POINTS}. */
  exceeds: boolean;
  /** Engine hits in the window (the unit of the engine's counters). */
  engineHits: number | null;
  /** Engine hits + misses in the window. */
  engineTotal: number | null;
  reasons: Record<string, EngineReason>;
}

/** A counter over the measure window: a difference (`cumulative`) or the last level read (`current`, decaying averages). */
export interface EngineCounterRow {
  name: string;
  unit: string;
  window: string;
  /** `difference`: last − first read inside the window; `last`: the last value read inside it (a level or a decaying average: never differenced). */
  method: 'difference' | 'last';
  value: number | null;
  reasons: Record<string, EngineReason>;
}

/** An adapter's action, as reported. */
export interface EngineActionRow {
  /** ISO-8601 UTC. */
  start: string;
  end: string;
  startMs: number;
  action: string;
  step: string;
  ok: boolean;
  exitStatus: number | null;
  modeBefore: string | null;
  modeAfter: string | null;
  output: string;
  reasons: Record<string, EngineReason>;
}

/** The `engineStats` object of the analysis report (docs/analyze-json.md). */
export interface EngineStatsReport {
  adapter: string;
  device: string;
  window: { start: string; end: string; seconds: number };
  method: 'cumulative-difference-in-measure-window';
  thresholdPoints: number;
  shares: { reads: EngineShare; writes: EngineShare; all: EngineShare };
  notes: EngineNote[];
  counters: EngineCounterRow[];
  actions: EngineActionRow[];
  /** Counter reads inside the window. */
  samples: number;
}

/** The `cacheEngine` section of the analysis report: the comparison, or null with a reason (`no-adapter`). */
export interface CacheEngineSection {
  comparison: EngineStatsReport | null;
  reasons: Record<string, EngineReason>;
}

/** The counters' shares (benefit.cacheServedPercent, and reads and writes together), percent or null. */
export interface CounterShares {
  reads: number | null;
  writes: number | null;
  all: number | null;
}

const READ_MISSES = ['read_misses', 'read_partial_misses', 'read_full_misses', 'pass_through_reads'] as const;
const WRITE_MISSES = ['write_misses', 'write_partial_misses', 'write_full_misses', 'pass_through_writes'] as const;
/** bcache's stats_total: no read/write split. */
const ALL_HITS = 'cache_hits';
const ALL_MISSES = ['cache_misses', 'cache_bypass_hits', 'cache_bypass_misses'] as const;

/** A cumulative counter's change over the window: last − first read inside it, or a reason. */
function difference(samples: readonly EngineStatSample[]): { value: number } | { reason: EngineReason } {
  if (samples.length < 2) return { reason: 'too-few-engine-samples' };
  for (let i = 1; i < samples.length; i++) {
    if ((samples[i] as EngineStatSample).value < (samples[i - 1] as EngineStatSample).value) return { reason: 'engine-counter-reset' };
  }
  return { value: (samples[samples.length - 1] as EngineStatSample).value - (samples[0] as EngineStatSample).value };
}

/**
 * The engine's share for one kind: hits ÷ (hits + every miss counter present) × 100, each a
 * difference over the window; null with a reason when a counter is absent, reset or idle.
 */
function engineShare(deltas: Map<string, { value: number } | { reason: EngineReason }>, hitName: string, missNames: readonly string[]):
  { percent: number; hits: number; total: number } | { reason: EngineReason } {
  const hit = deltas.get(hitName);
  const misses = missNames.filter((n) => deltas.has(n));
  if (hit === undefined || misses.length === 0) return { reason: 'engine-has-no-counters' };
  if ('reason' in hit) return hit;
  let total = hit.value;
  for (const n of misses) {
    const d = deltas.get(n) as { value: number } | { reason: EngineReason };
    if ('reason' in d) return d;
    total += d.value;
  }
  if (!(total > 0)) return { reason: 'engine-no-io' };
  return { percent: (hit.value / total) * 100, hits: hit.value, total };
}

function share(engine: ReturnType<typeof engineShare>, counters: number | null): EngineShare {
  const reasons: Record<string, EngineReason> = {};
  const enginePercent = 'reason' in engine ? null : engine.percent;
  if ('reason' in engine) reasons['enginePercent'] = engine.reason;
  if (counters === null) reasons['countersPercent'] = 'counters-no-share';
  const differencePoints = enginePercent !== null && counters !== null ? enginePercent - counters : null;
  if (differencePoints === null) reasons['differencePoints'] = reasons['enginePercent'] ?? 'counters-no-share';
  return {
    enginePercent,
    countersPercent: counters,
    differencePoints,
    exceeds: differencePoints !== null && Math.abs(differencePoints) > ENGINE_DIFFERENCE_POINTS,
    engineHits: 'reason' in engine ? null : engine.hits,
    engineTotal: 'reason' in engine ? null : engine.total,
    reasons,
  };
}

/**
 * Compares the engine's own statistics with the disk counters over the measure window.
 *
 * Method: every `cumulative` engine counter is differenced between its first and last read
 * inside the window (reads at `startMs ≤ t ≤ endMs`; a counter that goes backwards gives no
 * difference: `engine-counter-reset`). Engine share of a kind = hits ÷ (hits + misses) × 100,
 * where misses are every miss counter the engine has: reads `read_misses`,
 * `read_partial_misses`, `read_full_misses`, `pass_through_reads` (bypassed I/O counts as not
 * served); writes likewise; all I/O = reads + writes, or bcache's `cache_hits` ÷ (`cache_hits` +
 * `cache_misses` + `cache_bypass_hits` + `cache_bypass_misses`). The counters' share is
 * benefit.cacheServedPercent ((1 − backing ÷ front) × 100, `all`: reads and writes summed).
 * Difference = engine − counters, percentage points; |difference| > 5 is `exceeds` (and the
 * analysis warns `engine-counters-differ`). Levels (`current`) and decaying averages are
 * reported as their last read, never differenced. Returns null for a capture with no adapter.
 *
 * @example
 * // dm-cache, measure window: read_hits 1000 → 1900, read_misses 500 → 600 (900 hits of 1000 reads)
 * // counters: front 1000 reads, backing 150 reads → countersPercent 85
 * compareEngineStats(records, window, { reads: 85, writes: null, all: null }).shares.reads
 * // { enginePercent: 90, countersPercent: 85, differencePoints: 5, exceeds: false, engineHits: 900, engineTotal: 1000, … }
 */
export function compareEngineStats(records: EngineRecords | undefined, window: TimeWindow, counters: CounterShares): EngineStatsReport | null {
  if (records === undefined) return null;
  const inside = records.stats.filter((s) => s.atMs >= window.startMs && s.atMs <= window.endMs);
  const series = new Map<string, EngineStatSample[]>();
  for (const s of inside) {
    const key = `${s.name}\u0000${s.window}`;
    let list = series.get(key);
    if (list === undefined) {
      list = [];
      series.set(key, list);
    }
    list.push(s);
  }
  // names present anywhere in the capture, so that a counter the engine has but did not report in the window reads as "too few samples", not "none"
  const known = new Map<string, { unit: string; window: string }>();
  for (const s of records.stats) if (!known.has(`${s.name}\u0000${s.window}`)) known.set(`${s.name}\u0000${s.window}`, { unit: s.unit, window: s.window });
  const deltas = new Map<string, { value: number } | { reason: EngineReason }>();
  const counterRows: EngineCounterRow[] = [];
  for (const [key, info] of known) {
    const name = key.slice(0, key.indexOf('\u0000'));
    const list = (series.get(key) ?? []).slice().sort((a, b) => a.atMs - b.atMs);
    if (info.window === 'cumulative') {
      const d = difference(list);
      deltas.set(name, d);
      counterRows.push({ name, unit: info.unit, window: info.window, method: 'difference', value: 'value' in d ? d.value : null, reasons: 'reason' in d ? { value: d.reason } : {} });
    } else {
      const last = list[list.length - 1];
      counterRows.push({ name, unit: info.unit, window: info.window, method: 'last', value: last?.value ?? null, reasons: last === undefined ? { value: 'too-few-engine-samples' } : {} });
    }
  }
  const reads = engineShare(deltas, 'read_hits', READ_MISSES);
  const writes = engineShare(deltas, 'write_hits', WRITE_MISSES);
  let all: ReturnType<typeof engineShare>;
  if (!('reason' in reads) && !('reason' in writes)) {
    all = reads.total + writes.total > 0
      ? { percent: ((reads.hits + writes.hits) / (reads.total + writes.total)) * 100, hits: reads.hits + writes.hits, total: reads.total + writes.total }
      : { reason: 'engine-no-io' };
  } else if (deltas.has(ALL_HITS)) {
    all = engineShare(deltas, ALL_HITS, ALL_MISSES);
  } else if ('reason' in reads && reads.reason !== 'engine-has-no-counters') {
    all = reads;
  } else if ('reason' in writes && writes.reason !== 'engine-has-no-counters') {
    all = writes;
  } else {
    all = { reason: 'engine-has-no-counters' };
  }
  const names = new Set(deltas.keys());
  const units = new Set(records.stats.map((s) => s.unit));
  const notes: EngineNote[] = [];
  if (names.has('read_partial_misses') || names.has('write_partial_misses')) notes.push('partial-misses');
  if ([...names].some((n) => n.startsWith('pass_through_') || n.startsWith('cache_bypass_'))) notes.push('bypassed-io');
  if (units.has('bios')) notes.push('bios-not-requests');
  if (names.has(ALL_HITS) && !names.has('read_hits')) notes.push('no-read-write-split');
  if (names.has('write_hits')) notes.push('write-hits-reach-backing');
  if (deltas.size > 0) notes.push('measure-window-only');
  return {
    adapter: records.adapter,
    device: records.device,
    window: { start: isoUtc(window.startMs), end: isoUtc(window.endMs), seconds: (window.endMs - window.startMs) / 1000 },
    method: 'cumulative-difference-in-measure-window',
    thresholdPoints: ENGINE_DIFFERENCE_POINTS,
    shares: { reads: share(reads, counters.reads), writes: share(writes, counters.writes), all: share(all, counters.all) },
    notes,
    counters: counterRows,
    actions: records.actions.map((a) => {
      const reasons: Record<string, EngineReason> = {};
      if (a.exitStatus === null) reasons['exitStatus'] = 'no-exit-status';
      if (a.modeBefore === null) reasons['modeBefore'] = 'mode-unknown';
      if (a.modeAfter === null) reasons['modeAfter'] = 'mode-unknown';
      return {
        start: isoUtc(a.startMs), end: isoUtc(a.endMs), startMs: a.startMs, action: a.action, step: a.step, ok: a.ok,
        exitStatus: a.exitStatus, modeBefore: a.modeBefore, modeAfter: a.modeAfter, output: a.output, reasons,
      };
    }),
    samples: inside.length,
  };
}

/**
 * The report's `cacheEngine` section: {@link compareEngineStats}, or null with the reason
 * `no-adapter` for a capture recorded without an adapter.
 *
 * @example
 * cacheEngineSection(undefined, window, shares) // { comparison: null, reasons: { comparison: 'no-adapter' } }
 */
export function cacheEngineSection(records: EngineRecords | undefined, window: TimeWindow, counters: CounterShares): CacheEngineSection {
  const comparison = compareEngineStats(records, window, counters);
  return comparison === null ? { comparison: null, reasons: { comparison: 'no-adapter' } } : { comparison, reasons: {} };
}

/**
 * The adapter that switched the cache on during the capture (it ran an `enable` action), or null
 * when the switch was manual (or the capture has no adapter record): the dashboard and the report
 * say who switched it.
 */
export function switchedByAdapter(s: CacheEngineSection): string | null {
  const c = s.comparison;
  return c !== null && c.actions.some((a) => a.action === 'enable') ? c.adapter : null;
}
