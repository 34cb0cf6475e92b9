/**
 * How much disk a capture will use, before it is recorded (the wizard's Plan step).
 *
 * Method. Bytes are measured on the bundled capture `samples/lab/lab-sample.capture`
 * (recorded by samples/lab/record-lab-sample.sh: 2 loop devices under fio load, 1 s interval,
 * 199 samples, 126,976 bytes after VACUUM). Its whole-file ratio is
 * 126,976 B ÷ (2 devices × 199 samples) = 319 B per device-sample, but that ratio counts the
 * pages every capture has whatever its length, so it overstates long captures. SQLite's
 * `dbstat` table splits the file by table (4,096-byte pages):
 *
 * | part | tables | bytes | per |
 * |---|---|---|---|
 * | fixed | meta, devices, phases, marks, warnings, topology, recorder, schema and their indexes | 45,056 | capture |
 * | per sample | `samples` | 16,384 | 199 samples → 82 B |
 * | per device-sample | `intervals` + its primary-key index + `raw_counters` | 65,536 | 398 device-samples → 165 B |
 *
 * so a capture of N samples of D devices takes 45,056 + N × (82 + D × 165) bytes. Idle devices
 * store smaller rows (zero counters are 1-byte varints): an un-vacuumed 260-sample recording
 * of 2 idle loop devices took 131,072 B (this model says 152,176 B) and of 6 idle loop devices
 * 241,664 B (model 323,776 B), so the estimate errs on the generous side.
 *
 * While the recorder runs, two sidecar files add to that: the SQLite write-ahead log, which
 * grows to about 4.1 MB (SQLite's default checkpoint at 1,000 pages) and stays until the
 * recorder closes, and a 512 KiB reserve kept for a full disk (docs/capture-schema.md).
 *
 * Worked example: the default plan (24 h baseline, 1 h warm-up, 24 h measure, 5 s interval,
 * 2 devices) records 35,281 samples: 45,056 + 35,281 × (82 + 2 × 165) = 14,580,828 B, about 15 MB.
 * On the bundled capture itself (199 samples, 2 devices) the model gives 127,044 B for 126,976 B.
 */

/**
 * One traced block request (`record --trace`): its `block_requests` row and index entry (bytes).
 * Measured with `dbstat` on `samples/fixtures/capture-v2.sqlite` (a capture traced while fio ran;
 * samples/fixtures/record-capture-v2.sh): 151,552 B of table pages and 61,440 B of index pages for
 * 3,600 requests, 59 B per request, rounded up to 64 B for the free space of pages being filled.
 * `app/test/wizard-plan.test.ts` checks the constant against that file.
 */
export const TRACE_BYTES_PER_REQUEST = 64;

/** Bytes a block trace adds for `seconds` of recording at an average of `iops` requests per second. */
export function traceBytes(iops: number, seconds: number): number {
  return Math.max(0, iops) * Math.max(0, seconds) * TRACE_BYTES_PER_REQUEST;
}

/**
 * The trace's size budget of `record --trace` when the run names none (bytes of stored trace per
 * 24 h of tracing): native/crates/trace/src/sampling.rs `DEFAULT_BUDGET_BYTES`, which a unit test
 * there keeps equal to this.
 */
export const TRACE_DEFAULT_BUDGET_BYTES = 300_000_000;
/** The budgets the wizard offers (bytes per 24 h); null there means every request (no budget). */
export const TRACE_BUDGETS = [100_000_000, 300_000_000, 1_000_000_000, 3_000_000_000] as const;

/**
 * One row of the tracer's latency histograms (`latency_histograms`: one device's reads or writes
 * in one sample interval with I/O), with its share of the table's pages. Measured with `dbstat`
 * on a 40 s recording at 100 ms of a loop device under fio (796 rows, 49,152 bytes: 62 B each,
 * about 9 buckets a row), rounded up to 80 B for busier devices whose latencies spread over more
 * buckets.
 */
export const LATENCY_HISTOGRAM_BYTES_PER_ROW = 80;

/** The latency histograms' bytes for `seconds` of recording of `devices` that read and write in every interval. */
export function latencyHistogramBytes(devices: number, seconds: number, intervalMs: number): number {
  if (intervalMs <= 0) return 0;
  return Math.max(0, devices) * 2 * Math.ceil((Math.max(0, seconds) * 1000) / intervalMs) * LATENCY_HISTOGRAM_BYTES_PER_ROW;
}

/**
 * What a trace under a budget keeps over `seconds` at an average of `iops` requests per second:
 * the full trace's bytes, the bytes stored (at most the budget's share of the time, budget ×
 * seconds / 24 h: the probe lowers the share of block addresses it keeps so that the trace stays
 * within it, docs/probe.md § Trace budget), and that share (1: every request fits). Without a
 * budget (`null`) every request is stored.
 * Example: 1,000 IOPS for 49 h under 300 MB per 24 h: 11.3 GB in full, at most 612.5 MB stored,
 * a share of 5.4 %.
 */
export function traceUnderBudget(iops: number, seconds: number, budgetPerDay: number | null): { fullBytes: number; storedBytes: number; keptShare: number } {
  const fullBytes = traceBytes(iops, seconds);
  if (budgetPerDay === null) return { fullBytes, storedBytes: fullBytes, keptShare: 1 };
  const allowed = (Math.max(0, budgetPerDay) * Math.max(0, seconds)) / 86_400;
  const storedBytes = Math.min(fullBytes, allowed);
  return { fullBytes, storedBytes, keptShare: fullBytes > 0 ? storedBytes / fullBytes : 1 };
}

/** Pages every capture has (bytes). */
export const CAPTURE_FIXED_BYTES = 45_056;
/** The `samples` row of one read of /proc/diskstats (bytes). */
export const CAPTURE_BYTES_PER_SAMPLE = 82;
/** One device's `intervals` row, its index entry and its `raw_counters` row, for one sample (bytes). */
export const CAPTURE_BYTES_PER_DEVICE_SAMPLE = 165;
/** Write-ahead log (up to 1,000 pages plus headers) and the full-disk reserve, while recording (bytes). */
export const CAPTURE_RECORDING_EXTRA_BYTES = 4_136_512 + 524_288 + 32_768;

export interface CaptureSizeInput {
  deviceCount: number;
  baselineSeconds: number;
  warmupSeconds: number;
  measureSeconds: number;
  intervalMs: number;
}

export interface CaptureSizeEstimate {
  /** Reads of /proc/diskstats the plan makes (the first one included), not counting the wait for the switch. */
  samples: number;
  /** The capture file once the run is done (bytes). */
  bytes: number;
  /** The most the capture and its sidecar files take while the recorder runs (bytes). */
  peakBytes: number;
}

/** Samples a plan records: one every interval over baseline + warm-up + measure, plus the first read. */
export function plannedSamples(p: Omit<CaptureSizeInput, 'deviceCount'>): number {
  const seconds = p.baselineSeconds + p.warmupSeconds + p.measureSeconds;
  return Math.floor((seconds * 1000) / p.intervalMs) + 1;
}

/** The capture size model above; 0 devices or a non-positive interval give a fixed-size capture. */
export function estimateCaptureSize(p: CaptureSizeInput): CaptureSizeEstimate {
  const samples = p.intervalMs > 0 ? plannedSamples(p) : 0;
  const devices = Math.max(0, Math.floor(p.deviceCount));
  const bytes = CAPTURE_FIXED_BYTES + samples * (CAPTURE_BYTES_PER_SAMPLE + devices * CAPTURE_BYTES_PER_DEVICE_SAMPLE);
  return { samples, bytes, peakBytes: bytes + CAPTURE_RECORDING_EXTRA_BYTES };
}
