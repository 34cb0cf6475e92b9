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
