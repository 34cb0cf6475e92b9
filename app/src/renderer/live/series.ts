/**
 * The Live screen's series state: the points held per device (the hour shown), the run's
 * phases, and which hour is shown (live or an earlier one). Points from `run.series` are merged
 * after the last one held and trimmed to the hour; the window's ends come from the engine.
 */
import { LIVE_WINDOW_MS, liveWindowRange, seriesFirstMs, seriesLastMs } from '@cacheproof/engine';
import type { LiveSeries } from '../../shared/contract.ts';
import type { DeviceBuffer } from './charts.ts';

/** A front device first, then by name. */
function byRoleThenName(x: DeviceBuffer, y: DeviceBuffer): number {
  return (x.role === 'front' ? 0 : 1) - (y.role === 'front' ? 0 : 1) || x.device.localeCompare(y.device);
}

/** Drops the points before `cut` from one device's buffer. */
function trimBefore(b: DeviceBuffer, cut: number): void {
  let k = 0;
  while (k < b.t.length && (b.t[k] ?? 0) < cut) k++;
  if (k > 0) {
    b.t.splice(0, k);
    b.iops.splice(0, k);
    b.mbps.splice(0, k);
    b.latencyMs.splice(0, k);
  }
}

export class LiveSeriesState {
  /** null = live (the last hour, growing); a number = the end of the earlier hour shown. */
  viewEnd: number | null = null;
  buffers: DeviceBuffer[] = [];
  phases: LiveSeries['phases'] = [];

  /** The latest point held (0 when none). */
  lastT(): number {
    return seriesLastMs(this.buffers.map((b) => b.t));
  }

  /** The window to draw, given the run's last sample and start. */
  range(lastSampleMs: number | null, startedMs: number | null): { fromMs: number; toMs: number; hasEarlier: boolean } {
    const times = this.buffers.map((b) => b.t);
    return liveWindowRange({ viewEndMs: this.viewEnd, lastMs: seriesLastMs(times), firstMs: seriesFirstMs(times), lastSampleMs, startedMs });
  }

  /** Adds points after the last one (live), trimming what falls out of the hour. */
  merge(s: LiveSeries): void {
    this.phases = s.phases;
    for (const inc of s.series) {
      let b = this.buffers.find((x) => x.device === inc.device);
      if (!b) {
        b = { device: inc.device, role: inc.role, t: [], iops: [], mbps: [], latencyMs: [], means: inc.means };
        this.buffers.push(b);
        this.buffers.sort(byRoleThenName);
      }
      // the host's means over the hour shown (engine window summary), replaced with every reply
      b.means = inc.means;
      const buf = b;
      const after = buf.t[buf.t.length - 1] ?? -Infinity;
      inc.t.forEach((x, i) => {
        if (x <= after) return;
        buf.t.push(x);
        buf.iops.push(inc.iops[i] ?? null);
        buf.mbps.push(inc.mbps[i] ?? null);
        buf.latencyMs.push(inc.latencyMs[i] ?? null);
      });
    }
    const cut = this.lastT() - LIVE_WINDOW_MS;
    for (const b of this.buffers) trimBefore(b, cut);
  }

  /** Replaces every point held with the ones of `s` (another hour shown). */
  replace(s: LiveSeries): void {
    this.buffers = [];
    this.merge(s);
  }
}
