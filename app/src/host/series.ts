/**
 * Extra chart series for the results dashboard: one series per device group (the front,
 * application-facing devices and the backing devices), each the sum of its devices per time
 * bucket, so the dashboard can draw "front vs backing" over both windows however many
 * backing drives there are. Rates follow docs/metrics.md (iostat): per device, Δcount ÷ Δt of
 * its `ok` intervals in the bucket; a group's rate is the sum of its devices' rates; its
 * response time is Σ(read + write ms) ÷ Σ I/Os over the bucket (I/O-weighted). A bucket where
 * no device of the group has an `ok` interval has no value (null), never 0.
 */
import { columnsFromRecords, type DeviceColumns, type IntervalRecord } from '@cacheproof/engine';
import type { AnalysisView } from '../shared/contract.ts';

export type GroupSeries = NonNullable<AnalysisView['groupSeries']>[number];

/** At most this many buckets per group series. */
export const MAX_GROUP_POINTS = 2000;

/**
 * Builds the front and backing group series over the whole capture (both windows, warm-up
 * included). Buckets are equal slices of time: as many as the busiest device has intervals,
 * at most {@link MAX_GROUP_POINTS}; each bucket's time is its end (UTC ms).
 *
 * @example
 * buildGroupSeries(capture.data.intervals, { front: ['loop1'], backing: ['loop0'] })
 * // [{ group: 'front', devices: ['loop1'], t: [...], iops: [900, ...], readIops, writeIops, latencyMs, mbps },
 * //  { group: 'backing', devices: ['loop0'], ... }]
 */
export function buildGroupSeries(intervals: readonly IntervalRecord[], devices: { front: readonly string[]; backing: readonly string[] }): GroupSeries[] {
  return buildGroupSeriesFromColumns(columnsFromRecords(intervals), devices);
}

/** {@link buildGroupSeries} on per-device columns (the capture reader's `data.columns`): the same series without one object per interval. */
export function buildGroupSeriesFromColumns(columns: readonly DeviceColumns[], devices: { front: readonly string[]; backing: readonly string[] }): GroupSeries[] {
  const groups: [GroupSeries['group'], readonly string[]][] = [['front', devices.front], ['backing', devices.backing]];
  const wanted = new Set([...devices.front, ...devices.backing]);
  const byDevice = new Map<string, DeviceColumns>();
  let t0 = Infinity, t1 = -Infinity;
  for (const c of columns) {
    if (!wanted.has(c.device) || c.n === 0) continue;
    byDevice.set(c.device, c);
    for (let i = 0; i < c.n; i++) {
      if ((c.startMs[i] as number) < t0) t0 = c.startMs[i] as number;
      if ((c.endMs[i] as number) > t1) t1 = c.endMs[i] as number;
    }
  }
  if (!(t1 > t0)) return [];
  let most = 0;
  for (const c of byDevice.values()) most = Math.max(most, c.n);
  const n = Math.max(1, Math.min(MAX_GROUP_POINTS, most));
  const width = (t1 - t0) / n;
  const out: GroupSeries[] = [];
  for (const [group, names] of groups) {
    const present = names.filter((d) => byDevice.has(d));
    if (present.length === 0) continue;
    const reads = new Float64Array(n), writes = new Float64Array(n), bytes = new Float64Array(n);
    const timeMs = new Float64Array(n), timedIos = new Float64Array(n);
    const covered = new Uint8Array(n);
    // Per device: counts and seconds per bucket, then rates added to the group.
    const dR = new Float64Array(n), dW = new Float64Array(n), dB = new Float64Array(n), dMs = new Float64Array(n);
    for (const name of present) {
      dR.fill(0); dW.fill(0); dB.fill(0); dMs.fill(0);
      const c = byDevice.get(name) as DeviceColumns;
      for (let i = 0; i < c.n; i++) {
        const r = c.reads[i] as number, w = c.writes[i] as number, ims = c.intervalMs[i] as number;
        if (c.status[i] !== 0 || Number.isNaN(r) || Number.isNaN(w) || !(ims > 0)) continue;
        const k = Math.min(n - 1, Math.max(0, Math.floor((((c.startMs[i] as number) + (c.endMs[i] as number)) / 2 - t0) / width)));
        dR[k] = (dR[k] as number) + r;
        dW[k] = (dW[k] as number) + w;
        const rb = c.readBytes[i] as number, wb = c.writeBytes[i] as number;
        dB[k] = (dB[k] as number) + (Number.isNaN(rb) ? 0 : rb) + (Number.isNaN(wb) ? 0 : wb);
        dMs[k] = (dMs[k] as number) + ims;
        const rt = c.readTimeMs[i] as number, wt = c.writeTimeMs[i] as number;
        if (!Number.isNaN(rt) && !Number.isNaN(wt)) {
          timeMs[k] = (timeMs[k] as number) + rt + wt;
          timedIos[k] = (timedIos[k] as number) + r + w;
        }
      }
      for (let k = 0; k < n; k++) {
        const ms = dMs[k] as number;
        if (ms <= 0) continue;
        covered[k] = 1;
        const perSec = 1000 / ms;
        reads[k] = (reads[k] as number) + (dR[k] as number) * perSec;
        writes[k] = (writes[k] as number) + (dW[k] as number) * perSec;
        bytes[k] = (bytes[k] as number) + (dB[k] as number) * perSec;
      }
    }
    const s: GroupSeries = { group, devices: present, t: [], iops: [], readIops: [], writeIops: [], latencyMs: [], mbps: [] };
    for (let k = 0; k < n; k++) {
      s.t.push(Math.round(t0 + (k + 1) * width));
      if (covered[k] !== 1) {
        s.iops.push(null); s.readIops.push(null); s.writeIops.push(null); s.latencyMs.push(null); s.mbps.push(null);
        continue;
      }
      const r = reads[k] as number, w = writes[k] as number;
      s.iops.push(r + w);
      s.readIops.push(r);
      s.writeIops.push(w);
      s.mbps.push((bytes[k] as number) / 1e6);
      const tio = timedIos[k] as number;
      s.latencyMs.push(tio > 0 ? (timeMs[k] as number) / tio : null);
    }
    out.push(s);
  }
  return out;
}
