import type { Phase } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import type { AnalyzeFailure } from './errors.ts';
import { fail } from './errors.ts';

/** One hour, ms. */
export const HOUR_MS = 3_600_000;

/** How the warm-up length was chosen. */
export type WarmupSource = 'option' | 'recorded' | 'default-1h' | 'default-10pct';

export interface WindowOptions {
  /** Explicit baseline window (UTC epoch ms); otherwise the `baseline` phase. */
  baseline?: TimeWindow | undefined;
  /** Explicit measure window (UTC epoch ms); otherwise the `measure` phase. */
  measure?: TimeWindow | undefined;
  /** Warm-up after the switch to exclude, ms; otherwise the recorded `warmup` phase, else the default rule. */
  warmupMs?: number | undefined;
  /** Trim applied to both windows: the first `firstMs` and last `lastMs` are left out. */
  trim?: { firstMs?: number | undefined; lastMs?: number | undefined } | undefined;
}

export interface ResolvedWindows {
  baseline: TimeWindow;
  measure: TimeWindow;
  /** The moment of the switch, UTC epoch ms, or null when unknown (then the measure window's raw start stands in). */
  switchMs: number | null;
  warmupMs: number;
  warmupSource: WarmupSource;
  trimFirstMs: number;
  trimLastMs: number;
  source: { baseline: 'option' | 'phase'; measure: 'option' | 'phase' };
}

/**
 * The default warm-up for a measure span (switch → end of measure), ms: 1 hour, or 10% of
 * the span when the span is shorter than 10 hours (the two rules meet at 10 h).
 *
 * @example
 * defaultWarmupMs(24 * 3_600_000) // 3_600_000 (1 h)
 * defaultWarmupMs(2 * 3_600_000)  // 720_000   (12 min = 10% of 2 h)
 */
export function defaultWarmupMs(measureSpanMs: number): number {
  return measureSpanMs >= 10 * HOUR_MS ? HOUR_MS : Math.max(0, measureSpanMs) / 10;
}

const finite = (w: TimeWindow | undefined): boolean => w === undefined || (Number.isFinite(w.startMs) && Number.isFinite(w.endMs));

/**
 * Resolves the baseline and measure windows from options and phases:
 * - baseline = option, else the `baseline` phase (a running phase ends at `dataEndMs`);
 * - switch = the `switch` phase start, else the `warmup` phase start, else the `measure` phase start,
 *   else the explicit measure window's start;
 * - measure raw span = option, else the `measure` phase, else from the `warmup`/`switch` phase to `dataEndMs`;
 * - warm-up = option, else the recorded `warmup` phase length, else {@link defaultWarmupMs} of (measure end − switch);
 * - measure start = max(raw start + trim.first, switch + warm-up); both windows end at raw end − trim.last,
 *   baseline starts at raw start + trim.first.
 * Errors: `no-baseline`, `no-measure`, `invalid-option`, `empty-window`, `windows-overlap`.
 *
 * @example
 * // phases baseline 00:00–24:00, switch 24:00, measure 24:00–48:00, no options
 * resolveWindows(phases, {}, t48h) // measure = 25:00–48:00, warmupMs 3_600_000, warmupSource 'default-1h'
 */
export function resolveWindows(phases: readonly Phase[], options: WindowOptions, dataEndMs: number): ResolvedWindows | AnalyzeFailure {
  const trimFirstMs = options.trim?.firstMs ?? 0;
  const trimLastMs = options.trim?.lastMs ?? 0;
  if (!finite(options.baseline) || !finite(options.measure) || !(trimFirstMs >= 0) || !(trimLastMs >= 0) ||
      (options.warmupMs !== undefined && !(options.warmupMs >= 0 && Number.isFinite(options.warmupMs)))) {
    return fail('invalid-option', 'A window time, the warm-up or the trim is not a finite, non-negative number.');
  }
  const phase = (name: string): Phase | undefined => phases.find((p) => p.name === name);
  const baselinePhase = phase('baseline');
  const switchPhase = phase('switch');
  const warmupPhase = phase('warmup');
  const measurePhase = phase('measure');

  let baselineRaw: TimeWindow;
  if (options.baseline) baselineRaw = options.baseline;
  else if (baselinePhase) baselineRaw = { startMs: baselinePhase.startMs, endMs: baselinePhase.endMs ?? dataEndMs };
  else return fail('no-baseline', 'The capture has no baseline phase and no baseline window was given.');

  let measureRaw: TimeWindow;
  if (options.measure) measureRaw = options.measure;
  else if (measurePhase) measureRaw = { startMs: measurePhase.startMs, endMs: measurePhase.endMs ?? dataEndMs };
  else if (warmupPhase ?? switchPhase) measureRaw = { startMs: (warmupPhase ?? switchPhase as Phase).startMs, endMs: dataEndMs };
  else return fail('no-measure', 'The capture has no measure phase and no measure window was given.');

  const switchMs = switchPhase?.startMs ?? warmupPhase?.startMs ?? measurePhase?.startMs ?? options.measure?.startMs ?? null;
  const anchor = switchMs ?? measureRaw.startMs;

  let warmupMs: number;
  let warmupSource: WarmupSource;
  if (options.warmupMs !== undefined) {
    warmupMs = options.warmupMs;
    warmupSource = 'option';
  } else if (warmupPhase) {
    warmupMs = Math.max(0, (warmupPhase.endMs ?? measurePhase?.startMs ?? warmupPhase.startMs) - warmupPhase.startMs);
    warmupSource = 'recorded';
  } else {
    const span = measureRaw.endMs - anchor;
    warmupMs = defaultWarmupMs(span);
    warmupSource = span >= 10 * HOUR_MS ? 'default-1h' : 'default-10pct';
  }

  const baseline = { startMs: baselineRaw.startMs + trimFirstMs, endMs: baselineRaw.endMs - trimLastMs };
  const measure = {
    startMs: Math.max(measureRaw.startMs + trimFirstMs, anchor + warmupMs),
    endMs: measureRaw.endMs - trimLastMs,
  };
  if (!(baseline.endMs > baseline.startMs)) {
    return fail('empty-window', `The baseline window is empty after trimming (${isoUtc(baseline.startMs)} to ${isoUtc(baseline.endMs)}).`);
  }
  if (!(measure.endMs > measure.startMs)) {
    return fail('empty-window', `The measure window is empty after warm-up and trimming (${isoUtc(measure.startMs)} to ${isoUtc(measure.endMs)}).`);
  }
  if (baseline.startMs < measure.endMs && measure.startMs < baseline.endMs) {
    return fail('windows-overlap', 'The baseline and measure windows overlap; they must be disjoint.');
  }
  return {
    baseline, measure, switchMs, warmupMs, warmupSource, trimFirstMs, trimLastMs,
    source: { baseline: options.baseline ? 'option' : 'phase', measure: options.measure ? 'option' : 'phase' },
  };
}
