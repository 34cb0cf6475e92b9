/**
 * Where the reads and writes went, per window: to the backing drives, or served by the cache
 * (front − backing). The dashboard's "served by the cache" bars draw this; nothing else computes it.
 */
import type { AnalysisReport } from './result.ts';

/** Reads and writes per second of one window: at the backing drives and served by the cache. */
export interface WindowIoSplit {
  /** Backing devices' reads per second (the window's mean: Σ reads ÷ Σ seconds with data). */
  readsBacking: number | null;
  /** Front reads per second that did not reach the backing drives: max(0, front − backing); null in backing-only mode. */
  readsCache: number | null;
  writesBacking: number | null;
  writesCache: number | null;
}

/**
 * The I/O split of the baseline and the measure window from the groups' window means:
 * served by the cache = max(0, front r/s − backing r/s) (a cache cannot serve less than nothing;
 * more backing than front I/O is write-back flushing or read-ahead), likewise for writes.
 * Null when the analysis has no backing group.
 * Example: front 1,000 r/s, backing 150 r/s → readsBacking 150, readsCache 850.
 */
export function ioSplit(r: AnalysisReport): { baseline: WindowIoSplit; measure: WindowIoSplit } | null {
  const front = r.groups.front, backing = r.groups.backing;
  if (backing === null) return null;
  const served = (f: number | null | undefined, b: number | null): number | null => (f === null || f === undefined || b === null ? null : Math.max(0, f - b));
  const win = (k: 'baseline' | 'measure'): WindowIoSplit => {
    const b = backing[k].means, f = front?.[k].means;
    return { readsBacking: b.readsPerSec, readsCache: served(f?.readsPerSec, b.readsPerSec), writesBacking: b.writesPerSec, writesCache: served(f?.writesPerSec, b.writesPerSec) };
  };
  return { baseline: win('baseline'), measure: win('measure') };
}
