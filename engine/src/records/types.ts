import type { DeviceColumns } from './columns.ts';
import type { ColumnSource } from './source.ts';
import type { EngineRecords } from './engine.ts';
import type { StoredPrediction } from '../benefit/prediction.ts';
import type { StoredTraceLatency } from '../benefit/trace-latency.ts';

/**
 * The canonical per-interval record: what every source (live /proc/diskstats, imported
 * PerfMon/iostat logs, …) becomes, one per device per interval. See docs/capture-schema.md.
 *
 * Units live in names. Absent is `null`, never 0: an interval that starts a series, follows
 * a counter reset or wrap, or spans a gap carries no counts and so gets no rate.
 */

/** Why an interval has (or has not) counts. Only `ok` intervals carry numbers. */
export type IntervalStatus =
  | 'ok'
  /** Counters went backwards while the boot id stayed the same: a wrap at the counter's width. */
  | 'wrap'
  /** Counters went backwards after a reboot or device re-creation. */
  | 'reset'
  /** The wall clock jumped against the monotonic clock; the interval is not trusted. */
  | 'clock-jump'
  /** Samples are missing (recorder stopped, suspended); the interval spans the hole. */
  | 'gap';

export interface IntervalRecord {
  /** Device name as the source names it (`sda`, `loop7`, `0 C:`). */
  device: string;
  /** Interval start, UTC epoch milliseconds (wall clock, for labels). */
  startMs: number;
  /** Interval end, UTC epoch milliseconds. */
  endMs: number;
  /** Interval length from the monotonic clock, milliseconds (the Δt of every rate). */
  intervalMs: number;
  status: IntervalStatus;
  /** Reads completed in the interval (diskstats field 1 delta). */
  reads: number | null;
  /** Writes completed (field 5 delta). */
  writes: number | null;
  /** Bytes read: Δsectors read × 512. */
  readBytes: number | null;
  /** Bytes written: Δsectors written × 512. */
  writeBytes: number | null;
  /** Milliseconds spent reading, summed over requests (field 4 delta). */
  readTimeMs: number | null;
  /** Milliseconds spent writing (field 8 delta). */
  writeTimeMs: number | null;
  /** Milliseconds the device had I/O in flight: io_ticks (field 10 delta). */
  busyMs: number | null;
  /** Weighted milliseconds doing I/O (field 11 delta): time × queue depth. */
  weightedMs: number | null;
  /** Reads merged (field 2 delta); null where the source does not say. */
  readMerges?: number | null;
  /** Writes merged (field 6 delta). */
  writeMerges?: number | null;
}

/** The role a device plays in a cache setup. */
export type DeviceRole = 'front' | 'backing' | 'cache' | 'other';

export interface DeviceInfo {
  name: string;
  role: DeviceRole;
  sizeBytes: number | null;
  rotational: boolean | null;
  model: string | null;
}

/** A named span of a capture (from the recorder's plan or a person's mark). */
export interface Phase {
  name: 'baseline' | 'switch' | 'warmup' | 'measure' | string;
  /** UTC epoch ms. */
  startMs: number;
  /** UTC epoch ms; null while the phase is still running. */
  endMs: number | null;
}

export interface Warning {
  code: string;
  message: string;
  device?: string;
  atMs?: number;
}

/** Everything the engine needs from a capture, as plain data. */
export interface CaptureData {
  host: { hostname: string | null; kernel: string | null };
  devices: DeviceInfo[];
  phases: Phase[];
  intervals: IntervalRecord[];
  /**
   * The same intervals as per-device columns, when the source has them (the capture reader
   * does): the engine then works on these and never touches `intervals`. Must hold exactly
   * what `intervals` holds.
   */
  columns?: DeviceColumns[] | undefined;
  /**
   * The intervals one device at a time (a host's columnar file): when present, `analyze` reads
   * them from here and touches neither `columns` nor `intervals`.
   */
  source?: ColumnSource | undefined;
  warnings: Warning[];
  /** The cache engine's actions and counters (captures recorded with an adapter, schema v4); absent otherwise. */
  engine?: EngineRecords | undefined;
  /** Nominal sample interval, ms. */
  sampleIntervalMs: number | null;
  /** The probe's prediction from the baseline's trace (`meta.prediction`), when the capture holds one. */
  prediction?: StoredPrediction | null | undefined;
  /** The probe's latency histograms of the traced requests (`meta.trace_latency`), when the capture holds them. */
  traceLatency?: StoredTraceLatency | null | undefined;
  /** The traced block requests' sizes (`block_requests`), when the capture holds a block trace; absent otherwise. */
  traceSizes?: TraceSizeSource | null | undefined;
  /** How full the volumes were (`volume_capacity`, schema v7); absent or null in a capture of v1..v6 ("not in this log"). */
  volumes?: readonly VolumeCapacityRow[] | null | undefined;
  /** The work the server did per interval (`work_counters`, schema v8); absent or null in a capture of v1..v7 or a source without work counters. */
  work?: readonly WorkCounterRow[] | null | undefined;
  /** What sits on what (`topology`: a partition on its disk, a Windows volume on its PhysicalDisk, …); absent when the reader did not give it. */
  stack?: readonly StackEdge[] | undefined;
}

/** One edge of the capture's `topology`: `holder` is stacked on `slave` (docs/capture-schema.md). */
export interface StackEdge {
  holder: string;
  slave: string;
  /** `perfmon-volume` (a Windows LogicalDisk on its PhysicalDisk), `partition`, `dm`, `loop-file`, … as the probe writes it. */
  kind: string;
}

/** One interval of one work counter (docs/capture-schema.md, `work_counters`, v8). */
export interface WorkCounterRow {
  /** `io_ops_per_s`, `io_reads_per_s`, `io_writes_per_s`, `batches_per_s`. */
  name: string;
  /** The process (`_Total`) or SQL Server instance (`SQLServer`). */
  instance: string;
  startMs: number;
  endMs: number;
  ratePerSecond: number;
}

/** One row of a capture's `volume_capacity` (docs/capture-schema.md, v7): a volume's size and free space at a moment; null is absent, never 0. */
export interface VolumeCapacityRow {
  volume: string;
  utcMs: number;
  device: string | null;
  mount: string | null;
  sizeBytes: number | null;
  freeBytes: number | null;
  source: string;
}

/**
 * A capture's traced block requests, counted by operation and exact size: the host answers from
 * the capture's `block_requests` table (one grouped query per device and window; memory ∝ the
 * distinct sizes, not the requests). The engine puts the counts in its size buckets
 * (metrics/request-size.ts).
 */
export interface TraceSizeSource {
  /** The share of block addresses whose requests the trace kept (`meta.trace_sample_rate`; 1 = every request). */
  sampleRate: number;
  /** The device's reads (`R`) and writes (`W`) issued in [startMs, endMs) (UTC ms of the issue), how many of each exact size in bytes. */
  sizes(device: string, startMs: number, endMs: number): readonly { op: 'R' | 'W'; bytes: number; count: number }[];
  /** The device's reads and writes issued in [startMs, endMs): how many, their bytes, and the first and last issue time (ns, the trace's clock); null when none. */
  span?(device: string, startMs: number, endMs: number): { requests: number; bytes: number; firstIssueNs: number; lastIssueNs: number } | null;
}
