/**
 * The layer above the counted disks (issue 36, "a stack's upper layer shown as what the
 * application saw"): the volumes the capture's `topology` stacks on the counted devices (an LVM
 * volume on its disk, a partition, a device-mapper or md volume, a Windows LogicalDisk on its
 * PhysicalDisk), each with its own figures over the window. Their I/O is the disks' I/O: they are
 * shown beside the disks and never added to the counted totals (ARCHITECTURE.md: count each I/O
 * once). A sadf log of a PostgreSQL server shows `vgsys-postgreSQL`, the volume the database wrote
 * to, beside `sda`, the disk under it. Pure.
 */
import type { WindowSummary } from '../metrics/summary.ts';
import type { StackEdge } from '../records/types.ts';

/** One volume above the counted devices. */
export interface UpperVolume {
  device: string;
  /** The devices it sits on (its `topology` slaves). */
  on: string[];
  /** How the pairing is known, as the probe wrote it (`LVM`, `partition`, `from the numbers`, `perfmon-volume`…). */
  kind: string;
  /** True when nothing in the capture sits on it: the layer the applications wrote to. */
  top: boolean;
  summary: WindowSummary;
}

/** The volumes above the counted devices, or null when the capture stacks none on them. */
export interface UpperLayer {
  volumes: UpperVolume[];
}

/**
 * The uncounted holders of the stack whose chain of slaves reaches a counted device, in the
 * stack's order, each summarised over the window by `summarize` (the profile's own summary).
 *
 * @example
 * upperLayerOf([{ holder: 'vgsys-postgreSQL', slave: 'sda', kind: 'from the numbers' }], new Set(['sda']), summary)
 * // { volumes: [{ device: 'vgsys-postgreSQL', on: ['sda'], kind: 'from the numbers', top: true, summary: … }] }
 */
export function upperLayerOf(stack: readonly StackEdge[] | undefined, counted: ReadonlySet<string>, summarize: (device: string) => WindowSummary): UpperLayer | null {
  const edges = stack ?? [];
  const slaves = new Map<string, StackEdge[]>();
  for (const e of edges) slaves.set(e.holder, [...(slaves.get(e.holder) ?? []), e]);
  const reaches = (d: string, seen: Set<string>): boolean => {
    if (counted.has(d)) return true;
    if (seen.has(d)) return false;
    seen.add(d);
    return (slaves.get(d) ?? []).some((e) => reaches(e.slave, seen));
  };
  const holders = [...slaves.keys()].filter((h) => !counted.has(h) && reaches(h, new Set()));
  if (holders.length === 0) return null;
  const isSlave = new Set(edges.filter((e) => holders.includes(e.holder)).map((e) => e.slave));
  return {
    volumes: holders.map((h) => {
      const own = slaves.get(h) ?? [];
      return { device: h, on: own.map((e) => e.slave), kind: own[0]?.kind ?? '', top: !isSlave.has(h), summary: summarize(h) };
    }),
  };
}
