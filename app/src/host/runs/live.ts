/**
 * Live figures of a capture being recorded: the capture's rows of one window (read through
 * capture/window.ts, one index range per device) drawn as per-device lines with the engine's one
 * bucketing (`chartLines`: the dashboard and the report use the same), at most
 * {@link MAX_LIVE_POINTS} buckets; at one sample per bucket a point is that interval's iostat
 * figures (r/s+w/s, MB/s, await). Each device also carries its means over the hour shown (the
 * engine's window summary: ratio of sums), which the screen's text summary says; it computes none.
 */
import { buildSeries, chartLines, columnsFromRecords, summarizeSeries } from '@cacheproof/engine';
import type { DeviceRole } from '@cacheproof/engine';
import { deviceRoleOf } from '../../shared/analysis-schema.ts';
import type { LiveSeries } from '../../shared/contract.ts';
import { readCaptureWindow } from '../capture/window.ts';

/** The window a live chart shows when asked for "now" (sinceMs = 0): the last hour. */
export const LIVE_WINDOW_MS = 3600_000;
/** At most this many points per device per reply; longer ranges are bucketed. */
export const MAX_LIVE_POINTS = 3600;

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
  const roleOf = (name: string, captureRole: string): DeviceRole | null => {
    const role = q.roles.get(name) ?? (chosen ? null : captureRole);
    return role === null ? null : deviceRoleOf(role);
  };
  // The hour the screen shows, over which each device's means are taken: [sinceMs, untilMs] for an
  // earlier hour, else the hour up to the capture's end (or untilMs). Points: the rows after sinceMs.
  let shownHour = { startMs: 0, endMs: 0 };
  const w = readCaptureWindow(path, {
    window(lastEnd) {
      const end = q.untilMs ?? lastEnd ?? 0;
      shownHour = q.sinceMs > 0 && q.untilMs !== undefined ? { startMs: q.sinceMs, endMs: q.untilMs } : { startMs: end - LIVE_WINDOW_MS, endMs: end };
      const since = q.sinceMs > 0 ? Math.min(q.sinceMs, shownHour.startMs) : shownHour.startMs;
      return { sinceMs: since, untilMs: q.untilMs ?? Number.MAX_SAFE_INTEGER };
    },
    include: (name, role) => roleOf(name, role) !== null,
  });
  const shown = w.devices.flatMap((d) => {
    const role = roleOf(d.name, d.role);
    return role === null || d.records === null ? [] : [{ name: d.name, role, records: d.records }];
  });
  const after = q.sinceMs > 0 ? q.sinceMs : -Infinity;
  const lines = chartLines(shown.flatMap((d) => columnsFromRecords(d.records.filter((r) => r.endMs > after))), shown.map((d) => d.name), [], MAX_LIVE_POINTS);
  const roleByName = new Map(shown.map((d) => [d.name, d.role]));
  // each device's window means over the hour shown (ratio of sums: the engine's summarizeSeries, as the dashboard's)
  const means = new Map(shown.map((d) => {
    const m = summarizeSeries(buildSeries([d.records], shownHour)).means;
    return [d.name, { iops: m.iops, mbps: m.mbps, latencyMs: m.awaitMs }];
  }));
  const none = { iops: null, mbps: null, latencyMs: null };
  const series: LiveSeries['series'] = lines.devices.map(({ device, line }) => ({
    device, role: roleByName.get(device) ?? 'other', t: line.t, iops: line.iops, mbps: line.mbps, latencyMs: line.latencyMs, means: means.get(device) ?? none,
  }));
  return { series, phases: w.phases, switchMarkMs: w.switchMarkMs };
}
