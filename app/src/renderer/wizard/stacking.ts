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

/** Every device under `name` (what it is built on, a partition's disk, and so on down). */
function belowOf(byName: Map<string, DeviceEntry>, name: string): Set<string> {
  const below = new Set<string>();
  const walk = (n: string): void => {
    const d = byName.get(n);
    if (d === undefined) return;
    // A partition stands on its disk.
    const next = [...lowersOf(d).map((l) => l.name), ...(d.isPartition && d.parent !== null ? [d.parent] : [])];
    for (const x of next) {
      if (below.has(x) || below.size > 64) continue;
      below.add(x);
      walk(x);
    }
  };
  walk(name);
  return below;
}

/**
 * The backing devices to propose with a front device: those the probe marked `backing` in the
 * front device's own stack, down to the disks under its partitions (several labs or cache setups can sit side by side); without a
 * front device, or when its stack has none, every device marked `backing`. A device under
 * another proposed one is left out: its I/O includes that one's, and the sum would count it twice.
 */
export function guessBacking(devices: DeviceEntry[], front: string | null): string[] {
  const byName = new Map(devices.map((d) => [d.name, d] as const));
  const below = front === null ? new Set<string>() : belowOf(byName, front);
  const marked = devices.filter((d) => d.role === 'backing' && d.name !== front);
  const inStack = marked.filter((d) => below.has(d.name));
  const picked = inStack.length > 0 ? inStack : marked;
  const under = new Set(picked.flatMap((d) => [...belowOf(byName, d.name)]));
  return picked.filter((d) => !under.has(d.name)).map((d) => d.name);
}

/**
 * A pair of chosen backing devices where one sits under the other (`lower`'s I/O includes
 * `upper`'s: the backing total would count it twice), or null when every I/O is counted once.
 */
export function countedTwice(devices: DeviceEntry[], backing: readonly string[]): { lower: string; upper: string } | null {
  const byName = new Map(devices.map((d) => [d.name, d] as const));
  for (const upper of backing) {
    const below = belowOf(byName, upper);
    const lower = backing.find((b) => b !== upper && below.has(b));
    if (lower !== undefined) return { lower, upper };
  }
  return null;
}

/**
 * The devices shown as not counted, each with the loop devices whose image files it holds: the
 * probe leaves the device under a backing loop's image out (`other`, "holds the image of loopN:
 * not counted"), as its I/O includes that loop's with the rest of its file system's.
 */
export function notCounted(devices: DeviceEntry[]): Map<string, string[]> {
  const byName = new Map(devices.map((d) => [d.name, d] as const));
  const out = new Map<string, string[]>();
  for (const l of devices) {
    if (l.role !== 'backing' || l.backingFile === null || l.backingFileDevice === null) continue;
    // every image it holds (two labs up at once: both)
    if (byName.get(l.backingFileDevice)?.role === 'other') out.set(l.backingFileDevice, [...(out.get(l.backingFileDevice) ?? []), l.name]);
  }
  return out;
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
