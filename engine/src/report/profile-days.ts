/**
 * The workload-profile report's per-day tables (issue 37): for each UTC calendar day of the window
 * (the profile's `days`, benefit/days.ts, the same object `analyze --profile --json` prints), the
 * mean, 95th percentile and peak of IOPS, MB/s and response time, with the time of each peak.
 * One table per figure (five columns fit a page in every language). Figures at `analyze
 * --profile`'s precision (IOPS 1 decimal, MB/s 2, ms 3). Pure.
 */
import type { DayFigure, DayProfile } from '../benefit/days.ts';
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { ReportKey } from './keys.ts';
import type { Block, Table, Unit, Val } from './types.ts';
import { col, m, msgv, num, str, time } from './values.ts';

const FIGURES: { id: 'iops' | 'mbps' | 'awaitMs'; title: ReportKey; unit: Unit; d: number }[] = [
  { id: 'iops', title: 'pd.t.iops', unit: 'iops', d: 1 },
  { id: 'mbps', title: 'pd.t.mbps', unit: 'mbps', d: 2 },
  { id: 'awaitMs', title: 'pd.t.latency', unit: 'ms', d: 3 },
];

function cells(day: DayProfile, f: DayFigure, d: number): Val[] {
  const why = (k: string): string | undefined => f.reasons[k];
  return [
    str(day.day), num(f.mean, d, undefined, why('mean')), num(f.p95, d, undefined, why('p95')), num(f.peak, d, undefined, why('peak')),
    f.peakAtMs === null ? msgv('na') : time(f.peakAtMs, 'time'),
  ];
}

/** One figure's table: a row per day. */
function dayTable(p: WorkloadProfile, f: (typeof FIGURES)[number]): Table {
  return {
    id: `profile-days-${f.id}`, title: m(f.title), sheet: true,
    columns: [col('pd.c.day', 'left'), col('c.mean', 'right', f.unit), col('c.p95', 'right', f.unit), col('c.peak', 'right', f.unit), col('pd.c.peakAt', 'left')],
    rows: p.days.map((day) => ({ cells: cells(day, day[f.id], f.d) })),
    caption: m('pd.caption'),
  };
}

/** The per-day tables under their heading (none for a window within one day: the figures table says it all). */
export function profileDayBlocks(p: WorkloadProfile): Block[] {
  if (p.days.length < 2) return [];
  return [{ type: 'subheading', text: m('pd.title') }, { type: 'paragraph', text: m('pd.intro') }, ...FIGURES.map((f): Block => ({ type: 'table', table: dayTable(p, f) }))];
}
