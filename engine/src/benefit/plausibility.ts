/**
 * Plausibility checks (issue 36): data that cannot support a figure is flagged, never reported
 * plainly. Each check returns analysis warnings (codes in warnings.ts, words in
 * app/src/shared/i18n/warnings.ts, docs/metrics.md § Warnings):
 * - a log or window under 24 h cannot give a daily figure (busiest hour, p95 over the day,
 *   daily totals); under 1 h, not even an hourly one (Live Optics collects 24 h to 7 days);
 * - a volume's growth fitted over less than 24 h is withheld (capacity.ts), and said so;
 * - a prediction from fewer than 1,000 requests;
 * - a rate beyond what any device can do: over 10 × the fastest drive of the catalog
 *   (plan/fastest.ts), per interval or over a block trace's own time span (times that collapsed);
 * - a busiest hour built from a partial hour, and a peak on the last moment of the range.
 * Pure.
 */
import type { Series } from '../metrics/series.ts';
import type { CapacityProfile } from './capacity.ts';
import type { HourlyProfile } from './hours.ts';
import type { StoredPrediction } from './prediction.ts';
import type { AnalysisWarning } from './result.ts';
import type { AnalysisWarningCode } from './warnings.ts';

/** Under this a log or window does not represent a day, ms. */
export const DAY_SPAN_MS = 24 * 3_600_000;
/** Under this it does not represent an hour either (the stronger warning), ms. */
export const HOUR_SPAN_MS = 3_600_000;
/** A prediction from fewer counted requests than this gets a warning. */
export const MIN_PREDICTION_REQUESTS = 1000;
/** A rate above this many times the catalog's fastest drive is not a device's. */
export const IMPLAUSIBLE_FACTOR = 10;
/** A trace's span is taken as at least this, ms (requests issued at one instant are not an infinite rate). */
const MIN_TRACE_SPAN_MS = 1;

/** The fastest drive of the drive catalog and the rate limit it gives (plan/fastest.ts). */
export interface RateLimit {
  /** The catalog's id and label of the drive with the highest sourced IOPS figure. */
  driveId: string;
  driveLabel: string;
  /** Its highest sourced IOPS figure (4 KiB random read, write or sizing IOPS). */
  driveIops: number;
  /** {@link IMPLAUSIBLE_FACTOR} × driveIops: no device's rate exceeds it. */
  limitIops: number;
  /** The catalog's fastest sourced sequential read (MB/s = 10^6 bytes per s) and {@link IMPLAUSIBLE_FACTOR} × it; null when no drive gives one. */
  mbps: { driveLabel: string; driveMBps: number; limitMBps: number } | null;
}

/** A block trace's requests in a window (a device's reads and writes) and the span of their issue times. */
export interface TraceSpan {
  requests: number;
  bytes: number;
  firstIssueNs: number;
  lastIssueNs: number;
}

function warning(code: AnalysisWarningCode, message: string, params: Record<string, string | number>, device?: string): AnalysisWarning {
  const w: AnalysisWarning = { code, message, source: 'analysis', params };
  if (device !== undefined) w.device = device;
  return w;
}

/**
 * A profiled window's length against a day: `very-short-log` under 1 h, `short-log` under 24 h,
 * none from 24 h. params: seconds.
 *
 * @example
 * spanWarnings(600_000)[0]?.code // 'very-short-log' (10 minutes)
 */
export function spanWarnings(spanMs: number): AnalysisWarning[] {
  const seconds = spanMs / 1000;
  if (spanMs < HOUR_SPAN_MS) {
    return [warning('very-short-log', `The profiled window lasts only ${seconds} s, less than an hour: no figure of it represents an hour, let alone a day (busiest hour, p95 over the day, daily totals).`, { seconds })];
  }
  if (spanMs < DAY_SPAN_MS) {
    return [warning('short-log', `The profiled window lasts ${seconds} s, less than 24 hours: daily figures (busiest hour, p95 over the day, daily totals) do not represent a day.`, { seconds })];
  }
  return [];
}

/**
 * Each volume whose growth is withheld because the log states it over less than 24 h (capacity.ts):
 * `capacity-short-fit`. params: volume, fitHours.
 */
export function capacityWarnings(c: CapacityProfile): AnalysisWarning[] {
  const out: AnalysisWarning[] = [];
  for (const v of c.volumes) {
    if (v.reasons.growthBytesPerDay !== 'short-fit' || v.fitDays === null) continue;
    const fitHours = v.fitDays * 24;
    out.push(warning('capacity-short-fit', `The log states ${v.volume} over only ${fitHours.toFixed(2)} h (less than 24 h): its growth per day and days to full are withheld, since so short a span is no trend.`, { volume: v.volume, fitHours }));
  }
  return out;
}

/** `prediction-few-requests` when the stored prediction counted fewer than 1,000 reads and writes. params: requests, minimumRequests. */
export function predictionWarnings(p: StoredPrediction | null | undefined): AnalysisWarning[] {
  if (p === null || p === undefined) return [];
  const requests = p.reads + p.writesCount;
  if (requests >= MIN_PREDICTION_REQUESTS) return [];
  return [warning('prediction-few-requests', `The prediction is made from only ${requests} requests (fewer than ${MIN_PREDICTION_REQUESTS}): its hit ratio and I/Os saved are estimates with a wide margin.`, { requests, minimumRequests: MIN_PREDICTION_REQUESTS })];
}

/**
 * `implausible-iops` for a group's intervals whose IOPS exceed the limit, `implausible-mbps` for
 * those whose MB/s (10^6 bytes per s) exceed the catalog's fastest sequential read × 10: the
 * highest such rate and how many intervals. params: devices, iops | mbps, limit…, drive…, count.
 */
export function intervalRateWarnings(s: Series, devices: readonly string[], limit: RateLimit | undefined): AnalysisWarning[] {
  if (limit === undefined) return [];
  let highest = 0, count = 0, highestMBps = 0, countMBps = 0;
  const mbLimit = limit.mbps?.limitMBps ?? Infinity;
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const dt = (s.intervalMs[i] as number) / 1000;
    if (!(dt > 0)) continue;
    const iops = ((s.reads[i] as number) + (s.writes[i] as number)) / dt;
    const mbps = ((s.readBytes[i] as number) + (s.writeBytes[i] as number)) / dt / 1e6;
    if (Number.isFinite(iops) && iops > limit.limitIops) {
      count++;
      highest = Math.max(highest, iops);
    }
    if (Number.isFinite(mbps) && mbps > mbLimit) {
      countMBps++;
      highestMBps = Math.max(highestMBps, mbps);
    }
  }
  const names = devices.join(', ');
  const out: AnalysisWarning[] = [];
  if (count > 0) {
    out.push(warning('implausible-iops', `${names}: ${count} interval(s) reach ${Math.round(highest)} IOPS, more than ${IMPLAUSIBLE_FACTOR} × the fastest drive of the catalog (${limit.driveLabel}, ${limit.driveIops} IOPS): no device does that; the source's times or counts are wrong, and the rates are not real.`,
      { devices: names, iops: highest, limitIops: limit.limitIops, driveIops: limit.driveIops, drive: limit.driveLabel, count }));
  }
  if (countMBps > 0 && limit.mbps !== null) {
    const m = limit.mbps;
    out.push(warning('implausible-mbps', `${names}: ${countMBps} interval(s) reach ${Math.round(highestMBps)} MB/s, more than ${IMPLAUSIBLE_FACTOR} × the fastest sequential read of the catalog (${m.driveLabel}, ${m.driveMBps} MB/s): no device does that; the source's times or byte counts are wrong, and the rates are not real.`,
      { devices: names, mbps: highestMBps, limitMBps: m.limitMBps, driveMBps: m.driveMBps, drive: m.driveLabel, count: countMBps }));
  }
  return out;
}

/**
 * `trace-times-collapsed` when a device's traced requests, over the span of their own issue times
 * (at least 1 ms), run faster than the limit: the trace's times collapsed (a unit misread), so its
 * per-interval rates are not real. params: device, requests, spanMs, iops, mbPerSec, limitIops, driveIops, drive.
 */
export function traceSpanWarnings(device: string, span: TraceSpan | null, sampleRate: number, limit: RateLimit | undefined): AnalysisWarning[] {
  if (limit === undefined || span === null || span.requests < 2) return [];
  const spanMs = (span.lastIssueNs - span.firstIssueNs) / 1e6;
  const seconds = Math.max(spanMs, MIN_TRACE_SPAN_MS) / 1000;
  const requests = span.requests / sampleRate;
  const iops = requests / seconds;
  const mbPerSec = span.bytes / sampleRate / seconds / 1e6;
  if (!(iops > limit.limitIops) && !(limit.mbps !== null && mbPerSec > limit.mbps.limitMBps)) return [];
  return [warning('trace-times-collapsed', `The ${Math.round(requests)} traced requests of ${device} were issued within ${spanMs} ms: ${Math.round(iops)} IOPS (${Math.round(mbPerSec)} MB/s), more than ${IMPLAUSIBLE_FACTOR} × the fastest drive of the catalog (${limit.driveLabel}, ${limit.driveIops} IOPS). The trace's times collapsed (read in the wrong unit?): its per-interval rates are not real.`,
    { device, requests: Math.round(requests), spanMs, iops, mbPerSec, limitIops: limit.limitIops, driveIops: limit.driveIops, drive: limit.driveLabel }, device)];
}

/** A busiest hour covered for less than this share of its clock hour is partial (an interval's jitter, a sample or two, is not). */
export const PARTIAL_HOUR_SHARE = 0.9;

/**
 * `busiest-hour-partial` when the busiest hour's intervals cover less than 90 % of the clock hour
 * (54 minutes; params: coveredMinutes).
 */
export function busiestHourWarnings(h: HourlyProfile): AnalysisWarning[] {
  const b = h.busiest;
  if (b === null || b.coveredSeconds * 1000 >= (b.endMs - b.startMs) * PARTIAL_HOUR_SHARE) return [];
  const coveredMinutes = b.coveredSeconds / 60;
  return [warning('busiest-hour-partial', `The busiest hour is built from ${coveredMinutes.toFixed(1)} minutes of data, not a whole hour: it is a partial hour.`, { coveredMinutes })];
}

/**
 * `peak-at-range-end` when the group's highest-IOPS interval is the last usable interval of the
 * range (with at least two): the load may have gone on rising after the data stops. params: end (ISO), iops.
 */
export function edgePeakWarnings(s: Series, isoOf: (ms: number) => string): AnalysisWarning[] {
  let best = -1, bestIops = -Infinity, last = -1, usable = 0;
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const dt = (s.intervalMs[i] as number) / 1000;
    const iops = ((s.reads[i] as number) + (s.writes[i] as number)) / dt;
    if (!(dt > 0 && Number.isFinite(iops))) continue;
    usable++;
    last = i;
    if (iops > bestIops) { bestIops = iops; best = i; }
  }
  if (usable < 2 || best !== last) return [];
  const end = isoOf(s.endMs[last] as number);
  return [warning('peak-at-range-end', `The highest I/O rate (${Math.round(bestIops)} IOPS) is in the last interval of the range, ending ${end}: the peak may have gone on after the data stops.`, { end, iops: bestIops })];
}
