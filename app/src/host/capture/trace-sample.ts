/**
 * Which stored block requests a sampled trace's estimates use (docs/probe.md § Trace budget):
 * under a budget the recorder lowers the SHARDS hash threshold as the trace grows, so the rows
 * written before the last change include blocks above the final threshold; only the rows below it
 * form one uniform spatial sample at the final rate. The hash is the probe's
 * (native/crates/trace/src/sampling.rs `hash_of`): splitmix64 of `device id << 44 | sector / 8`,
 * mod 2^24.
 */
import type Database from 'better-sqlite3';

const M64 = 0xffffffffffffffffn;

/** splitmix64 (native/crates/sim/src/stack.rs `mix`). */
function mix64(x: bigint): bigint {
  let z = (x + 0x9e3779b97f4a7c15n) & M64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

/** The probe's sampling hash of a stored request (its device id in the capture, first 512-byte sector), 0 ≤ h < 2^24. */
export function sampleHash(deviceId: number, sector: number): number {
  const key = (BigInt(deviceId) << 44n) | ((BigInt(Math.floor(sector / 8))) & ((1n << 44n) - 1n));
  return Number(mix64(key) & 0xffffffn);
}

/** The final threshold and the last change of a budgeted trace, or null when every stored row is in the sample (no change of rate). */
export interface FinalSample {
  /** Out of 2^24. */
  threshold: number;
  /** CLOCK_MONOTONIC ns of the last change: rows issued at or after it were kept by the final threshold. */
  lastChangeNs: number;
}

/** What a capture's rows must pass to be in the uniform sample at the final rate; null when all are. */
export function finalSampleOf(db: Database.Database, meta: Record<string, string>): FinalSample | null {
  const threshold = Number(meta['trace_sample_threshold']);
  if (!Number.isInteger(threshold) || threshold <= 0 || threshold >= 2 ** 24) return null;
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trace_sample_rates'").pluck().get();
  if (table === undefined) return null;
  const last = db.prepare('SELECT max(mono_ns) FROM trace_sample_rates').pluck().get() as number | null;
  return last === null ? null : { threshold, lastChangeNs: last };
}
