/**
 * RAID arithmetic: write penalty, data drives per group, bytes written per host byte.
 * Small random I/O; full-stripe writes (which lower the parity penalty) are not modelled.
 */
import type { RaidSpec } from './scenario.ts';

/**
 * Back-end I/Os caused by one front-end write (the RAID write penalty).
 * Method: RAID 0 → 1; RAID 1/10 → 2 (both mirrors); RAID 5 → 4 (read data, read parity,
 * write data, write parity); RAID 6 → 6; custom → the typed `writePenalty`.
 * Example: `raidWritePenalty({ level: '5', groupSize: 5 })` → 4.
 */
export function raidWritePenalty(raid: RaidSpec): number {
  switch (raid.level) {
    case '0':
      return 1;
    case '1':
    case '10':
      return 2;
    case '5':
      return 4;
    case '6':
      return 6;
    case 'custom':
      return raid.writePenalty ?? 1;
  }
}

/**
 * Drives of one RAID group that hold data (the rest hold mirrors or parity).
 * Method: RAID 0 → groupSize; RAID 1 → 1; RAID 10 → groupSize / 2; RAID 5 → groupSize − 1;
 * RAID 6 → groupSize − 2; custom → groupSize − redundantDrivesPerGroup.
 * Example: RAID 5 of 5 drives (4+1) → 4; RAID 10 of 4 → 2.
 */
export function raidDataDrivesPerGroup(raid: RaidSpec): number {
  const n = raid.groupSize;
  switch (raid.level) {
    case '0':
      return n;
    case '1':
      return 1;
    case '10':
      return n / 2;
    case '5':
      return n - 1;
    case '6':
      return n - 2;
    case 'custom':
      return n - (raid.redundantDrivesPerGroup ?? 0);
  }
}

/**
 * Bytes physically written to the group's drives per byte the host writes (small writes):
 * RAID 0 → 1; RAID 1/10 → 2; RAID 5 → 2 (data + parity); RAID 6 → 3; custom → writePenalty / 2
 * (at least 1). Used for SSD endurance, where only writes count.
 * Example: RAID 1 cache pair, 10 TB written by the host → 20 TB written in total, 10 TB per SSD.
 */
export function raidWrittenBytesFactor(raid: RaidSpec): number {
  switch (raid.level) {
    case '0':
      return 1;
    case '1':
    case '10':
    case '5':
      return 2;
    case '6':
      return 3;
    case 'custom':
      return Math.max(1, (raid.writePenalty ?? 1) / 2);
  }
}
