/**
 * The busiest hours of a workload (issue 27): the application-facing group's IOPS per clock hour
 * (UTC) and day, the heatmap of a capacity planner's report (hour of day × day), and the busiest
 * hour named. Each interval belongs to the clock hour holding its midpoint; an hour's IOPS is the
 * ratio of sums of its usable intervals (I/Os ÷ seconds covered), as every mean of the profile.
 * The busiest hour is the hour of highest IOPS among the hours covered for at least half as long
 * as the best-covered hour (so a few seconds at a log's edge are not named the busiest hour); the
 * earliest of equals. Pure.
 */
import type { Series } from '../metrics/series.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface BusiestHour {
  /** The clock hour, UTC epoch ms, its start and end. */
  startMs: number;
  endMs: number;
  /** Its IOPS (ratio of sums) and the seconds its intervals cover. */
  iops: number;
  coveredSeconds: number;
}

export interface HourlyProfile {
  /** Each day of the window holding data (UTC midnight, epoch ms), ascending. */
  days: number[];
  /** `iops[day][hour]`: the IOPS of that clock hour (UTC) of that day, or null when no usable interval falls in it. */
  iops: (number | null)[][];
  /** `seconds[day][hour]`: the seconds its usable intervals cover. */
  seconds: number[][];
  /** Null when the window has no usable interval. */
  busiest: BusiestHour | null;
}

/** IOPS per clock hour and day of a group's series, and the busiest hour (module comment). */
export function hourlyProfile(s: Series): HourlyProfile {
  const ios = new Map<number, number>();
  const secs = new Map<number, number>();
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const r = s.reads[i] as number;
    const w = s.writes[i] as number;
    const dt = (s.intervalMs[i] as number) / 1000;
    if (!(Number.isFinite(r) && Number.isFinite(w) && dt > 0)) continue;
    const hour = Math.floor(((s.startMs[i] as number) + (s.endMs[i] as number)) / 2 / HOUR_MS) * HOUR_MS;
    ios.set(hour, (ios.get(hour) ?? 0) + r + w);
    secs.set(hour, (secs.get(hour) ?? 0) + dt);
  }
  const hours = [...secs.keys()].sort((a, b) => a - b);
  const days = [...new Set(hours.map((h) => Math.floor(h / DAY_MS) * DAY_MS))];
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const iops = days.map(() => new Array<number | null>(24).fill(null));
  const seconds = days.map(() => new Array<number>(24).fill(0));
  let most = 0;
  for (const h of hours) most = Math.max(most, secs.get(h) as number);
  let busiest: BusiestHour | null = null;
  for (const h of hours) {
    const covered = secs.get(h) as number;
    const v = (ios.get(h) as number) / covered;
    const d = dayIndex.get(Math.floor(h / DAY_MS) * DAY_MS) as number;
    const hh = Math.floor((h % DAY_MS) / HOUR_MS);
    (iops[d] as (number | null)[])[hh] = v;
    (seconds[d] as number[])[hh] = covered;
    if (covered * 2 >= most && (busiest === null || v > busiest.iops)) busiest = { startMs: h, endMs: h + HOUR_MS, iops: v, coveredSeconds: covered };
  }
  return { days, iops, seconds, busiest };
}
