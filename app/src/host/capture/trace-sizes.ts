/**
 * The sizes of a capture's traced block requests (`block_requests`, docs/capture-schema.md), for
 * the analysis' request-size distribution (engine `requestSizesSection`): per device and window,
 * how many reads and writes of each exact size. One grouped query per device and window on a
 * read-only connection opened for the call, so that the analysis can ask after the reader has
 * closed the capture; memory ∝ the distinct sizes, never the requests. A trace whose sampling
 * rate fell under its budget is read as the uniform sample at its final rate (trace-sample.ts).
 */
import type Database from 'better-sqlite3';
import type { TraceSizeSource } from '@cacheproof/engine';
import { captureReadError, openCaptureDb } from './reader.ts';
import { finalSampleOf, sampleHash } from './trace-sample.ts';

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
  // rows stored before the rate last fell pass the final threshold too, or are left out
  const final = finalSampleOf(db, meta);
  return {
    sampleRate: Number.isFinite(rate) && rate > 0 && rate <= 1 ? rate : 1,
    sizes(device, startMs, endMs) {
      const id = ids.get(device);
      if (id === undefined) return [];
      let conn: Database.Database | null = null;
      try {
        conn = openCaptureDb(path);
        if (final !== null) {
          const t = final.threshold;
          conn.function('cp_in_final_sample', { deterministic: true }, (dev: unknown, sector: unknown) => (sampleHash(Number(dev), Number(sector)) < t ? 1 : 0));
          return conn.prepare("SELECT op, bytes, COUNT(*) AS count FROM block_requests WHERE device_id = ? AND utc_ms >= ? AND utc_ms < ? AND op IN ('R', 'W') AND (issue_ns >= ? OR cp_in_final_sample(device_id, sector) = 1) GROUP BY op, bytes ORDER BY op, bytes")
            .all(id, startMs, endMs, final.lastChangeNs) as { op: 'R' | 'W'; bytes: number; count: number }[];
        }
        return conn.prepare("SELECT op, bytes, COUNT(*) AS count FROM block_requests WHERE device_id = ? AND utc_ms >= ? AND utc_ms < ? AND op IN ('R', 'W') GROUP BY op, bytes ORDER BY op, bytes")
          .all(id, startMs, endMs) as { op: 'R' | 'W'; bytes: number; count: number }[];
      } catch (err) {
        throw captureReadError(path, err);
      } finally {
        conn?.close();
      }
    },
    span(device, startMs, endMs) {
      const id = ids.get(device);
      return id === undefined ? null : spanOf(path, id, startMs, endMs);
    },
  };
}

/**
 * A device's reads and writes issued in [startMs, endMs): how many, their bytes, the first and last
 * issue_ns (the plausibility check of a trace's times, engine `traceSpanWarnings`); null when none.
 * One aggregate query on the (device_id, issue_ns) index's table.
 */
function spanOf(path: string, id: number, startMs: number, endMs: number): { requests: number; bytes: number; firstIssueNs: number; lastIssueNs: number } | null {
  let conn: Database.Database | null = null;
  try {
    conn = openCaptureDb(path);
    const r = conn.prepare("SELECT COUNT(*) AS requests, COALESCE(SUM(bytes), 0) AS bytes, MIN(issue_ns) AS firstIssueNs, MAX(issue_ns) AS lastIssueNs FROM block_requests WHERE device_id = ? AND utc_ms >= ? AND utc_ms < ? AND op IN ('R', 'W')")
      .get(id, startMs, endMs) as { requests: number; bytes: number; firstIssueNs: number | null; lastIssueNs: number | null };
    if (r.requests === 0 || r.firstIssueNs === null || r.lastIssueNs === null) return null;
    return { requests: r.requests, bytes: r.bytes, firstIssueNs: r.firstIssueNs, lastIssueNs: r.lastIssueNs };
  } catch (err) {
    throw captureReadError(path, err);
  } finally {
    conn?.close();
  }
}
