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

interface IntervalRow {
  device: string;
  start_utc_ms: number;
  end_utc_ms: number;
  interval_ms: number;
  status: string;
  reads: number | null;
  writes: number | null;
  read_bytes: number | null;
  write_bytes: number | null;
  read_time_ms: number | null;
  write_time_ms: number | null;
  busy_ms: number | null;
  weighted_ms: number | null;
  read_merges: number | null;
  write_merges: number | null;
}

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

    const rows = db
      .prepare(
        `SELECT d.name AS device, i.start_utc_ms, i.end_utc_ms, i.interval_ms, i.status, i.reads, i.writes,
                i.read_bytes, i.write_bytes, i.read_time_ms, i.write_time_ms, i.busy_ms, i.weighted_ms,
                i.read_merges, i.write_merges
           FROM intervals i JOIN devices d ON d.id = i.device_id
          ORDER BY i.start_utc_ms, d.id`,
      )
      .all() as IntervalRow[];
    const intervals: IntervalRecord[] = rows.map((r) => ({
      device: r.device,
      startMs: r.start_utc_ms,
      endMs: r.end_utc_ms,
      intervalMs: r.interval_ms,
      status: (STATUSES as readonly string[]).includes(r.status) ? (r.status as IntervalStatus) : 'gap',
      reads: r.reads,
      writes: r.writes,
      readBytes: r.read_bytes,
      writeBytes: r.write_bytes,
      readTimeMs: r.read_time_ms,
      writeTimeMs: r.write_time_ms,
      busyMs: r.busy_ms,
      weightedMs: r.weighted_ms,
      readMerges: r.read_merges,
      writeMerges: r.write_merges,
    }));

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
