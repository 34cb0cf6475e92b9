import { describe, expect, it } from 'vitest';
import type { IntervalRecord } from '../records/types.ts';
import { intervalMetrics } from './interval.ts';

const base: IntervalRecord = {
  device: 'sda', startMs: 0, endMs: 1000, intervalMs: 1000, status: 'ok',
  reads: 100, writes: 50, readBytes: 409_600, writeBytes: 204_800, readTimeMs: 200, writeTimeMs: 50,
  busyMs: 400, weightedMs: 500,
};
const TOL = 1e-9;

describe('intervalMetrics (iostat -x definitions)', () => {
  const cases: { name: string; rec: IntervalRecord; want: Partial<Record<keyof ReturnType<typeof intervalMetrics>, number | null>> }[] = [
    {
      name: 'worked example, 1 s',
      rec: base,
      want: { readsPerSec: 100, writesPerSec: 50, iops: 150, readMBps: 0.4096, writeMBps: 0.2048, mbps: 0.6144,
        rAwaitMs: 2, wAwaitMs: 1, awaitMs: 250 / 150, avgRequestBytes: 4096, utilPercent: 40, aquSz: 0.5 },
    },
    {
      name: 'Δt is intervalMs (monotonic), not the wall-clock labels',
      rec: { ...base, endMs: 5000, intervalMs: 2000 },
      want: { readsPerSec: 50, iops: 75, utilPercent: 20, aquSz: 0.25, mbps: 0.3072 },
    },
    {
      name: 'MB is 10^6 bytes',
      rec: { ...base, readBytes: 1_000_000, writeBytes: 0 },
      want: { readMBps: 1, writeMBps: 0, mbps: 1 },
    },
    {
      name: 'idle ok interval: rates 0, latencies and size null',
      rec: { ...base, reads: 0, writes: 0, readBytes: 0, writeBytes: 0, readTimeMs: 0, writeTimeMs: 0, busyMs: 0, weightedMs: 0 },
      want: { readsPerSec: 0, iops: 0, mbps: 0, rAwaitMs: null, wAwaitMs: null, awaitMs: null, avgRequestBytes: null, utilPercent: 0, aquSz: 0 },
    },
    {
      name: 'reads only: w_await null, await = r_await',
      rec: { ...base, writes: 0, writeBytes: 0, writeTimeMs: 0 },
      want: { wAwaitMs: null, rAwaitMs: 2, awaitMs: 2 },
    },
    ...(['reset', 'wrap', 'gap', 'clock-jump'] as const).map((status) => ({
      name: `${status} interval: every figure null`,
      rec: { ...base, status },
      want: { readsPerSec: null, iops: null, mbps: null, awaitMs: null, utilPercent: null, aquSz: null },
    })),
    {
      name: 'counter not reported: that figure null',
      rec: { ...base, busyMs: null },
      want: { utilPercent: null, iops: 150 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const m = intervalMetrics(c.rec);
      for (const [k, v] of Object.entries(c.want)) {
        const got = m[k as keyof typeof m];
        // A number is expected to be a number: null - 0 is 0 in JavaScript, so check the type first.
        if (v === null) expect(got, k).toBeNull();
        else {
          expect(typeof got, `${k} is a number`).toBe('number');
          expect(Math.abs((got as number) - v), k).toBeLessThan(TOL);
        }
      }
    });
  }
});
