/**
 * A capture's interval table as one columnar file per device and column, written in one scan
 * of the capture, so that an analysis can read the devices one at a time (engine
 * `ColumnSource`) and hold one device's intervals instead of the whole table: memory then
 * depends on the devices and hours, not on the rows (docs/capture-schema.md, "Reading a large
 * capture"). The scan keeps a fixed-size buffer per device and appends it to the device's files
 * when full. The files live in a folder of their own, removed by {@link ColumnarCapture.close}.
 */
import type Database from 'better-sqlite3';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allocColumns, columnsFromRecords, recordAt, slotOk, sortColumns } from '@cacheproof/engine';
import type { CaptureData, ColumnSource, DeviceColumns, DeviceExtent, IntervalRecord } from '@cacheproof/engine';
import { HostError } from '../errors.ts';
import { captureReadError, readCapture, readCaptureInfo, type CaptureInfo } from './reader.ts';

/** Rows buffered per device before they are appended to its files. */
export const SPILL_ROWS = 8192;

/** The columns written per device, in file order (status and ok are one byte each, the rest 8-byte floats). */
const F64_COLUMNS = ['startMs', 'endMs', 'intervalMs', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;
const U8_COLUMNS = ['status', 'ok'] as const;

interface DeviceFiles {
  name: string;
  dir: string;
  fds: Map<string, number>;
  buf: DeviceColumns;
  n: number;
  minStartMs: number;
  maxEndMs: number;
  lastStartMs: number;
  sorted: boolean;
}

export interface ColumnarCapture extends CaptureInfo {
  path: string;
  /**
   * The capture as the engine's plain data: `source` reads the devices one at a time from the
   * columnar files; `columns` is absent; `intervals` loads every device (only for readers that
   * need records: avoid on large captures).
   */
  data: CaptureData;
  /** Number of interval rows. */
  intervalCount: number;
  /** The folder of the columnar files. */
  dir: string;
  /** Removes the columnar files. */
  close(): void;
}

function flush(d: DeviceFiles): void {
  const c = d.buf;
  if (c.n === 0) return;
  for (const k of F64_COLUMNS) writeSync(d.fds.get(k) as number, new Uint8Array(c[k].buffer, 0, c.n * 8));
  for (const k of U8_COLUMNS) writeSync(d.fds.get(k) as number, new Uint8Array(c[k].buffer, 0, c.n));
  c.n = 0;
}

function readInto(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) {
    const got = readSync(fd, bytes, off, bytes.length - off, off);
    if (got <= 0) throw new Error(`columnar file ended after ${off} of ${bytes.length} bytes`);
    off += got;
  }
}

/**
 * Scans the interval table once (a user-defined SQL aggregate fed every row, as the in-memory
 * reader does) into per-device columnar files under `dir`.
 */
function spill(db: Database.Database, names: Map<number, string>, dir: string, onProgress?: (rows: number, total: number) => void): { files: DeviceFiles[]; rows: number } {
  let total = 0;
  if (onProgress !== undefined) {
    try {
      total = (db.prepare('SELECT MAX(rowid) FROM intervals').pluck().get() as number | null) ?? 0;
    } catch {
      total = 0; // a table without rowid: progress without a total
    }
  }
  const slots: (DeviceFiles | undefined)[] = [];
  const files: DeviceFiles[] = [];
  let rows = 0;
  const nan = (v: number | null): number => (v === null ? NaN : v);
  const step = (_acc: number, id: number, start: number, end: number, ms: number, st: number, r: number | null, w: number | null,
    rb: number | null, wb: number | null, rt: number | null, wt: number | null, busy: number | null, weighted: number | null): void => {
    let d = slots[id];
    if (d === undefined) {
      const name = names.get(id) ?? `device-${id}`;
      const ddir = join(dir, String(files.length));
      mkdirSync(ddir);
      const fds = new Map<string, number>();
      for (const k of [...F64_COLUMNS, ...U8_COLUMNS]) fds.set(k, openSync(join(ddir, k), 'w'));
      d = { name, dir: ddir, fds, buf: allocColumns(name, SPILL_ROWS), n: 0, minStartMs: Infinity, maxEndMs: -Infinity, lastStartMs: -Infinity, sorted: true };
      slots[id] = d;
      files.push(d);
    }
    const c = d.buf;
    if (c.n === SPILL_ROWS) flush(d);
    const i = c.n++;
    d.n++;
    rows++;
    if (onProgress !== undefined && (rows & 0xffff) === 0) onProgress(rows, Math.max(rows, total));
    if (start < d.lastStartMs) d.sorted = false;
    d.lastStartMs = start;
    if (start < d.minStartMs) d.minStartMs = start;
    if (end > d.maxEndMs) d.maxEndMs = end;
    const reads = nan(r), writes = nan(w);
    c.startMs[i] = start;
    c.endMs[i] = end;
    c.intervalMs[i] = ms;
    c.status[i] = st;
    c.ok[i] = slotOk(st, ms, reads, writes) ? 1 : 0;
    c.reads[i] = reads;
    c.writes[i] = writes;
    c.readBytes[i] = nan(rb);
    c.writeBytes[i] = nan(wb);
    c.readTimeMs[i] = nan(rt);
    c.writeTimeMs[i] = nan(wt);
    c.busyMs[i] = nan(busy);
    c.weightedMs[i] = nan(weighted);
  };
  try {
    db.aggregate('cacheproof_spill', { start: 0, step: step as unknown as (total: number, next: number) => void, result: () => 0 });
    db.prepare(
      `SELECT cacheproof_spill(device_id, start_utc_ms, end_utc_ms, interval_ms,
                CASE status WHEN 'ok' THEN 0 WHEN 'wrap' THEN 1 WHEN 'reset' THEN 2 WHEN 'clock-jump' THEN 3 ELSE 4 END,
                reads, writes, read_bytes, write_bytes, read_time_ms, write_time_ms, busy_ms, weighted_ms)
         FROM intervals`,
    ).pluck().get();
    for (const d of files) flush(d);
  } finally {
    for (const d of files) {
      for (const fd of d.fds.values()) closeSync(fd);
      d.fds.clear();
    }
  }
  return { files, rows };
}

/**
 * A device's columns read back from its files (sorted by start when the capture had them out of
 * order), into `into` when it has room (the source reuses one buffer for every device, so that a
 * pass over the devices holds one device's intervals however late the garbage collector runs).
 */
function loadDevice(d: DeviceFiles, into?: DeviceColumns): DeviceColumns {
  const c = into !== undefined && into.startMs.length >= d.n ? into : allocColumns(d.name, d.n);
  c.device = d.name;
  for (const k of [...F64_COLUMNS, ...U8_COLUMNS]) {
    const fd = openSync(join(d.dir, k), 'r');
    try {
      const arr = c[k];
      readInto(fd, new Uint8Array(arr.buffer, 0, d.n * arr.BYTES_PER_ELEMENT));
    } finally {
      closeSync(fd);
    }
  }
  c.n = d.n;
  return d.sorted ? c : sortColumns(c);
}

/**
 * Opens a capture for analysis in bounded memory: checks it like {@link readCapture}, reads its
 * meta, devices, phases and warnings, and writes its intervals to columnar files in a new
 * folder under `parent` (default: the system's temporary folder). The result's `data.source`
 * gives the engine one device at a time; call `close()` when done to remove the files.
 * Throws HostError (`capture-damaged`, …) like {@link readCapture}. `onProgress` is called every
 * 65 536 rows with the rows read and the table's highest rowid (about its row count).
 *
 * @example
 * const cap = openCaptureColumnar('/data/run.capture');
 * try { analyze(cap.data, {}); } finally { cap.close(); }
 */
export function openCaptureColumnar(path: string, parent: string = tmpdir(), onProgress?: (rows: number, total: number) => void): ColumnarCapture {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'cacheproof-columns-'));
  const close = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    return readCapture(path, (db) => {
      let info: CaptureInfo;
      try {
        info = readCaptureInfo(db);
      } catch (err) {
        const mapped = captureReadError(path, err);
        if (mapped !== err) throw mapped;
        throw new HostError('capture-not-cacheproof', `${path} could not be read as a CacheProof capture: ${(err as Error).message}.`);
      }
      // no memory map here: its pages would count in the process's resident memory (the whole file)
      db.pragma(`mmap_size = ${Number(process.env['CACHEPROOF_MMAP'] ?? 0)}`);
      db.pragma('cache_size = -16384');
      const { files, rows } = spill(db, info.names, dir, onProgress);
      const byName = new Map(files.map((f) => [f.name, f]));
      let shared: DeviceColumns | undefined;
      const devices: DeviceExtent[] = files.map((f) => ({ device: f.name, n: f.n, minStartMs: f.minStartMs, maxEndMs: f.maxEndMs }));
      const source: ColumnSource = {
        devices,
        load: (device) => {
          const f = byName.get(device);
          if (f === undefined) return allocColumns(device, 0);
          shared ??= allocColumns('', Math.max(0, ...files.map((x) => x.n)));
          return loadDevice(f, shared);
        },
      };
      let records: IntervalRecord[] | null = null;
      const data: CaptureData = {
        host: info.host,
        devices: info.devices,
        phases: info.phases,
        get intervals(): IntervalRecord[] {
          if (records === null) {
            const out: IntervalRecord[] = [];
            for (const f of files) {
              const c = loadDevice(f);
              for (let i = 0; i < c.n; i++) out.push(recordAt(c, i));
            }
            records = out;
          }
          return records;
        },
        source,
        warnings: info.warnings,
        sampleIntervalMs: info.sampleIntervalMs,
      };
      return { ...info, path, data, intervalCount: rows, dir, close };
    });
  } catch (err) {
    close();
    throw err;
  }
}

/** The columns of every device of a columnar capture, loaded at once (small captures, tests). */
export function allColumns(cap: ColumnarCapture): DeviceColumns[] {
  const src = cap.data.source as ColumnSource;
  return src.devices.length > 0 ? src.devices.map((d) => src.load(d.device)) : columnsFromRecords([]);
}
