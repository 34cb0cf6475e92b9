// The loop-device lab end to end (docs/probe.md § lab), one recording for two tests (issues 15
// and 38: the two lab tests recorded the same plan twice, 50 s each): the real probe records the
// lab with block tracing through a baseline with the cache off (direct I/O);
// `cacheproof-probe predict` at the lab cache's size reads the baseline's trace before the switch
// to the page cache; then a warm-up and the measure window, and `cacheproof analyze --json`.
// - analyze: front-and-backing mode, more than 90% of I/Os saved, both windows' response time,
//   backing I/Os equal to the diskstats deltas;
// - prediction: the predicted and the measured I/Os saved agree within 5 percentage points.
// Needs root, tracefs, fio, losetup and the release probe; skips with the reason otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisReport } from '@cacheproof/engine';
import Database from 'better-sqlite3';
import { runCli } from '../src/cli/main.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = join(import.meta.dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const onPath = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;

function skipReason(): string | null {
  if (process.platform !== 'linux') return 'the lab needs Linux loop devices';
  if (process.getuid?.() !== 0) return 'the lab needs root (loop devices, mount)';
  for (const tool of ['fio', 'losetup', 'mkfs.ext4']) if (!onPath(tool)) return `${tool} is not installed`;
  if (!existsSync(probe)) return `${probe} is missing: build it with 'cd native && cargo build --release'`;
  if (!existsSync('/sys/kernel/tracing/events/block') && !existsSync('/sys/kernel/debug/tracing/events/block')) {
    // the probe mounts tracefs itself when it can; say so only when it cannot
    if (spawnSync('mount', ['-t', 'tracefs', 'nodev', '/sys/kernel/tracing'], { stdio: 'ignore' }).status !== 0) return 'block tracing needs tracefs, which is not mounted and cannot be mounted here';
  }
  return null;
}
const reason = skipReason();

// Plan: 20 s baseline (cache off), switch, 10 s warm-up, 20 s measure, sampled every second.
const BASELINE_S = 20;
const WARMUP_S = 10;
const MEASURE_S = 20;
// The workload: random 4 KiB reads at 800/s over a 4 MiB hot set (docs/probe.md § lab workload).
const HOT_MB = 4;

const run = (...args: string[]): string => execFileSync(probe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** Polls the recorder's `status --json` until `test` holds; fails at once if the recorder failed or went stale. */
async function statusUntil(what: string, capture: string, test: (s: Record<string, unknown>) => boolean, timeoutMs: number): Promise<void> {
  let s: Record<string, unknown> = {};
  await waitFor(what, timeoutMs, () => {
    s = JSON.parse(run('status', capture, '--json')) as Record<string, unknown>;
    if (s['state'] === 'failed' || s['state'] === 'stale') throw new Error(`recorder ${String(s['state'])} while waiting for ${what}: ${String(s['error'])}`);
    return test(s) ? true : undefined;
  }, () => JSON.stringify(s), 250);
}

/** Reads completed by `devices` so far (/sys/block/<dev>/stat, field 1): how a test sees a workload start. */
function readsOf(devices: string[]): number {
  return devices.reduce((n, dev) => n + Number(readFileSync(`/sys/block/${dev}/stat`, 'utf8').trim().split(/\s+/u)[0]), 0);
}

/**
 * How far the trace runs past the baseline's end, in a sentence, and whether that is a second or
 * more. The tracer writes requests in batches as they complete, in issue order give or take the
 * queue, and the workload runs on through the switch phase: once a request issued a second after
 * the baseline's end is written, every baseline request is.
 */
function traceBeyondBaseline(capture: string): { done: boolean; said: string } {
  const db = new Database(capture, { readonly: true });
  try {
    const end = db.prepare("SELECT end_utc_ms FROM phases WHERE name = 'baseline'").pluck().get() as number | null | undefined;
    const last = db.prepare('SELECT max(utc_ms) FROM block_requests').pluck().get() as number | null;
    if (end === null || end === undefined) return { done: false, said: 'the baseline has no end yet' };
    if (last === null) return { done: false, said: 'no traced request yet' };
    return { done: last >= end + 1000, said: `the last traced request issued ${last - end} ms after the baseline's end` };
  } finally {
    db.close();
  }
}

/** Read hits of an LRU cache of `blocks` 4 KiB blocks over the front's baseline reads (an independent replay: a Map kept in recency order). */
function lruReadHits(capture: string, device: string, startMs: number, endMs: number, warmupMs: number, blocks: number): { reads: number; hits: number } {
  const db = new Database(capture, { readonly: true });
  try {
    const rows = db.prepare(`SELECT b.utc_ms AS utc, b.sector AS sector, b.bytes AS bytes FROM block_requests b JOIN devices d ON d.id = b.device_id
                             WHERE d.name = ? AND b.op = 'R' AND b.utc_ms >= ? AND b.utc_ms < ? ORDER BY b.issue_ns, b.rowid`).all(device, startMs, endMs) as { utc: number; sector: number; bytes: number }[];
    const lru = new Map<number, true>();
    let reads = 0;
    let hits = 0;
    for (const r of rows) {
      const first = Math.floor((r.sector * 512) / 4096);
      const last = Math.floor((r.sector * 512 + r.bytes - 1) / 4096);
      let all = true;
      for (let b = first; b <= last; b++) {
        if (lru.has(b)) lru.delete(b);
        else all = false;
        lru.set(b, true);
        if (lru.size > blocks) lru.delete(lru.keys().next().value as number);
      }
      if (r.utc >= startMs + warmupMs) {
        reads++;
        if (all) hits++;
      }
    }
    return { reads, hits };
  } finally {
    db.close();
  }
}

/** What the one lab recording leaves for the two tests. */
interface LabRun {
  capture: string;
  front: string;
  backing: string;
  lab: { frontDevice: string; backingDevice: string; directIo: boolean; sizeMb: number };
  /** `predict` at the lab cache's size (LRU, FIFO, ARC), run before the switch */
  atSize: { devices: string[]; reads: number; iosSavedPercent: number; warmupS: number; responseTime: { predictedUs: number; baselineUs: number } | null };
  /** `predict` at 2 MiB, and this test's own LRU replay of the same reads */
  half: { readHitRatio: number; reads: number; warmupS: number; windowStartUtcMs: number; windowEndUtcMs: number };
  halfRef: { reads: number; hits: number };
  /** `cacheproof analyze --json` once the plan is done */
  analysis: AnalysisReport;
}

describe.skipIf(skipped('lab', reason))('the loop-device lab recorded once: prediction before the switch, analysis after', () => {
  let dir = '';
  const labDir = (): string => join(dir, 'lab');
  let workload: ChildProcess | null = null;
  let labRun: LabRun | null = null;
  const got = (): LabRun => {
    if (labRun === null) throw new Error('the lab recording did not complete (beforeAll failed: see its error)');
    return labRun;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cacheproof-lab-'));
    const capture = join(dir, 'lab.capture');
    run('lab', 'up', '--dir', labDir(), '--size-mb', '64');
    const lab = JSON.parse(run('lab', 'status', '--dir', labDir(), '--json')) as LabRun['lab'];
    expect(lab.directIo).toBe(true);
    const front = lab.frontDevice.replace('/dev/', '');
    const backing = lab.backingDevice.replace('/dev/', '');
    // own process group, so that fio (the probe's child) goes too when it is stopped early
    const w = spawn(probe, ['lab', 'workload', '--dir', labDir(), '--seconds', String(BASELINE_S + WARMUP_S + MEASURE_S + 15), '--hot-mb', String(HOT_MB), '--read-only'],
      { stdio: 'ignore', detached: true });
    workload = w;
    // the recording starts once fio reads (its first sample then sees the workload), not after a fixed second
    const reads0 = readsOf([front, backing]);
    await waitFor('the lab workload to read', 30_000, () => {
      if (w.exitCode !== null || w.signalCode !== null) throw new Error(`the lab workload ended (${w.exitCode ?? w.signalCode}) before it read`);
      return readsOf([front, backing]) > reads0 ? true : undefined;
    }, () => `${readsOf([front, backing]) - reads0} reads since it was started`);
    run('record', '--out', capture, '--devices', `${front},${backing}`, '--interval', '1s', '--trace', '--trace-sample', '1',
      '--plan', `baseline=${BASELINE_S}s,warmup=${WARMUP_S}s,measure=${MEASURE_S}s`, '--switch', 'manual', '--detach');
    await statusUntil('the switch phase', capture, (s) => s['phase'] === 'switch', (BASELINE_S + 15) * 1000);
    // the tracer writes requests in batches: on a loaded machine the baseline's last ones land a
    // moment after the phase changes, and predict and this test's own replay must see the same rows
    let trace = { done: false, said: '' };
    await waitFor('a traced request issued a second past the baseline\'s end (every baseline request written)', 30_000, () => {
      trace = traceBeyondBaseline(capture);
      return trace.done ? true : undefined;
    }, () => trace.said, 250);
    // The prediction, before the cache is switched on: the lab's cache is the page cache,
    // which holds the whole front device, so its size is the front's.
    const cacheBytes = lab.sizeMb * 1024 * 1024;
    const atSize = JSON.parse(run('predict', capture, '--size', `${cacheBytes}B`, '--cache-device', 'ram', '--policy', 'lru,fifo,arc', '--store', '--quiet', '--json')) as LabRun['atSize'];
    const half = JSON.parse(run('predict', capture, '--size', '2MiB', '--quiet', '--json')) as LabRun['half'];
    const halfRef = lruReadHits(capture, front, half.windowStartUtcMs, half.windowEndUtcMs, half.warmupS * 1000, 512);
    run('lab', 'switch', 'on', '--dir', labDir());
    run('mark', capture, 'switch', '--note', `lab switch on: losetup --direct-io=off ${front}`);
    await statusUntil('the end of the plan', capture, (s) => s['state'] === 'done', (WARMUP_S + MEASURE_S + 15) * 1000);
    let out = '';
    let err = '';
    const code = await runCli(['analyze', capture, '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
    expect(err).toBe('');
    expect(code).toBe(0);
    labRun = { capture, front, backing, lab, atSize, half, halfRef, analysis: JSON.parse(out) as AnalysisReport };
  }, 150_000);

  afterAll(() => {
    if (dir === '') return;
    if (workload?.pid !== undefined && workload.exitCode === null) {
      try { process.kill(-workload.pid, 'SIGTERM'); } catch { /* already gone */ }
    }
    const capture = join(dir, 'lab.capture');
    if (existsSync(capture)) spawnSync(probe, ['stop', capture], { stdio: 'ignore' });
    const down = spawnSync(probe, ['lab', 'down', '--dir', labDir()], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    if (down.status !== 0) console.log(`lab down --dir ${labDir()} failed: ${down.stderr}`);
  });

  it('predicts the I/Os saved at the lab cache\'s size within 5 points of the measured figure', () => {
    const { capture, front, atSize: p, half, halfRef: ref, analysis: r } = got();
    expect(p.devices).toEqual([front]);
    expect(p.warmupS).toBe(WARMUP_S);
    expect(p.reads, 'the baseline trace holds the workload\'s reads').toBeGreaterThan(1000);
    expect(p.responseTime?.baselineUs ?? 0, 'the baseline\'s reads have traced completions').toBeGreaterThan(0);
    // A size below the hot set, checked against an LRU written here (a Map in recency order)
    // replaying the same requests: the baseline's reads of the front device in issue order, the
    // first warm-up seconds filling the cache uncounted. fio reads its hot set in random
    // permutations (its random map), so a cache of half the set hits far less than half.
    console.log(`lab: a 2 MiB LRU cache would serve ${(100 * half.readHitRatio).toFixed(2)}% of the baseline's reads; the test's own LRU: ${(100 * ref.hits / ref.reads).toFixed(2)}% of ${ref.reads}`);
    expect(ref.reads).toBe(half.reads);
    expect(half.readHitRatio).toBeCloseTo(ref.hits / ref.reads, 12);
    const pr = r.prediction.fromTrace;
    if (pr === null) throw new Error(`no prediction in the analysis: ${JSON.stringify(r.prediction)}`);
    const measured = r.benefit.iosSavedPercent.value;
    if (measured === null) throw new Error(`no measured I/Os saved: ${JSON.stringify(r.benefit.iosSavedPercent)}`);
    console.log(`lab: ${pr.reads} reads of ${front} in the baseline after a ${pr.warmupS} s warm-up; a ${pr.cacheBytes} B LRU cache predicts ${pr.iosSavedPercent.toFixed(2)}% of I/Os saved, ` +
      `measured ${measured.toFixed(2)}% (difference ${pr.differencePp?.toFixed(2)} points); footprint ${pr.footprintBytes} B`);
    expect(pr.iosSavedPercent).toBeCloseTo(p.iosSavedPercent, 10);
    expect(pr.measuredIosSavedPercent).toBe(measured);
    expect(Math.abs(pr.iosSavedPercent - measured), 'predicted and measured I/Os saved within 5 percentage points').toBeLessThanOrEqual(5);
    // backing I/O and response time, predicted beside measured, each difference in parts that add up to it
    const bc = pr.backingComparison;
    const rc = pr.responseComparison;
    console.log(`lab: backing I/O predicted ${bc.predictedPerSecond?.toFixed(2)}/s, measured ${bc.measuredPerSecond?.toFixed(2)}/s ` +
      `(front ${bc.predictedFrontPerSecond?.toFixed(1)}/s → ${bc.measuredFrontPerSecond?.toFixed(1)}/s: workload part ${bc.workloadPartPerSecond?.toFixed(2)}, hit-share part ${bc.hitSharePartPerSecond?.toFixed(2)}); ` +
      `response time predicted ${rc.predictedMs?.toFixed(4)} ms, measured ${rc.measuredMs?.toFixed(4)} ms (hit-share part ${rc.hitSharePartMs?.toFixed(4)}, other ${rc.otherPartMs?.toFixed(4)}); ` +
      `policies ${pr.policies.map((x) => `${x.policy} ${x.iosSavedPercent.toFixed(2)}%`).join(', ')}`);
    expect(pr.policies.map((x) => x.policy)).toEqual(['lru', 'fifo', 'arc']);
    if (bc.predictedPerSecond === null || bc.measuredPerSecond === null || bc.measuredFrontPerSecond === null) throw new Error(`no backing comparison: ${JSON.stringify(bc)}`);
    expect((bc.workloadPartPerSecond ?? NaN) + (bc.hitSharePartPerSecond ?? NaN)).toBeCloseTo(bc.differencePerSecond ?? NaN, 9);
    // the backing I/O per second within the same 5 points of the front's rate
    expect(Math.abs(bc.predictedPerSecond - bc.measuredPerSecond), 'predicted and measured backing I/O within 5 % of the front\'s rate').toBeLessThanOrEqual(0.05 * bc.measuredFrontPerSecond);
    expect((rc.hitSharePartMs ?? NaN) + (rc.otherPartMs ?? NaN)).toBeCloseTo(rc.differenceMs ?? NaN, 9);
    // the baseline's latency from the trace, stored when the recording ended
    const lat = JSON.parse(run('latency', capture, '--json')) as { series: { device: string; window: string; op: string; completed: number }[] };
    expect(lat.series.find((s) => s.device === front && s.window === 'baseline' && s.op === 'read')?.completed ?? 0).toBeGreaterThan(1000);
  });

  it('analyze reports front-and-backing mode, more than 90% of I/Os saved, the response-time change of both windows, and backing I/Os equal to the diskstats deltas', () => {
    const { capture, front, backing, analysis: r } = got();
    const saved = r.benefit.iosSavedPercent.value ?? NaN;
    const lat = r.benefit.latencyMs as { before: number; after: number; reductionPercent: number };
    console.log(`lab: I/Os to ${backing} ${r.benefit.iosToBacking.before} → ${r.benefit.iosToBacking.after}, saved ${saved.toFixed(1)}%, ` +
      `latency ${lat.before.toFixed(3)} → ${lat.after.toFixed(3)} ms (${lat.reductionPercent.toFixed(1)}% less)`);
    expect(r.mode).toBe('front-and-backing');
    expect(r.devices.front).toEqual([front]);
    expect(r.devices.backing).toEqual([backing]);
    expect(r.windows.warmupSource).toBe('recorded');
    expect(r.windows.warmupExcludedSeconds).toBeGreaterThanOrEqual(WARMUP_S);
    expect(saved).toBeGreaterThan(90);
    // The lab's two layers are both RAM (a loop device on a file on another loop device), so
    // whether a page-cache hit answers faster than a direct read through both loops depends on
    // how busy the CPUs are: on a loaded machine it was 141 % slower. What holds for any honest
    // outcome: both means measured, and the change is the engine's own arithmetic on them.
    expect(lat.before).toBeGreaterThan(0);
    expect(lat.after).toBeGreaterThan(0);
    expect(lat.reductionPercent).toBeCloseTo(((lat.before - lat.after) / lat.before) * 100, 9);

    // Independently of the intervals table: the backing device's diskstats counters as the probe
    // read them (raw_counters f1 = reads completed, f5 = writes completed) at the samples that
    // bound each reported window. The engine counts the intervals that lie wholly inside a
    // window, so a window runs from the first sample at or after its start to the last sample at
    // or before its end. Phase ends and the end of the recorded warm-up (= the measure start)
    // are sample times; the baseline starts when the recorder started, just before its first sample.
    const db = new Database(capture, { readonly: true });
    try {
      const deviceId = (db.prepare('SELECT id FROM devices WHERE name = ?').pluck().get(backing) as number);
      const sample = (where: string, order: 'ASC' | 'DESC', ms: number): { utc: number; ios: number } => {
        const row = db.prepare(`SELECT s.utc_ms AS utc, r.f1 + r.f5 AS ios FROM samples s JOIN raw_counters r ON r.sample_id = s.id
                                 WHERE r.device_id = ? AND s.utc_ms ${where} ? ORDER BY s.utc_ms ${order} LIMIT 1`).get(deviceId, ms) as { utc: number; ios: number } | undefined;
        if (row === undefined) throw new Error(`no sample of ${backing} ${where} ${new Date(ms).toISOString()}`);
        return row;
      };
      const bounds = (w: { start: string; end: string }): { first: { utc: number; ios: number }; last: { utc: number; ios: number } } => {
        const first = sample('>=', 'ASC', Date.parse(w.start));
        const last = sample('<=', 'DESC', Date.parse(w.end));
        expect(first.utc - Date.parse(w.start), 'window start within one interval of a sample').toBeLessThan(1000);
        expect(last.utc, 'window end on a sample').toBe(Date.parse(w.end));
        return { first, last };
      };
      expect(bounds(r.windows.measure).first.utc, 'measure start on a sample').toBe(Date.parse(r.windows.measure.start));
      const delta = (w: { start: string; end: string }): number => {
        const { first, last } = bounds(w);
        return last.ios - first.ios;
      };
      const notOk = db.prepare(`SELECT COUNT(*) FROM intervals WHERE device_id = ? AND status != 'ok'`).pluck().get(deviceId) as number;
      expect(notOk, 'intervals without numbers would make the sums differ from the deltas').toBe(0);
      expect(r.benefit.iosToBacking.before).toBe(delta(r.windows.baseline));
      expect(r.benefit.iosToBacking.after).toBe(delta(r.windows.measure));
      expect(r.benefit.iosToBacking.before).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
