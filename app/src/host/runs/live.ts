/**
 * Live figures of a capture being recorded: the capture's rows of one window (read through
 * capture/window.ts, one index range per device) turned into per-device chart points. Rates come
 * from the engine's `intervalMetrics`, the same function behind every figure of the analysis
 * (iostat's r/s+w/s, MB/s, await); long ranges are merged into buckets first.
 */
import { intervalMetrics, type IntervalRecord } from '@cacheproof/engine';
import type { LiveSeries } from '../../shared/contract.ts';
import { readCaptureWindow } from '../capture/window.ts';

/** The window a live chart shows when asked for "now" (sinceMs = 0): the last hour. */
export const LIVE_WINDOW_MS = 3600_000;
/** At most this many points per device per reply; longer ranges are merged into buckets. */
export const MAX_LIVE_POINTS = 3600;

type Summable = 'reads' | 'writes' | 'readBytes' | 'writeBytes' | 'readTimeMs' | 'writeTimeMs' | 'busyMs' | 'weightedMs';

/** Consecutive intervals merged into one (counts summed over the `ok` ones, Δt summed likewise). */
export function mergeRecords(device: string, group: readonly IntervalRecord[]): IntervalRecord {
  const ok = group.filter((r) => r.status === 'ok');
  const sum = (k: Summable): number | null => {
    if (ok.length === 0) return null;
    let total = 0;
    for (const r of ok) {
      const v = r[k];
      if (v === null) return null;
      total += v;
    }
    return total;
  };
  return {
    device,
    startMs: group[0]?.startMs ?? 0,
    endMs: group[group.length - 1]?.endMs ?? 0,
    intervalMs: ok.reduce((a, r) => a + r.intervalMs, 0),
    status: ok.length === 0 ? (group[0]?.status ?? 'gap') : 'ok',
    reads: sum('reads'),
    writes: sum('writes'),
    readBytes: sum('readBytes'),
    writeBytes: sum('writeBytes'),
    readTimeMs: sum('readTimeMs'),
    writeTimeMs: sum('writeTimeMs'),
    busyMs: sum('busyMs'),
    weightedMs: sum('weightedMs'),
  };
}

export interface LiveQuery {
  /** Points whose interval ends after this time (UTC ms); 0 = the last hour of the capture. */
  sinceMs: number;
  /** Points whose interval ends at or before this time (UTC ms); absent = up to now. */
  untilMs?: number | undefined;
  /** Roles the person chose (device → role); other recorded devices keep the capture's role. */
  roles: ReadonlyMap<string, string>;
}

/** Per-device iostat figures of one window of the capture, its phases, and the switch mark. */
export function readLive(path: string, q: LiveQuery): LiveSeries & { switchMarkMs: number | null } {
  const chosen = q.roles.size > 0;
  const roleOf = (name: string, captureRole: string): string | null => q.roles.get(name) ?? (chosen ? null : captureRole);
  const w = readCaptureWindow(path, {
    window(lastEnd) {
      if (q.sinceMs > 0) return { sinceMs: q.sinceMs, untilMs: q.untilMs ?? Number.MAX_SAFE_INTEGER };
      const anchor = q.untilMs ?? lastEnd ?? 0;
      return { sinceMs: anchor - LIVE_WINDOW_MS, untilMs: q.untilMs ?? Number.MAX_SAFE_INTEGER };
    },
    include: (name, role) => roleOf(name, role) !== null,
  });
  const series: LiveSeries['series'] = [];
  for (const d of w.devices) {
    const role = roleOf(d.name, d.role);
    if (role === null || d.records === null) continue;
    const rows = d.records;
    const bucket = Math.max(1, Math.ceil(rows.length / MAX_LIVE_POINTS));
    const s = { device: d.name, role, t: [] as number[], iops: [] as (number | null)[], mbps: [] as (number | null)[], latencyMs: [] as (number | null)[] };
    for (let i = 0; i < rows.length; i += bucket) {
      const rec = bucket === 1 ? (rows[i] as IntervalRecord) : mergeRecords(d.name, rows.slice(i, i + bucket));
      const m = intervalMetrics(rec);
      s.t.push(rec.endMs);
      s.iops.push(m.iops);
      s.mbps.push(m.mbps);
      s.latencyMs.push(m.awaitMs);
    }
    series.push(s);
  }
  return { series, phases: w.phases, switchMarkMs: w.switchMarkMs };
}
