/**
 * A capture's `volume_capacity` (schema v7, docs/capture-schema.md): how full each volume was,
 * one row per volume per moment, its device by name. A capture of v1..v6 has no such table: null
 * ("not in this log", engine `volumeCapacity`).
 */
import type Database from 'better-sqlite3';

import type { VolumeCapacityRow } from '@cacheproof/engine';

/**
 * The rows of `volume_capacity` in time order, or null when the capture has no such table.
 *
 * @example
 * const volumes = readVolumes(db); // null for a capture of schema v6 or earlier
 */
export function readVolumes(db: Database.Database): VolumeCapacityRow[] | null {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'volume_capacity'").get();
  if (has === undefined) return null;
  const rows = db.prepare(
    `SELECT v.volume, v.utc_ms, d.name AS device, v.mount, v.size_bytes, v.free_bytes, v.source
     FROM volume_capacity v LEFT JOIN devices d ON d.id = v.device_id ORDER BY v.utc_ms, v.volume`,
  ).all() as { volume: string; utc_ms: number; device: string | null; mount: string | null; size_bytes: number | null; free_bytes: number | null; source: string }[];
  return rows.map((r) => ({ volume: r.volume, utcMs: r.utc_ms, device: r.device, mount: r.mount, sizeBytes: r.size_bytes, freeBytes: r.free_bytes, source: r.source }));
}
