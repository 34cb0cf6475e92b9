/**
 * Reads a capture's cache-engine tables (schema v4: `engine_actions`, `engine_stats`,
 * `meta.engine`; docs/capture-schema.md) into the engine's plain {@link EngineRecords}.
 * Captures of v1–v3, and v4 captures recorded without an adapter, have none (undefined).
 */
import type Database from 'better-sqlite3';
import type { EngineAction, EngineRecords, EngineStatSample } from '@cacheproof/engine';

/**
 * Above this many `engine_stats` rows the reader keeps, per counter, its first read of every
 * minute and its last read (a week of 20 counters read every second is 12 million rows; the
 * comparison needs the reads at the measure window's edges, which then fall within a minute of them).
 */
export const ENGINE_STATS_FULL_ROWS = 100_000;

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) !== undefined;
}

/** The adapter and device `meta.engine` names, or null when it is absent or not the JSON the probe writes. */
function metaEngine(meta: Record<string, string>): { adapter: string; device: string } | null {
  const raw = meta['engine'];
  if (raw === undefined) return null;
  try {
    const v = JSON.parse(raw) as { adapter?: unknown; device?: unknown; kernelDevice?: unknown };
    if (typeof v.adapter !== 'string') return null;
    const device = typeof v.device === 'string' ? v.device : typeof v.kernelDevice === 'string' ? v.kernelDevice : '';
    return { adapter: v.adapter, device };
  } catch {
    return null;
  }
}

/**
 * The engine's actions and counters of an open capture, or undefined when the capture has no
 * adapter (no `meta.engine` and no rows). Counter rows are all kept up to
 * {@link ENGINE_STATS_FULL_ROWS}; above, one per counter per minute plus each counter's last.
 *
 * @example
 * readEngineRecords(db, meta) // { adapter: 'command', device: 'loop0', actions: [2 rows], stats: [27 rows] }
 */
export function readEngineRecords(db: Database.Database, meta: Record<string, string>): EngineRecords | undefined {
  if (!hasTable(db, 'engine_actions') || !hasTable(db, 'engine_stats')) return undefined;
  const actions: EngineAction[] = (
    db.prepare('SELECT start_utc_ms, end_utc_ms, adapter, device, action, step, output, exit_status, ok, mode_before, mode_after FROM engine_actions ORDER BY start_utc_ms, id').all() as {
      start_utc_ms: number; end_utc_ms: number; adapter: string; device: string; action: string; step: string; output: string;
      exit_status: number | null; ok: number; mode_before: string | null; mode_after: string | null;
    }[]
  ).map((a) => ({
    startMs: a.start_utc_ms, endMs: a.end_utc_ms, adapter: a.adapter, device: a.device, action: a.action, step: a.step, output: a.output,
    exitStatus: a.exit_status, ok: a.ok !== 0, modeBefore: a.mode_before, modeAfter: a.mode_after,
  }));
  const rows = db.prepare('SELECT COUNT(*) FROM engine_stats').pluck().get() as number;
  const sql = rows <= ENGINE_STATS_FULL_ROWS
    ? 'SELECT utc_ms, adapter, device, name, value, unit, window FROM engine_stats ORDER BY utc_ms, rowid'
    : `SELECT utc_ms, adapter, device, name, value, unit, window FROM engine_stats WHERE rowid IN (
         SELECT MIN(rowid) FROM engine_stats GROUP BY adapter, device, name, window, utc_ms / 60000
         UNION SELECT MAX(rowid) FROM engine_stats GROUP BY adapter, device, name, window)
       ORDER BY utc_ms, rowid`;
  const raw = db.prepare(sql).all() as { utc_ms: number; adapter: string; device: string; name: string; value: number; unit: string; window: string }[];
  const named = metaEngine(meta);
  const first = raw[0] ?? actions[0];
  if (named === null && first === undefined) return undefined;
  const adapter = named?.adapter ?? (first as { adapter: string }).adapter;
  const device = named?.device ?? (first as { device: string }).device;
  // one engine per capture: rows of another adapter or device (none today) are left out
  const stats: EngineStatSample[] = raw
    .filter((r) => r.adapter === adapter && (device === '' || r.device === device))
    .map((r) => ({ atMs: r.utc_ms, name: r.name, value: r.value, unit: r.unit, window: r.window }));
  return { adapter, device, actions: actions.filter((a) => a.adapter === adapter), stats };
}

/** The last step an adapter ran in a capture (`engine_actions`), or null when none (no adapter, no switch yet, a capture older than v4). */
export function readLastEngineAction(db: Database.Database): Omit<EngineAction, 'adapter' | 'device' | 'output' | 'endMs' | 'startMs'> & { atMs: number } | null {
  if (!hasTable(db, 'engine_actions')) return null;
  const a = db.prepare('SELECT start_utc_ms, action, step, exit_status, ok, mode_before, mode_after FROM engine_actions ORDER BY start_utc_ms DESC, id DESC LIMIT 1').get() as {
    start_utc_ms: number; action: string; step: string; exit_status: number | null; ok: number; mode_before: string | null; mode_after: string | null;
  } | undefined;
  if (a === undefined) return null;
  return { atMs: a.start_utc_ms, action: a.action, step: a.step, exitStatus: a.exit_status, ok: a.ok !== 0, modeBefore: a.mode_before, modeAfter: a.mode_after };
}
