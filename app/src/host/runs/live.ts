/**
 * Live figures of a capture being recorded: the capture's rows of one window (read through
 * capture/window.ts, one index range per device) drawn as per-device lines with the engine's one
 * bucketing (`chartLines`: the dashboard and the report use the same), at most
 * {@link MAX_LIVE_POINTS} buckets; at one sample per bucket a point is that interval's iostat
 * figures (r/s+w/s, MB/s, await).
 */
import { chartLines, columnsFromRecords } from '@cacheproof/engine';
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
  const w = readCaptureWindow(path, {
    window(lastEnd) {
      if (q.sinceMs > 0) return { sinceMs: q.sinceMs, untilMs: q.untilMs ?? Number.MAX_SAFE_INTEGER };
      const anchor = q.untilMs ?? lastEnd ?? 0;
      return { sinceMs: anchor - LIVE_WINDOW_MS, untilMs: q.untilMs ?? Number.MAX_SAFE_INTEGER };
    },
    include: (name, role) => roleOf(name, role) !== null,
  });
  const shown = w.devices.flatMap((d) => {
    const role = roleOf(d.name, d.role);
    return role === null || d.records === null ? [] : [{ name: d.name, role, records: d.records }];
  });
  const lines = chartLines(shown.flatMap((d) => columnsFromRecords(d.records)), shown.map((d) => d.name), [], MAX_LIVE_POINTS);
  const roleByName = new Map(shown.map((d) => [d.name, d.role]));
  const series: LiveSeries['series'] = lines.devices.map(({ device, line }) => ({ device, role: roleByName.get(device) ?? 'other', t: line.t, iops: line.iops, mbps: line.mbps, latencyMs: line.latencyMs }));
  return { series, phases: w.phases, switchMarkMs: w.switchMarkMs };
}
