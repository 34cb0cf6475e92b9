// Prediction against measurement on real devices (issue 15): the loop-device lab (docs/probe.md
// § lab) recorded by the real probe with block tracing through a baseline with the cache off
// (direct I/O), `cacheproof-probe predict` at the lab cache's size from the baseline's trace,
// then the switch to the page cache, a warm-up and the measure window: the predicted and the
// measured I/Os saved (`cacheproof analyze --json`) agree within 5 percentage points. Needs
// root, tracefs, fio, losetup and the release probe; skips with the reason otherwise.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisReport } from '@cacheproof/engine';
import { runCli } from '../src/cli/main.ts';

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
if (reason !== null) console.log(`SKIP lab-predict: ${reason}`);

// Plan: 20 s baseline (cache off), switch, 10 s warm-up, 20 s measure, sampled every second.
const BASELINE_S = 20;
const WARMUP_S = 10;
const MEASURE_S = 20;
// The workload: random 4 KiB reads at 800/s over a 4 MiB hot set (docs/probe.md § lab workload).
const HOT_MB = 4;

const run = (...args: string[]): string => execFileSync(probe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, capture: string, test: (s: Record<string, unknown>) => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = JSON.parse(run('status', capture, '--json')) as Record<string, unknown>;
    if (test(s)) return;
    if (s['state'] === 'failed' || s['state'] === 'stale') throw new Error(`recorder ${String(s['state'])} while waiting for ${what}: ${String(s['error'])}`);
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s)}`);
    await sleep(250);
  }
}

describe.skipIf(reason !== null)('prediction from the traced baseline against the measured window (lab)', () => {
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

      workload = spawn(probe, ['lab', 'workload', '--dir', labDir, '--seconds', String(BASELINE_S + WARMUP_S + MEASURE_S + 15), '--hot-mb', String(HOT_MB), '--read-only'],
        { stdio: 'ignore', detached: true });
      await sleep(1000);
      run('record', '--out', capture, '--devices', `${front},${backing}`, '--interval', '1s', '--trace',
        '--plan', `baseline=${BASELINE_S}s,warmup=${WARMUP_S}s,measure=${MEASURE_S}s`, '--switch', 'manual', '--detach');
      await waitFor('the switch phase', capture, (s) => s['phase'] === 'switch', (BASELINE_S + 15) * 1000);
      // The prediction, before the cache is switched on: the lab's cache is the page cache,
      // which holds the whole front device, so its size is the front's.
      const cacheBytes = lab.sizeMb * 1024 * 1024;
      const p = JSON.parse(run('predict', capture, '--size', `${cacheBytes}B`, '--store', '--json')) as { devices: string[]; reads: number; iosSavedPercent: number; warmupS: number };
      expect(p.devices).toEqual([front]);
      expect(p.warmupS).toBe(WARMUP_S);
      expect(p.reads, 'the baseline trace holds the workload\'s reads').toBeGreaterThan(1000);
      run('lab', 'switch', 'on', '--dir', labDir);
      run('mark', capture, 'switch', '--note', `lab switch on: losetup --direct-io=off ${front}`);
      await waitFor('the end of the plan', capture, (s) => s['state'] === 'done', (WARMUP_S + MEASURE_S + 15) * 1000);

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
