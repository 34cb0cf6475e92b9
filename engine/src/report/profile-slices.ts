/**
 * The workload profile's time slices in the report (benefit/time-slices.ts): the rule and slice
 * length in words, a table per device and counter (levels, slices checked, warning and critical,
 * the longest run) and the chronological alerts list; what the grade owes to a sustained critical
 * run. Nothing is computed here. Pure.
 */
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { Block, Msg } from './types.ts';
import type { ReportKey } from './keys.ts';
import { col, duration, m, msgv, num, str, time } from './values.ts';

/** Text keys of this module; part of REPORT_KEYS (keys.ts, through profile-keys.ts). */
export const PROFILE_SLICE_KEYS = [
  'pr.sl.title', 'pr.sl.intro', 'pr.sl.sustained', 'pr.sl.none',
  'pr.t.slices', 'pr.t.slicesCaption', 'pr.c.counter', 'pr.c.levels', 'pr.c.levelsValue', 'pr.c.checked', 'pr.c.warning', 'pr.c.critical', 'pr.c.longestRun',
  'pr.t.alerts', 'pr.t.alertsCaption', 'pr.c.level', 'pr.lv.warning', 'pr.lv.critical',
] as const;

/** The grade's rule said when a sustained critical run made it `bad` (null otherwise). */
export function sustainedCriticalMsg(p: WorkloadProfile): Msg | null {
  return p.health.gradeRule === 'sustained-critical' ? m('pr.sl.sustained', { run: duration(p.slices.longestCriticalMs / 1000) }) : null;
}

/** The report's blocks of the time slices: the rule, the table per device and counter, the alerts. */
export function sliceBlocks(p: WorkloadProfile): Block[] {
  const s = p.slices;
  const counter = (c: 'read' | 'write'): Msg => m(`metric.${c}` as ReportKey);
  const blocks: Block[] = [
    { type: 'subheading', text: m('pr.sl.title') },
    { type: 'paragraph', text: m('pr.sl.intro', { length: duration(s.sliceMs / 1000), slices: num(s.slices, 0), run: duration(30 * 60) }) },
  ];
  const sustained = sustainedCriticalMsg(p);
  if (sustained !== null) blocks.push({ type: 'paragraph', text: sustained });
  blocks.push({ type: 'table', table: {
    id: 'profile-slices', title: m('pr.t.slices'), sheet: true,
    columns: [col('c.device', 'left'), col('pr.c.counter', 'left'), col('pr.c.levels', 'left'), col('pr.c.checked'), col('pr.c.warning'), col('pr.c.critical'), col('pr.c.longestRun', 'left')],
    rows: s.rows.map((r) => ({ cells: [str(r.device), { k: 'msg', m: counter(r.counter) }, msgv('pr.c.levelsValue', { warn: num(r.warnMs, 1, 'ms'), critical: num(r.criticalMs, 1, 'ms') }),
      num(r.checked, 0), num(r.warning, 0), num(r.critical, 0), r.longestRunSlices === 0 ? str('—') : duration(r.longestRunMinutes * 60)] })),
    caption: m('pr.t.slicesCaption', { length: duration(s.sliceMs / 1000) }),
  } });
  if (s.alerts.length === 0) {
    blocks.push({ type: 'paragraph', text: m('pr.sl.none') });
    return blocks;
  }
  blocks.push({ type: 'table', table: {
    id: 'profile-alerts', title: m('pr.t.alerts'), sheet: true,
    columns: [col('pr.c.start', 'left'), col('pr.c.end', 'left'), col('c.device', 'left'), col('pr.c.counter', 'left'), col('pr.c.level', 'left'), col('pr.c.worst', 'right', 'ms')],
    rows: s.alerts.map((a) => ({ cells: [time(a.startMs), time(a.endMs), str(a.device), { k: 'msg', m: counter(a.counter) }, msgv(`pr.lv.${a.level}` as ReportKey), num(a.worstMs, 1)] })),
    caption: m('pr.t.alertsCaption'),
  } });
  return blocks;
}
