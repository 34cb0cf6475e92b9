/**
 * Live figures of a capture being recorded: reads only the rows a chart needs (one window of
 * the `intervals` table per device, the phases and the switch mark), read-only, while the probe
 * keeps writing (WAL: a reader never blocks the recorder and sees only committed samples).
 * Schema: docs/capture-schema.md. Rates come from the engine's `intervalMetrics`, the same
 * function behind every figure of the analysis (iostat's r/s+w/s, MB/s, await).
 *
 * The whole-capture reader (capture/reader.ts) loads everything for the analysis; this module
 * exists so that polling a 24-hour run every second costs one index range per device.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { intervalMetrics, type IntervalRecord, type IntervalStatus } from '@cacheproof/engine';
import type { LiveSeries } from '../../shared/contract.ts';
import { CAPTURE_APPLICATION_ID, CAPTURE_SCHEMA_VERSION } from '../capture/reader.ts';
import { HostError } from '../errors.ts';

/** The window a live chart shows when asked for "now" (sinceMs = 0): the last hour. */
export const LIVE_WINDOW_MS = 3600_000;
/** At most this many points per device per reply; longer ranges are merged into buckets. */
export const MAX_LIVE_POINTS = 3600;

const STATUSES: readonly IntervalStatus[] = ['ok', 'wrap', 'reset', 'clock-jump', 'gap'];

type Row = [
  startUtcMs: number, endUtcMs: number, intervalMs: number, status: string,
  reads: number | null, writes: number | null, readBytes: number | null, writeBytes: number | null,
  readTimeMs: number | null, writeTimeMs: number | null, busyMs: number | null, weightedMs: number | null,
];

function record(device: string, r: Row): IntervalRecord {
  return {
    device,
    startMs: r[0],
    endMs: r[1],
    intervalMs: r[2],
    status: (STATUSES as readonly string[]).includes(r[3]) ? (r[3] as IntervalStatus) : 'gap',
    reads: r[4],
    writes: r[5],
    readBytes: r[6],
    writeBytes: r[7],
    readTimeMs: r[8],
    writeTimeMs: r[9],
    busyMs: r[10],
    weightedMs: r[11],
  };
}

type Summable = 'reads' | 'writes' | 'readBytes' | 'writeBytes' | 'readTimeMs' | 'writeTimeMs' | 'busyMs' | 'weightedMs';

/** Consecutive intervals merged into one (counts summed over the `ok` ones, Δt summed likewise). */
export function mergeRecords(device: string, group: readonly IntervalRecord[]): IntervalRecord {
  const ok = group.filter((r) => r.status === 'ok');
  const sum = (k: Summable): number | null => {
    if (ok.length === 0) return null;
    let total = 0;
    for (const r of ok) {
      const v = r[k];
      if (v === null) return null;
      total += v;
    }
    return total;
  };
  return {
    device,
    startMs: group[0]?.startMs ?? 0,
    endMs: group[group.length - 1]?.endMs ?? 0,
    intervalMs: ok.reduce((a, r) => a + r.intervalMs, 0),
    status: ok.length === 0 ? (group[0]?.status ?? 'gap') : 'ok',
    reads: sum('reads'),
    writes: sum('writes'),
    readBytes: sum('readBytes'),
    writeBytes: sum('writeBytes'),
    readTimeMs: sum('readTimeMs'),
    writeTimeMs: sum('writeTimeMs'),
    busyMs: sum('busyMs'),
    weightedMs: sum('weightedMs'),
  };
}

function openReadOnly(path: string): Database.Database {
  if (!existsSync(path)) throw new HostError('capture-not-found', `The run's capture ${path} is missing.`);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new HostError('capture-not-sqlite', `${path} cannot be opened as SQLite: ${(err as Error).message}.`);
  }
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (appId !== CAPTURE_APPLICATION_ID || version < 1) {
    db.close();
    throw new HostError('capture-not-cacheproof', `${path} is not a CacheProof capture.`);
  }
  if (version > CAPTURE_SCHEMA_VERSION) {
    db.close();
    throw new HostError('capture-too-new', `${path} uses capture schema version ${version}; this CacheProof reads up to version ${CAPTURE_SCHEMA_VERSION}.`);
  }
  return db;
}

export interface LiveQuery {
  /** Points whose interval ends after this time (UTC ms); 0 = the last hour of the capture. */
  sinceMs: number;
  /** Points whose interval ends at or before this time (UTC ms); absent = up to now. */
  untilMs?: number | undefined;
  /** Roles the person chose (device → role); other recorded devices keep the capture's role. */
  roles: ReadonlyMap<string, string>;
}

/** Per-device iostat figures of one window of the capture, its phases, and the switch mark. */
export function readLive(path: string, q: LiveQuery): LiveSeries & { switchMarkMs: number | null } {
  const db = openReadOnly(path);
  try {
    const devices = db.prepare('SELECT id, name, role FROM devices ORDER BY id').all() as { id: number; name: string; role: string }[];
    const lastEnd = (db.prepare('SELECT max(end_utc_ms) FROM intervals').pluck().get() as number | null) ?? null;
    let since = q.sinceMs;
    let until = q.untilMs ?? Number.MAX_SAFE_INTEGER;
    if (since <= 0) {
      const anchor = q.untilMs ?? lastEnd ?? 0;
      since = anchor - LIVE_WINDOW_MS;
      until = q.untilMs ?? Number.MAX_SAFE_INTEGER;
    }
    const scan = db
      .prepare(
        `SELECT start_utc_ms, end_utc_ms, interval_ms, status, reads, writes, read_bytes, write_bytes,
                read_time_ms, write_time_ms, busy_ms, weighted_ms
           FROM intervals WHERE device_id = ? AND end_utc_ms > ? AND end_utc_ms <= ? ORDER BY start_utc_ms`,
      )
      .raw(true);
    const chosen = q.roles.size > 0;
    const series: LiveSeries['series'] = [];
    for (const d of devices) {
      const role = q.roles.get(d.name) ?? (chosen ? null : d.role);
      if (role === null) continue;
      const rows = (scan.all(d.id, since, until) as Row[]).map((r) => record(d.name, r));
      const bucket = Math.max(1, Math.ceil(rows.length / MAX_LIVE_POINTS));
      const s = { device: d.name, role, t: [] as number[], iops: [] as (number | null)[], mbps: [] as (number | null)[], latencyMs: [] as (number | null)[] };
      for (let i = 0; i < rows.length; i += bucket) {
        const rec = bucket === 1 ? (rows[i] as IntervalRecord) : mergeRecords(d.name, rows.slice(i, i + bucket));
        const m = intervalMetrics(rec);
        s.t.push(rec.endMs);
        s.iops.push(m.iops);
        s.mbps.push(m.mbps);
        s.latencyMs.push(m.awaitMs);
      }
      series.push(s);
    }
    const phases = (db.prepare('SELECT name, start_utc_ms, end_utc_ms FROM phases ORDER BY start_utc_ms, rowid').all() as {
      name: string; start_utc_ms: number; end_utc_ms: number | null;
    }[]).map((p) => ({ name: p.name, startMs: p.start_utc_ms, endMs: p.end_utc_ms }));
    const mark = db.prepare("SELECT max(utc_ms) FROM marks WHERE kind = 'switch'").pluck().get() as number | null;
    return { series, phases, switchMarkMs: mark ?? null };
  } finally {
    db.close();
  }
}

/** The moment the switch was marked (UTC ms), or null before it. */
export function readSwitchMark(path: string): number | null {
  if (!existsSync(path)) return null;
  const db = openReadOnly(path);
  try {
    return (db.prepare("SELECT max(utc_ms) FROM marks WHERE kind = 'switch'").pluck().get() as number | null) ?? null;
  } finally {
    db.close();
  }
}
