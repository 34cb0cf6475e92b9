/**
 * The words of a change in average response time, for every place that says it: the dashboard's
 * card, the report's figures table, card and summary, and `cacheproof analyze`. One rule, so a
 * response time that rose is "increased by 50 %, 1.5× slower" everywhere, never "−50 % lower,
 * 0.67× faster".
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Val } from './types.ts';
import { empty, msgv, pct, sig } from './values.ts';

/** Text keys of a response-time change; part of REPORT_KEYS (keys.ts). */
export const LATENCY_CHANGE_KEYS = ['lat.lower', 'lat.higher', 'lat.same'] as const;
export type LatencyChangeKey = (typeof LATENCY_CHANGE_KEYS)[number];

/**
 * A change below this many percent is "unchanged": it would print as 0.0 % (percents are shown
 * with one decimal).
 */
export const SAME_LATENCY_PERCENT = 0.05;

/** What to say of a response-time change: the key and its values (both positive, never −50 %). */
export interface LatencyChange {
  key: LatencyChangeKey;
  /** How much lower (`lat.lower`) or higher (`lat.higher`) the response time is, in percent; 0 when unchanged. */
  percent: number;
  /** How many times faster (`lat.lower`) or slower (`lat.higher`), ≥ 1; 1 when unchanged. */
  factor: number;
}

/**
 * The change of the average response time, from the engine's reduction (percent, (before −
 * after) ÷ before × 100) and speed-up (before ÷ after). Lower: `lat.lower` with the reduction
 * and the speed-up; higher: `lat.higher` with the increase (−reduction) and the slow-down
 * (1 ÷ speed-up); under {@link SAME_LATENCY_PERCENT} either way: `lat.same`. Null when either
 * figure is absent or the speed-up is not positive.
 * Example: 2 ms → 3 ms (reduction −50 %, speed-up 0.667) → `{ key: 'lat.higher', percent: 50, factor: 1.5 }`.
 */
export function latencyChange(l: Pick<AnalysisReport['benefit']['latencyMs'], 'reductionPercent' | 'speedup'>): LatencyChange | null {
  const r = l.reductionPercent, s = l.speedup;
  if (r === null || s === null || !(s > 0) || !Number.isFinite(r) || !Number.isFinite(s)) return null;
  if (Math.abs(r) < SAME_LATENCY_PERCENT) return { key: 'lat.same', percent: 0, factor: 1 };
  return r > 0 ? { key: 'lat.lower', percent: r, factor: s } : { key: 'lat.higher', percent: -r, factor: 1 / s };
}

/** {@link latencyChange} as the report model's text (empty when there is no change to tell). */
export function latencyChangeVal(l: Pick<AnalysisReport['benefit']['latencyMs'], 'reductionPercent' | 'speedup'>): Val {
  const c = latencyChange(l);
  return c === null ? empty : msgv(c.key, { percent: pct(c.percent), factor: sig(c.factor) });
}
