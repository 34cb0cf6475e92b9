/**
 * The sizes of a capture's traced block requests (`block_requests`, docs/capture-schema.md), for
 * the analysis' request-size distribution (engine `requestSizesSection`): per device and window,
 * how many reads and writes of each exact size. One grouped query per device and window on a
 * read-only connection opened for the call, so that the analysis can ask after the reader has
 * closed the capture; memory ∝ the distinct sizes, never the requests.
 */
import type Database from 'better-sqlite3';
import type { TraceSizeSource } from '@cacheproof/engine';
import { captureReadError, openCaptureDb } from './reader.ts';

/** Whether the capture has traced requests at all (schema v2+, rows in `block_requests`). */
function hasTrace(db: Database.Database): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'block_requests'").pluck().get();
  return table !== undefined && db.prepare('SELECT 1 FROM block_requests LIMIT 1').pluck().get() !== undefined;
}

/**
 * The capture's trace as a {@link TraceSizeSource}, or null when it holds no traced request.
 * `names`: devices.id → name. The sample rate is `meta.trace_sample_rate` (1 when absent).
 *
 * @example
 * const trace = traceSizesOf(db, '/data/run.capture', meta, names);
 * trace?.sizes('loop1', t0, t1) // [{ op: 'R', bytes: 4096, count: 2000 }]
 */
export function traceSizesOf(db: Database.Database, path: string, meta: Record<string, string>, names: ReadonlyMap<number, string>): TraceSizeSource | null {
  if (!hasTrace(db)) return null;
  const ids = new Map([...names].map(([id, name]) => [name, id]));
  const rate = Number(meta['trace_sample_rate']);
  return {
    sampleRate: Number.isFinite(rate) && rate > 0 && rate <= 1 ? rate : 1,
    sizes(device, startMs, endMs) {
      const id = ids.get(device);
      if (id === undefined) return [];
      let conn: Database.Database | null = null;
      try {
        conn = openCaptureDb(path);
        return conn.prepare("SELECT op, bytes, COUNT(*) AS count FROM block_requests WHERE device_id = ? AND utc_ms >= ? AND utc_ms < ? AND op IN ('R', 'W') GROUP BY op, bytes ORDER BY op, bytes")
          .all(id, startMs, endMs) as { op: 'R' | 'W'; bytes: number; count: number }[];
      } catch (err) {
        throw captureReadError(path, err);
      } finally {
        conn?.close();
      }
    },
  };
}
