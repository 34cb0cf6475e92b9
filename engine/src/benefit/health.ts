import type { Series } from '../metrics/series.ts';
import type { Reasons } from '../metrics/summary.ts';
import { isoUtc } from '../records/window.ts';
import { HOUR_MS } from './windows.ts';

/** Average-latency targets, ms. A target that is absent is not checked. */
export interface LatencyTargets {
  readMs?: number;
  writeMs?: number;
  /** Reads and writes together. */
  transferMs?: number;
  /**
   * A warning level below the targets (Microsoft PAL's rule: warn above 15 ms, critical above
   * 25 ms): a window whose average of any checked kind is at or above it is graded `warning`
   * even when it meets the targets.
   */
  warnMs?: number;
}

/** Published target sets (see DOMAIN.md "Published latency targets"). */
export const TARGET_PRESETS = {
  /** Exchange database: reads and writes < 20 ms each (EMC VSPEX sizing; was reads only). */
  'exchange-db': { readMs: 20, writeMs: 20 },
  /** Exchange log: writes < 10 ms. */
  'exchange-log': { writeMs: 10 },
  /** SQL Server data files: reads < 10 ms, writes < 5 ms, transfers < 10 ms. */
  'sqlserver-data': { readMs: 10, writeMs: 5, transferMs: 10 },
  /** SQL Server log files: writes < 5 ms. */
  'sqlserver-log': { writeMs: 5 },
  /** SharePoint content database: reads and writes < 20 ms each (EMC VSPEX sizing; was transfers < 20 ms). */
  sharepoint: { readMs: 20, writeMs: 20 },
  /** Generic: reads and writes < 20 ms. */
  generic: { readMs: 20, writeMs: 20 },
  /** Microsoft PAL (Performance Analysis of Logs) disk thresholds: read and write averages warn at 15 ms, are critical at 25 ms. */
  pal: { readMs: 25, writeMs: 25, warnMs: 15 },
} as const satisfies Record<string, LatencyTargets>;

export type TargetPreset = keyof typeof TARGET_PRESETS;

/** Where each preset's numbers come from (a citation, shown as is; docs/metrics.md § Health). */
export const TARGET_SOURCES: Record<TargetPreset, string> = {
  'exchange-db': 'EMC VSPEX (Exchange database: reads and writes < 20 ms)',
  'exchange-log': 'Microsoft Exchange storage guidance (log writes < 10 ms)',
  'sqlserver-data': 'Microsoft SQL Server guidance (data: reads < 10 ms, writes < 5 ms, transfers < 10 ms)',
  'sqlserver-log': 'no published source found here: kept from the earlier preset (log writes < 5 ms)',
  sharepoint: 'EMC VSPEX (SharePoint content database: reads and writes < 20 ms)',
  generic: 'Dell Live Optics (< 20 ms acceptable)',
  pal: 'Microsoft PAL (warning > 15 ms, critical > 25 ms)',
};

/** A run of consecutive intervals that break a target. */
export interface BreakingSpan {
  start: string;
  end: string;
  /** Worst interval value in the span, ms. */
  worstMs: number;
  intervals: number;
}

export interface HealthCheck {
  metric: 'read' | 'write' | 'transfer';
  targetMs: number;
  /** Window average (I/O-weighted), ms. */
  averageMs: number | null;
  /** averageMs < targetMs. */
  meetsTarget: boolean | null;
  /** Intervals with at least one I/O of the kind. */
  intervalsChecked: number;
  /** Intervals whose own average is ≥ the target. */
  intervalsBreaking: number;
  breakingPercent: number | null;
  /** Start (ISO, UTC) of each clock hour whose average breaks the target. */
  hoursBreaking: string[];
  /** Up to {@link MAX_SPANS} runs of breaking intervals, in time order. */
  spans: BreakingSpan[];
  /** Number of breaking runs in all (spans may be cut). */
  spansTotal: number;
  /** The worst interval average of all breaking runs (not only the {@link MAX_SPANS} listed), ms; null when none breaks (reason `none-breaking`). */
  worstMs: number | null;
  reasons: Reasons;
}

/** Grade of a window: `bad` when any average breaks its target, `warning` when more than 5% of intervals break one or an average reaches the targets' `warnMs`, else `good`; `no-data` when nothing was checked. */
export type HealthGrade = 'good' | 'warning' | 'bad' | 'no-data';

export interface HealthWindow {
  grade: HealthGrade;
  checks: HealthCheck[];
}

/** Most breaking spans listed per check. */
export const MAX_SPANS = 50;
/** Share of breaking intervals above which a window whose average passes is graded `warning`, percent. */
export const WARNING_BREAKING_PERCENT = 5;

/**
 * Resolves a preset name or user targets into targets, or null for an unknown preset name.
 *
 * @example
 * resolveTargets('sqlserver-data') // { readMs: 10, writeMs: 5, transferMs: 10 }
 * resolveTargets({ readMs: 8 })    // { readMs: 8 }
 */
export function resolveTargets(t: TargetPreset | LatencyTargets | string): LatencyTargets | null {
  if (typeof t === 'string') return (TARGET_PRESETS as Record<string, LatencyTargets>)[t] ?? null;
  return t;
}

/** What one pass over a series' intervals finds for one target (see {@link gradeHealth}). */
interface IntervalScan {
  ms: number;
  ios: number;
  checked: number;
  breaking: number;
  /** Σ time and Σ I/Os per UTC clock hour (hour number → [ms, ios]), in the order the hours first appear. */
  hourMs: Map<number, [number, number]>;
  spans: BreakingSpan[];
  spansTotal: number;
  worstMs: number | null;
}

/**
 * The pass over a series' `ok` intervals for one target: in a function of its own, so that the
 * engine's first analysis in a process (a dashboard's first open) runs it optimized after its
 * first call: inside gradeHealth, the code after the loop, not yet run, threw the optimized loop
 * back to the interpreter at each of the six loops of an analysis (V8 --trace-deopt: "insufficient
 * type feedback"), about 120 ms of a cold open against 12 ms warm.
 */
function scanIntervals(s: Series, metric: HealthCheck['metric'], target: number): IntervalScan {
  let ms = 0, ios = 0, checked = 0, breaking = 0;
  const hourMs = new Map<number, [number, number]>();
  const spans: BreakingSpan[] = [];
  let spansTotal = 0;
  let worstMs: number | null = null;
  let open: BreakingSpan | null = null;
  // the open span's end, written as text when the span closes (not at every interval it grows by)
  let openEndMs = 0;
  let lastBreak = -1;
  // the hour the last interval fell in (consecutive intervals share one: one Map look-up per hour)
  let lastHour = NaN;
  let hv: [number, number] = [0, 0];
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    const r = s.reads[i] as number, w = s.writes[i] as number;
    const rt = s.readTimeMs[i] as number, wt = s.writeTimeMs[i] as number;
    const n = metric === 'read' ? r : metric === 'write' ? w : r + w;
    const t = metric === 'read' ? rt : metric === 'write' ? wt : rt + wt;
    if (!(n > 0) || Number.isNaN(t)) continue;
    ms += t;
    ios += n;
    checked++;
    const hour = Math.floor((s.startMs[i] as number) / HOUR_MS);
    if (hour !== lastHour) {
      const known = hourMs.get(hour);
      lastHour = hour;
      if (known === undefined) { hourMs.set(hour, (hv = [t, n])); } else { hv = known; hv[0] += t; hv[1] += n; }
    } else { hv[0] += t; hv[1] += n; }
    const v = t / n;
    if (v >= target) {
      breaking++;
      if (worstMs === null || v > worstMs) worstMs = v;
      if (open !== null && lastBreak === i - 1) {
        open.intervals++;
        if (v > open.worstMs) open.worstMs = v;
      } else {
        if (open !== null) open.end = isoUtc(openEndMs);
        spansTotal++;
        open = { start: isoUtc(s.startMs[i] as number), end: '', worstMs: v, intervals: 1 };
        if (spans.length < MAX_SPANS) spans.push(open);
      }
      openEndMs = s.endMs[i] as number;
      lastBreak = i;
    }
  }
  if (open !== null) open.end = isoUtc(openEndMs);
  return { ms, ios, checked, breaking, hourMs, spans, spansTotal, worstMs };
}

/**
 * Grades a series (the application-facing group over one window) against latency targets:
 * for each target (read → r_await, write → w_await, transfer → await), the window average
 * (Σ time / Σ I/Os), every interval with I/O of that kind whose own average is ≥ the target,
 * runs of such intervals, and the UTC clock hours whose hourly average is ≥ the target.
 * A target is met when the average is strictly below it.
 *
 * @example
 * gradeHealth(frontSeries, { readMs: 20 })
 * // { grade: 'warning', checks: [{ metric: 'read', targetMs: 20, averageMs: 12.1, meetsTarget: true,
 * //   intervalsChecked: 86400, intervalsBreaking: 5200, breakingPercent: 6.02, hoursBreaking: ['…T14:00:00.000Z'], … }] }
 */
export function gradeHealth(s: Series, targets: LatencyTargets): HealthWindow {
  const checks: HealthCheck[] = [];
  const defs: [HealthCheck['metric'], number | undefined][] = [
    ['read', targets.readMs], ['write', targets.writeMs], ['transfer', targets.transferMs],
  ];
  for (const [metric, target] of defs) {
    if (target === undefined) continue;
    const { ms, ios, checked, breaking, hourMs, spans, spansTotal, worstMs } = scanIntervals(s, metric, target);
    const hoursBreaking = [...hourMs.entries()]
      .filter(([, [t, n]]) => t / n >= target)
      .map(([h]) => h)
      .sort((a, b) => a - b)
      .map((h) => isoUtc(h * HOUR_MS));
    const reasons: Reasons = {};
    const averageMs = ios > 0 ? ms / ios : null;
    const noneReason = metric === 'read' ? 'no-reads' : metric === 'write' ? 'no-writes' : 'no-io';
    if (averageMs === null) { reasons.averageMs = noneReason; reasons.meetsTarget = noneReason; reasons.breakingPercent = noneReason; }
    if (worstMs === null) reasons.worstMs = averageMs === null ? noneReason : 'none-breaking';
    checks.push({
      metric, targetMs: target, averageMs, meetsTarget: averageMs === null ? null : averageMs < target,
      intervalsChecked: checked, intervalsBreaking: breaking,
      breakingPercent: checked > 0 ? (breaking / checked) * 100 : null,
      hoursBreaking, spans, spansTotal, worstMs, reasons,
    });
  }
  return { grade: gradeOfChecks(checks, targets), checks };
}

/**
 * The grade of a window from its checks (the rule {@link HealthGrade} states): `bad` when an
 * average breaks its target, `warning` when more than {@link WARNING_BREAKING_PERCENT} % of a
 * check's intervals break it or an average reaches `warnMs`, else `good`; `no-data` when no
 * check has an average. Pure.
 *
 * @example gradeOfChecks([{ averageMs: 12, meetsTarget: true, breakingPercent: 6 }], { readMs: 20 }) // 'warning'
 */
export function gradeOfChecks(checks: readonly Pick<HealthCheck, 'averageMs' | 'meetsTarget' | 'breakingPercent'>[], targets: LatencyTargets): HealthGrade {
  const graded = checks.filter((c) => c.averageMs !== null);
  if (graded.length === 0) return 'no-data';
  if (graded.some((c) => c.meetsTarget === false)) return 'bad';
  if (graded.some((c) => (c.breakingPercent ?? 0) > WARNING_BREAKING_PERCENT)) return 'warning';
  if (targets.warnMs !== undefined && graded.some((c) => (c.averageMs as number) >= (targets.warnMs as number))) return 'warning';
  return 'good';
}
