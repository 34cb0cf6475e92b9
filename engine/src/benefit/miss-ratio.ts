/**
 * The read miss ratio of a simulated cache, in percent: the one conversion from the probe's hit
 * ratios (its `sim/` module stores them in the capture) that the report's and the dashboard's
 * miss-ratio curves draw.
 */

/**
 * Read miss ratio in percent: 100 × (1 − read hit ratio). Example: 0.8 → 20.
 * A hit ratio of 1 gives 0 (never −0).
 */
export function readMissPercent(readHitRatio: number): number {
  return readHitRatio >= 1 ? 0 : 100 * (1 - readHitRatio);
}

/** A miss-ratio curve: each simulated cache size (bytes) with its {@link readMissPercent}. */
export function missRatioCurve(curve: readonly { bytes: number; readHitRatio: number }[]): { bytes: number; missPercent: number }[] {
  return curve.map((c) => ({ bytes: c.bytes, missPercent: readMissPercent(c.readHitRatio) }));
}
