/**
 * The read/write split, queue depth and request sizes per role and window (workload-shape.ts),
 * with hand-made captures whose figures are known, and their chart lines (metrics/buckets.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CaptureData, IntervalRecord, TraceSizeSource } from '../records/types.ts';
import { analyze } from './analyze.ts';
import type { AnalysisReport } from './result.ts';
import { nullsWithoutReason, synthCapture, T0 } from './testkit.ts';
import { REQUEST_SIZE_BUCKETS, REQUEST_SIZE_EDGES_BYTES, addIntervalSizes, emptySizeCounts, requestSizeBucket, requestSizeBuckets, sizeDistribution } from '../metrics/request-size.ts';
import { columnsFromRecords } from '../records/columns.ts';
import { chartLines } from '../metrics/buckets.ts';

function report(data: CaptureData, options = {}): AnalysisReport {
  const r = analyze(data, { bootstrapReplicates: 50, warmupMs: 0, ...options });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

const rec = (device: string, i: number, o: Partial<IntervalRecord>): IntervalRecord => ({
  device, startMs: T0 + i * 1000, endMs: T0 + (i + 1) * 1000, intervalMs: 1000, status: 'ok',
  reads: 0, writes: 0, readBytes: 0, writeBytes: 0, readTimeMs: 0, writeTimeMs: 0, busyMs: 0, weightedMs: 0, ...o,
});

/**
 * Front `f` and backing `b`, 1 s intervals: baseline seconds 0–9, measure 10–19. In the baseline
 * second i the front does 100 + 10·i reads of 4 KiB and 10 writes of 64 KiB, with weighted ms
 * 200 (aqu-sz 0.2); in the measure 100 reads of 8 KiB (weighted 50: 0.05) and no write. The
 * backing device carries the same I/O in the baseline, nothing in the measure.
 */
function handMade(): CaptureData {
  const intervals: IntervalRecord[] = [];
  for (let i = 0; i < 20; i++) {
    const before = i < 10;
    const reads = before ? 100 + 10 * i : 100, writes = before ? 10 : 0;
    const front = { reads, writes, readBytes: reads * (before ? 4096 : 8192), writeBytes: writes * 65536, readTimeMs: reads, writeTimeMs: writes, weightedMs: before ? 200 : 50 };
    intervals.push(rec('f', i, front));
    intervals.push(rec('b', i, before ? front : {}));
  }
  return {
    host: { hostname: 'h', kernel: null },
    devices: [{ name: 'f', role: 'front', sizeBytes: null, rotational: false, model: null }, { name: 'b', role: 'backing', sizeBytes: null, rotational: true, model: null }],
    phases: [{ name: 'baseline', startMs: T0, endMs: T0 + 10_000 }, { name: 'measure', startMs: T0 + 10_000, endMs: T0 + 20_000 }],
    intervals, warnings: [], sampleIntervalMs: 1000,
  };
}

describe('request-size buckets', () => {
  it('has edges at the powers of two from 512 B to 4 MiB, each bucket [low, high)', () => {
    expect(REQUEST_SIZE_EDGES_BYTES[0]).toBe(512);
    expect(REQUEST_SIZE_EDGES_BYTES.at(-1)).toBe(4 * 1024 * 1024);
    expect(REQUEST_SIZE_BUCKETS).toBe(15);
    expect(requestSizeBucket(0)).toBe(0);
    expect(requestSizeBucket(511.9)).toBe(0);
    expect(requestSizeBucket(512)).toBe(1);
    expect(requestSizeBucket(4095)).toBe(3);
    expect(requestSizeBucket(4096)).toBe(4);
    expect(requestSizeBucket(8191)).toBe(4);
    expect(requestSizeBucket(4 * 1024 * 1024)).toBe(14);
    expect(requestSizeBucket(1e12)).toBe(14);
    // the number of edges at or below the size, for each edge, its neighbouring doubles and sizes between
    const countEdges = (x: number): number => REQUEST_SIZE_EDGES_BYTES.filter((e) => x >= e).length;
    const next = (x: number, dir: 1 | -1): number => {
      const f = new Float64Array([x]);
      const u = new BigUint64Array(f.buffer);
      u[0] = (u[0] as bigint) + BigInt(dir);
      return f[0] as number;
    };
    const sizes = [-1, 0, Number.MIN_VALUE, 1, 300, Infinity, NaN, ...REQUEST_SIZE_EDGES_BYTES.flatMap((e) => [next(e, -1), e, next(e, 1), e * 1.5, e * Math.SQRT2])];
    for (const x of sizes) expect(requestSizeBucket(x), String(x)).toBe(countEdges(x));
    const b = requestSizeBuckets();
    expect(b[4]).toEqual({ lowBytes: 4096, highBytes: 8192 });
    expect(b[0]).toEqual({ lowBytes: 0, highBytes: 512 });
    expect(b[14]).toEqual({ lowBytes: 4 * 1024 * 1024 });
  });

  it('puts an interval\'s reads in the bucket of its average read size, weighted by I/Os', () => {
    const c = columnsFromRecords([
      rec('d', 0, { reads: 100, readBytes: 409_600, writes: 10, writeBytes: 655_360 }),
      rec('d', 1, { reads: 300, readBytes: 300 * 6144, writes: 0, writeBytes: 0 }),
      rec('d', 2, { reads: 50, readBytes: NaN as unknown as number }),
      rec('d', 3, { status: 'gap', reads: null, writes: null }),
    ]);
    const h = emptySizeCounts();
    addIntervalSizes(h, c[0] as NonNullable<(typeof c)[0]>, { startMs: T0, endMs: T0 + 10_000 });
    const d = sizeDistribution(h, 'interval-average');
    expect(d.reads?.counts[4]).toBe(400);
    expect(d.reads?.ios).toBe(400);
    expect(d.reads?.meanBytes).toBeCloseTo((409_600 + 300 * 6144) / 400, 9);
    expect(d.writes?.counts[8]).toBe(10);
    expect(d.writes?.percents[8]).toBe(100);
  });
});

describe('readWriteQueue and requestSizes in the analysis', () => {
  const a = report(handMade());

  it('gives reads/s, writes/s and aqu-sz per role and window: mean (ratio of sums), p95 (type 7), peak', () => {
    const fb = a.readWriteQueue.front?.baseline;
    expect(fb?.readsPerSec.mean).toBeCloseTo(145, 9); // (100 + … + 190) / 10
    expect(fb?.readsPerSec.peak).toBe(190);
    // type 7 over 100, 110, … 190: h = 9 × 0.95 = 8.55 → 180 + 0.55 × 10
    expect(fb?.readsPerSec.p95).toBeCloseTo(185.5, 9);
    expect(fb?.writesPerSec).toMatchObject({ unit: '1/s', method: 'writes-per-second', mean: 10, p95: 10, peak: 10, n: 10 });
    expect(fb?.aquSz).toMatchObject({ unit: 'requests', method: 'weighted-ms-per-ms', mean: 0.2, peak: 0.2 });
    expect(fb?.readSharePercent).toBeCloseTo((1450 / 1550) * 100, 9);
    expect(a.readWriteQueue.front?.measure.aquSz.mean).toBeCloseTo(0.05, 12);
    expect(a.readWriteQueue.front?.measure.writesPerSec.peak).toBe(0);
    // the backing drives did nothing after the switch: a real 0, not absent
    expect(a.readWriteQueue.backing.measure.readsPerSec).toMatchObject({ mean: 0, peak: 0 });
    expect(a.readWriteQueue.backing.measure.aquSz.mean).toBe(0);
    // the same numbers as the groups' window summaries
    expect(fb?.aquSz.p95).toBe(a.groups.front?.baseline.percentiles.aquSz?.p95);
    expect(fb?.readsPerSec.mean).toBe(a.groups.front?.baseline.means.readsPerSec);
    expect(nullsWithoutReason(a.readWriteQueue)).toEqual([]);
  });

  it('notes a figure whose mean lies above its 95th percentile as bursty (flush bursts), and only such a figure', () => {
    // steady reads, and writes that reach the backing drive only as one flush of 4,000 every 40 s
    const intervals: IntervalRecord[] = [];
    for (let i = 0; i < 80; i++) {
      intervals.push(rec('f', i, { reads: 100, readBytes: 409_600, readTimeMs: 100, weightedMs: 100 }));
      const flush = i % 40 === 39 ? 4000 : 0;
      intervals.push(rec('b', i, { reads: i < 40 ? 100 : 10, readBytes: (i < 40 ? 100 : 10) * 4096, readTimeMs: 100, writes: flush, writeBytes: flush * 4096, writeTimeMs: flush, weightedMs: 100 + flush }));
    }
    const bursty = report({ ...handMade(), intervals, phases: [{ name: 'baseline', startMs: T0, endMs: T0 + 40_000 }, { name: 'measure', startMs: T0 + 40_000, endMs: T0 + 80_000 }] });
    const w = bursty.readWriteQueue.backing.measure.writesPerSec;
    expect(w.mean).toBeCloseTo(100, 9); // 4,000 writes over 40 s
    expect(w.p95).toBe(0);
    expect(w.peak).toBe(4000);
    expect(w.notes).toEqual(['bursty']);
    // steady figures carry no note, nor does the hand-made capture's any
    expect(bursty.readWriteQueue.backing.measure.readsPerSec.notes).toEqual([]);
    expect(bursty.readWriteQueue.front?.measure.readsPerSec.notes).toEqual([]);
    expect(a.readWriteQueue.front?.baseline.readsPerSec.notes).toEqual([]);
    expect(a.readWriteQueue.front?.baseline.writesPerSec.notes).toEqual([]);
  });

  it('gives the request-size distribution per role and window from the counters, reads and writes apart', () => {
    const f = a.requestSizes.front;
    expect(a.requestSizes.buckets).toHaveLength(15);
    expect(f?.baseline.fromCounters.method).toBe('interval-average');
    expect(f?.baseline.fromCounters.reads?.counts[4]).toBe(1450);
    expect(f?.baseline.fromCounters.reads?.percents[4]).toBe(100);
    expect(f?.baseline.fromCounters.writes?.counts[8]).toBe(100);
    expect(f?.measure.fromCounters.reads?.counts[5]).toBe(1000); // 8 KiB → [8, 16) KiB
    // no write after the switch: absent with its reason, never 0
    expect(f?.measure.fromCounters.writes).toBeNull();
    expect(f?.measure.fromCounters.reasons['writes']).toBe('no-writes');
    expect(a.requestSizes.backing.measure.fromCounters.reads).toBeNull();
    expect(f?.baseline.fromTrace).toBeNull();
    expect(f?.baseline.reasons['fromTrace']).toBe('not-reported');
    expect(nullsWithoutReason(a.requestSizes)).toEqual([]);
  });

  it('takes the block trace\'s exact sizes when every device of the group has traced requests in the window', () => {
    const asked: string[] = [];
    const trace: TraceSizeSource = {
      sampleRate: 0.5,
      sizes: (device, startMs, endMs) => {
        asked.push(`${device} ${startMs - T0}..${endMs - T0}`);
        if (device !== 'f' || startMs !== T0) return [];
        return [{ op: 'R', bytes: 512, count: 30 }, { op: 'R', bytes: 4096, count: 70 }, { op: 'W', bytes: 1 << 20, count: 5 }];
      },
    };
    const t = report({ ...handMade(), traceSizes: trace });
    const fb = t.requestSizes.front?.baseline.fromTrace;
    expect(fb?.method).toBe('block-trace');
    expect(fb?.sampleRate).toBe(0.5);
    expect(fb?.reads?.counts[1]).toBe(30);
    expect(fb?.reads?.counts[4]).toBe(70);
    expect(fb?.reads?.meanBytes).toBeCloseTo((30 * 512 + 70 * 4096) / 100, 9);
    expect(fb?.writes?.counts[12]).toBe(5); // 1 MiB → [1, 2) MiB
    // the counters' distribution stays beside it; no trace in the measure window, none of the backing device
    expect(t.requestSizes.front?.baseline.fromCounters.reads?.counts[4]).toBe(1450);
    expect(t.requestSizes.front?.measure.fromTrace).toBeNull();
    expect(t.requestSizes.backing.baseline.fromTrace).toBeNull();
    // asked for the analysed windows
    expect(asked).toContain('f 0..10000');
    expect(asked).toContain('f 10000..20000');
  });

  it('has no front group in backing-only mode, with its reason', () => {
    const b = report(synthCapture({ baselineS: 600, measureS: 600, front: null }));
    expect(b.readWriteQueue.front).toBeNull();
    expect(b.readWriteQueue.reasons['front']).toBe('backing-only-mode');
    expect(b.requestSizes.front).toBeNull();
    expect(b.requestSizes.reasons['front']).toBe('backing-only-mode');
    expect(b.requestSizes.backing.baseline.fromCounters.reads?.counts[4]).toBeGreaterThan(0);
  });

  it('says not-reported for a queue size the source does not report, never 0', () => {
    const data = handMade();
    data.intervals = data.intervals.map((r) => ({ ...r, weightedMs: null }));
    const n = report(data);
    expect(n.readWriteQueue.front?.baseline.aquSz).toMatchObject({ mean: null, p95: null, peak: null, n: 0, reasons: { mean: 'not-reported', p95: 'not-reported', peak: 'not-reported' } });
    const lines = chartLines(columnsFromRecords(data.intervals), [], [{ group: 'front', devices: ['f'] }], 100);
    expect(lines.groups[0]?.line.aquSz.every((v) => v === null)).toBe(true);
  });
});

describe('the queue-size and read/write lines (chartLines)', () => {
  it('gives a bucket Σ weighted ms ÷ Σ Δt, added over a group\'s devices, and reads/s and writes/s apart', () => {
    const data = handMade();
    const lines = chartLines(columnsFromRecords(data.intervals), [], [{ group: 'both', devices: ['f', 'b'] }, { group: 'front', devices: ['f'] }], 10);
    const both = lines.groups.find((g) => g.group === 'both')?.line;
    const front = lines.groups.find((g) => g.group === 'front')?.line;
    // 20 s in 10 buckets of 2 s: the first holds seconds 0 and 1 (weighted 200 each, per device)
    expect(front?.aquSz[0]).toBeCloseTo(0.2, 12);
    expect(both?.aquSz[0]).toBeCloseTo(0.4, 12);
    expect(front?.readIops[0]).toBeCloseTo(105, 12);
    expect(front?.writeIops[0]).toBeCloseTo(10, 12);
    expect(both?.aquSz[9]).toBeCloseTo(0.05, 12); // the backing device idle: 0 added
  });
});
