/**
 * One time window of a capture, read-only, while the probe may still be writing it (WAL: a
 * reader never blocks the recorder and sees only committed samples): the `intervals` rows of
 * each device in the window (one index range per device), the phases and the switch mark.
 * Schema: docs/capture-schema.md.
 *
 * The whole-capture reader (reader.ts) loads everything for the analysis; this one exists so
 * that polling a 24-hour run every second costs one index range per device.
 */
import { isIntervalStatus, type IntervalRecord, type Phase } from '@cacheproof/engine';
import { existsSync } from 'node:fs';
import { readCapture, type openCaptureDb } from './reader.ts';

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
    status: isIntervalStatus(r[3]) ? r[3] : 'gap',
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

/** Which rows to read, decided once the capture's last interval end is known. */
export interface WindowRequest {
  /**
   * The window (UTC ms): intervals with `sinceMs < end ≤ untilMs`, from the end of the capture's
   * last interval (null when it has none yet).
   */
  window(lastEndMs: number | null): { sinceMs: number; untilMs: number };
  /** The devices to read, by name and the role the capture gives them. */
  include(name: string, role: string): boolean;
}

export interface CaptureWindow {
  /** Every recorded device, in the capture's order, with its records in the window when included (else null). */
  devices: { name: string; role: string; records: IntervalRecord[] | null }[];
  phases: Phase[];
  /** The latest `switch` mark (UTC ms), or null before it. */
  switchMarkMs: number | null;
}

/**
 * Reads one window of a capture.
 * @example
 * readCaptureWindow('/data/runs/r1.capture', { window: (end) => ({ sinceMs: (end ?? 0) - 3600_000, untilMs: Number.MAX_SAFE_INTEGER }), include: () => true })
 */
export function readCaptureWindow(path: string, req: WindowRequest): CaptureWindow {
  return readCapture(path, (db) => {
    const devices = db.prepare('SELECT id, name, role FROM devices ORDER BY id').all() as { id: number; name: string; role: string }[];
    const lastEnd = (db.prepare('SELECT max(end_utc_ms) FROM intervals').pluck().get() as number | null) ?? null;
    const { sinceMs, untilMs } = req.window(lastEnd);
    const scan = db
      .prepare(
        `SELECT start_utc_ms, end_utc_ms, interval_ms, status, reads, writes, read_bytes, write_bytes,
                read_time_ms, write_time_ms, busy_ms, weighted_ms
           FROM intervals WHERE device_id = ? AND end_utc_ms > ? AND end_utc_ms <= ? ORDER BY start_utc_ms`,
      )
      .raw(true);
    const out: CaptureWindow['devices'] = devices.map((d) => ({
      name: d.name,
      role: d.role,
      records: req.include(d.name, d.role) ? (scan.all(d.id, sinceMs, untilMs) as Row[]).map((r) => record(d.name, r)) : null,
    }));
    const phases = (db.prepare('SELECT name, start_utc_ms, end_utc_ms FROM phases ORDER BY start_utc_ms, rowid').all() as {
      name: string; start_utc_ms: number; end_utc_ms: number | null;
    }[]).map((p) => ({ name: p.name, startMs: p.start_utc_ms, endMs: p.end_utc_ms }));
    return { devices: out, phases, switchMarkMs: switchMark(db) };
  });
}

function switchMark(db: ReturnType<typeof openCaptureDb>): number | null {
  return (db.prepare("SELECT max(utc_ms) FROM marks WHERE kind = 'switch'").pluck().get() as number | null) ?? null;
}

/** The moment the switch was marked in a capture (UTC ms), or null before it (or before the capture exists). */
export function readSwitchMark(path: string): number | null {
  if (!existsSync(path)) return null;
  return readCapture(path, switchMark);
}

/** When a capture's baseline phase ended (UTC ms), or null while it runs (or before the capture exists). */
export function readBaselineEnd(path: string): number | null {
  if (!existsSync(path)) return null;
  return readCapture(path, (db) => (db.prepare("SELECT end_utc_ms FROM phases WHERE name = 'baseline' ORDER BY start_utc_ms LIMIT 1").pluck().get() as number | null | undefined) ?? null);
}
