/**
 * The capture's intervals as the exporters read them: one device at a time from a
 * {@link ColumnSource} (the columnar files of host/capture/columnar.ts), so that an export holds
 * one device's intervals, never the whole capture, and a record exists only while its row is
 * written (engine `recordAt`).
 */
import type { ColumnSource } from '@cacheproof/engine';

/** Number of intervals of the devices named in `order` (none without a source: a fleet report's). Example: `countRecords(memorySource(cols), ['sda'])`. */
export function countRecords(rows: ColumnSource | null, order: readonly string[]): number {
  if (rows === null) return 0;
  const wanted = new Set(order);
  let n = 0;
  for (const d of rows.devices) if (wanted.has(d.device)) n += d.n;
  return n;
}
