import type { IntervalRecord, IntervalStatus } from './types.ts';

/**
 * The one interval status table: statuses by their code in {@link DeviceColumns.status} (the
 * code is the index). The capture reader's SQL (`statusCodeSql`), the window reader and the
 * columns all derive from it. A status missing here is a type error (`satisfies` below).
 */
export const INTERVAL_STATUSES = ['ok', 'wrap', 'reset', 'clock-jump', 'gap'] as const satisfies readonly IntervalStatus[];

type Missing = Exclude<IntervalStatus, (typeof INTERVAL_STATUSES)[number]>;
/** Compile-time check: every {@link IntervalStatus} has a code (this is `true` only when none is missing). */
const EVERY_STATUS_HAS_A_CODE: [Missing] extends [never] ? true : Missing = true;
void EVERY_STATUS_HAS_A_CODE;

/** Code of each status in {@link DeviceColumns.status}: its index in {@link INTERVAL_STATUSES}. */
export const STATUS_CODE: Readonly<Record<IntervalStatus, number>> = Object.freeze(
  Object.fromEntries(INTERVAL_STATUSES.map((s, i) => [s, i])) as Record<IntervalStatus, number>,
);

/** Whether a text (a capture's `status` column) is a known interval status. */
export function isIntervalStatus(s: string): s is IntervalStatus {
  return (INTERVAL_STATUSES as readonly string[]).includes(s);
}

/**
 * An SQL expression giving {@link STATUS_CODE} of a text column, generated from
 * {@link INTERVAL_STATUSES} (an unknown status is a `gap`, as in {@link columnsFromRecords}).
 *
 * @example
 * statusCodeSql('status') // "CASE status WHEN 'ok' THEN 0 WHEN 'wrap' THEN 1 … ELSE 4 END"
 */
export function statusCodeSql(column: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(column)) throw new Error(`statusCodeSql: not a column name: ${column}`);
  const whens = INTERVAL_STATUSES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ');
  return `CASE ${column} ${whens} ELSE ${STATUS_CODE.gap} END`;
}

/**
 * One device's canonical interval records (see {@link IntervalRecord}) as columns: a struct of
 * typed arrays, one slot per interval, in ascending `startMs`. The same data as the records,
 * without one object per interval, which is what lets a multi-day, many-device capture be
 * analyzed in about the time SQLite takes to scan it. Absent (`null`) is NaN, never 0.
 */
export interface DeviceColumns {
  device: string;
  /** Number of intervals (the arrays may be longer; only the first `n` slots count). */
  n: number;
  startMs: Float64Array;
  endMs: Float64Array;
  intervalMs: Float64Array;
  /** Status code: index into {@link INTERVAL_STATUSES}. */
  status: Uint8Array;
  /** 1 where the interval carries numbers: `ok`, Δt > 0, reads and writes present. */
  ok: Uint8Array;
  reads: Float64Array;
  writes: Float64Array;
  readBytes: Float64Array;
  writeBytes: Float64Array;
  readTimeMs: Float64Array;
  writeTimeMs: Float64Array;
  busyMs: Float64Array;
  weightedMs: Float64Array;
}

/** The numeric count columns of {@link DeviceColumns}, in record field order. */
export const COUNT_COLUMNS = ['reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;

/** Empty columns with room for `capacity` intervals. */
export function allocColumns(device: string, capacity: number): DeviceColumns {
  const f = (): Float64Array => new Float64Array(capacity);
  return {
    device, n: 0, startMs: f(), endMs: f(), intervalMs: f(), status: new Uint8Array(capacity), ok: new Uint8Array(capacity),
    reads: f(), writes: f(), readBytes: f(), writeBytes: f(), readTimeMs: f(), writeTimeMs: f(), busyMs: f(), weightedMs: f(),
  };
}

/** The same columns with room for `capacity` intervals (copying the first `n`). */
export function growColumns(c: DeviceColumns, capacity: number): DeviceColumns {
  const g = allocColumns(c.device, capacity);
  g.n = c.n;
  g.startMs.set(c.startMs.subarray(0, c.n));
  g.endMs.set(c.endMs.subarray(0, c.n));
  g.intervalMs.set(c.intervalMs.subarray(0, c.n));
  g.status.set(c.status.subarray(0, c.n));
  g.ok.set(c.ok.subarray(0, c.n));
  for (const k of COUNT_COLUMNS) g[k].set(c[k].subarray(0, c.n));
  return g;
}

const nn = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);

/** Whether an interval carries numbers: `ok`, Δt > 0 and reads and writes present. */
export function slotOk(status: number, intervalMs: number, reads: number, writes: number): boolean {
  return status === 0 && intervalMs > 0 && !Number.isNaN(reads) && !Number.isNaN(writes);
}

/** Sorts a device's slots by `startMs` when they are not in order already (stable). */
export function sortColumns(c: DeviceColumns): DeviceColumns {
  let sorted = true;
  for (let i = 1; i < c.n; i++) {
    if ((c.startMs[i] as number) < (c.startMs[i - 1] as number)) { sorted = false; break; }
  }
  if (sorted) return c;
  const order = Array.from({ length: c.n }, (_, i) => i).sort((a, b) => (c.startMs[a] as number) - (c.startMs[b] as number) || a - b);
  const out = allocColumns(c.device, c.n);
  out.n = c.n;
  order.forEach((from, to) => {
    out.startMs[to] = c.startMs[from] as number;
    out.endMs[to] = c.endMs[from] as number;
    out.intervalMs[to] = c.intervalMs[from] as number;
    out.status[to] = c.status[from] as number;
    out.ok[to] = c.ok[from] as number;
    for (const k of COUNT_COLUMNS) out[k][to] = c[k][from] as number;
  });
  return out;
}

/**
 * Groups interval records into per-device columns, devices in order of first appearance, each
 * sorted by `startMs`. Linear for records already in time order.
 *
 * @example
 * columnsFromRecords([{ device: 'sda', startMs: 0, endMs: 1000, intervalMs: 1000, status: 'ok', reads: 5, writes: 1, … }])
 * // [{ device: 'sda', n: 1, reads: Float64Array [5], ok: Uint8Array [1], … }]
 */
export function columnsFromRecords(records: readonly IntervalRecord[]): DeviceColumns[] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.device, (counts.get(r.device) ?? 0) + 1);
  const cols = new Map<string, DeviceColumns>();
  for (const [name, n] of counts) cols.set(name, allocColumns(name, n));
  for (const r of records) {
    const c = cols.get(r.device) as DeviceColumns;
    const i = c.n++;
    c.startMs[i] = r.startMs;
    c.endMs[i] = r.endMs;
    c.intervalMs[i] = r.intervalMs;
    const st = STATUS_CODE[r.status] ?? STATUS_CODE.gap;
    c.status[i] = st;
    const reads = nn(r.reads), writes = nn(r.writes);
    c.reads[i] = reads;
    c.writes[i] = writes;
    c.readBytes[i] = nn(r.readBytes);
    c.writeBytes[i] = nn(r.writeBytes);
    c.readTimeMs[i] = nn(r.readTimeMs);
    c.writeTimeMs[i] = nn(r.writeTimeMs);
    c.busyMs[i] = nn(r.busyMs);
    c.weightedMs[i] = nn(r.weightedMs);
    c.ok[i] = slotOk(st, r.intervalMs, reads, writes) ? 1 : 0;
  }
  return [...cols.values()].map(sortColumns);
}

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** The status of slot `i` of a device's columns (an unknown code is a `gap`, as {@link columnsFromRecords} reads one). */
export function statusAt(c: DeviceColumns, i: number): IntervalStatus {
  return INTERVAL_STATUSES[c.status[i] as number] ?? 'gap';
}

/**
 * The record of slot `i` of a device's columns (the inverse of {@link columnsFromRecords}).
 *
 * @example
 * recordAt(columnsFromRecords([rec])[0], 0) // deep-equal to rec (merge counts aside)
 */
export function recordAt(c: DeviceColumns, i: number): IntervalRecord {
  return {
    device: c.device,
    startMs: c.startMs[i] as number,
    endMs: c.endMs[i] as number,
    intervalMs: c.intervalMs[i] as number,
    status: statusAt(c, i),
    reads: orNull(c.reads[i] as number),
    writes: orNull(c.writes[i] as number),
    readBytes: orNull(c.readBytes[i] as number),
    writeBytes: orNull(c.writeBytes[i] as number),
    readTimeMs: orNull(c.readTimeMs[i] as number),
    writeTimeMs: orNull(c.writeTimeMs[i] as number),
    busyMs: orNull(c.busyMs[i] as number),
    weightedMs: orNull(c.weightedMs[i] as number),
  };
}

/** Total number of intervals over all devices. */
export function columnsLength(cols: readonly DeviceColumns[]): number {
  let n = 0;
  for (const c of cols) n += c.n;
  return n;
}
