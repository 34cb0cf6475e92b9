/**
 * The shape of the load per device role and window, beside the benefit figures: the read/write
 * split and the queue depth (`readWriteQueue`, window summaries of the group series: nothing
 * computed again) and the request-size distribution (`requestSizes`, from the interval counters
 * and, where the capture has a block trace, from the requests themselves). docs/metrics.md §
 * Read/write split and queue depth, § Request sizes.
 */
import type { Reasons, WindowSummary } from '../metrics/summary.ts';
import type { TraceSizeSource } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import { addTracedSizes, emptySizeCounts, requestSizeBuckets, sizeDistribution, type OpSizeCounts, type SizeBucket, type SizeDistribution } from '../metrics/request-size.ts';
import type { GroupWindows } from './result.ts';

type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

/** Mean, 95th percentile and peak of one per-interval figure of a group over a window. */
export interface PeakStat {
  /** `1/s` for reads and writes per second, `requests` for the average queue size. */
  unit: '1/s' | 'requests';
  /** `reads-per-second` = Δreads ÷ Δt; `writes-per-second` = Δwrites ÷ Δt; `weighted-ms-per-ms` = Δweighted_ms ÷ Δt_ms (aqu-sz). */
  method: 'reads-per-second' | 'writes-per-second' | 'weighted-ms-per-ms';
  /** Ratio of sums over the window's `ok` intervals (the time-weighted mean). */
  mean: number | null;
  /** Type-7 95th percentile of the per-interval values. */
  p95: number | null;
  /** The largest per-interval value. */
  peak: number | null;
  /** Intervals with a value. */
  n: number;
  /**
   * What to say beside the figures: `bursty` when the mean lies above the 95th percentile (a few
   * short bursts, a cache's flushes, carry most of the I/O, so the mean describes no typical
   * interval; the dashboard and the report say so in one line); empty otherwise.
   */
  notes: PeakNote[];
  reasons: Reasons;
}

export interface ReadWriteQueueWindow {
  window: Win;
  /** ISO-8601 UTC: the analysed window (after warm-up and trim). */
  start: string;
  end: string;
  readsPerSec: PeakStat;
  writesPerSec: PeakStat;
  /** Σ reads ÷ Σ I/Os × 100 over the window. */
  readSharePercent: number | null;
  aquSz: PeakStat;
  reasons: Reasons;
}

export interface ReadWriteQueueGroup {
  devices: string[];
  baseline: ReadWriteQueueWindow;
  measure: ReadWriteQueueWindow;
}

/** `readWriteQueue` of the analysis (docs/analyze-json.md). */
export interface ReadWriteQueueSection {
  /** How the summaries are taken from the per-interval values of the group (members summed per interval). */
  stats: 'mean-ratio-of-sums; p95-type-7; peak-max';
  front: ReadWriteQueueGroup | null;
  backing: ReadWriteQueueGroup;
  reasons: Reasons;
}

/** A note on a {@link PeakStat}'s figures. */
export type PeakNote = 'bursty';

/** `bursty` when the mean lies above the 95th percentile ({@link PeakStat.notes}). */
export function burstNotes(mean: number | null, p95: number | null): PeakNote[] {
  return mean !== null && p95 !== null && mean > p95 ? ['bursty'] : [];
}

function peakStat(s: WindowSummary, key: 'readsPerSec' | 'writesPerSec' | 'aquSz'): PeakStat {
  const reasons: Reasons = {};
  const d = s.percentiles[key];
  const mean = s.means[key];
  if (mean === null) reasons['mean'] = s.means.reasons[key] ?? 'no-data';
  if (d === null) {
    const r = s.percentiles.reasons[key] ?? 'no-data';
    reasons['p95'] = r;
    reasons['peak'] = r;
  }
  return {
    unit: key === 'aquSz' ? 'requests' : '1/s',
    method: key === 'readsPerSec' ? 'reads-per-second' : key === 'writesPerSec' ? 'writes-per-second' : 'weighted-ms-per-ms',
    mean, p95: d?.p95 ?? null, peak: d?.max ?? null, n: d?.n ?? 0, notes: burstNotes(mean, d?.p95 ?? null), reasons,
  };
}

function rwqWindow(s: WindowSummary, k: Win, w: TimeWindow): ReadWriteQueueWindow {
  const reasons: Reasons = {};
  const share = s.means.readSharePercent;
  if (share === null) reasons['readSharePercent'] = s.means.reasons['readSharePercent'] ?? 'no-data';
  return {
    window: k, start: isoUtc(w.startMs), end: isoUtc(w.endMs),
    readsPerSec: peakStat(s, 'readsPerSec'), writesPerSec: peakStat(s, 'writesPerSec'), readSharePercent: share, aquSz: peakStat(s, 'aquSz'), reasons,
  };
}

/**
 * Reads/s, writes/s (with the read share) and the average queue size (aqu-sz) of the front and
 * backing groups in each window: mean, p95 and peak, read from the groups' window summaries
 * (`summarizeSeries`: the same numbers as `groups.*.means` and `.percentiles`).
 *
 * @example
 * readWriteQueueSection(groups, wins).backing.measure.aquSz // { unit: 'requests', method: 'weighted-ms-per-ms', mean: 0.42, p95: 1.1, peak: 3.9, n: 3600, notes: [], reasons: {} }
 */
export function readWriteQueueSection(groups: { front: GroupWindows | null; backing: GroupWindows }, wins: Record<Win, TimeWindow>): ReadWriteQueueSection {
  const of = (g: GroupWindows): ReadWriteQueueGroup => ({ devices: g.devices, baseline: rwqWindow(g.baseline, 'baseline', wins.baseline), measure: rwqWindow(g.measure, 'measure', wins.measure) });
  const reasons: Reasons = {};
  if (groups.front === null) reasons['front'] = 'backing-only-mode';
  return { stats: 'mean-ratio-of-sums; p95-type-7; peak-max', front: groups.front === null ? null : of(groups.front), backing: of(groups.backing), reasons };
}

/** A block trace's distribution carries the share of block addresses it kept. */
export type TraceSizeDistribution = SizeDistribution & { sampleRate: number };

export interface RequestSizesWindow {
  window: Win;
  start: string;
  end: string;
  /** From the interval counters (always). */
  fromCounters: SizeDistribution;
  /** From the traced requests, when every device of the group has traced reads or writes in the window; else null (`not-reported`). */
  fromTrace: TraceSizeDistribution | null;
  reasons: Reasons;
}

export interface RequestSizesGroup {
  devices: string[];
  baseline: RequestSizesWindow;
  measure: RequestSizesWindow;
}

/** `requestSizes` of the analysis (docs/analyze-json.md). */
export interface RequestSizesSection {
  unit: 'bytes';
  /** The buckets, in order: [0, 512), [512, 1024), … [2 MiB, 4 MiB), then 4 MiB and more (no `highBytes`). */
  buckets: SizeBucket[];
  front: RequestSizesGroup | null;
  backing: RequestSizesGroup;
  reasons: Reasons;
}

/** The group's traced requests in the window, when every one of its devices has some; null otherwise. */
function tracedSizes(trace: TraceSizeSource | null | undefined, devices: readonly string[], w: TimeWindow): TraceSizeDistribution | null {
  if (trace === null || trace === undefined || devices.length === 0) return null;
  const counts: OpSizeCounts = emptySizeCounts();
  for (const d of devices) {
    const rows = trace.sizes(d, w.startMs, w.endMs).filter((r) => r.count > 0);
    if (rows.length === 0) return null;
    addTracedSizes(counts, rows);
  }
  return { ...sizeDistribution(counts, 'block-trace'), sampleRate: trace.sampleRate };
}

/**
 * The request-size distribution of the front and backing groups in each window: from the
 * interval counters (`counters`, summed over each group's devices during the analysis' pass) and,
 * where the capture has a block trace covering every device of the group in the window, from the
 * traced requests (exact sizes).
 */
export function requestSizesSection(devices: { front: readonly string[]; backing: readonly string[] }, counters: { front: Record<Win, OpSizeCounts> | null; backing: Record<Win, OpSizeCounts> },
  wins: Record<Win, TimeWindow>, trace: TraceSizeSource | null | undefined): RequestSizesSection {
  const group = (names: readonly string[], c: Record<Win, OpSizeCounts>): RequestSizesGroup => {
    const win = (k: Win): RequestSizesWindow => {
      const fromTrace = tracedSizes(trace, names, wins[k]);
      const reasons: Reasons = {};
      if (fromTrace === null) reasons['fromTrace'] = 'not-reported';
      return { window: k, start: isoUtc(wins[k].startMs), end: isoUtc(wins[k].endMs), fromCounters: sizeDistribution(c[k], 'interval-average'), fromTrace, reasons };
    };
    return { devices: [...names], baseline: win(WINS[0] as Win), measure: win(WINS[1] as Win) };
  };
  const reasons: Reasons = {};
  if (counters.front === null) reasons['front'] = 'backing-only-mode';
  return {
    unit: 'bytes',
    buckets: requestSizeBuckets(),
    front: counters.front === null ? null : group(devices.front, counters.front),
    backing: group(devices.backing, counters.backing),
    reasons,
  };
}
