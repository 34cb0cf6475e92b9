/**
 * The rate no device reaches, from the drive catalog (issue 36, benefit/plausibility.ts): the
 * drive with the highest sourced IOPS figure (4 KiB random read, random write, or the sizing
 * IOPS) and 10 × that figure, and the fastest sourced sequential read (MB/s, `seqReadMBps`) and 10 ×
 * that, when a drive gives one. Pure.
 */
import type { RateLimit } from '../benefit/plausibility.ts';
import { IMPLAUSIBLE_FACTOR } from '../benefit/plausibility.ts';
import type { DriveCatalog } from './catalog.ts';

/**
 * The catalog's fastest drive and the limit it gives, or undefined when no drive has a sourced IOPS figure.
 *
 * @example
 * catalogRateLimit(shippedCatalog()) // { driveId: 'micron-7400-pro-m2-3.84tb', driveIops: 650000, limitIops: 6500000, … }
 */
export function catalogRateLimit(c: DriveCatalog): RateLimit | undefined {
  let best: RateLimit | undefined;
  for (const d of c.drives) {
    for (const f of [d.randomReadIops4k, d.randomWriteIops4k, d.iops]) {
      const v = f.value;
      if (v !== null && v > 0 && (best === undefined || v > best.driveIops)) {
        best = { driveId: d.id, driveLabel: d.label, driveIops: v, limitIops: v * IMPLAUSIBLE_FACTOR, mbps: best?.mbps ?? null };
      }
    }
  }
  if (best === undefined) return undefined;
  // the fastest sourced sequential read (MB/s), which may be another drive's
  for (const d of c.drives) {
    const v = d.seqReadMBps?.value ?? null;
    if (v !== null && v > 0 && (best.mbps === null || v > best.mbps.driveMBps)) best.mbps = { driveLabel: d.label, driveMBps: v, limitMBps: v * IMPLAUSIBLE_FACTOR };
  }
  return best;
}
