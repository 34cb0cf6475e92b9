/**
 * The one module through which the app reads captures (docs/capture-schema.md).
 * Opens read-only, checks the file is a CacheProof capture of a version we know, and returns
 * the engine's plain `CaptureData`.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { allocColumns, growColumns, recordAt, sortColumns } from '@cacheproof/engine';
import type { CaptureData, DeviceColumns, DeviceInfo, DeviceRole, IntervalRecord, Phase, StoredPrediction, StoredTraceLatency, Warning } from '@cacheproof/engine';
import { readPrediction, readTraceLatency } from './prediction.ts';
import { HostError } from '../errors.ts';
import { readEngineRecords } from './engine.ts';
import { traceSizesOf } from './trace-sizes.ts';
import { readVolumes } from './volumes.ts';
import { readWork } from './work.ts';
import { scanIntervals } from './scan.ts';
import type { ImportedFile } from '@cacheproof/engine/report';

/** Schema versions this build can read. */
export const CAPTURE_SCHEMA_VERSION = 8;
/** PRAGMA application_id of a capture: "CPRF". */
export const CAPTURE_APPLICATION_ID = 0x43505246;

const SQLITE_MAGIC = 'SQLite format 3\0';

export interface OpenedCapture {
  path: string;
  meta: Record<string, string>;
  /** The capture as plain data: `data.columns` holds the intervals as columns; `data.intervals` builds records on first use. */
  data: CaptureData;
  /** Number of interval rows. */
  intervalCount: number;
  /** The recorder's `state` (`running`, `done`, …; docs/capture-schema.md), or null when the capture has none (imports, generated captures). */
  recorderState: string | null;
  /** The capture's schema version (`PRAGMA user_version`). */
  schemaVersion: number;
}

/** The recorder's state from the `recorder` table, or null when there is none. */
export function recorderState(db: Database.Database): string | null {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'recorder'").pluck().get();
  if (has === undefined) return null;
  const v = db.prepare("SELECT value FROM recorder WHERE key = 'state'").pluck().get() as string | undefined;
  return v ?? null;
}

/**
 * SQLite result codes (better-sqlite3's `SqliteError.code`) that mean the file's bytes are not a
 * whole database: a truncated file, pages overwritten, a header that is not SQLite's. SQLite may
 * find them at open or only when the scan reaches the bad page, so every read of a capture goes
 * through {@link readCapture}, which maps them with {@link captureReadError}.
 */
const DAMAGED_SQLITE_CODE = /^SQLITE_(CORRUPT|NOTADB|IOERR_SHORT_READ)/;

/**
 * Where a copy of a damaged capture as it was recorded may be, in words: the write-ahead log
 * beside it when there is one (the recorder commits every sample there first), else only a
 * backup the person made, if any.
 */
function copySentence(path: string): string {
  const wal = `${path}-wal`;
  let walBytes = 0;
  try {
    walBytes = statSync(wal).size;
  } catch { /* no write-ahead log */ }
  if (walBytes > 0) {
    return `a copy of the samples recorded last may be in its write-ahead log ${wal} (${walBytes} bytes) beside it, and the whole file in a backup you made: keep ${basename(wal)} next to the capture, restore the capture from your backup if you have one, or record the run again`;
  }
  return `a copy of the file as it was recorded may be in a backup you made (there is no write-ahead log ${basename(wal)} beside it to recover from): restore that copy, or record the run again`;
}

/** The one sentence for a damaged capture: what SQLite said, and where a copy may be. */
function damaged(path: string, what: string): HostError {
  return new HostError('capture-damaged', `${path} is damaged: ${what}; ${copySentence(path)}.`);
}

/**
 * The expected failure for an error met while reading a capture: SQLite's "malformed",
 * "not a database" and short reads become `capture-damaged` (one sentence naming the file and
 * where a copy may be); a HostError stays as it is; anything else is returned unchanged (a bug).
 */
export function captureReadError(path: string, err: unknown): unknown {
  if (err instanceof HostError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DAMAGED_SQLITE_CODE.test(code)) {
    return damaged(path, `SQLite cannot read it (${(err as Error).message}, ${code}): the file was cut short or parts of it were overwritten`);
  }
  return err;
}

function checkFile(path: string): void {
  if (!existsSync(path)) throw new HostError('capture-not-found', `Capture file not found: ${path}. Check the path, or record one with 'cacheproof-probe record'.`);
  const st = statSync(path);
  if (!st.isFile()) throw new HostError('capture-not-found', `${path} is not a file.`);
  if (st.size === 0) throw damaged(path, 'it is empty (0 bytes): the recording was cut off before its first write, or the file was truncated');
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(100);
    const n = readSync(fd, head, 0, 100, 0);
    const text = head.subarray(0, Math.min(n, 16)).toString('latin1');
    if (n < 16 && SQLITE_MAGIC.startsWith(text)) throw damaged(path, `it holds only ${n} bytes of an SQLite header: the file was cut short`);
    if (n < 16 || text !== SQLITE_MAGIC) {
      throw new HostError('capture-not-sqlite', `${path} is not a CacheProof capture (not an SQLite file). Open a .capture file written by cacheproof-probe.`);
    }
    if (n === 100) {
      // The header's page count (offset 28) is valid when its change counter (24) equals
      // "version-valid-for" (92) (sqlite.org/fileformat2.html §1.3): a file shorter than those
      // pages was cut short, even if the pages an analysis reads happen to be whole.
      const raw = head.readUInt16BE(16);
      const pageSize = raw === 1 ? 65536 : raw;
      const pages = head.readUInt32BE(28);
      const expected = pages * pageSize;
      if (pages > 0 && head.readUInt32BE(24) === head.readUInt32BE(92) && st.size < expected) {
        throw damaged(path, `it is ${st.size} bytes but its header says ${pages} pages of ${pageSize} bytes (${expected} bytes): the file was cut short`);
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 of a file, hex, on this thread (reading it in 1 MiB chunks). */
async function sha256Here(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The worker's whole program (CommonJS, run with `eval`, so the bundle needs no second file). */
const HASH_WORKER = `
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const hash = createHash('sha256');
const fd = openSync(workerData, 'r');
const buf = Buffer.allocUnsafe(4 << 20);
try {
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
} finally {
  closeSync(fd);
}
parentPort.postMessage(hash.digest('hex'));
`;

/**
 * {@link HASH_WORKER} on a thread of lower priority (nice 10; on Linux a thread's own): a hash
 * nobody waits for yet yields the cores to whatever else runs (the window drawing the dashboard
 * the analysis just went to), and still runs at full speed on a core nothing else wants.
 */
const BACKGROUND_HASH_WORKER = `try { require('node:os').setPriority(10); } catch { /* not allowed here: normal priority */ }
${HASH_WORKER}`;

/**
 * How often this thread opened a capture's database (every read goes through {@link openCaptureDb}:
 * its info, a full read, a columnar read) and hashed a file ({@link sha256File}), since the process
 * started: what shows that a session reads and hashes a capture once (app/test/report-session.test.ts).
 */
export const captureReads = { opens: 0, hashes: 0 };

/**
 * SHA-256 of a file, hex (for the audit trail and the report appendix). Hashed on a worker
 * thread, so that it runs beside a capture's scan on another core instead of after it (about
 * 0.12 s per 220 MB here); on this thread when a worker cannot start. `background`: on a thread of
 * lower priority ({@link BACKGROUND_HASH_WORKER}), for a hash computed after the work that waits.
 */
export function sha256File(path: string, { background = false }: { background?: boolean } = {}): Promise<string> {
  captureReads.hashes++;
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(background ? BACKGROUND_HASH_WORKER : HASH_WORKER, { eval: true, workerData: path });
    } catch {
      sha256Here(path).then(resolve, reject);
      return;
    }
    let done = false;
    worker.once('message', (hex: string) => {
      done = true;
      resolve(hex);
    });
    worker.once('error', (err) => {
      done = true;
      reject(new Error(`${path} could not be read to compute its SHA-256: ${err.message}`, { cause: err }));
    });
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`${path}: the SHA-256 worker stopped (exit ${code}) before it finished`));
    });
  });
}

const ROLES: readonly DeviceRole[] = ['front', 'backing', 'cache', 'other'];

/**
 * The interval columns of a capture, read in one scan ({@link scanIntervals}) into per-device
 * typed arrays held in memory.
 */
function readColumns(db: Database.Database, names: Map<number, string>, ids?: readonly number[]): { columns: DeviceColumns[]; order: Uint16Array; reordered: boolean } {
  const slots: (DeviceColumns | undefined)[] = [];
  const index: number[] = []; // device id → position in `list`
  const list: DeviceColumns[] = [];
  // Room for the rows up front (rowids are at most one above the row count in a capture, which
  // only ever inserts): an even share per device, grown by doubling if a device has more.
  let maxRowid: number;
  try {
    maxRowid = (db.prepare('SELECT MAX(rowid) FROM intervals').pluck().get() as number | null) ?? 0;
  } catch {
    maxRowid = db.prepare('SELECT COUNT(*) FROM intervals').pluck().get() as number; // a table without rowid
  }
  const perDevice = Math.ceil(maxRowid / Math.max(1, names.size)) + 16;
  let order = new Uint16Array(ids === undefined ? maxRowid + 16 : perDevice * Math.max(1, ids.length));
  let rows = 0;
  scanIntervals(db, (id) => {
    let c = slots[id];
    if (c === undefined) {
      c = allocColumns(names.get(id) ?? `device-${id}`, perDevice);
      slots[id] = c;
      index[id] = list.length;
      list.push(c);
    } else if (c.n === c.startMs.length) {
      const grown = growColumns(c, c.n * 2);
      slots[id] = grown;
      list[index[id] as number] = grown;
      c = grown;
    }
    if (rows === order.length) {
      const o = new Uint16Array(rows * 2);
      o.set(order);
      order = o;
    }
    order[rows++] = index[id] as number;
    return c;
  }, undefined, ids);
  // The recorder inserts in time order; anything out of order is sorted once per device.
  const columns = list.map(sortColumns);
  return { columns, order: order.subarray(0, rows), reordered: columns.some((c, d) => c !== list[d]) };
}

/**
 * The records of the columns, in the capture's row order (built on first use: most readers
 * only need the columns).
 */
function recordsInRowOrder(columns: readonly DeviceColumns[], order: Uint16Array): IntervalRecord[] {
  const cursor = new Array<number>(columns.length).fill(0);
  const out = new Array<IntervalRecord>(order.length);
  for (let k = 0; k < order.length; k++) {
    const d = order[k] as number;
    const c = columns[d] as DeviceColumns;
    out[k] = recordAt(c, cursor[d] as number);
    cursor[d] = (cursor[d] as number) + 1;
  }
  return out;
}

/** The records of sorted columns, device by device (used when a device's rows were out of order). */
function recordsByDevice(columns: readonly DeviceColumns[]): IntervalRecord[] {
  const out: IntervalRecord[] = [];
  for (const c of columns) for (let i = 0; i < c.n; i++) out.push(recordAt(c, i));
  return out;
}

/**
 * Opens a capture's database read-only after checking it is a CacheProof capture of a schema
 * version this build reads (for this folder's readers; the caller closes it). Throws HostError.
 */
export function openCaptureDb(path: string): Database.Database {
  captureReads.opens++;
  checkFile(path);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    const mapped = captureReadError(path, err);
    if (mapped !== err) throw mapped;
    throw new HostError('capture-not-sqlite', `${path} cannot be opened as SQLite: ${(err as Error).message}.`);
  }
  try {
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (appId !== CAPTURE_APPLICATION_ID) {
      throw new HostError('capture-not-cacheproof', `${path} is an SQLite file but not a CacheProof capture (application_id ${appId}).`);
    }
    if (version > CAPTURE_SCHEMA_VERSION) {
      throw new HostError('capture-too-new', `${path} uses capture schema version ${version}; this CacheProof reads up to version ${CAPTURE_SCHEMA_VERSION}. Update CacheProof to open it.`);
    }
    if (version < 1) throw new HostError('capture-not-cacheproof', `${path} has no capture schema version.`);
  } catch (err) {
    db.close();
    throw captureReadError(path, err);
  }
  return db;
}

/**
 * Reads a capture: opens it with {@link openCaptureDb}, runs `read`, closes it. Every reader of
 * this folder goes through here, so that damage SQLite finds only while scanning (a bad page in
 * the middle of `intervals`) is reported like damage found at open (`capture-damaged`).
 */
export function readCapture<T>(path: string, read: (db: Database.Database) => T): T {
  const db = openCaptureDb(path);
  try {
    return read(db);
  } catch (err) {
    throw captureReadError(path, err);
  } finally {
    db.close();
  }
}

/**
 * Opens a capture read-only and loads it as plain data. With `only`, the intervals of the devices
 * it names (given the capture's meta) are read, not the others': one host of a fleet capture
 * (capture/scope.ts `openHostCapture`). Throws HostError for expected failures.
 */
export function openCapture(path: string, only?: (meta: Readonly<Record<string, string>>) => ReadonlySet<string>): OpenedCapture {
  return readCapture(path, (db) => loadCapture(path, db, only));
}

/** What a capture says besides its intervals (read in a few small queries). */
export interface CaptureInfo {
  meta: Record<string, string>;
  devices: DeviceInfo[];
  phases: Phase[];
  warnings: Warning[];
  /** devices.id → name. */
  names: Map<number, string>;
  host: CaptureData['host'];
  sampleIntervalMs: number | null;
  recorderState: string | null;
  schemaVersion: number;
  /** The cache engine's actions and counters (capture-schema v4, with an adapter), else undefined. */
  engine: CaptureData['engine'];
  /** The probe's prediction (`meta.prediction`), when the capture holds a readable one. */
  prediction: StoredPrediction | null;
  /** The probe's latency histograms of the traced requests (`meta.trace_latency`). */
  traceLatency: StoredTraceLatency | null;
  /** Every file an import read (capture-schema v3 `import_files`), empty for a recorded capture. */
  imports: ImportedFile[];
  /** The traced block requests' sizes (host/capture/trace-sizes.ts), null without a block trace. */
  traceSizes: CaptureData['traceSizes'];
  /** `volume_capacity` (v7), or null in a capture of v1..v6. */
  volumes: CaptureData['volumes'];
  /** `work_counters` (v8), or null in a capture of v1..v7. */
  work: CaptureData['work'];
  /** `topology`: what sits on what. */
  stack: NonNullable<CaptureData['stack']>;
}

/** The provenance of an imported capture: its `import_files` rows (none before schema v3). */
function readImports(db: Database.Database): ImportedFile[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'import_files'").pluck().get();
  if (has === undefined) return [];
  return (db.prepare('SELECT name, size_bytes, sha256, kind, format, encoding, time_zone, utc_offset_min, part, first_utc_ms, last_utc_ms, samples FROM import_files ORDER BY id').all() as {
    name: string; size_bytes: number; sha256: string; kind: string; format: string; encoding: string; time_zone: string | null; utc_offset_min: number | null;
    part: string; first_utc_ms: number | null; last_utc_ms: number | null; samples: number;
  }[]).map((f) => ({
    name: f.name, sizeBytes: f.size_bytes, sha256: f.sha256, kind: f.kind, format: f.format, encoding: f.encoding, timeZone: f.time_zone,
    utcOffsetMin: f.utc_offset_min, part: f.part, firstUtcMs: f.first_utc_ms, lastUtcMs: f.last_utc_ms, samples: f.samples,
  }));
}

/** Reads everything but the intervals from an open capture (for this folder's readers). */
export function readCaptureInfo(db: Database.Database): CaptureInfo {
  const meta: Record<string, string> = {};
  for (const row of db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]) meta[row.key] = row.value;

  const devices: DeviceInfo[] = (
    db.prepare('SELECT name, role, size_bytes, rotational, model FROM devices ORDER BY id').all() as {
      name: string; role: string; size_bytes: number | null; rotational: number | null; model: string | null;
    }[]
  ).map((d) => ({
    name: d.name,
    role: (ROLES as readonly string[]).includes(d.role) ? (d.role as DeviceRole) : 'other',
    sizeBytes: d.size_bytes,
    rotational: d.rotational === null ? null : d.rotational !== 0,
    model: d.model,
  }));

  const phases: Phase[] = (
    db.prepare('SELECT name, start_utc_ms, end_utc_ms FROM phases ORDER BY start_utc_ms, rowid').all() as {
      name: string; start_utc_ms: number; end_utc_ms: number | null;
    }[]
  ).map((p) => ({ name: p.name, startMs: p.start_utc_ms, endMs: p.end_utc_ms }));

  const names = new Map<number, string>();
  for (const d of db.prepare('SELECT id, name FROM devices').all() as { id: number; name: string }[]) names.set(d.id, d.name);

  const warnings: Warning[] = (
    db.prepare('SELECT utc_ms, code, device, message FROM warnings ORDER BY utc_ms, id').all() as {
      utc_ms: number; code: string; device: string | null; message: string;
    }[]
  ).map((w) => (w.device === null ? { code: w.code, message: w.message, atMs: w.utc_ms } : { code: w.code, message: w.message, atMs: w.utc_ms, device: w.device }));
  const intervalMeta = meta['interval_ms'];
  const predicted = readPrediction(meta, db.name);
  if (predicted.warning !== null) warnings.push(predicted.warning);
  const latency = readTraceLatency(meta, db.name);
  if (latency.warning !== null) warnings.push(latency.warning);
  return {
    meta, devices, phases, warnings, names, prediction: predicted.prediction, traceLatency: latency.latency,
    host: { hostname: meta['hostname'] ?? null, kernel: meta['kernel'] ?? null },
    sampleIntervalMs: intervalMeta !== undefined && Number.isFinite(Number(intervalMeta)) ? Number(intervalMeta) : null,
    recorderState: recorderState(db),
    schemaVersion: db.pragma('user_version', { simple: true }) as number,
    engine: readEngineRecords(db, meta),
    imports: readImports(db),
    traceSizes: traceSizesOf(db, db.name, meta, names),
    volumes: readVolumes(db),
    work: readWork(db),
    stack: readStack(db),
  };
}

/** The capture's `topology` rows (every schema version has the table; an older file without it gives none). */
function readStack(db: Database.Database): NonNullable<CaptureData['stack']> {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'topology'").pluck().get();
  if (has === undefined) return [];
  return (db.prepare('SELECT holder, slave, kind FROM topology ORDER BY rowid').all() as { holder: string | null; slave: string | null; kind: string | null }[])
    .filter((r) => r.holder !== null && r.slave !== null)
    .map((r) => ({ holder: r.holder as string, slave: r.slave as string, kind: r.kind ?? '' }));
}

function loadCapture(path: string, db: Database.Database, only?: (meta: Readonly<Record<string, string>>) => ReadonlySet<string>): OpenedCapture {
  try {
    const { meta, devices, phases, warnings, names, host, sampleIntervalMs, recorderState: state, schemaVersion, engine, prediction, traceLatency, traceSizes, volumes, work, stack } = readCaptureInfo(db);
    // read through a memory map: a multi-hundred-MB scan then skips copying every page into SQLite's cache
    db.pragma('mmap_size = 1073741824');
    const keep = only?.(meta);
    const scanned = readColumns(db, names, keep === undefined ? undefined : [...names].filter(([, n]) => keep.has(n)).map(([id]) => id));

    let records: IntervalRecord[] | null = null;
    let columns: DeviceColumns[] | undefined = scanned.columns;
    const data: CaptureData = {
      host,
      devices,
      phases,
      // the records are built from the columns on first use; assigning records drops the columns
      get intervals(): IntervalRecord[] {
        records ??= scanned.reordered ? recordsByDevice(scanned.columns) : recordsInRowOrder(scanned.columns, scanned.order);
        return records;
      },
      set intervals(v: IntervalRecord[]) {
        records = v;
        columns = undefined;
      },
      get columns(): DeviceColumns[] | undefined {
        return columns;
      },
      set columns(v: DeviceColumns[] | undefined) {
        columns = v;
      },
      warnings,
      sampleIntervalMs,
      engine,
      prediction,
      traceLatency,
      traceSizes,
      volumes,
      work,
      stack,
    };
    return { path, meta, data, intervalCount: scanned.order.length, recorderState: state, schemaVersion };
  } catch (err) {
    const mapped = captureReadError(path, err);
    if (mapped !== err) throw mapped;
    throw new HostError('capture-not-cacheproof', `${path} could not be read as a CacheProof capture: ${(err as Error).message}.`);
  }
}
