/**
 * The per-work figure in words (issue #26), said the same way by `cacheproof analyze`, the
 * dashboard and the report: the work the server did against the disk I/Os it took, from
 * `benefit.perWork` (benefit/per-work.ts). Level work: "per unit of work the disks did 12.0 %
 * fewer I/Os, the same as I/Os saved"; work that changed: "The server did 75.0 % more work with
 * 12.0 % fewer disk I/Os"; each followed by the figures, units, windows and method
 * (`perwork.detail`). Text keys with values; the app's catalogs hold the four languages.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Msg, Val } from './types.ts';
import { duration, empty, m, msgv, num, pct } from './values.ts';

/** Text keys of this module; part of REPORT_KEYS (keys.ts). */
export const PER_WORK_KEYS = [
  'perwork.same', 'perwork.moreFewer', 'perwork.moreMore', 'perwork.lessFewer', 'perwork.lessMore', 'perwork.detail',
  'perwork.unit.process-io', 'perwork.unit.sql-batch',
] as const;

/**
 * The headline sentence of the per-work figure, or null when the capture has no work counter
 * (or a window lacks work or disk data).
 *
 * @example
 * perWorkMsg(a) // { key: 'perwork.moreFewer', p: { work: pct 75, disk: pct 12 } }
 */
export function perWorkMsg(a: AnalysisReport): Msg | null {
  const p = a.benefit.perWork;
  if (p.workChangePercent === null || p.diskChangePercent === null || p.savedPercent === null) return null;
  if (p.workLevel === true) return m('perwork.same', { saved: pct(p.savedPercent), iosSaved: pct(a.benefit.iosSavedPercent.value) });
  const more = p.workChangePercent > 0, fewer = p.diskChangePercent < 0;
  const key = more ? (fewer ? 'perwork.moreFewer' : 'perwork.moreMore') : (fewer ? 'perwork.lessFewer' : 'perwork.lessMore');
  return m(key, { work: pct(Math.abs(p.workChangePercent)), disk: pct(Math.abs(p.diskChangePercent)) });
}

/**
 * The figures behind the sentence: disk I/Os per unit of work before → after and the share saved,
 * the disks' and the work's rates, the windows' lengths and the method. Null with the headline.
 */
export function perWorkDetail(a: AnalysisReport): Msg | null {
  const p = a.benefit.perWork;
  if (perWorkMsg(a) === null || p.unit === null) return null;
  return m('perwork.detail', {
    unit: msgv(`perwork.unit.${p.unit}`), instance: { k: 'str', s: p.instance ?? '' },
    perBefore: num(p.diskIosPerWorkBefore, 3), perAfter: num(p.diskIosPerWorkAfter, 3), saved: pct(p.savedPercent),
    diskBefore: num(p.diskIosPerSecondBefore, 1, 'iops'), diskAfter: num(p.diskIosPerSecondAfter, 1, 'iops'),
    workBefore: num(p.workPerSecondBefore, 1), workAfter: num(p.workPerSecondAfter, 1),
    baseline: duration(a.windows.baseline.seconds), measure: duration(a.windows.measure.seconds),
  });
}

/** {@link perWorkMsg} and {@link perWorkDetail} as values (empty when there is nothing to say). */
export function perWorkVals(a: AnalysisReport): Val[] {
  return [perWorkMsg(a), perWorkDetail(a)].filter((x): x is Msg => x !== null).map((x) => ({ k: 'msg', m: x }));
}

/** {@link perWorkMsg} as one value (empty when there is nothing to say). */
export function perWorkVal(a: AnalysisReport): Val {
  const x = perWorkMsg(a);
  return x === null ? empty : { k: 'msg', m: x };
}
