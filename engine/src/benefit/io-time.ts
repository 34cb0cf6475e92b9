/**
 * The backing drives' I/O time as the counters measured it in each window, the measured
 * counterpart of the Condusiv "I/O time saved" model ({@link ioTimeSaved} in figures.ts).
 *
 * The model multiplies the I/Os kept off the drives by the response time they had before; when the
 * I/Os that still reach the drives each take longer after the switch (the easy hits are gone, the
 * misses are the slow random reads), the model overstates the saving: on the bundled sample it
 * says 73 % less time, while the counters' summed I/O time fell by about 16 %. This module gives
 * what the counters say, and the headline uses it.
 */
import type { NullReason } from '../metrics/summary.ts';
import { AGG } from './aggregate.ts';

const at = (v: Float64Array, i: number): number => v[i] as number;

/** The backing drives' summed I/O time, measured in each window. */
export interface MeasuredIoTime {
  /** Seconds of I/O time per hour in the baseline (Σ service time of the backing drives' I/Os, summed over the drives). */
  beforePerHourSeconds: number | null;
  /** The same in the measure window. */
  afterPerHourSeconds: number | null;
  /** before − after, seconds per hour (negative: the drives spent more time on I/O after). */
  savedPerHourSeconds: number | null;
  /** savedPerHourSeconds ÷ beforePerHourSeconds × 100. */
  savedPercent: number | null;
  method: 'summed-io-time-per-hour';
  reasons: Partial<Record<'beforePerHourSeconds' | 'afterPerHourSeconds' | 'savedPerHourSeconds' | 'savedPercent', NullReason>>;
}

/**
 * Seconds of backing-drive I/O time per hour of one window: the window's average response time
 * (Σ read and write time ÷ Σ I/Os with a time) × its backing I/Os per second × 3600 ÷ 1000. Where
 * every interval reports its time this is exactly Σ time × 3600 ÷ the window's seconds; where some
 * do not, their I/Os are counted at the window's average. Null with its reason when the window has
 * no backing data or no I/O with a time.
 *
 * @example
 * // 7200 s, 720 000 I/Os that took 3 600 000 ms in all: 5 ms each, 100 per second → 1800 s per hour
 * ioTimePerHour(v) // { value: 1800 }
 */
export function ioTimePerHour(v: Float64Array): { value: number | null; reason?: NullReason } {
  const sec = at(v, AGG.bSec);
  if (!(sec > 0)) return { value: null, reason: 'no-data' };
  const ios = at(v, AGG.bReads) + at(v, AGG.bWrites);
  if (!(ios > 0)) return { value: 0 };
  const latIos = at(v, AGG.bLatIos);
  if (!(latIos > 0)) return { value: null, reason: 'not-reported' };
  const avgMs = at(v, AGG.bLatMs) / latIos;
  return { value: ((ios / sec) * avgMs * 3600) / 1000 };
}

/**
 * The backing drives' I/O time per hour before and after, and the difference: measured, not
 * modelled (see the module's note). Method `summed-io-time-per-hour`.
 *
 * @example
 * // 1800 s per hour of I/O time before, 1512 s after
 * measuredIoTime(base, meas) // { beforePerHourSeconds: 1800, afterPerHourSeconds: 1512, savedPerHourSeconds: 288, savedPercent: 16, … }
 */
export function measuredIoTime(baseline: Float64Array, measure: Float64Array): MeasuredIoTime {
  const b = ioTimePerHour(baseline), a = ioTimePerHour(measure);
  const reasons: MeasuredIoTime['reasons'] = {};
  if (b.reason !== undefined) reasons.beforePerHourSeconds = b.reason;
  if (a.reason !== undefined) reasons.afterPerHourSeconds = a.reason;
  const saved = b.value === null || a.value === null ? null : b.value - a.value + 0;
  if (saved === null) reasons.savedPerHourSeconds = b.reason ?? a.reason ?? 'no-data';
  const savedPercent = saved === null || b.value === null || !(b.value > 0) ? null : (saved / b.value) * 100 + 0;
  if (savedPercent === null) reasons.savedPercent = saved === null ? (reasons.savedPerHourSeconds ?? 'no-data') : 'zero-denominator';
  return { beforePerHourSeconds: b.value, afterPerHourSeconds: a.value, savedPerHourSeconds: saved, savedPercent, method: 'summed-io-time-per-hour', reasons };
}
