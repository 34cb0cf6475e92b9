/**
 * The Devices step's reading of the probe's list, without the DOM: what each device is built
 * on, the tops of the stacks, the table order (partitions under their disk) and the backing
 * devices to propose with a front device.
 */
import type { DeviceEntry } from '../../shared/contract.ts';

interface Lower {
  name: string;
  /** A loop device's backing file, when the link is "file on a filesystem of". */
  file: string | null;
}

/** The devices `d` is built on. */
export function lowersOf(d: DeviceEntry): Lower[] {
  const out: Lower[] = d.slaves.map((name) => ({ name, file: null }));
  if (d.backingFileDevice !== null && !d.slaves.includes(d.backingFileDevice)) out.push({ name: d.backingFileDevice, file: d.backingFile });
  return out;
}

/** The tops of every stack: devices built on others that nothing is built on. */
export function stackTops(devices: DeviceEntry[]): DeviceEntry[] {
  const below = new Set(devices.flatMap((d) => lowersOf(d).map((l) => l.name)));
  return devices.filter((d) => lowersOf(d).length > 0 && d.holders.length === 0 && !below.has(d.name));
}

/**
 * The backing devices to propose with a front device: those the probe marked `backing` in the
 * front device's own stack, down to the disks under its partitions (several labs or cache setups can sit side by side); without a
 * front device, or when its stack has none, every device marked `backing`.
 */
export function guessBacking(devices: DeviceEntry[], front: string | null): string[] {
  const byName = new Map(devices.map((d) => [d.name, d] as const));
  const below = new Set<string>();
  const walk = (name: string): void => {
    const d = byName.get(name);
    if (d === undefined) return;
    // A partition stands on its disk.
    const next = [...lowersOf(d).map((l) => l.name), ...(d.isPartition && d.parent !== null ? [d.parent] : [])];
    for (const n of next) {
      if (below.has(n) || below.size > 64) continue;
      below.add(n);
      walk(n);
    }
  };
  if (front !== null) walk(front);
  const marked = devices.filter((d) => d.role === 'backing' && d.name !== front);
  const inStack = marked.filter((d) => below.has(d.name));
  return (inStack.length > 0 ? inStack : marked).map((d) => d.name);
}

/** Whole disks in probe order, each followed by its partitions; partitions whose disk is absent stay at the end. */
export function tableOrder(devices: DeviceEntry[]): { device: DeviceEntry; nested: boolean }[] {
  const names = new Set(devices.map((d) => d.name));
  const out: { device: DeviceEntry; nested: boolean }[] = [];
  for (const d of devices) {
    if (d.isPartition && d.parent !== null && names.has(d.parent)) continue;
    out.push({ device: d, nested: false });
    for (const p of devices) if (p.isPartition && p.parent === d.name) out.push({ device: p, nested: true });
  }
  return out;
}
