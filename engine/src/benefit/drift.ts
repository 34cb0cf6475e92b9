import type { Reasons } from '../metrics/summary.ts';

/** Default drift threshold, percent of relative change. */
export const DEFAULT_DRIFT_THRESHOLD_PERCENT = 25;

/** The workload's shape in one window, at the application-facing devices. */
export interface WorkloadShape {
  /** I/Os per second. */
  iops: number | null;
  /** Reads / (reads + writes) × 100. */
  readSharePercent: number | null;
  /** Bytes / I/Os. */
  meanRequestBytes: number | null;
  /** Bytes moved (read + written) per second. */
  bytesPerSec: number | null;
}

export interface DriftMetric {
  before: number | null;
  after: number | null;
  /** (after − before) / before × 100. */
  changePercent: number | null;
  /** |changePercent| > threshold. */
  exceeds: boolean;
  reasons: Reasons;
}

export interface DriftReport {
  thresholdPercent: number;
  /** False in backing-only mode (the cache itself changes backing I/O; there is no front to compare). */
  checked: boolean;
  metrics: Record<keyof WorkloadShape, DriftMetric>;
  /** Names of the metrics that exceed the threshold. */
  exceeded: (keyof WorkloadShape)[];
}

const KEYS: (keyof WorkloadShape)[] = ['iops', 'readSharePercent', 'meanRequestBytes', 'bytesPerSec'];

/**
 * Workload-drift check: relative change of each shape metric from baseline to measure,
 * (after − before) / before × 100, flagged when its magnitude exceeds `thresholdPercent`
 * (default 25%). The cache must not change the front workload, so a large change means the
 * application did something else in the measure window and the comparison is less fair.
 * Read share is compared relatively too (50% → 60% is a 20% change).
 *
 * @example
 * checkDrift({ iops: 100, readSharePercent: 70, meanRequestBytes: 8192, bytesPerSec: 819200 },
 *            { iops: 140, readSharePercent: 70, meanRequestBytes: 8192, bytesPerSec: 1146880 }, 25).exceeded
 * // ['iops', 'bytesPerSec']  (both +40%)
 */
export function checkDrift(before: WorkloadShape | null, after: WorkloadShape | null, thresholdPercent = DEFAULT_DRIFT_THRESHOLD_PERCENT): DriftReport {
  const metrics = {} as Record<keyof WorkloadShape, DriftMetric>;
  const exceeded: (keyof WorkloadShape)[] = [];
  for (const k of KEYS) {
    const b = before?.[k] ?? null, a = after?.[k] ?? null;
    const reasons: Reasons = {};
    if (b === null) reasons.before = before === null ? 'backing-only-mode' : 'no-io';
    if (a === null) reasons.after = after === null ? 'backing-only-mode' : 'no-io';
    let change: number | null = null;
    if (b !== null && a !== null) {
      if (b > 0) change = ((a - b) / b) * 100;
      else reasons.changePercent = 'zero-denominator';
    } else reasons.changePercent = reasons.before ?? reasons.after ?? 'no-io';
    const exceeds = change !== null && Math.abs(change) > thresholdPercent;
    if (exceeds) exceeded.push(k);
    metrics[k] = { before: b, after: a, changePercent: change, exceeds, reasons };
  }
  return { thresholdPercent, checked: before !== null && after !== null, metrics, exceeded };
}
