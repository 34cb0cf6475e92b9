/**
 * The workload-profile report's busiest hours and capacity (issue 27), drawn by every exporter:
 * - the busiest hour, named in the summary under the verdict (the engine's `hours.busiest`);
 * - the heatmap: IOPS per clock hour of the day (UTC, rows) and day (columns), each cell shaded by
 *   its share of the busiest cell (`TableRow.heat`), at most {@link PROFILE_HEATMAP_DAYS} days (the
 *   run of days holding the busiest hour);
 * - capacity per volume: size, used, free, growth per day and days to full (`capacity`), or "not
 *   in this log".
 * Figures at `analyze --profile`'s precision (IOPS 1 decimal). Pure.
 */
import { heatShare } from './heat.ts';
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { Block, Msg, Table, TableRow, Val } from './types.ts';
import { col, m, msgv, num, pct, str, time } from './values.ts';

/** The most day columns of the heatmap (an A4 page's width). */
export const PROFILE_HEATMAP_DAYS = 7;

const DAY_MS = 86_400_000;

/** The sentence naming the busiest hour (null when the window has no usable interval). */
export function busiestMsg(p: WorkloadProfile): Msg | null {
  const b = p.hours.busiest;
  if (b === null) return null;
  return m('pr.busiest', { start: time(b.startMs), end: time(b.endMs, 'time'), iops: num(b.iops, 1, 'iops'), mean: num(p.appFacing.means.iops, 1, 'iops') });
}

/** The first day column shown: the run of {@link PROFILE_HEATMAP_DAYS} days that holds the busiest hour. */
function firstDay(p: WorkloadProfile): number {
  const h = p.hours;
  const n = h.days.length;
  if (n <= PROFILE_HEATMAP_DAYS) return 0;
  const b = h.busiest;
  const bi = b === null ? 0 : Math.max(0, h.days.indexOf(Math.floor(b.startMs / DAY_MS) * DAY_MS));
  return Math.max(0, Math.min(bi - Math.floor(PROFILE_HEATMAP_DAYS / 2), n - PROFILE_HEATMAP_DAYS));
}

/** IOPS per hour of the day (rows) and day (columns), the busiest cell's share shading each. */
export function hoursTable(p: WorkloadProfile): Table | null {
  const h = p.hours;
  if (h.days.length === 0) return null;
  const from = firstDay(p);
  const days = h.days.slice(from, from + PROFILE_HEATMAP_DAYS);
  const top = h.busiest?.iops ?? 0;
  const rows: TableRow[] = [];
  for (let hour = 0; hour < 24; hour++) {
    const values = days.map((_, i) => h.iops[from + i]?.[hour] ?? null);
    if (values.every((v) => v === null) && !h.iops.some((d) => d[hour] !== null)) continue;
    rows.push({
      cells: [str(`${String(hour).padStart(2, '0')}:00`), ...values.map((v): Val => (v === null ? { k: 'empty' } : num(v, 1)))],
      heat: [null, ...values.map((v) => heatShare(v, top))],
    });
  }
  return {
    id: 'profile-hours', title: m('pr.t.hours'), sheet: true,
    columns: [col('pr.c.hour', 'left'), ...days.map((d) => ({ head: m('pr.c.day', { day: time(d, 'date') }), align: 'right' as const }))],
    rows,
    caption: m('pr.t.hoursCaption', { shown: num(days.length, 0), days: num(h.days.length, 0) }),
  };
}

/**
 * The capacity sentence of the summary (null when the log carries none): the volumes' size, used
 * and free space summed over those stating both, and the first to fill at its growth.
 */
export function capacityMsg(p: WorkloadProfile): Msg | null {
  const vs = p.capacity.volumes.filter((v) => v.sizeBytes !== null && v.usedBytes !== null && v.freeBytes !== null);
  if (!p.capacity.inLog || vs.length === 0) return null;
  let size = 0, used = 0, free = 0;
  for (const v of vs) {
    size += v.sizeBytes as number;
    used += v.usedBytes as number;
    free += v.freeBytes as number;
  }
  let first: (typeof vs)[number] | null = null;
  for (const v of vs) if (v.daysToFull !== null && (first === null || v.daysToFull < (first.daysToFull as number))) first = v;
  const bytes = (v: number | null): Val => ({ k: 'bytes', v });
  const withheld = vs.some((v) => v.reasons.daysToFull === 'short-fit');
  const next = first === null ? msgv(withheld ? 'pr.capWithheld' : 'pr.capNotFilling') : msgv('pr.capFirst', { volume: str(first.volume), growth: bytes(first.growthBytesPerDay), days: num(first.daysToFull, 0) });
  return m('pr.capSummary', { size: bytes(size), used: bytes(used), share: pct(size > 0 ? (100 * used) / size : null, 1), free: bytes(free), next });
}

/** Capacity per volume, or "not in this log". */
export function capacityBlocks(p: WorkloadProfile): Block[] {
  const c = p.capacity;
  if (!c.inLog) return [{ type: 'paragraph', text: m('pr.cap.notInLog') }];
  const bytes = (v: number | null): Val => ({ k: 'bytes', v });
  const table: Table = {
    id: 'profile-capacity', title: m('pr.t.capacity'), sheet: true,
    columns: [col('pr.c.volume', 'left'), col('pr.c.size'), col('pr.c.used'), col('pr.c.free'), col('pr.c.usedShare'), col('pr.c.growth'), col('pr.c.daysToFull')],
    rows: c.volumes.map((v) => ({
      cells: [
        str(v.volume), bytes(v.sizeBytes), bytes(v.usedBytes), bytes(v.freeBytes), pct(v.usedShare === null ? null : v.usedShare * 100, 1),
        v.growthBytesPerDay === null ? msgv(v.reasons.growthBytesPerDay === 'short-fit' ? 'pr.cap.withheld' : 'na') : msgv('pr.perDay', { v: bytes(v.growthBytesPerDay) }),
        v.daysToFull === null ? msgv(v.reasons.daysToFull === 'short-fit' ? 'pr.cap.withheld' : 'pr.cap.notFilling') : num(v.daysToFull, 0),
      ],
    })),
    caption: m('pr.t.capacityCaption'),
  };
  return [{ type: 'table', table }];
}
