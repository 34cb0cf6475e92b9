/**
 * The per-interval table of the XLSX and CSV exports: one row per device per interval, the
 * canonical record's counts and the iostat metrics the engine computes for it
 * ({@link intervalMetrics}, docs/metrics.md). Absent stays absent (an empty cell), never 0.
 */
import { intervalMetrics, intervalMetricsInto, INTERVAL_METRIC_KEYS } from '../metrics/interval.ts';
import { STATUS_CODE, type DeviceColumns } from '../records/columns.ts';
import type { IntervalRecord } from '../records/types.ts';
import type { ReportKey } from './keys.ts';
import type { Unit } from './types.ts';

export interface IntervalColumn {
  id: string;
  head: ReportKey;
  unit: Unit | null;
  /** Decimals shown (XLSX number format); the value itself is never rounded. */
  d: number;
  kind: 'time' | 'text' | 'number';
}

export const INTERVAL_COLUMNS: readonly IntervalColumn[] = [
  { id: 'device', head: 'iv.device', unit: null, d: 0, kind: 'text' },
  { id: 'start', head: 'iv.start', unit: null, d: 0, kind: 'time' },
  { id: 'end', head: 'iv.end', unit: null, d: 0, kind: 'time' },
  { id: 'intervalMs', head: 'iv.intervalMs', unit: 'ms', d: 0, kind: 'number' },
  { id: 'status', head: 'iv.status', unit: null, d: 0, kind: 'text' },
  { id: 'reads', head: 'iv.reads', unit: 'ios', d: 0, kind: 'number' },
  { id: 'writes', head: 'iv.writes', unit: 'ios', d: 0, kind: 'number' },
  { id: 'readBytes', head: 'iv.readBytes', unit: 'bytes', d: 0, kind: 'number' },
  { id: 'writeBytes', head: 'iv.writeBytes', unit: 'bytes', d: 0, kind: 'number' },
  { id: 'readsPerSec', head: 'iv.readsPerSec', unit: 'iops', d: 1, kind: 'number' },
  { id: 'writesPerSec', head: 'iv.writesPerSec', unit: 'iops', d: 1, kind: 'number' },
  { id: 'iops', head: 'iv.iops', unit: 'iops', d: 1, kind: 'number' },
  { id: 'readMBps', head: 'iv.readMBps', unit: 'mbps', d: 3, kind: 'number' },
  { id: 'writeMBps', head: 'iv.writeMBps', unit: 'mbps', d: 3, kind: 'number' },
  { id: 'rAwaitMs', head: 'iv.rAwaitMs', unit: 'ms', d: 3, kind: 'number' },
  { id: 'wAwaitMs', head: 'iv.wAwaitMs', unit: 'ms', d: 3, kind: 'number' },
  { id: 'awaitMs', head: 'iv.awaitMs', unit: 'ms', d: 3, kind: 'number' },
  { id: 'avgRequestBytes', head: 'iv.avgRequestBytes', unit: 'bytes', d: 0, kind: 'number' },
  { id: 'utilPercent', head: 'iv.utilPercent', unit: 'percent', d: 1, kind: 'number' },
  { id: 'aquSz', head: 'iv.aquSz', unit: null, d: 2, kind: 'number' },
];

/** One row in {@link INTERVAL_COLUMNS} order: times as epoch ms, absent values null. */
export function intervalRow(rec: IntervalRecord): (number | string | null)[] {
  const m = intervalMetrics(rec);
  return [
    rec.device, rec.startMs, rec.endMs, rec.intervalMs, rec.status,
    rec.reads, rec.writes, rec.readBytes, rec.writeBytes,
    m.readsPerSec, m.writesPerSec, m.iops, m.readMBps, m.writeMBps, m.rAwaitMs, m.wAwaitMs, m.awaitMs, m.avgRequestBytes, m.utilPercent, m.aquSz,
  ];
}

/** Slot of the first metric (`readsPerSec`) in {@link INTERVAL_COLUMNS}; the metrics follow in {@link INTERVAL_METRIC_KEYS} order. */
const FIRST_METRIC = 9;
/** Metrics in a row (every key of {@link INTERVAL_METRIC_KEYS} but the last, `mbps`). */
const ROW_METRICS = INTERVAL_METRIC_KEYS.length - 1;
const metricScratch = new Float64Array(INTERVAL_METRIC_KEYS.length);
const OK = STATUS_CODE.ok;

/**
 * Row `i` of a device's columns as {@link intervalRow} gives it for `recordAt(c, i)`, without an
 * object per row (the per-interval CSV formats millions): its numbers into `out` (length ≥
 * {@link INTERVAL_COLUMNS}.length) in column order, times as epoch ms, absent NaN. The text
 * cells' slots (device, status) are left as they are: they are `c.device` and `statusAt(c, i)`.
 *
 * @example
 * const row = new Float64Array(INTERVAL_COLUMNS.length);
 * intervalRowInto(cols, 0, row); // row[1] = startMs, row[5] = reads, row[14] = rAwaitMs (NaN without reads)
 */
export function intervalRowInto(c: DeviceColumns, i: number, out: Float64Array): void {
  const reads = c.reads[i] as number;
  const writes = c.writes[i] as number;
  const readBytes = c.readBytes[i] as number;
  const writeBytes = c.writeBytes[i] as number;
  const intervalMs = c.intervalMs[i] as number;
  out[1] = c.startMs[i] as number;
  out[2] = c.endMs[i] as number;
  out[3] = intervalMs;
  out[5] = reads;
  out[6] = writes;
  out[7] = readBytes;
  out[8] = writeBytes;
  intervalMetricsInto(metricScratch, 0, c.status[i] === OK, intervalMs, reads, writes, readBytes, writeBytes, c.readTimeMs[i] as number, c.writeTimeMs[i] as number, c.busyMs[i] as number, c.weightedMs[i] as number);
  for (let k = 0; k < ROW_METRICS; k++) out[FIRST_METRIC + k] = metricScratch[k] as number;
}
