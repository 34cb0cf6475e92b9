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
import { Worker } from 'node:worker_threads';
import { allocColumns, columnsFromRecords, recordAt, sortColumns } from '@cacheproof/engine';
import type { CaptureData, ColumnSource, DeviceColumns, DeviceExtent, IntervalRecord } from '@cacheproof/engine';
import type { ErrorCode } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { captureReadError, openCaptureDb, readCapture, readCaptureInfo, type CaptureInfo } from './reader.ts';
import { BlockDamage, openBlockSource } from './blocks.ts';
import { scanIntervals } from './scan.ts';

/** Rows buffered per device before they are appended to its files. */
export const SPILL_ROWS = 8192;

/** The columns written per device, in file order (status and ok are one byte each, the rest 8-byte floats). */
const F64_COLUMNS = ['startMs', 'endMs', 'intervalMs', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;
const U8_COLUMNS = ['status', 'ok'] as const;

/** One device's rows from one scan (plain data: a scan on another thread posts it back). */
export interface SpillPart {
  name: string;
  /** The folder of its column files. */
  dir: string;
  n: number;
  minStartMs: number;
  maxEndMs: number;
  firstStartMs: number;
  lastStartMs: number;
  /** Whether its rows came in ascending start. */
  sorted: boolean;
}

/** A device's rows as the analysis reads them: its parts in rowid order. */
interface DeviceFiles {
  name: string;
  parts: SpillPart[];
  n: number;
  sorted: boolean;
}

interface PartWriter {
  part: SpillPart;
  fds: Map<string, number>;
  buf: DeviceColumns;
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
  /** Read from the capture's interval blocks (host/capture/blocks.ts), not from its rows. */
  fromBlocks: boolean;
  /** The folder of the columnar files ('' when the capture is read from its interval blocks). */
  dir: string;
  /** How another thread opens the same device columns ({@link openColumnSource}), while this capture is open. */
  reopen: ColumnsReopen;
  /** Removes the columnar files (or closes the capture read from its interval blocks). */
  close(): void;
}

function flush(d: PartWriter): void {
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
 * Scans the interval table once ({@link scanIntervals}, as the in-memory reader does) into
 * per-device columnar files under `dir`: the whole table, or the rows with
 * `range.lo < rowid <= range.hi` (one of the parallel scans).
 */
export function spill(db: Database.Database, names: Map<number, string>, dir: string, onProgress?: (rows: number, total: number) => void,
  range?: { lo: number; hi: number }): { parts: SpillPart[]; rows: number } {
  let total = 0;
  if (onProgress !== undefined) total = range !== undefined ? range.hi - range.lo : maxRowid(db);
  const slots: (PartWriter | undefined)[] = [];
  const writers: PartWriter[] = [];
  let rows = 0;
  try {
    scanIntervals(db, (id, start, end) => {
      let d = slots[id];
      if (d === undefined) {
        const name = names.get(id) ?? `device-${id}`;
        const ddir = join(dir, String(writers.length));
        mkdirSync(ddir);
        const fds = new Map<string, number>();
        for (const k of [...F64_COLUMNS, ...U8_COLUMNS]) fds.set(k, openSync(join(ddir, k), 'w'));
        d = { part: { name, dir: ddir, n: 0, minStartMs: Infinity, maxEndMs: -Infinity, firstStartMs: start, lastStartMs: -Infinity, sorted: true }, fds, buf: allocColumns(name, SPILL_ROWS) };
        slots[id] = d;
        writers.push(d);
      }
      if (d.buf.n === SPILL_ROWS) flush(d);
      const p = d.part;
      p.n++;
      rows++;
      if (onProgress !== undefined && (rows & 0xffff) === 0) onProgress(rows, Math.max(rows, total));
      if (start < p.lastStartMs) p.sorted = false;
      p.lastStartMs = start;
      if (start < p.minStartMs) p.minStartMs = start;
      if (end > p.maxEndMs) p.maxEndMs = end;
      return d.buf;
    }, range);
    for (const d of writers) flush(d);
  } finally {
    for (const d of writers) {
      for (const fd of d.fds.values()) closeSync(fd);
      d.fds.clear();
    }
  }
  return { parts: writers.map((w) => w.part), rows };
}

/** The interval table's highest rowid (about its row count), 0 for a table without rowid. */
function maxRowid(db: Database.Database): number {
  try {
    return (db.prepare('SELECT MAX(rowid) FROM intervals').pluck().get() as number | null) ?? 0;
  } catch {
    return 0;
  }
}

/** The devices of one or more scans (in rowid order): each device's parts, in order of first appearance. */
function devicesOf(scans: readonly SpillPart[][]): DeviceFiles[] {
  const byName = new Map<string, DeviceFiles>();
  for (const parts of scans) {
    for (const p of parts) {
      let d = byName.get(p.name);
      if (d === undefined) {
        d = { name: p.name, parts: [], n: 0, sorted: true };
        byName.set(p.name, d);
      }
      const prev = d.parts.at(-1);
      if (!p.sorted || (prev !== undefined && p.firstStartMs < prev.lastStartMs)) d.sorted = false;
      d.parts.push(p);
      d.n += p.n;
    }
  }
  return [...byName.values()];
}

/**
 * A device's columns read back from its files (sorted by start when the capture had them out of
 * order), into `into` when it has room (the source reuses one buffer for every device, so that a
 * pass over the devices holds one device's intervals however late the garbage collector runs).
 */
function loadDevice(d: DeviceFiles, into?: DeviceColumns): DeviceColumns {
  const c = into !== undefined && into.startMs.length >= d.n ? into : allocColumns(d.name, d.n);
  c.device = d.name;
  let at = 0;
  for (const p of d.parts) {
    for (const k of [...F64_COLUMNS, ...U8_COLUMNS]) {
      const fd = openSync(join(p.dir, k), 'r');
      try {
        const arr = c[k];
        readInto(fd, new Uint8Array(arr.buffer, at * arr.BYTES_PER_ELEMENT, p.n * arr.BYTES_PER_ELEMENT));
      } finally {
        closeSync(fd);
      }
    }
    at += p.n;
  }
  c.n = d.n;
  return d.sorted ? c : sortColumns(c);
}

/** How another thread opens the device columns of an open {@link ColumnarCapture} (plain data: posted to a worker). */
export type ColumnsReopen = { kind: 'blocks'; path: string } | { kind: 'files'; scans: SpillPart[][] };

/**
 * The device columns of a {@link ColumnarCapture} opened again, on another thread, from its
 * `reopen`: the capture's interval blocks (read-only) or the same columnar files (while the
 * capture that wrote them is open). Call `close()` when done.
 */
export function openColumnSource(r: ColumnsReopen): { source: ColumnSource; close(): void } {
  if (r.kind === 'files') return { source: filesSource(r.scans), close: () => undefined };
  const cap = openBlocks(r.path);
  if (cap === null) throw new HostError('capture-damaged', `${r.path} no longer has interval blocks that hold every row (it changed while it was analysed): open it again.`);
  return { source: cap.data.source as ColumnSource, close: () => cap.close() };
}

/** The columnar capture of scanned parts. */
function assemble(path: string, info: CaptureInfo, scans: SpillPart[][], rows: number, dir: string, close: () => void): ColumnarCapture {
  return captureFrom(path, info, filesSource(scans), rows, dir, { kind: 'files', scans }, close);
}

/** The devices of scanned parts, each read from its files when asked for (one buffer reused). */
function filesSource(scans: SpillPart[][]): ColumnSource {
  const files = devicesOf(scans);
  const byName = new Map(files.map((f) => [f.name, f]));
  let shared: DeviceColumns | undefined;
  const extent = (f: DeviceFiles): DeviceExtent => ({
    device: f.name, n: f.n,
    minStartMs: Math.min(...f.parts.map((p) => p.minStartMs)), maxEndMs: Math.max(...f.parts.map((p) => p.maxEndMs)),
  });
  const source: ColumnSource = {
    devices: files.map(extent),
    load: (device) => {
      const f = byName.get(device);
      if (f === undefined) return allocColumns(device, 0);
      shared ??= allocColumns('', Math.max(0, ...files.map((x) => x.n)));
      return loadDevice(f, shared);
    },
  };
  return source;
}

/** The columnar capture of a source of device columns (the columnar files, or the capture's interval blocks). */
function captureFrom(path: string, info: CaptureInfo, source: ColumnSource, rows: number, dir: string, reopen: ColumnsReopen, close: () => void): ColumnarCapture {
  let records: IntervalRecord[] | null = null;
  const data: CaptureData = {
    host: info.host,
    devices: info.devices,
    phases: info.phases,
    get intervals(): IntervalRecord[] {
      if (records === null) {
        const out: IntervalRecord[] = [];
        for (const d of source.devices) {
          const c = source.load(d.device);
          for (let i = 0; i < c.n; i++) out.push(recordAt(c, i));
        }
        records = out;
      }
      return records;
    },
    source,
    warnings: info.warnings,
    sampleIntervalMs: info.sampleIntervalMs,
    engine: info.engine,
    prediction: info.prediction,
    traceLatency: info.traceLatency,
    traceSizes: info.traceSizes,
    volumes: info.volumes,
    work: info.work,
    stack: info.stack,
  };
  return { ...info, path, data, intervalCount: rows, fromBlocks: dir === '', dir, reopen, close };
}

function infoOf(path: string, db: Database.Database): CaptureInfo {
  try {
    return readCaptureInfo(db);
  } catch (err) {
    const mapped = captureReadError(path, err);
    if (mapped !== err) throw mapped;
    throw new HostError('capture-not-cacheproof', `${path} could not be read as a CacheProof capture: ${(err as Error).message}.`);
  }
}

/** Reading settings of a scan: no memory map (its pages would count in the process's resident memory: the whole file), a small page cache. */
function scanSettings(db: Database.Database): void {
  db.pragma('mmap_size = 0');
  db.pragma('cache_size = -16384');
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
  const fromBlocks = openBlocks(path);
  if (fromBlocks !== null) return fromBlocks;
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'cacheproof-columns-'));
  const close = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    return readCapture(path, (db) => {
      const info = infoOf(path, db);
      scanSettings(db);
      const { parts, rows } = spill(db, info.names, dir, onProgress);
      return assemble(path, info, [parts], rows, dir, close);
    });
  } catch (err) {
    close();
    throw err;
  }
}

/**
 * The capture read from its interval blocks (host/capture/blocks.ts), when it has blocks that
 * hold every row: the database stays open (read-only) until `close()`, and each device's columns
 * are decoded when the engine asks for them. Null: read the rows.
 */
function openBlocks(path: string): ColumnarCapture | null {
  const db = openCaptureDb(path);
  try {
    const info = infoOf(path, db);
    const blocks = openBlockSource(db, info.meta, info.names);
    if (blocks === null) {
      db.close();
      return null;
    }
    const damaged = (err: unknown): unknown => (err instanceof BlockDamage
      ? new HostError('capture-damaged', `${path} is damaged: ${err.message}. Its interval rows may be whole: run 'cacheproof-probe index ${path}' to write its columnar blocks again from them, then open it again.`)
      : captureReadError(path, err));
    const { load, loadRange } = blocks.source as Required<ColumnSource>;
    const source: ColumnSource = {
      devices: blocks.source.devices,
      load: (device) => {
        try {
          return load(device);
        } catch (err) {
          throw damaged(err);
        }
      },
      loadRange: (device, window) => {
        try {
          return loadRange(device, window);
        } catch (err) {
          throw damaged(err);
        }
      },
    };
    return captureFrom(path, info, source, blocks.rows, '', { kind: 'blocks', path }, () => db.close());
  } catch (err) {
    db.close();
    throw captureReadError(path, err);
  }
}

/** Below this many rows a capture is read on one thread (a second thread costs more than it saves). */
export const PARALLEL_MIN_ROWS = 500_000;

/** A scan of a rowid range on another thread: what {@link openCaptureColumnarParallel} asks of the worker. */
export interface SpillJob {
  type: 'spill';
  path: string;
  dir: string;
  lo: number;
  hi: number;
}

/** Runs a {@link SpillJob} (on the worker thread): the parts it wrote. */
export function runSpillJob(job: SpillJob): { parts: SpillPart[]; rows: number } {
  return readCapture(job.path, (db) => {
    const info = infoOf(job.path, db);
    scanSettings(db);
    return spill(db, info.names, job.dir, undefined, { lo: job.lo, hi: job.hi });
  });
}

/**
 * {@link openCaptureColumnar} with the scan split in two rowid halves, the upper one on a worker
 * thread (the bundle at `workerFile`, host/analysis-worker.ts), both at once: on two cores the
 * read takes about half as long. One thread when there is no worker bundle or fewer than
 * `minRows` rows (default {@link PARALLEL_MIN_ROWS}). The same capture as the one-thread read.
 * `offThread`: both halves on worker threads, so that the calling thread (the host's event loop,
 * for an export's rows) keeps answering while the capture is read.
 */
export async function openCaptureColumnarParallel(path: string, workerFile: string | null, parent: string = tmpdir(), onProgress?: (rows: number, total: number) => void,
  minRows = PARALLEL_MIN_ROWS, offThread = false): Promise<ColumnarCapture> {
  const fromBlocks = openBlocks(path);
  if (fromBlocks !== null) return fromBlocks;
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'cacheproof-columns-'));
  const close = (): void => rmSync(dir, { recursive: true, force: true });
  const workers: Worker[] = [];
  try {
    const db = openCaptureDb(path);
    try {
      const info = infoOf(path, db);
      const max = maxRowid(db);
      if (workerFile === null || max < minRows) {
        db.close();
        close();
        return openCaptureColumnar(path, parent, onProgress);
      }
      const mid = Math.floor(max / 2);
      const half = (name: string, lo: number, hi: number): Promise<{ parts: SpillPart[]; rows: number }> => {
        mkdirSync(join(dir, name));
        const job: SpillJob = { type: 'spill', path, dir: join(dir, name), lo, hi };
        const w = new Worker(workerFile, { workerData: job });
        workers.push(w);
        const p = new Promise<{ parts: SpillPart[]; rows: number }>((resolve, reject) => {
          w.once('message', (m: { type: 'spilled'; parts: SpillPart[]; rows: number } | { type: 'error'; hostCode: string | null; message: string }) => {
            if (m.type === 'spilled') resolve(m);
            else reject(m.hostCode !== null ? new HostError(m.hostCode as ErrorCode, m.message) : new Error(m.message));
          });
          w.once('error', reject);
          w.once('exit', (code) => reject(new Error(`the scan worker for ${path} stopped (exit ${code})`)));
        });
        p.catch(() => undefined);
        return p;
      };
      const upper = half('upper', mid, max);
      let lower: { parts: SpillPart[]; rows: number };
      if (offThread) {
        // the caller's thread answers other work (the host's event loop) while two workers scan
        db.close();
        lower = await half('lower', -Infinity, mid);
      } else {
        scanSettings(db);
        mkdirSync(join(dir, 'lower'));
        try {
          lower = spill(db, info.names, join(dir, 'lower'), onProgress === undefined ? undefined : (rows) => onProgress(rows * 2, max), { lo: -Infinity, hi: mid });
        } catch (err) {
          throw captureReadError(path, err);
        }
      }
      const up = await upper;
      return assemble(path, info, [lower.parts, up.parts], lower.rows + up.rows, dir, close);
    } finally {
      if (db.open) db.close();
    }
  } catch (err) {
    close();
    throw err;
  } finally {
    for (const w of workers) void w.terminate();
  }
}

/** The columns of every device of a columnar capture, loaded at once (small captures, tests). */
export function allColumns(cap: ColumnarCapture): DeviceColumns[] {
  const src = cap.data.source as ColumnSource;
  if (src.devices.length === 0) return columnsFromRecords([]);
  // a copy of each (the source reuses one buffer for every device it loads)
  return src.devices.map((d) => {
    const c = src.load(d.device);
    const out = allocColumns(c.device, c.n);
    out.n = c.n;
    for (const k of [...F64_COLUMNS, ...U8_COLUMNS]) out[k].set(c[k].subarray(0, c.n));
    return out;
  });
}
