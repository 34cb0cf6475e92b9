/**
 * Response time from the block trace: the probe's latency histograms (`cacheproof-probe
 * latency`, stored in `meta.trace_latency` when a traced recording ends; docs/simulate.md
 * § Latency from the trace), per device, per phase window and per clock hour, reads and writes
 * apart. The percentiles are the probe's (one implementation: the probe's); the engine carries
 * them into the analysis and lays the per-hour figures out as the series the dashboard and the
 * report draw. The per-interval figures (`latencyDistribution`) stay beside them.
 *
 * Method (`method`): `interval-histograms` — every completed request, counted by the tracer
 * into a histogram per sample interval before the trace's sampling keeps a share of the
 * requests (captures of schema v6); `stored-requests` — the requests stored in the capture
 * (older traced captures and imported traces; for a sampled trace, the percentiles of the
 * sample). Latency stored by an older probe names no method: it is `stored-requests`.
 */
import type { Reasons } from '../metrics/summary.ts';

/** One percentile: the log-scale bucket (4 per octave) holding the nearest-rank request, µs. */
export interface TraceLatencyPercentile {
  p: number;
  bucket: number;
  lowUs: number;
  highUs: number;
}

export interface TraceLatencySeries {
  device: string;
  /** `all`, or the capture's phase (`baseline`, `warmup`, `measure`). */
  window: string;
  op: 'read' | 'write';
  requests: number;
  completed: number;
  meanUs: number | null;
  percentiles: TraceLatencyPercentile[];
  histogram: { bucket: number; lowUs: number; highUs: number; count: number }[];
}

/** One device's reads or writes in one clock hour (UTC, [start, start + 1 h)). */
export interface TraceLatencyHour {
  device: string;
  op: 'read' | 'write';
  startUtcMs: number;
  endUtcMs: number;
  requests: number;
  completed: number;
  meanUs: number | null;
  percentiles: TraceLatencyPercentile[];
}

export type TraceLatencyMethod = 'interval-histograms' | 'stored-requests';

/** `meta.trace_latency` as the probe writes it (`method` and `hours` absent when an older probe wrote it). */
export interface StoredTraceLatency {
  method?: TraceLatencyMethod | undefined;
  bucketsPerOctave: number;
  buckets: string;
  sampleRate: number;
  series: TraceLatencySeries[];
  hours?: TraceLatencyHour[] | undefined;
}

/** A percentile's bucket edges (µs), or null when the hour has no completed request. */
export interface TraceLatencyRange {
  lowUs: number;
  highUs: number;
}

/** One point of the per-hour series. */
export interface TraceLatencyHourPoint {
  startUtcMs: number;
  endUtcMs: number;
  /** Where a chart draws the hour: its middle. */
  midUtcMs: number;
  requests: number;
  completed: number;
  meanUs: number | null;
  p50: TraceLatencyRange | null;
  p95: TraceLatencyRange | null;
  p99: TraceLatencyRange | null;
  p999: TraceLatencyRange | null;
}

/** The per-hour series of one device's reads or writes, hours in order. */
export interface TraceLatencyHourly {
  device: string;
  op: 'read' | 'write';
  hours: TraceLatencyHourPoint[];
}

/**
 * The analysis's `traceLatency`: the probe's histograms (`fromTrace`, null with reason
 * `not-reported` without a trace), the method they were computed by (null without), and the
 * per-hour series (empty, reason `hourly: not-reported`, when the latency was stored by a probe
 * that did not give hours).
 */
export interface TraceLatencySection {
  fromTrace: StoredTraceLatency | null;
  method: TraceLatencyMethod | null;
  hourly: TraceLatencyHourly[];
  reasons: Reasons;
}

const range = (ps: TraceLatencyPercentile[], p: number): TraceLatencyRange | null => {
  const x = ps.find((q) => q.p === p);
  return x === undefined ? null : { lowUs: x.lowUs, highUs: x.highUs };
};

/**
 * The per-hour series: one per device and operation, in the order the devices first appear in
 * the probe's window series (reads before writes), hours ascending. Example: hours
 * `[{device: 'sda', op: 'read', startUtcMs: 0, …}, {device: 'sda', op: 'read', startUtcMs: 3600000, …}]`
 * give `[{device: 'sda', op: 'read', hours: [two points]}]`.
 */
export function traceLatencyHourly(stored: StoredTraceLatency): TraceLatencyHourly[] {
  const order: string[] = [];
  for (const s of [...stored.series, ...(stored.hours ?? [])]) if (!order.includes(s.device)) order.push(s.device);
  const out: TraceLatencyHourly[] = [];
  for (const device of order) {
    for (const op of ['read', 'write'] as const) {
      const hours = (stored.hours ?? []).filter((h) => h.device === device && h.op === op).sort((a, b) => a.startUtcMs - b.startUtcMs);
      if (hours.length === 0) continue;
      out.push({
        device, op,
        hours: hours.map((h) => ({
          startUtcMs: h.startUtcMs, endUtcMs: h.endUtcMs, midUtcMs: (h.startUtcMs + h.endUtcMs) / 2, requests: h.requests, completed: h.completed, meanUs: h.meanUs,
          p50: range(h.percentiles, 50), p95: range(h.percentiles, 95), p99: range(h.percentiles, 99), p999: range(h.percentiles, 99.9),
        })),
      });
    }
  }
  return out;
}

/** The section of a capture's stored latency (null/undefined: the capture holds no trace latency). */
export function traceLatencySection(stored: StoredTraceLatency | null | undefined): TraceLatencySection {
  if (stored === null || stored === undefined) return { fromTrace: null, method: null, hourly: [], reasons: { fromTrace: 'not-reported', method: 'not-reported' } };
  const hourly = traceLatencyHourly(stored);
  return { fromTrace: stored, method: stored.method ?? 'stored-requests', hourly, reasons: stored.hours === undefined ? { hourly: 'not-reported' } : {} };
}
