/**
 * Synthetic captures for tests and benchmarks (not exported from the package): a baseline
 * window, a switch, a measure window, a front device and backing devices at a fixed step.
 */
import type { CaptureData, DeviceInfo, IntervalRecord, Phase } from '../records/types.ts';
import { mulberry32 } from './prng.ts';

export interface SynthOptions {
  /** UTC epoch ms of the baseline start; default 2026-01-01T00:00:00Z. */
  t0?: number;
  stepMs?: number;
  baselineS: number;
  measureS: number;
  /** Recorded warm-up phase, seconds (0 → no warmup phase). */
  warmupS?: number;
  /** Front device name, or null for a backing-only capture. */
  front?: string | null;
  backing?: string[];
  /** Other devices (idle, role other). */
  others?: string[];
  /** Front I/Os per second, baseline and measure. */
  iopsBefore?: number;
  iopsAfter?: number;
  readShare?: number;
  /** Bytes per request. */
  requestBytes?: number;
  /** Share of front I/O that reaches backing after the switch. */
  missRatio?: number;
  latBeforeMs?: number;
  latAfterMs?: number;
  /** Relative noise on counts and latency (0 = deterministic). */
  noise?: number;
  seed?: number;
}

export const T0 = Date.UTC(2026, 0, 1);

/** Builds a synthetic capture; see SynthOptions. Backing I/O splits evenly over backing devices. */
export function synthCapture(o: SynthOptions): CaptureData {
  const t0 = o.t0 ?? T0;
  const step = o.stepMs ?? 1000;
  const front = o.front === undefined ? 'loop0' : o.front;
  const backing = o.backing ?? ['sda'];
  const others = o.others ?? [];
  const rand = mulberry32(o.seed ?? 7);
  const noise = o.noise ?? 0;
  const jitter = (): number => 1 + noise * (rand() * 2 - 1);
  const readShare = o.readShare ?? 0.7;
  const reqBytes = o.requestBytes ?? 4096;
  const miss = o.missRatio ?? 0.05;
  const switchMs = t0 + o.baselineS * 1000;
  const warmupS = o.warmupS ?? 0;
  const endMs = switchMs + (warmupS + o.measureS) * 1000;
  const intervals: IntervalRecord[] = [];
  const rec = (device: string, s: number, reads: number, writes: number, latMs: number): IntervalRecord => ({
    device, startMs: s, endMs: s + step, intervalMs: step, status: 'ok',
    reads, writes, readBytes: reads * reqBytes, writeBytes: writes * reqBytes,
    readTimeMs: Math.round(reads * latMs), writeTimeMs: Math.round(writes * latMs),
    busyMs: Math.min(step, Math.round((reads + writes) * latMs)), weightedMs: Math.round((reads + writes) * latMs),
  });
  for (let s = t0; s + step <= endMs; s += step) {
    const after = s >= switchMs;
    const iops = after ? (o.iopsAfter ?? o.iopsBefore ?? 100) : (o.iopsBefore ?? 100);
    const n = Math.max(0, Math.round(iops * (step / 1000) * jitter()));
    const reads = Math.round(n * readShare), writes = n - reads;
    const lat = (after ? (o.latAfterMs ?? 0.5) : (o.latBeforeMs ?? 8)) * jitter();
    if (front !== null) intervals.push(rec(front, s, reads, writes, lat));
    const br = after ? Math.round(reads * miss * jitter()) : reads;
    const bw = after ? Math.round(writes * miss * jitter()) : writes;
    backing.forEach((b, i) => {
      const share = (x: number): number => Math.floor(x / backing.length) + (i < x % backing.length ? 1 : 0);
      intervals.push(rec(b, s, share(br), share(bw), o.latBeforeMs ?? 8));
    });
    for (const x of others) intervals.push(rec(x, s, 0, 0, 0));
  }
  const devices: DeviceInfo[] = [
    ...(front !== null ? [{ name: front, role: 'front' as const, sizeBytes: null, rotational: false, model: null }] : []),
    ...backing.map((name) => ({ name, role: 'backing' as const, sizeBytes: null, rotational: true, model: null })),
    ...others.map((name) => ({ name, role: 'other' as const, sizeBytes: null, rotational: null, model: null })),
  ];
  const phases: Phase[] = [
    { name: 'baseline', startMs: t0, endMs: switchMs },
    { name: 'switch', startMs: switchMs, endMs: switchMs },
    ...(warmupS > 0 ? [{ name: 'warmup', startMs: switchMs, endMs: switchMs + warmupS * 1000 }] : []),
    { name: 'measure', startMs: switchMs + warmupS * 1000, endMs },
  ];
  return { host: { hostname: 'lab', kernel: '6.8.0' }, devices, phases, intervals, warnings: [], sampleIntervalMs: step };
}

/**
 * Walks a JSON value and returns the dotted paths of null leaves that have no reason in a
 * sibling `reasons` map (the engine's "null with a reason" rule).
 */
export function nullsWithoutReason(value: unknown, path = ''): string[] {
  const out: string[] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...nullsWithoutReason(v, `${path}[${i}]`)));
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const reasons = (obj.reasons ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const p = path ? `${path}.${k}` : k;
      if (v === null && typeof reasons[k] !== 'string') out.push(p);
      else out.push(...nullsWithoutReason(v, p));
    }
  }
  return out;
}
