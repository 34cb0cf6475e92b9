/**
 * The Planner's sensitivity charts as series: the tornado's bar ends (engine savingsSensitivity)
 * and the IOPS targets of the spindle chart. The screen draws these; it computes none.
 */
import type { SavingsSensitivity, TornadoBar } from './tornado.ts';

/**
 * One side of the tornado: per bar (largest swing first), the span from the savings as entered to
 * the savings with the input moved, low end first; `[base, base]` where that plan failed (null).
 * Example: base 100, savings at −20 % 60 → [60, 100]; at +20 % 130 → [100, 130].
 */
export function tornadoSide(sens: SavingsSensitivity, side: 'low' | 'high'): [number, number][] {
  const base = sens.baseSavingsUsd;
  const pick = (b: TornadoBar): number | null => (side === 'low' ? b.savingsLowUsd : b.savingsHighUsd);
  return sens.bars.map((b) => {
    const v = pick(b);
    return v === null ? [base, base] : [Math.min(base, v), Math.max(base, v)];
  });
}

/** The tornado's change, a fraction, as a percent. Example: 0.2 → 20. */
export function tornadoChangePct(sens: SavingsSensitivity): number {
  return sens.change * 100;
}

/** Today's IOPS target scaled by each factor, whole IOPS. Example: 20 000 × [0.5, 1, 2] → [10 000, 20 000, 40 000]. */
export function scaledIopsTargets(todayIops: number, factors: readonly number[]): number[] {
  return factors.map((f) => Math.round(todayIops * f));
}
