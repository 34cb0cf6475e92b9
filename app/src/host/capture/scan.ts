/**
 * The one scan of a capture's interval table, shared by the in-memory reader (reader.ts) and the
 * columnar spill (columnar.ts). Rows are handed to a user-defined SQL aggregate (one call per row
 * with its values as arguments) that writes them straight into per-device typed arrays: no row
 * object or array is created per interval, which costs several times more than SQLite's own scan
 * on multi-million-row captures. Status is mapped to its code in SQL (unknown statuses become
 * `gap`: no numbers); absent numbers become NaN.
 */
import type Database from 'better-sqlite3';
import { slotOk, statusCodeSql } from '@cacheproof/engine';
import type { DeviceColumns } from '@cacheproof/engine';

/**
 * Where a row goes: the columns of device `id` with room for one more row at index `n` (the
 * caller grows or flushes them as it needs; the scan writes the row and increments `n`).
 */
export type RowTarget = (id: number, startMs: number, endMs: number) => DeviceColumns;

const nan = (v: number | null): number => (v === null ? NaN : v);

/**
 * Scans the interval table once, in rowid order, writing each row into the columns `target`
 * returns: the whole table, or the rows with `range.lo < rowid <= range.hi`; with `deviceIds`,
 * only those devices' rows (read through the table's (device_id, start) key: one host of a
 * fleet capture without a scan of the others).
 */
export function scanIntervals(db: Database.Database, target: RowTarget, range?: { lo: number; hi: number }, deviceIds?: readonly number[]): void {
  // better-sqlite3 passes each argument of the SQL call to `step` (its arity is step.length − 1);
  // its typings only know the one-argument form
  const step = (_acc: number, id: number, start: number, end: number, ms: number, st: number, r: number | null, w: number | null,
    rb: number | null, wb: number | null, rt: number | null, wt: number | null, busy: number | null, weighted: number | null): void => {
    const c = target(id, start, end);
    const i = c.n++;
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
  db.aggregate('cacheproof_scan', { start: 0, step: step as unknown as (total: number, next: number) => void, result: () => 0 });
  const where: string[] = [];
  if (range !== undefined) where.push('rowid > ? AND rowid <= ?');
  // whole numbers, checked: written into the statement (no limit on how many)
  if (deviceIds !== undefined) where.push(`device_id IN (${deviceIds.map((id) => { if (!Number.isSafeInteger(id)) throw new Error(`device id ${id} is not an integer`); return String(id); }).join(',')})`);
  const stmt = db.prepare(
    `SELECT cacheproof_scan(device_id, start_utc_ms, end_utc_ms, interval_ms,
              ${statusCodeSql('status')},
              reads, writes, read_bytes, write_bytes, read_time_ms, write_time_ms, busy_ms, weighted_ms)
       FROM intervals${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}`,
  ).pluck();
  stmt.get(...(range === undefined ? [] : [range.lo, range.hi]));
}
