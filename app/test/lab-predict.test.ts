// Prediction against measurement on real devices (issue 15): the loop-device lab (docs/probe.md
// § lab) recorded by the real probe with block tracing through a baseline with the cache off
// (direct I/O), `cacheproof-probe predict` at the lab cache's size from the baseline's trace,
// then the switch to the page cache, a warm-up and the measure window: the predicted and the
// measured I/Os saved (`cacheproof analyze --json`) agree within 5 percentage points. Needs
// root, tracefs, fio, losetup and the release probe; skips with the reason otherwise.
import { describe, expect, it } from 'vitest';
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

describe.skipIf(skipped('lab-predict', reason))('prediction from the traced baseline against the measured window (lab)', () => {
  it('predicts the I/Os saved at the lab cache\'s size within 5 points of the measured figure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-lab-predict-'));
    const labDir = join(dir, 'lab');
    const capture = join(dir, 'lab.capture');
    let workload: ChildProcess | null = null;
    try {
      run('lab', 'up', '--dir', labDir, '--size-mb', '64');
      const lab = JSON.parse(run('lab', 'status', '--dir', labDir, '--json')) as { frontDevice: string; backingDevice: string; directIo: boolean; sizeMb: number };
      expect(lab.directIo).toBe(true);
      const front = lab.frontDevice.replace('/dev/', '');
      const backing = lab.backingDevice.replace('/dev/', '');

      const w = spawn(probe, ['lab', 'workload', '--dir', labDir, '--seconds', String(BASELINE_S + WARMUP_S + MEASURE_S + 15), '--hot-mb', String(HOT_MB), '--read-only'],
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
      const p = JSON.parse(run('predict', capture, '--size', `${cacheBytes}B`, '--cache-device', 'ram', '--policy', 'lru,fifo,arc', '--store', '--quiet', '--json')) as { devices: string[]; reads: number; iosSavedPercent: number; warmupS: number; responseTime: { predictedUs: number; baselineUs: number } | null };
      expect(p.devices).toEqual([front]);
      expect(p.warmupS).toBe(WARMUP_S);
      expect(p.reads, 'the baseline trace holds the workload\'s reads').toBeGreaterThan(1000);
      // A size below the hot set, checked against an LRU written here (a Map in recency order)
      // replaying the same requests: the baseline's reads of the front device in issue order, the
      // first warm-up seconds filling the cache uncounted. fio reads its hot set in random
      // permutations (its random map), so a cache of half the set hits far less than half.
      expect(p.responseTime?.baselineUs ?? 0, 'the baseline\'s reads have traced completions').toBeGreaterThan(0);
      const half = JSON.parse(run('predict', capture, '--size', '2MiB', '--quiet', '--json')) as { readHitRatio: number; reads: number; warmupS: number; windowStartUtcMs: number; windowEndUtcMs: number };
      const ref = lruReadHits(capture, front, half.windowStartUtcMs, half.windowEndUtcMs, half.warmupS * 1000, 512);
      console.log(`lab-predict: a 2 MiB LRU cache would serve ${(100 * half.readHitRatio).toFixed(2)}% of the baseline's reads; the test's own LRU: ${(100 * ref.hits / ref.reads).toFixed(2)}% of ${ref.reads}`);
      expect(ref.reads).toBe(half.reads);
      expect(half.readHitRatio).toBeCloseTo(ref.hits / ref.reads, 12);
      run('lab', 'switch', 'on', '--dir', labDir);
      run('mark', capture, 'switch', '--note', `lab switch on: losetup --direct-io=off ${front}`);
      await statusUntil('the end of the plan', capture, (s) => s['state'] === 'done', (WARMUP_S + MEASURE_S + 15) * 1000);

      let out = '';
      let err = '';
      const code = await runCli(['analyze', capture, '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      const r = JSON.parse(out) as AnalysisReport;
      const pr = r.prediction.fromTrace;
      if (pr === null) throw new Error(`no prediction in the analysis: ${JSON.stringify(r.prediction)}`);
      const measured = r.benefit.iosSavedPercent.value;
      if (measured === null) throw new Error(`no measured I/Os saved: ${JSON.stringify(r.benefit.iosSavedPercent)}`);
      console.log(`lab-predict: ${pr.reads} reads of ${front} in the baseline after a ${pr.warmupS} s warm-up; a ${pr.cacheBytes} B LRU cache predicts ${pr.iosSavedPercent.toFixed(2)}% of I/Os saved, ` +
        `measured ${measured.toFixed(2)}% (difference ${pr.differencePp?.toFixed(2)} points); footprint ${pr.footprintBytes} B`);
      expect(pr.iosSavedPercent).toBeCloseTo(p.iosSavedPercent, 10);
      expect(pr.measuredIosSavedPercent).toBe(measured);
      expect(Math.abs(pr.iosSavedPercent - measured), 'predicted and measured I/Os saved within 5 percentage points').toBeLessThanOrEqual(5);
      // backing I/O and response time, predicted beside measured, each difference in parts that add up to it
      const bc = pr.backingComparison;
      const rc = pr.responseComparison;
      console.log(`lab-predict: backing I/O predicted ${bc.predictedPerSecond?.toFixed(2)}/s, measured ${bc.measuredPerSecond?.toFixed(2)}/s ` +
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
    } finally {
      if (workload?.pid !== undefined && workload.exitCode === null) {
        try { process.kill(-workload.pid, 'SIGTERM'); } catch { /* already gone */ }
      }
      if (existsSync(capture)) spawnSync(probe, ['stop', capture], { stdio: 'ignore' });
      const down = spawnSync(probe, ['lab', 'down', '--dir', labDir], { encoding: 'utf8' });
      rmSync(dir, { recursive: true, force: true });
      if (down.status !== 0) console.log(`lab down --dir ${labDir} failed: ${down.stderr}`);
    }
  }, 150_000);
});
