// End to end on real devices: the loop-device lab (docs/probe.md § lab) recorded by the real
// probe through a baseline with direct I/O, a switch to the page cache, a warm-up and a measure
// window, then `cacheproof analyze --json` on that capture. Needs root, fio, losetup and the
// release probe; skips with the reason otherwise.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe.skipIf(skipped('lab-analyze', reason))('analyze on a lab capture (loop devices, page cache switched on)', () => {
  it('reports front-and-backing mode, more than 90% of I/Os saved, the response-time change of both windows, and backing I/Os equal to the diskstats deltas', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-lab-analyze-'));
    const labDir = join(dir, 'lab');
    const capture = join(dir, 'lab.capture');
    let workload: ChildProcess | null = null;
    try {
      run('lab', 'up', '--dir', labDir, '--size-mb', '64');
      const lab = JSON.parse(run('lab', 'status', '--dir', labDir, '--json')) as { frontDevice: string; backingDevice: string; directIo: boolean };
      expect(lab.directIo).toBe(true);
      const front = lab.frontDevice.replace('/dev/', '');
      const backing = lab.backingDevice.replace('/dev/', '');

      // own process group, so that fio (the probe's child) goes too when it is stopped early
      const w = spawn(probe, ['lab', 'workload', '--dir', labDir, '--seconds', String(BASELINE_S + WARMUP_S + MEASURE_S + 15), '--hot-mb', String(HOT_MB), '--read-only'],
        { stdio: 'ignore', detached: true });
      workload = w;
      // the recording starts once fio reads (its first sample then sees the workload), not after a fixed second
      const reads0 = readsOf([front, backing]);
      await waitFor('the lab workload to read', 30_000, () => {
        if (w.exitCode !== null || w.signalCode !== null) throw new Error(`the lab workload ended (${w.exitCode ?? w.signalCode}) before it read`);
        return readsOf([front, backing]) > reads0 ? true : undefined;
      }, () => `${readsOf([front, backing]) - reads0} reads since it was started`);
      run('record', '--out', capture, '--devices', `${front},${backing}`, '--interval', '1s',
        '--plan', `baseline=${BASELINE_S}s,warmup=${WARMUP_S}s,measure=${MEASURE_S}s`, '--switch', 'manual', '--detach');
      await statusUntil('the switch phase', capture, (s) => s['phase'] === 'switch', (BASELINE_S + 15) * 1000);
      run('lab', 'switch', 'on', '--dir', labDir);
      run('mark', capture, 'switch', '--note', `lab switch on: losetup --direct-io=off ${front}`);
      await statusUntil('the end of the plan', capture, (s) => s['state'] === 'done', (WARMUP_S + MEASURE_S + 15) * 1000);

      let out = '';
      let err = '';
      const code = await runCli(['analyze', capture, '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      const r = JSON.parse(out);
      console.log(`lab-analyze: I/Os to ${backing} ${r.benefit.iosToBacking.before} → ${r.benefit.iosToBacking.after}, saved ${r.benefit.iosSavedPercent.value.toFixed(1)}%, ` +
        `latency ${r.benefit.latencyMs.before.toFixed(3)} → ${r.benefit.latencyMs.after.toFixed(3)} ms (${r.benefit.latencyMs.reductionPercent.toFixed(1)}% less)`);
      expect(r.mode).toBe('front-and-backing');
      expect(r.devices.front).toEqual([front]);
      expect(r.devices.backing).toEqual([backing]);
      expect(r.windows.warmupSource).toBe('recorded');
      expect(r.windows.warmupExcludedSeconds).toBeGreaterThanOrEqual(WARMUP_S);
      expect(r.benefit.iosSavedPercent.value).toBeGreaterThan(90);
      // The lab's two layers are both RAM (a loop device on a file on another loop device), so
      // whether a page-cache hit answers faster than a direct read through both loops depends on
      // how busy the CPUs are: on a loaded machine it was 141 % slower. What holds for any honest
      // outcome: both means measured, and the change is the engine's own arithmetic on them.
      const lat = r.benefit.latencyMs as { before: number; after: number; reductionPercent: number };
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
    } finally {
      if (workload?.pid !== undefined && workload.exitCode === null) {
        try { process.kill(-workload.pid, 'SIGTERM'); } catch { /* already gone */ }
      }
      if (existsSync(capture)) spawnSync(probe, ['stop', capture], { stdio: 'ignore' });
      const down = spawnSync(probe, ['lab', 'down', '--dir', labDir], { encoding: 'utf8' });
      rmSync(dir, { recursive: true, force: true });
      if (down.status !== 0) console.log(`lab down --dir ${labDir} failed: ${down.stderr}`);
    }
  }, 120_000);
});
