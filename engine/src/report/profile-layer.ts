/**
 * The volumes above the counted disks in a workload profile (benefit/upper-layer.ts): one sentence
 * for the summary ("what the applications saw") and a table beside the disks' table, in the
 * report, the profile screen and `analyze --profile`. Their I/O is the disks' I/O: the sentence
 * says the profile's totals count the disks once. Pure.
 */
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { Msg, Table, Val } from './types.ts';
import { col, list, m, msgv, num, pct, str } from './values.ts';

/** Text keys of the upper layer; part of REPORT_KEYS (keys.ts). */
export const UPPER_LAYER_KEYS = ['pr.upper', 'pr.upperItem', 'pr.t.upper', 'pr.t.upperCaption', 'pr.c.on'] as const;

/** The decimals of analyze --profile (profile-report.ts PROFILE_DECIMALS): IOPS 1, MB/s 2, ms 3, percents 1. */
const D = { iops: 1, mbps: 2, ms: 3, percent: 1 } as const;

/**
 * "What the applications saw, at the volumes above the disks: vgsys-postgreSQL (on sda) 4,057.0 IOPS
 * on average, 7.650 ms; … Their I/O is the disks' I/O: the figures above count the disks, once."
 * The top volumes only (nothing sits on them); null when the capture stacks no volume on the disks.
 */
export function upperLayerMsg(p: Pick<WorkloadProfile, 'upperLayer' | 'devices'>): Msg | null {
  const top = (p.upperLayer?.volumes ?? []).filter((v) => v.top);
  if (top.length === 0) return null;
  const items: Val[] = top.map((v) => msgv('pr.upperItem', { device: str(v.device), on: list(v.on), iops: num(v.summary.means.iops, D.iops, 'iops'), latency: num(v.summary.means.awaitMs, D.ms, 'ms') }));
  const counted = p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
  return m('pr.upper', { items: { k: 'list', items, sep: '; ' }, disks: list(counted) });
}

/** Every volume above the counted disks with its figures over the window (mean, p95 and peak IOPS, MB/s, response time, read share, busy %); null when none. */
export function upperLayerTable(p: Pick<WorkloadProfile, 'upperLayer'>): Table | null {
  const vols = p.upperLayer?.volumes ?? [];
  if (vols.length === 0) return null;
  return {
    id: 'profile-upper', title: m('pr.t.upper'), sheet: true,
    columns: [col('c.device', 'left'), col('pr.c.on', 'left'), col('pr.c.iopsMean', 'right', 'iops'), col('pr.c.iopsP95', 'right', 'iops'), col('pr.c.iopsPeak', 'right', 'iops'),
      col('pr.c.mbps', 'right', 'mbps'), col('pr.c.latency', 'right', 'ms'), col('pr.c.readShare', 'right', 'percent'), col('pr.c.busy', 'right', 'percent'), col('c.intervals')],
    rows: vols.map((v) => {
      const s = v.summary;
      return {
        cells: [str(v.device), list(v.on), num(s.means.iops, D.iops), num(s.percentiles.iops?.p95 ?? null, D.iops), num(s.percentiles.iops?.max ?? null, D.iops),
          num(s.means.mbps, D.mbps), num(s.means.awaitMs, D.ms), pct(s.means.readSharePercent, D.percent), pct(s.means.utilPercent, D.percent, s.means.reasons['utilPercent']), num(s.okIntervals, 0)],
      };
    }),
    caption: m('pr.t.upperCaption'),
  };
}
