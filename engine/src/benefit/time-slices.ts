/**
 * PAL-style time slices (Microsoft Performance Analysis of Logs): the profiled window cut into
 * slices of one length, chosen from the log's length; in each slice, each counted device's
 * I/O-weighted read and write response time against a warning and a critical level; per device and
 * counter the slices in each state and the longest run; the runs as a chronological alerts list.
 * A window average hides a sustained episode (an hour of 40 ms reads in three days of 5 ms averages
 * 5.5 ms, and its 1.4 % of breaking intervals stays under the 5 % warning share): the slices show
 * it, and a critical run of {@link CRITICAL_RUN_MS} or more makes the profile's grade `bad`. Pure.
 */
import type { Series } from '../metrics/series.ts';
import type { LatencyTargets } from './health.ts';

/** Slice lengths the rule picks from, ms: 1, 5, 10, 15, 30 min, 1, 2, 4, 6, 12 h, 1 day. */
export const SLICE_LENGTHS_MS = [1, 5, 10, 15, 30, 60, 120, 240, 360, 720, 1440].map((m) => m * 60_000);
/** At most this many slices: the shortest length that keeps the window within it is chosen. */
export const MAX_SLICES = 72;
/** A critical run this long or longer makes the grade `bad`, whatever the window's averages, ms (30 min). */
export const CRITICAL_RUN_MS = 30 * 60_000;
/** Without a warning level of its own, a preset warns at this share of its target (PAL's 15 of 25 ms is 60 %). */
export const WARN_SHARE = 0.6;

export type SliceCounter = 'read' | 'write';
export type SliceLevel = 'ok' | 'warning' | 'critical';

/** One device and counter over the slices. */
export interface SliceRow {
  device: string;
  counter: SliceCounter;
  warnMs: number;
  criticalMs: number;
  /** Per slice: the I/O-weighted average, ms (null: no I/O of the kind in it). */
  averageMs: (number | null)[];
  /** Per slice: its state (null: no I/O). */
  level: (SliceLevel | null)[];
  checked: number;
  warning: number;
  critical: number;
  /** The longest run of slices at warning or worse, in slices and minutes (0 when none). */
  longestRunSlices: number;
  longestRunMinutes: number;
}

/** One run of consecutive slices at warning or worse, for one device and counter. */
export interface SliceAlert {
  device: string;
  counter: SliceCounter;
  /** The worst state in the run. */
  level: 'warning' | 'critical';
  startMs: number;
  endMs: number;
  /** The worst slice average in the run, ms. */
  worstMs: number;
  slices: number;
}

export interface TimeSlices {
  /** The slice length, ms, and the rule that chose it: the shortest of {@link SLICE_LENGTHS_MS} that keeps the window within {@link MAX_SLICES} slices. */
  sliceMs: number;
  /** Slice k covers [startMs + k × sliceMs, + sliceMs), aligned to the slice length in UTC. */
  startMs: number;
  slices: number;
  rows: SliceRow[];
  /** Every run, in time order (then device, counter). */
  alerts: SliceAlert[];
  /** The longest critical run of any device, ms (0 when none): {@link CRITICAL_RUN_MS} or more makes the grade `bad`. */
  longestCriticalMs: number;
}

/**
 * The slice length for a window: the shortest standard length that keeps it within
 * {@link MAX_SLICES} slices (the last length when none does).
 *
 * @example
 * sliceLengthMs(3 * 86_400_000) // 3_600_000 (72 one-hour slices)
 * sliceLengthMs(600_000)        // 60_000
 */
export function sliceLengthMs(windowMs: number): number {
  return SLICE_LENGTHS_MS.find((l) => Math.ceil(windowMs / l) <= MAX_SLICES) ?? (SLICE_LENGTHS_MS[SLICE_LENGTHS_MS.length - 1] as number);
}

/** The warning and critical levels of a counter from the targets: critical at the target, warning at `warnMs` or {@link WARN_SHARE} of it; null when the preset has no target for it (a transfer target serves both). */
export function sliceLevels(targets: LatencyTargets, counter: SliceCounter): { warnMs: number; criticalMs: number } | null {
  const target = (counter === 'read' ? targets.readMs : targets.writeMs) ?? targets.transferMs;
  if (target === undefined) return null;
  const warn = targets.warnMs !== undefined && targets.warnMs < target ? targets.warnMs : target * WARN_SHARE;
  return { warnMs: warn, criticalMs: target };
}

function levelOf(v: number, warnMs: number, criticalMs: number): SliceLevel {
  return v >= criticalMs ? 'critical' : v >= warnMs ? 'warning' : 'ok';
}

/** One device's read or write averages per slice. */
function averages(s: Series, counter: SliceCounter, startMs: number, sliceMs: number, slices: number): (number | null)[] {
  const ms = new Float64Array(slices), ios = new Float64Array(slices);
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const n = (counter === 'read' ? s.reads[i] : s.writes[i]) as number;
    const t = (counter === 'read' ? s.readTimeMs[i] : s.writeTimeMs[i]) as number;
    if (!(n > 0) || Number.isNaN(t)) continue;
    const k = Math.floor(((s.startMs[i] as number) - startMs) / sliceMs);
    if (k < 0 || k >= slices) continue;
    ms[k] = (ms[k] as number) + t;
    ios[k] = (ios[k] as number) + n;
  }
  return Array.from(ms, (t, k) => ((ios[k] as number) > 0 ? t / (ios[k] as number) : null));
}

/** The runs of slices at warning or worse of one row, as alerts. */
function runsOf(row: SliceRow, startMs: number, sliceMs: number): SliceAlert[] {
  const out: SliceAlert[] = [];
  let open: SliceAlert | null = null;
  row.level.forEach((lv, k) => {
    const v = row.averageMs[k];
    if (lv === 'warning' || lv === 'critical') {
      if (open === null) {
        open = { device: row.device, counter: row.counter, level: lv, startMs: startMs + k * sliceMs, endMs: startMs + (k + 1) * sliceMs, worstMs: v as number, slices: 1 };
        out.push(open);
      } else {
        open.endMs += sliceMs;
        open.slices += 1;
        if (lv === 'critical') open.level = 'critical';
        if ((v as number) > open.worstMs) open.worstMs = v as number;
      }
    } else open = null;
  });
  return out;
}

/**
 * The time slices of the counted devices over a window (module note): `devices` maps each counted
 * device to its series over the window.
 *
 * @example
 * const t = timeSlices([['sda', series]], window, { readMs: 20, writeMs: 20 });
 * t.alerts // [{ device: 'sda', counter: 'read', level: 'critical', startMs: …, endMs: …, worstMs: 40, slices: 1 }]
 */
export function timeSlices(devices: readonly (readonly [string, Series])[], window: { startMs: number; endMs: number }, targets: LatencyTargets): TimeSlices {
  const sliceMs = sliceLengthMs(window.endMs - window.startMs);
  const startMs = Math.floor(window.startMs / sliceMs) * sliceMs;
  const slices = Math.max(1, Math.ceil((window.endMs - startMs) / sliceMs));
  const rows: SliceRow[] = [];
  for (const [device, s] of devices) {
    for (const counter of ['read', 'write'] as const) {
      const lv = sliceLevels(targets, counter);
      if (lv === null) continue;
      const averageMs = averages(s, counter, startMs, sliceMs, slices);
      const level = averageMs.map((v) => (v === null ? null : levelOf(v, lv.warnMs, lv.criticalMs)));
      const row: SliceRow = {
        device, counter, warnMs: lv.warnMs, criticalMs: lv.criticalMs, averageMs, level,
        checked: level.filter((x) => x !== null).length,
        warning: level.filter((x) => x === 'warning').length,
        critical: level.filter((x) => x === 'critical').length,
        longestRunSlices: 0, longestRunMinutes: 0,
      };
      const runs = runsOf(row, startMs, sliceMs);
      row.longestRunSlices = runs.reduce((m, r) => Math.max(m, r.slices), 0);
      row.longestRunMinutes = (row.longestRunSlices * sliceMs) / 60_000;
      rows.push(row);
    }
  }
  const alerts = rows.flatMap((r) => runsOf(r, startMs, sliceMs))
    .sort((a, b) => a.startMs - b.startMs || a.device.localeCompare(b.device) || a.counter.localeCompare(b.counter));
  // the longest stretch of consecutive critical slices of any row
  let longestCriticalMs = 0;
  for (const r of rows) {
    let run = 0;
    for (const lv of r.level) {
      run = lv === 'critical' ? run + 1 : 0;
      longestCriticalMs = Math.max(longestCriticalMs, run * sliceMs);
    }
  }
  return { sliceMs, startMs, slices, rows, alerts, longestCriticalMs };
}
