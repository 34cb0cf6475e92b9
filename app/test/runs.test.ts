/**
 * The run supervisor through the contract, with the real probe recording real block devices
 * (recording needs only read access to /proc and /sys): start, live series, the manual switch,
 * a finished run analysed, re-attaching from a fresh host, a recorder killed with SIGKILL
 * (probe-died, nothing lost, resumed), and the expected failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { DeviceEntry, LiveSeries, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { findRepoRoot, probePath } from '../src/host/paths.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { runCli } from '../src/cli/main.ts';
import { analyzeOptionsOf, progressOf } from '../src/host/runs/supervisor.ts';
import { waitFor, skipped } from '../../test/support/testenv.ts';

const root = findRepoRoot(__dirname);
const probe = probePath(root);
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-runs-'));
const started: string[] = [];

function host(p: string | null = probe): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe: p, dataDir: dir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

async function code(d: Dispatch, channel: string, payload: unknown): Promise<string | null> {
  const r = await d(channel, payload);
  return r.ok ? null : r.error.code;
}

async function until(d: Dispatch, runId: string, what: string, ok: (s: RunStatus) => boolean, timeoutMs = 20_000): Promise<RunStatus> {
  let s: RunStatus | null = null;
  return waitFor(what, timeoutMs, async () => {
    s = await call<RunStatus>(d, 'run.status', { runId });
    return ok(s) ? s : undefined;
  }, () => `status ${JSON.stringify(s)}`, 250);
}

function plan(over: Partial<RunPlan>): RunPlan {
  return { name: 'test run', front: null, backing: [], baselineSeconds: 2, warmupSeconds: 1, measureSeconds: 2, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic', ...over };
}

/** A whole disk the probe lists with a size, to record (any will do: the figures are not checked here). */
let disk: string | null = null;

beforeAll(async () => {
  if (!probe) return;
  const devices = await call<{ devices: DeviceEntry[] }>(host(), 'devices.list', {});
  disk = devices.devices.find((d) => !d.isPartition && d.kind !== 'loop' && (d.sizeBytes ?? 0) > 0)?.name ?? devices.devices[0]?.name ?? null;
});

afterAll(async () => {
  const d = host();
  for (const runId of started) await d('run.stop', { runId });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipped('runs', probe ? null : 'the probe is not built (cargo build --release --manifest-path native/Cargo.toml)'))('runs with the real probe', () => {
  it('lists block devices with stacking and roles, without empty loop slots', async () => {
    const { devices } = await call<{ devices: DeviceEntry[] }>(host(), 'devices.list', {});
    expect(devices.length).toBeGreaterThan(0);
    expect(devices.every((d) => d.sizeBytes !== 0)).toBe(true);
    const proc = readFileSync('/proc/diskstats', 'utf8');
    for (const d of devices) {
      expect(d.majMin).toMatch(/^\d+:\d+$/);
      const [maj, min] = d.majMin.split(':');
      expect(proc).toMatch(new RegExp(`^\\s*${maj}\\s+${min}\\s+${d.name.replace(/[/.]/g, '\\$&')}\\s`, 'm'));
    }
  });

  it('runs a plan end to end: live series, the manual switch, done at 100%, analysed like the CLI, headline kept', async () => {
    if (!disk) throw new Error('no block device to record');
    const d = host();
    const s0 = await call<RunStatus>(d, 'run.start', { plan: plan({ name: 'whole plan', backing: [disk] }) });
    started.push(s0.id);
    expect(['starting', 'running']).toContain(s0.state);
    expect(s0.captureFile).toBe(join(dir, 'runs', `${s0.id}.capture`));
    expect(existsSync(join(dir, 'runs', `${s0.id}.json`))).toBe(true);

    const waiting = await until(d, s0.id, 'the switch to be due', (s) => s.state === 'waiting-switch');
    expect(waiting.phase).toBe('switch');
    expect(waiting.phasePercent).toBeNull();
    expect(waiting.totalPercent).toBeCloseTo((2 / 5) * 100, 5);
    expect(waiting.switchMs).toBeNull();

    const live = await call<LiveSeries>(d, 'run.series', { runId: s0.id, sinceMs: 0 });
    const s = live.series.find((x) => x.device === disk);
    expect(s?.role).toBe('backing');
    expect(s?.t.length).toBeGreaterThanOrEqual(2);
    expect(s?.iops.every((v) => v === null || v >= 0)).toBe(true);
    expect(live.phases.map((p) => p.name)).toEqual(['baseline']);
    // Incremental: nothing after the last point yet, or only newer points.
    const last = s?.t[s.t.length - 1] ?? 0;
    const more = await call<LiveSeries>(d, 'run.series', { runId: s0.id, sinceMs: last });
    expect(more.series.every((x) => x.t.every((t) => t > last))).toBe(true);

    const t0 = Date.now();
    const confirmed = await call<RunStatus>(d, 'run.confirmSwitch', { runId: s0.id });
    expect(confirmed.switchMs).not.toBeNull();
    expect(Math.abs((confirmed.switchMs ?? 0) - t0)).toBeLessThan(5000);

    const done = await until(d, s0.id, 'the run to finish', (x) => x.state === 'done');
    expect(done.totalPercent).toBe(100);
    expect(done.phasePercent).toBe(100);
    expect(done.phase).toBe('done');
    const phases = (await call<LiveSeries>(d, 'run.series', { runId: s0.id, sinceMs: 0 })).phases;
    expect(phases.map((p) => p.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    expect(phases.find((p) => p.name === 'switch')?.startMs).toBe(confirmed.switchMs);

    // The host analyses a finished run once in the background (for Home's headline) and caches it,
    // so the first opening of its results is already a cache hit.
    const recFile = join(dir, 'runs', `${s0.id}.json`);
    const headline = (): unknown => (JSON.parse(readFileSync(recFile, 'utf8')) as { headline: unknown }).headline;
    await waitFor('the background analysis to keep the run\'s headline', 20_000, () => headline() ?? undefined, () => JSON.stringify(headline()), 100);
    const view = await call<{ name: string; result: unknown; captureFile: string; fromCache?: boolean }>(d, 'run.open', { runId: s0.id });
    expect(view.fromCache).toBe(true);
    expect(view.name).toBe('whole plan');
    // The same figures as `cacheproof analyze CAPTURE --json` with the plan's roles and targets,
    // whatever the disk did in the two windows (any saving, none, or less I/O before than after):
    // both as JSON, as each leaves the host (the CLI prints JSON; the browser host sends JSON).
    let out = '';
    const exit = await runCli(['analyze', view.captureFile, '--json', '--backing', disk], { stdout: (x) => (out += x), stderr: () => undefined });
    expect(exit).toBe(0);
    // (the CLI's JSON adds the decision block, `decision`, made from these figures: docs/analyze-json.md § decision)
    const { decision, ...cli } = JSON.parse(out) as { decision: unknown; benefit: { iosSavedPercent: { value: number | null } } };
    expect(decision).toBeDefined();
    expect(JSON.parse(JSON.stringify(view.result))).toEqual(cli);
    expect(analyzeOptionsOf(done.plan)).toEqual({ backing: [disk] });
    expect(analyzeOptionsOf({ ...done.plan, targets: 'exchange-db' })).toEqual({ backing: [disk], targets: 'exchange-db' });
    expect(analyzeOptionsOf({ ...done.plan, targets: 'custom', customTargets: { readMs: 12.5, writeMs: 5, warnMs: 4 } })).toEqual({ backing: [disk], targets: { readMs: 12.5, writeMs: 5, warnMs: 4 } });
    const rec = JSON.parse(readFileSync(join(dir, 'runs', `${s0.id}.json`), 'utf8')) as { headline: { iosSavedPercent: number | null } | null };
    expect(rec.headline).not.toBeNull();
    // the headline is the CLI's I/Os saved (null when it has none), whatever its sign
    const saved = cli.benefit.iosSavedPercent.value;
    expect(rec.headline?.iosSavedPercent ?? null).toBe(saved !== null && Number.isFinite(saved) ? saved : null);
    const listed = (await call<{ runs: RunStatus[] }>(host(), 'run.list', {})).runs.find((r) => r.id === s0.id);
    expect(listed?.iosSavedPercent ?? null).toBe(rec.headline?.iosSavedPercent ?? null);
  }, 40_000);

  it('re-attaches from a fresh host, and a recorder killed with SIGKILL is probe-died, loses nothing and resumes', async () => {
    if (!disk) throw new Error('no block device to record');
    const s0 = await call<RunStatus>(host(), 'run.start', { plan: plan({ name: 'killed', front: disk, baselineSeconds: 600 }) });
    started.push(s0.id);
    // A new host (the app restarted) knows the run, running first in the list.
    const fresh = host();
    const before = await until(fresh, s0.id, 'three samples', (s) => s.samples >= 3);
    const list = (await call<{ runs: RunStatus[] }>(fresh, 'run.list', {})).runs;
    expect(list[0]?.id).toBe(s0.id);
    expect(list[0]?.state).toBe('running');

    const st = JSON.parse(execFileSync(probe ?? '', ['status', s0.captureFile, '--json'], { encoding: 'utf8' })) as { pid: string };
    const pid = Number(st.pid);
    expect(pid).toBeGreaterThan(1);
    process.kill(pid, 'SIGKILL');
    const died = await until(fresh, s0.id, 'probe-died', (s) => s.state === 'probe-died', 10_000);
    expect(died.samples).toBeGreaterThanOrEqual(before.samples);
    expect(died.error).toMatch(/no longer running/);
    expect(died.hint).toContain('record --resume');
    // Nothing recorded is lost: the capture still opens with its intervals.
    const intervals = openCapture(s0.captureFile).data.intervals.length;
    expect(intervals).toBeGreaterThanOrEqual(before.samples - 1);

    const resumed = await call<RunStatus>(fresh, 'run.resume', { runId: s0.id });
    expect(['starting', 'running']).toContain(resumed.state);
    const again = await until(fresh, s0.id, 'new samples after resuming', (s) => s.state === 'running' && s.samples > died.samples);
    expect(again.warnings.map((w) => w.code)).toContain('resumed');
    const stopped = await call<RunStatus>(fresh, 'run.stop', { runId: s0.id });
    expect(stopped.state).toBe('stopped');
    expect(stopped.samples).toBeGreaterThanOrEqual(again.samples);
  }, 40_000);

  it('refuses unknown runs, file-like ids, plans without devices, and unknown devices, each with its code', async () => {
    const d = host();
    expect(await code(d, 'run.status', { runId: 'r-20260101-000000-abcdef' })).toBe('run-not-found');
    expect(await code(d, 'run.status', { runId: '../../etc/passwd' })).toBe('run-not-found');
    expect(await code(d, 'run.series', { runId: '..', sinceMs: 0 })).toBe('run-not-found');
    expect(await code(d, 'run.start', { plan: plan({}) })).toBe('no-devices-chosen');
    expect(await code(d, 'run.start', { plan: plan({ backing: ['--all'] }) })).toBe('bad-request');
    const unknown = await d('run.start', { plan: plan({ front: 'nosuchdisk9' }) });
    expect(unknown.ok ? null : unknown.error.code).toBe('probe-failed');
    expect(unknown.ok ? '' : unknown.error.message).toContain('nosuchdisk9');
    expect(await code(host(null), 'run.start', { plan: plan({ front: 'vda' }) })).toBe('probe-missing');
    // A damaged registry file is left alone and skipped, never fatal to the list.
    writeFileSync(join(dir, 'runs', 'r-20260101-000000-000000.json'), '{ not json');
    const list = await call<{ runs: RunStatus[] }>(d, 'run.list', {});
    expect(list.runs.some((r) => r.id === 'r-20260101-000000-000000')).toBe(false);
    expect(readdirSync(join(dir, 'runs'))).toContain('r-20260101-000000-000000.json');
  });
});

describe('progress of a run', () => {
  const p = plan({ baselineSeconds: 100, warmupSeconds: 20, measureSeconds: 80 });
  const close = (got: ReturnType<typeof progressOf>, want: ReturnType<typeof progressOf>): void => {
    for (const k of Object.keys(want) as (keyof typeof want)[]) {
      const w = want[k];
      if (w === null) expect(got[k]).toBeNull();
      else expect(got[k]).toBeCloseTo(w, 9);
    }
  };
  it('splits the plan percent into the phase and the whole run', () => {
    close(progressOf(p, 'running', 'baseline', 25, 150), { phasePercent: 50, phaseEtaSeconds: 50, totalPercent: 25, totalEtaSeconds: 150 });
    close(progressOf(p, 'waiting-switch', 'switch', 50, null), { phasePercent: null, phaseEtaSeconds: null, totalPercent: 50, totalEtaSeconds: null });
    close(progressOf(p, 'running', 'warmup', 55, 90), { phasePercent: 50, phaseEtaSeconds: 10, totalPercent: 55, totalEtaSeconds: 90 });
    close(progressOf(p, 'running', 'measure', 80, 40), { phasePercent: 50, phaseEtaSeconds: 40, totalPercent: 80, totalEtaSeconds: 40 });
    close(progressOf(p, 'done', 'done', 100, 0), { phasePercent: 100, phaseEtaSeconds: 0, totalPercent: 100, totalEtaSeconds: 0 });
    expect(progressOf(p, 'starting', 'baseline', null, null).totalPercent).toBeNull();
  });
});
