/**
 * Busy % (%util) per device, with the busiest named: a group's busy % is the average of its
 * devices (summary.ts), which hides a saturated disk beside idle ones (a sadf log read 6.9 % for the
 * group while sda was busy 20.3 %; an iostat log 55.5 % while vdb and vdc were at 100 %). The
 * profile report and screen say the busiest device beside the group's average. Pure.
 */
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { Msg } from './types.ts';
import { m, num, pct, str } from './values.ts';

/** The device with the highest mean busy % over the window, with its p95; null when no device reports busy time. */
export interface BusiestDevice {
  device: string;
  meanPercent: number;
  p95Percent: number | null;
  /** Devices of the profile that report busy time. */
  devices: number;
}

/**
 * The busiest device by mean busy % (the first of equals, in the profile's device order).
 *
 * @example
 * busiestDevice(profile) // { device: 'sda', meanPercent: 20.3, p95Percent: 41, devices: 3 }
 */
export function busiestDevice(p: Pick<WorkloadProfile, 'perDevice'>): BusiestDevice | null {
  let best: BusiestDevice | null = null;
  let n = 0;
  for (const d of p.perDevice) {
    const u = d.summary.means.utilPercent;
    if (u === null) continue;
    n += 1;
    if (best === null || u > best.meanPercent) best = { device: d.device, meanPercent: u, p95Percent: d.summary.percentiles.utilPercent?.p95 ?? null, devices: 0 };
  }
  return best === null ? null : { ...best, devices: n };
}

/**
 * "Busy % above is the average of the group's 3 devices (6.9 %); the busiest, sda, was busy 20.3 %
 * on average, 41.0 % at the 95th percentile." Null when no device reports busy time.
 */
export function busiestDeviceMsg(p: Pick<WorkloadProfile, 'perDevice' | 'appFacing'>): Msg | null {
  const b = busiestDevice(p);
  if (b === null) return null;
  return m('pr.busiestDevice', { n: num(b.devices, 0), group: pct(p.appFacing.means.utilPercent, 1), device: str(b.device), mean: pct(b.meanPercent, 1), p95: pct(b.p95Percent, 1) });
}
