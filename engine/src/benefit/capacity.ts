/**
 * How full the volumes are and how fast they fill (a capture's `volume_capacity`, schema v7:
 * docs/capture-schema.md; docs/metrics.md § Capacity): per volume, the size, used and free space
 * at the last moment the log states them, the growth of the used space per day over the whole
 * log (the least-squares slope of used bytes against time) and the days to full at that rate,
 * both withheld (null, reason `short-fit`) when the log states the volume over less than 24 h.
 * A capture without the table, or with no row (a source that carries no capacity), is
 * `inLog: false`: "not in this log", never a size of 0. Pure.
 */
import type { VolumeCapacityRow } from '../records/types.ts';

const DAY_MS = 86_400_000;
/** A growth fitted over less than this is withheld (issue 36: a minute's wobble is not a trend), ms. */
export const MIN_GROWTH_FIT_MS = DAY_MS;

export interface VolumeCapacity {
  /** As the capture names it (`C:`, `/dev/sda1`, `HOST/C:` in a fleet). */
  volume: string;
  /** The capture's device of the volume, or null. */
  device: string | null;
  mount: string | null;
  /** `perfmon`, `windows_exporter`, `node_exporter`, `statvfs`. */
  source: string;
  /** The log's first and last statement of the volume (UTC ms), and how many there are. */
  firstMs: number;
  lastMs: number;
  samples: number;
  /** At the last moment that states each (null: the log never states it). */
  sizeBytes: number | null;
  freeBytes: number | null;
  /** size − free at the last moment stating both, and its share of the size (0..1). */
  usedBytes: number | null;
  usedShare: number | null;
  /** Slope of used bytes over time, bytes per day (negative: shrinking); null with fewer than two moments stating both size and free, or all at one time, and withheld (null, reason `short-fit`) when they span less than 24 h. */
  growthBytesPerDay: number | null;
  /** Days until free reaches 0 at that growth, from the last moment; null when the used space does not grow (or no growth is known, or it is withheld: reason `short-fit`). */
  daysToFull: number | null;
  /** The least-squares slope itself, bytes per day, whatever the span it is fitted over (for audit: `growthBytesPerDay` withholds it under 24 h). */
  fitGrowthBytesPerDay: number | null;
  /** `short-fit` for `growthBytesPerDay` and `daysToFull` when the growth is withheld; empty otherwise. */
  reasons: { growthBytesPerDay?: 'short-fit' | undefined; daysToFull?: 'short-fit' | undefined };
  /** The span the growth is fitted over, days. */
  fitDays: number | null;
}

export interface CapacityProfile {
  /** False: the log carries no capacity ("not in this log"). */
  inLog: boolean;
  volumes: VolumeCapacity[];
}

/** Least-squares slope of y against x (x in ms), per day; null when x does not vary. */
function slopePerDay(pts: readonly (readonly [number, number])[]): number | null {
  if (pts.length < 2) return null;
  let mx = 0, my = 0;
  for (const [x, y] of pts) { mx += x; my += y; }
  mx /= pts.length; my /= pts.length;
  let sxx = 0, sxy = 0;
  for (const [x, y] of pts) { sxx += (x - mx) * (x - mx); sxy += (x - mx) * (y - my); }
  return sxx > 0 ? (sxy / sxx) * DAY_MS : null;
}

/**
 * Each volume's capacity over the log: see the module comment. `rows` undefined or null (a
 * capture of schema v1..v6) or empty gives `inLog: false`.
 *
 * @example
 * const c = volumeCapacity(data.volumes);
 * for (const v of c.volumes) console.log(v.volume, v.freeBytes, v.growthBytesPerDay, v.daysToFull);
 */
export function volumeCapacity(rows: readonly VolumeCapacityRow[] | null | undefined): CapacityProfile {
  if (rows === undefined || rows === null || rows.length === 0) return { inLog: false, volumes: [] };
  const byVolume = new Map<string, VolumeCapacityRow[]>();
  for (const r of rows) {
    const list = byVolume.get(r.volume);
    if (list === undefined) byVolume.set(r.volume, [r]);
    else list.push(r);
  }
  const volumes: VolumeCapacity[] = [];
  for (const [volume, list] of [...byVolume].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    list.sort((a, b) => a.utcMs - b.utcMs);
    const last = list[list.length - 1] as VolumeCapacityRow;
    const lastOf = (pick: (r: VolumeCapacityRow) => number | null): number | null => {
      for (let i = list.length - 1; i >= 0; i--) { const v = pick(list[i] as VolumeCapacityRow); if (v !== null) return v; }
      return null;
    };
    const both = list.filter((r) => r.sizeBytes !== null && r.freeBytes !== null);
    const lastBoth = both[both.length - 1];
    const usedBytes = lastBoth === undefined ? null : (lastBoth.sizeBytes as number) - (lastBoth.freeBytes as number);
    const size = lastBoth?.sizeBytes ?? null;
    const growth = slopePerDay(both.map((r) => [r.utcMs, (r.sizeBytes as number) - (r.freeBytes as number)] as const));
    const freeAtEnd = lastBoth?.freeBytes ?? null;
    const fitMs = both.length < 2 ? null : (both[both.length - 1] as VolumeCapacityRow).utcMs - (both[0] as VolumeCapacityRow).utcMs;
    const withheld = growth !== null && fitMs !== null && fitMs < MIN_GROWTH_FIT_MS;
    const shown = withheld ? null : growth;
    volumes.push({
      volume,
      device: [...list].reverse().find((r) => r.device !== null)?.device ?? null,
      mount: [...list].reverse().find((r) => r.mount !== null)?.mount ?? null,
      source: last.source,
      firstMs: (list[0] as VolumeCapacityRow).utcMs,
      lastMs: last.utcMs,
      samples: list.length,
      sizeBytes: lastOf((r) => r.sizeBytes),
      freeBytes: lastOf((r) => r.freeBytes),
      usedBytes,
      usedShare: usedBytes === null || size === null || size <= 0 ? null : usedBytes / size,
      growthBytesPerDay: shown,
      daysToFull: shown === null || shown <= 0 || freeAtEnd === null ? null : freeAtEnd / shown,
      fitDays: fitMs === null ? null : fitMs / DAY_MS,
      fitGrowthBytesPerDay: growth,
      reasons: withheld ? { growthBytesPerDay: 'short-fit', daysToFull: 'short-fit' } : {},
    });
  }
  return { inLog: true, volumes };
}
