/**
 * The workload profile per calendar day (issue 37): for each UTC calendar day the profiled window
 * touches, the application-facing group's mean, 95th percentile and peak of IOPS, MB/s and
 * response time, with the time of each peak. UTC, as every time of the profile (its hours, its
 * busiest hour: hours.ts). Each interval belongs to the day holding its midpoint (as an hour does
 * in hours.ts). A day's figures are {@link summarizeSeries} over its intervals, so they are the
 * window's own method: mean = ratio of sums (IOPS = Σ I/Os ÷ Σ seconds, response time = Σ ms ÷
 * Σ I/Os), p95 = type-7 percentile and peak = largest of the per-interval values. The peak's time
 * is the start of the first interval reaching it. A day with no usable interval keeps its row,
 * its figures null with the reason (`no-data`). Pure.
 */
import type { Series } from '../metrics/series.ts';
import { summarizeSeries, type DistributionMetric, type Reasons, type WindowSummary } from '../metrics/summary.ts';
import { isoUtc, type TimeWindow } from '../records/window.ts';
import { BYTES_PER_MB } from '../metrics/interval.ts';

const DAY_MS = 86_400_000;

/** The most days listed (a year): a longer window lists its first 366 days. */
export const MAX_PROFILE_DAYS = 366;

/** One figure of one day: ratio-of-sums mean, type-7 p95 and peak of the per-interval values, and when the peak began. */
export interface DayFigure {
  mean: number | null;
  p95: number | null;
  peak: number | null;
  /** The start of the first interval at the peak, ISO UTC and epoch ms; null with the peak. */
  peakAt: string | null;
  peakAtMs: number | null;
  /** One entry per null field (`no-data`, `no-io`, `not-reported`). */
  reasons: Reasons;
}

/** One calendar day (UTC) of the profiled window. */
export interface DayProfile {
  /** The day, `YYYY-MM-DD` (UTC), and the part of it inside the window (epoch ms). */
  day: string;
  startMs: number;
  endMs: number;
  /** Intervals with numbers that day, and the seconds they cover. */
  okIntervals: number;
  okSeconds: number;
  iops: DayFigure;
  /** MB/s, 10^6 bytes. */
  mbps: DayFigure;
  /** Response time (await over reads and writes), ms. */
  awaitMs: DayFigure;
}

/** A slice `[lo, hi)` of a series (its arrays shared, not copied); its not-ok counts are not the day's and are not read. */
function slice(s: Series, lo: number, hi: number): Series {
  return {
    n: hi - lo, members: s.members, startMs: s.startMs.subarray(lo, hi), endMs: s.endMs.subarray(lo, hi), intervalMs: s.intervalMs.subarray(lo, hi),
    ok: s.ok.subarray(lo, hi), reads: s.reads.subarray(lo, hi), writes: s.writes.subarray(lo, hi), readBytes: s.readBytes.subarray(lo, hi),
    writeBytes: s.writeBytes.subarray(lo, hi), readTimeMs: s.readTimeMs.subarray(lo, hi), writeTimeMs: s.writeTimeMs.subarray(lo, hi),
    busyMs: s.busyMs.subarray(lo, hi), weightedMs: s.weightedMs.subarray(lo, hi), notOk: { reset: 0, wrap: 0, gap: 0, 'clock-jump': 0, incomplete: 0 },
  };
}

/** The per-interval value of interval i, as summary.ts `fillMetric` computes it (same operations, so equal to the bit); null without one. */
export function intervalValue(s: Series, key: 'iops' | 'mbps' | 'awaitMs', i: number): number | null {
  if (s.ok[i] !== 1) return null;
  const r = s.reads[i] as number, w = s.writes[i] as number, dt = s.intervalMs[i] as number;
  let v: number;
  if (key === 'iops') v = ((r + w) * 1000) / dt;
  else if (key === 'mbps') v = (((s.readBytes[i] as number) + (s.writeBytes[i] as number)) * 1000) / dt / BYTES_PER_MB;
  else {
    if (!(r + w > 0)) return null;
    v = ((s.readTimeMs[i] as number) + (s.writeTimeMs[i] as number)) / (r + w);
  }
  return Number.isNaN(v) ? null : v;
}

function figure(s: Series, sum: WindowSummary, key: 'iops' | 'mbps' | 'awaitMs'): DayFigure {
  const dist = sum.percentiles[key as DistributionMetric];
  const reasons: Reasons = {};
  const mean = sum.means[key];
  if (mean === null) reasons['mean'] = sum.means.reasons[key] ?? 'no-data';
  if (dist === null) {
    const why = sum.percentiles.reasons[key] ?? 'no-data';
    for (const f of ['p95', 'peak', 'peakAt', 'peakAtMs']) reasons[f] = why;
    return { mean, p95: null, peak: null, peakAt: null, peakAtMs: null, reasons };
  }
  let at: number | null = null;
  for (let i = 0; i < s.n && at === null; i++) if (intervalValue(s, key, i) === dist.max) at = s.startMs[i] as number;
  if (at === null) { reasons['peakAt'] = 'not-reported'; reasons['peakAtMs'] = 'not-reported'; }
  return { mean, p95: dist.p95, peak: dist.max, peakAt: at === null ? null : isoUtc(at), peakAtMs: at, reasons };
}

/**
 * Each UTC calendar day of the window (those the window touches, at most {@link MAX_PROFILE_DAYS}),
 * from the application-facing group's series over the window (ascending interval starts).
 *
 * @example
 * // a window from Mon 12:00 to Wed 06:00 UTC → three rows: Mon (12 h), Tue (24 h), Wed (6 h)
 * dailyProfile(series, { startMs: Date.UTC(2026, 0, 5, 12), endMs: Date.UTC(2026, 0, 7, 6) }).map((d) => d.day)
 * // ['2026-01-05', '2026-01-06', '2026-01-07']
 */
export function dailyProfile(s: Series, window: TimeWindow): DayProfile[] {
  const out: DayProfile[] = [];
  let i = 0;
  for (let day = Math.floor(window.startMs / DAY_MS) * DAY_MS; day < window.endMs && out.length < MAX_PROFILE_DAYS; day += DAY_MS) {
    const lo = i;
    while (i < s.n && ((s.startMs[i] as number) + (s.endMs[i] as number)) / 2 < day + DAY_MS) i++;
    const part = slice(s, lo, i);
    const sum = summarizeSeries(part);
    out.push({
      day: isoUtc(day).slice(0, 10), startMs: Math.max(day, window.startMs), endMs: Math.min(day + DAY_MS, window.endMs),
      okIntervals: sum.okIntervals, okSeconds: sum.okSeconds,
      iops: figure(part, sum, 'iops'), mbps: figure(part, sum, 'mbps'), awaitMs: figure(part, sum, 'awaitMs'),
    });
  }
  return out;
}
