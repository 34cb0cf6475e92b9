/**
 * The layers of the capture's devices and what the counted layer can see (ARCHITECTURE.md: every
 * source says what sits on what; a figure sums one layer).
 *
 * The in-OS cache case: on Windows a cache inside the operating system (a RAM cache, a filter
 * driver) sits above both PerfMon objects, LogicalDisk (the volume) and PhysicalDisk (the disk), so
 * the two are one layer below the cache; the probe counts the disk and pairs the volume with it
 * (`topology` kind `perfmon-volume`). Disk counters then measure the disks' I/Os and response time
 * only: a read the cache serves from RAM never reaches them, so the application's gain is not in
 * them, and no length of window would show it; the server's work counters or the application's own
 * latency would. The words say so instead of "longer windows" and "reads served by the cache".
 */
import type { StackEdge } from '../records/types.ts';
import type { AnalysisMode } from './figures.ts';

/** One layer pairing of the capture, with which side the analysis counted. */
export interface LayerEdge {
  holder: string;
  slave: string;
  kind: string;
  holderCounted: boolean;
  slaveCounted: boolean;
}

/** The capture's layers as the analysis used them. */
export interface LayersReport {
  /** `in-os-cache`: backing-only, the counted disks with their volumes on them, both below any in-OS cache (a PerfMon log); `none` otherwise. */
  case: 'in-os-cache' | 'none';
  /** Every pairing the capture records (empty when it records none). */
  edges: LayerEdge[];
}

/**
 * The layers of a capture: its `topology` edges with which side is counted (front or backing), and
 * the in-OS cache case (see the module's note).
 *
 * @example
 * layersOf([{ holder: 'LogicalDisk(C:)', slave: 'PhysicalDisk(0 C:)', kind: 'perfmon-volume' }], [], ['PhysicalDisk(0 C:)'], 'backing-only')
 * // { case: 'in-os-cache', edges: [{ …, holderCounted: false, slaveCounted: true }] }
 */
export function layersOf(stack: readonly StackEdge[] | undefined, front: readonly string[], backingDevices: readonly string[], mode: AnalysisMode): LayersReport {
  const counted = new Set([...front, ...backingDevices]);
  const backing = new Set(backingDevices);
  const edges = (stack ?? []).map((e) => ({ holder: e.holder, slave: e.slave, kind: e.kind, holderCounted: counted.has(e.holder), slaveCounted: counted.has(e.slave) }));
  const inOs = mode === 'backing-only' && edges.some((e) => e.kind === 'perfmon-volume' && backing.has(e.slave) && !e.holderCounted);
  return { case: inOs ? 'in-os-cache' : 'none', edges };
}
