/**
 * The one module through which the app reads captures (docs/capture-schema.md).
 * Opens read-only, checks the file is a CacheProof capture of a version we know, and returns
 * the engine's plain `CaptureData`.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import type { CaptureData, DeviceInfo, DeviceRole, IntervalRecord, IntervalStatus, Phase, Warning } from '@cacheproof/engine';
import { HostError } from '../errors.ts';

/** Schema versions this build can read. */
export const CAPTURE_SCHEMA_VERSION = 1;
/** PRAGMA application_id of a capture: "CPRF". */
export const CAPTURE_APPLICATION_ID = 0x43505246;

const SQLITE_MAGIC = 'SQLite format 3\0';

export interface OpenedCapture {
  path: string;
  meta: Record<string, string>;
  data: CaptureData;
}

function checkFile(path: string): void {
  if (!existsSync(path)) throw new HostError('capture-not-found', `Capture file not found: ${path}. Check the path, or record one with 'cacheproof-probe record'.`);
  const st = statSync(path);
  if (!st.isFile()) throw new HostError('capture-not-found', `${path} is not a file.`);
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n < 16 || head.toString('latin1') !== SQLITE_MAGIC) {
      throw new HostError('capture-not-sqlite', `${path} is not a CacheProof capture (not an SQLite file). Open a .capture file written by cacheproof-probe.`);
    }
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 of a file, hex (for the audit trail and the report appendix). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const ROLES: readonly DeviceRole[] = ['front', 'backing', 'cache', 'other'];
const STATUSES: readonly IntervalStatus[] = ['ok', 'wrap', 'reset', 'clock-jump', 'gap'];

/** One raw `intervals` row, in the column order of the SELECT below. */
type IntervalRow = [
  deviceId: number, startUtcMs: number, endUtcMs: number, intervalMs: number, status: string,
  reads: number | null, writes: number | null, readBytes: number | null, writeBytes: number | null,
  readTimeMs: number | null, writeTimeMs: number | null, busyMs: number | null, weightedMs: number | null,
];

/** Opens a capture read-only and loads it as plain data. Throws HostError for expected failures. */
export function openCapture(path: string): OpenedCapture {
  checkFile(path);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
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

    // A plain rowid scan (the recorder inserts in time order; the engine groups by device and
    // sorts only what is out of order), streamed as raw rows: materialising millions of row
    // arrays first costs several times more in garbage collection than building the records.
    const names = new Map<number, string>();
    for (const d of db.prepare('SELECT id, name FROM devices').all() as { id: number; name: string }[]) names.set(d.id, d.name);
    const count = (db.prepare('SELECT COUNT(*) FROM intervals').pluck().get() as number) ?? 0;
    const intervals: IntervalRecord[] = new Array<IntervalRecord>(count);
    let i = 0;
    const scan = db
      .prepare(
        `SELECT device_id, start_utc_ms, end_utc_ms, interval_ms, status, reads, writes, read_bytes, write_bytes,
                read_time_ms, write_time_ms, busy_ms, weighted_ms
           FROM intervals`,
      )
      .raw(true);
    for (const raw of scan.iterate()) {
      const r = raw as IntervalRow;
      const status = r[4];
      intervals[i++] = {
        device: names.get(r[0]) ?? `device-${r[0]}`,
        startMs: r[1],
        endMs: r[2],
        intervalMs: r[3],
        status: (STATUSES as readonly string[]).includes(status) ? (status as IntervalStatus) : 'gap',
        reads: r[5],
        writes: r[6],
        readBytes: r[7],
        writeBytes: r[8],
        readTimeMs: r[9],
        writeTimeMs: r[10],
        busyMs: r[11],
        weightedMs: r[12],
      };
    }
    intervals.length = i;

    const warnings: Warning[] = (
      db.prepare('SELECT utc_ms, code, device, message FROM warnings ORDER BY utc_ms, id').all() as {
        utc_ms: number; code: string; device: string | null; message: string;
      }[]
    ).map((w) => (w.device === null ? { code: w.code, message: w.message, atMs: w.utc_ms } : { code: w.code, message: w.message, atMs: w.utc_ms, device: w.device }));

    const intervalMeta = meta['interval_ms'];
    return {
      path,
      meta,
      data: {
        host: { hostname: meta['hostname'] ?? null, kernel: meta['kernel'] ?? null },
        devices,
        phases,
        intervals,
        warnings,
        sampleIntervalMs: intervalMeta !== undefined && Number.isFinite(Number(intervalMeta)) ? Number(intervalMeta) : null,
      },
    };
  } catch (err) {
    if (err instanceof HostError) throw err;
    throw new HostError('capture-not-cacheproof', `${path} could not be read as a CacheProof capture: ${(err as Error).message}.`);
  } finally {
    db.close();
  }
}
