/**
 * Response time from the block trace: the probe's latency histograms of every traced request
 * (`cacheproof-probe latency`, stored in `meta.trace_latency` when a traced recording ends;
 * docs/simulate.md § Latency from the trace), per device, per phase window, reads and writes
 * apart. The engine carries the probe's numbers into the analysis (one implementation: the
 * probe's); the per-interval figures (`latencyDistribution`) stay beside them.
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

/** `meta.trace_latency` as the probe writes it. */
export interface StoredTraceLatency {
  bucketsPerOctave: number;
  buckets: string;
  sampleRate: number;
  series: TraceLatencySeries[];
}

/** The analysis's `traceLatency`: the probe's histograms, or null with reason `not-reported` without a trace. */
export interface TraceLatencySection {
  fromTrace: StoredTraceLatency | null;
  reasons: Reasons;
}

/** The section of a capture's stored latency (null/undefined: the capture holds no trace latency). */
export function traceLatencySection(stored: StoredTraceLatency | null | undefined): TraceLatencySection {
  return stored === null || stored === undefined ? { fromTrace: null, reasons: { fromTrace: 'not-reported' } } : { fromTrace: stored, reasons: {} };
}
