/**
 * Figures of a recording plan and its progress that the Live and Home screens show (issue 38:
 * computed here, not in the renderer): the planned length, the planned end, each phase's share of
 * the timeline, the clock time an estimate ends, a percent held to 0–100, and how a sampled
 * share is printed.
 */

/** The recorded windows of a plan, in seconds. */
export interface PlanWindows {
  baselineSeconds: number;
  warmupSeconds: number;
  measureSeconds: number;
}

/** Baseline + warm-up + measure, in seconds (the switch takes no planned time). */
export function plannedRunSeconds(p: PlanWindows): number {
  return p.baselineSeconds + p.warmupSeconds + p.measureSeconds;
}

/** When a run started at `startedMs` ends as planned (epoch ms), or null before it started. */
export function plannedEndMs(startedMs: number | null, p: PlanWindows): number | null {
  return startedMs === null ? null : startedMs + plannedRunSeconds(p) * 1000;
}

/**
 * Each window's width on the timeline, in tenths of the planned run (grid `fr` units summing to
 * 10; a plan of no time counts as 1 s so that no width is NaN).
 */
export function phaseWidths(p: PlanWindows): { baseline: number; warmup: number; measure: number } {
  const total = Math.max(1, plannedRunSeconds(p));
  return {
    baseline: (p.baselineSeconds / total) * 10,
    warmup: (p.warmupSeconds / total) * 10,
    measure: (p.measureSeconds / total) * 10,
  };
}

/** The clock time (epoch ms) an estimate of `etaSeconds` from `nowMs` ends at. */
export function etaEndMs(nowMs: number, etaSeconds: number): number {
  return nowMs + etaSeconds * 1000;
}

/** A percent held to 0–100 (a progress bar's value). */
export function clampPercent(percent: number): number {
  return Math.min(100, Math.max(0, percent));
}

/** A share (0–1) as the percent printed and its decimals: two below 10 %, else one. */
export function sharePercent(share: number): { percent: number; digits: number } {
  return { percent: share * 100, digits: share < 0.1 ? 2 : 1 };
}

/** The sum of some durations, in seconds (the plan's windows as typed). */
export function totalSeconds(seconds: readonly number[]): number {
  let total = 0;
  for (const s of seconds) total += s;
  return total;
}
