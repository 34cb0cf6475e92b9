import type { DeviceColumns } from './columns.ts';
import { allocColumns } from './columns.ts';
import type { TimeWindow } from './window.ts';

/** What a {@link ColumnSource} knows of a device without loading its intervals. */
export interface DeviceExtent {
  device: string;
  /** Number of intervals. */
  n: number;
  /** Earliest interval start, UTC ms (Infinity when n = 0). */
  minStartMs: number;
  /** Latest interval end, UTC ms (-Infinity when n = 0). */
  maxEndMs: number;
}

/**
 * A capture's intervals, one device at a time: the engine asks for a device's columns when it
 * needs them and drops them before asking for the next, so that an analysis holds one device's
 * intervals (plus the per-slot values of the analysed groups) instead of the whole capture. A
 * host backs it with a columnar file per device (app/src/host/capture/columnar.ts); tests and
 * small captures with columns in memory ({@link memorySource}).
 */
export interface ColumnSource {
  /** Every device that has intervals, in the capture's order. */
  devices: readonly DeviceExtent[];
  /**
   * The device's columns, sorted by start (`n` = 0 for an unknown device). Valid until the next
   * `load`: a source may reuse one buffer for every device, so use them and drop them.
   */
  load(device: string): DeviceColumns;
  /**
   * Optional, for a source that reads part of a device without reading all of it (the capture's
   * interval blocks): the device's columns that may hold its intervals wholly inside `window`,
   * sorted by start: every such interval, perhaps with others around it. Valid until the next
   * `load` or `loadRange`. An analysis then holds one device's window instead of the device.
   */
  loadRange?(device: string, window: TimeWindow): DeviceColumns;
}

/** The extent of columns in memory. */
export function extentOf(c: DeviceColumns): DeviceExtent {
  let minStartMs = Infinity, maxEndMs = -Infinity;
  for (let i = 0; i < c.n; i++) {
    const s = c.startMs[i] as number, e = c.endMs[i] as number;
    if (s < minStartMs) minStartMs = s;
    if (e > maxEndMs) maxEndMs = e;
  }
  return { device: c.device, n: c.n, minStartMs, maxEndMs };
}

/**
 * A source over columns already in memory.
 *
 * @example
 * analyze({ ...data, source: memorySource(columnsFromRecords(records)) })
 */
export function memorySource(columns: readonly DeviceColumns[]): ColumnSource {
  const byName = new Map(columns.map((c) => [c.device, c]));
  return {
    devices: columns.map(extentOf),
    load: (device) => byName.get(device) ?? allocColumns(device, 0),
  };
}
