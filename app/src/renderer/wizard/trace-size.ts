/**
 * The Plan step's sentence on the block trace's size (shared/estimate.ts for the model): under a
 * budget, the most the trace takes over the plan, its latency histograms, and the share of block
 * addresses the full trace would leave at two example rates; without one, the full trace at those
 * rates. Pure (no DOM), so that tests check it as the wizard shows it.
 */
import { plannedRunSeconds, sharePercent, traceBudgetMaxBytes } from '@cacheproof/engine';
import { latencyHistogramBytes, TRACE_BYTES_PER_REQUEST, traceBytes, traceUnderBudget } from '../../shared/estimate.ts';
import { fmtNumber, fmtPercent } from '../../shared/i18n/numbers.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import type { WizardKey } from '../../shared/i18n/wizard.ts';
import { chosenDevices, durationSeconds, type Draft } from './state.ts';
import { fmtBytes } from '../../shared/units.ts';

type Words = (key: WizardKey, params?: Record<string, string | number>) => string;

/** Average I/O rates the trace size is given at (the rate is not known before recording). */
const TRACE_IOPS_EXAMPLES = [1000, 10_000] as const;

/** The plan's recorded seconds (baseline + warm-up + measure), or null while a duration is invalid. */
function planSeconds(d: Draft): number | null {
  const b = durationSeconds(d.baseline, 1);
  const wu = durationSeconds(d.warmup, 0);
  const m = durationSeconds(d.measure, 1);
  return b.ok && wu.ok && m.ok ? plannedRunSeconds({ baselineSeconds: b.seconds, warmupSeconds: wu.seconds, measureSeconds: m.seconds }) : null;
}

/**
 * What a block trace adds to the capture for this draft (shared/estimate.ts): under a budget, at
 * most the budget's share of the plan, the latency histograms, and the share of block addresses
 * the full trace would leave at two example rates; without one, the full trace at those rates.
 * Null while a duration is invalid.
 */
export function traceSizeText(w: Words, lang: Lang, d: Draft): string | null {
  const seconds = planSeconds(d);
  if (seconds === null) return null;
  const [low, high] = TRACE_IOPS_EXAMPLES;
  if (d.traceBudget !== null) {
    const lo = traceUnderBudget(low, seconds, d.traceBudget);
    const hi = traceUnderBudget(high, seconds, d.traceBudget);
    const devices = chosenDevices(d).length;
    const shareLow = sharePercent(lo.keptShare);
    const shareHigh = sharePercent(hi.keptShare);
    return w('plan.traceSizeBudget', {
      budget: fmtBytes(lang, d.traceBudget),
      max: fmtBytes(lang, traceBudgetMaxBytes(d.traceBudget, seconds)),
      perRequest: fmtNumber(lang, TRACE_BYTES_PER_REQUEST),
      hist: fmtBytes(lang, latencyHistogramBytes(devices > 0 ? devices : 1, seconds, d.intervalMs)),
      low: fmtNumber(lang, low),
      high: fmtNumber(lang, high),
      sizeLow: fmtBytes(lang, lo.fullBytes),
      sizeHigh: fmtBytes(lang, hi.fullBytes),
      shareLow: fmtPercent(lang, shareLow.percent, shareLow.digits),
      shareHigh: fmtPercent(lang, shareHigh.percent, shareHigh.digits),
    });
  }
  return w('plan.traceSize', {
    perRequest: fmtNumber(lang, TRACE_BYTES_PER_REQUEST),
    low: fmtNumber(lang, low),
    high: fmtNumber(lang, high),
    sizeLow: fmtBytes(lang, traceBytes(low, seconds)),
    sizeHigh: fmtBytes(lang, traceBytes(high, seconds)),
  });
}
