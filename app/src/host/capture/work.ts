/**
 * A capture's `work_counters` (schema v8, docs/capture-schema.md): the work the server did per
 * interval (a process's I/O requests, SQL Server batches). A capture of v1..v7 has no such
 * table: null ("no work counter in this log", engine `perWork`).
 */
import type Database from 'better-sqlite3';

import type { WorkCounterRow } from '@cacheproof/engine';

/**
 * The rows of `work_counters` in time order, or null when the capture has no such table.
 *
 * @example
 * const work = readWork(db); // null for a capture of schema v7 or earlier
 */
export function readWork(db: Database.Database): WorkCounterRow[] | null {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'work_counters'").get();
  if (has === undefined) return null;
  const rows = db.prepare(
    'SELECT name, instance, start_utc_ms, end_utc_ms, rate_per_s FROM work_counters ORDER BY start_utc_ms, name, instance',
  ).all() as { name: string; instance: string; start_utc_ms: number; end_utc_ms: number; rate_per_s: number }[];
  return rows.map((r) => ({ name: r.name, instance: r.instance, startMs: r.start_utc_ms, endMs: r.end_utc_ms, ratePerSecond: r.rate_per_s }));
}
