/**
 * The disks' I/Os per unit of the work the server did, before vs after (issue #26): when the log
 * carries the application's own work (`work_counters`, capture schema v8: a process's I/O
 * requests above the file cache, SQL Server batches), a drop in disk I/Os is told apart from a
 * drop in demand. The disk I/Os per second are those of the same comparison as "I/Os saved"
 * (the backing group's window aggregates, AGG), so the two figures never disagree when the work
 * stayed level.
 */
import type { NullReason, Reasons } from '../metrics/summary.ts';
import type { TimeWindow } from '../records/window.ts';
import type { WorkCounterRow } from '../records/types.ts';
import { AGG } from './aggregate.ts';

/** Work that changed by less than this, percent, is "level": the per-work figure then says the same as I/Os saved. */
export const LEVEL_WORK_PERCENT = 1;

/** The unit of work compared (the counter used, most direct first). */
export type WorkUnit = 'process-io' | 'sql-batch';

/** The disks' I/Os per unit of work, before vs after (`benefit.perWork`, docs/analyze-json.md). */
export interface PerWork {
  /** The work counter used: `process-io` (a process's IO Data Operations/sec, or its reads + writes), `sql-batch` (Batch Requests/sec); null without one. */
  unit: WorkUnit | null;
  /** The counter's instance (`_Total`, `SQLServer`). */
  instance: string | null;
  /** Units of work per second in each window (time-weighted mean over the window's work intervals). */
  workPerSecondBefore: number | null;
  workPerSecondAfter: number | null;
  /** Disk (backing) I/Os per second in each window: the "I/Os saved" comparison's own rates. */
  diskIosPerSecondBefore: number | null;
  diskIosPerSecondAfter: number | null;
  /** Disk I/Os per unit of work in each window. */
  diskIosPerWorkBefore: number | null;
  diskIosPerWorkAfter: number | null;
  /** (after ÷ before − 1) × 100 of the work per second: +75 = 75 % more work. */
  workChangePercent: number | null;
  /** (after ÷ before − 1) × 100 of the disk I/Os per second: −12 = 12 % fewer disk I/Os. */
  diskChangePercent: number | null;
  /** (1 − per-work after ÷ per-work before) × 100: the share of disk I/Os per unit of work saved. */
  savedPercent: number | null;
  /** True when the work changed by less than {@link LEVEL_WORK_PERCENT}. */
  workLevel: boolean | null;
  method: 'backing-ios-per-second-over-work-per-second';
  /** Why each null figure is null (keyed by the figure's name). */
  reasons: Reasons;
}

/** The rows of the work counter to compare: process I/O requests of `_Total` first, else SQL Server batches. */
function pickWork(rows: readonly WorkCounterRow[]): { unit: WorkUnit; instance: string; rows: WorkCounterRow[] } | null {
  const of = (name: string, inst?: string) => rows.filter((r) => r.name === name && (inst === undefined || r.instance === inst));
  const total = (name: string) => of(name, '_Total');
  const ops = total('io_ops_per_s');
  if (ops.length > 0) return { unit: 'process-io', instance: '_Total', rows: ops };
  const rw = [...total('io_reads_per_s'), ...total('io_writes_per_s')];
  if (rw.length > 0) return { unit: 'process-io', instance: '_Total', rows: rw };
  const batches = of('batches_per_s');
  const first = batches[0];
  if (first !== undefined) return { unit: 'sql-batch', instance: first.instance, rows: batches.filter((r) => r.instance === first.instance) };
  return null;
}

/**
 * Units of work per second over a window: Σ rate × overlap ÷ Σ overlap of the work intervals
 * that overlap it (the reads and writes of a process summed per interval); null when none does.
 *
 * @example
 * // two 15 s intervals at 200 and 300 per second inside the window
 * workRate(rows, window) // 250
 */
export function workRate(rows: readonly WorkCounterRow[], w: TimeWindow): number | null {
  let work = 0;
  const covered = new Map<number, number>();
  for (const r of rows) {
    const ms = Math.min(r.endMs, w.endMs) - Math.max(r.startMs, w.startMs);
    if (!(ms > 0)) continue;
    work += (r.ratePerSecond * ms) / 1000;
    covered.set(r.startMs, Math.max(covered.get(r.startMs) ?? 0, ms));
  }
  let ms = 0;
  for (const v of covered.values()) ms += v;
  return ms > 0 ? work / (ms / 1000) : null;
}

/**
 * The per-work figure from the work rows and the "I/Os saved" comparison's window aggregates
 * (`tb`, `tm`: AGG vectors of the baseline and measure windows).
 *
 * @example
 * // disks 100 → 88 I/O per s, work 200 → 350 per s
 * perWork(rows, wins, tb, tm) // { workChangePercent: 75, diskChangePercent: -12, savedPercent: 49.7…, … }
 */
export function perWork(rows: readonly WorkCounterRow[] | null | undefined, wins: { baseline: TimeWindow; measure: TimeWindow },
  tb: Float64Array, tm: Float64Array): PerWork {
  const diskRate = (v: Float64Array): number | null => {
    const sec = v[AGG.bSec] as number;
    return sec > 0 ? ((v[AGG.bReads] as number) + (v[AGG.bWrites] as number)) / sec : null;
  };
  const db = diskRate(tb), da = diskRate(tm);
  const picked = rows === null || rows === undefined ? null : pickWork(rows);
  const wb = picked === null ? null : workRate(picked.rows, wins.baseline);
  const wa = picked === null ? null : workRate(picked.rows, wins.measure);
  const per = (d: number | null, w: number | null): number | null => (d === null || w === null || !(w > 0) ? null : d / w);
  const pb = per(db, wb), pa = per(da, wa);
  const change = (b: number | null, a: number | null): number | null => (b === null || a === null || !(b > 0) ? null : (a / b - 1) * 100);
  const workChangePercent = change(wb, wa);
  const out: PerWork = {
    unit: picked?.unit ?? null, instance: picked?.instance ?? null,
    workPerSecondBefore: wb, workPerSecondAfter: wa, diskIosPerSecondBefore: db, diskIosPerSecondAfter: da,
    diskIosPerWorkBefore: pb, diskIosPerWorkAfter: pa, workChangePercent, diskChangePercent: change(db, da),
    savedPercent: pb === null || pa === null || !(pb > 0) ? null : (1 - pa / pb) * 100,
    workLevel: workChangePercent === null ? null : Math.abs(workChangePercent) < LEVEL_WORK_PERCENT,
    method: 'backing-ios-per-second-over-work-per-second', reasons: {},
  };
  // why each absent figure is absent: no work counter in the log, a window without work or disk
  // data, or no work (a zero denominator)
  const zero = (wb !== null && !(wb > 0)) || (wa !== null && !(wa > 0));
  const why: NullReason = picked === null ? 'not-reported' : zero ? 'zero-denominator' : 'no-data';
  for (const [k, v] of Object.entries(out)) {
    if (v === null) out.reasons[k] = k.startsWith('disk') && !k.includes('Work') ? 'no-data' : why;
  }
  return out;
}
