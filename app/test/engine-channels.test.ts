/**
 * The cache-engine channels end to end through the host's dispatch and the real probe
 * (`engine.detect`, `engine.plan`, `run.start` with an adapter, `RunStatus.engine`): the dry run
 * of a `command` adapter, the probe's refusals mapped to one error code each (shell string,
 * program not installed, device not served, device outside the analysis, config missing), and
 * a short scheduled plan switched and restored by a script engine (no root needed), whose
 * status carries the engine's mode and the last step. Skips when the probe is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DetectedEngine, DeviceEntry, EnginePlan, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { findRepoRoot, probePath } from '../src/host/paths.ts';
import { engineErrorCode } from '../src/host/runs/engine.ts';
import { switchArgs } from '../src/host/probe-argv.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const probe = probePath(findRepoRoot(__dirname));
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-engine-channels-'));
const started: string[] = [];
const host = (): Dispatch => createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir: join(dir, 'data') }), (channel, err) => {
  throw new Error(`bug in ${channel}: ${String(err)}`);
});
const d = host();

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}
async function failure(channel: string, payload: unknown): Promise<{ code: string; message: string }> {
  const r = await d(channel, payload);
  if (r.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(r.value)}`);
  return r.error;
}

/** A script engine: on | off | status, its mode in a file beside it (as samples/fixtures/make-capture-v4.sh). */
function scriptEngine(): string {
  const script = join(dir, 'engine.sh');
  writeFileSync(script, '#!/bin/sh\nstate="$(dirname "$0")/state"\ncase "$1" in\n  on|off) echo "$1" > "$state"; echo "engine $1" ;;\n  status) echo "mode: $(cat "$state" 2>/dev/null || echo off)"; echo "read_hits 10 requests"; echo "read_misses 5 requests" ;;\n  *) exit 2 ;;\nesac\n');
  chmodSync(script, 0o755);
  return script;
}
function config(name: string, body: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

afterAll(async () => {
  for (const runId of started) await d('run.stop', { runId });
  rmSync(dir, { recursive: true, force: true });
});

describe('engine error mapping', () => {
  it('maps each of the probe’s refusals (docs/adapters.md sentences) to one code', () => {
    expect(engineErrorCode('adapter config /etc/c.json: field \'enable\' is a shell string ("x --on"); give an argument vector such as ["/usr/sbin/tool", "--on"]: no shell runs it and nothing is substituted')).toBe('engine-shell-string');
    expect(engineErrorCode("/opt/x failed: cannot run '/opt/x': it is not installed (not found on PATH)")).toBe('engine-not-installed');
    expect(engineErrorCode('loop0 is not a bcache device here (found: bcache0); give --device one of those')).toBe('engine-wrong-device');
    expect(engineErrorCode("sdb is not one of the devices the command adapter's config serves (sdc); add it to 'devices' or choose another")).toBe('engine-wrong-device');
    expect(engineErrorCode('the recording has nothing to do with disks')).toBeNull();
  });
  it('passes the switch to record as the adapter, its device and --restore', () => {
    expect(switchArgs({ kind: 'manual' })).toEqual(['--switch', 'manual']);
    expect(switchArgs({ kind: 'adapter', adapter: 'loop-dio', device: 'loop5', config: null, restore: true })).toEqual(['--switch', 'loop-dio', '--engine-device', 'loop5', '--restore']);
    expect(switchArgs({ kind: 'adapter', adapter: 'command', device: 'sdb', config: '/etc/e.json', restore: false })).toEqual(['--switch', 'command:/etc/e.json', '--engine-device', 'sdb']);
  });
});

describe.skipIf(skipped('engine-channels', probe ? null : 'the probe is not built (cargo build --release --manifest-path native/Cargo.toml)'))('engine channels with the real probe', () => {
  it('engine.detect: the engines as the probe lists them', async () => {
    const { engines } = await call<{ engines: DetectedEngine[] }>('engine.detect', {});
    for (const e of engines) expect(e.adapter.length * e.device.length * e.mode.length).toBeGreaterThan(0);
  });

  it('engine.plan: the dry run of a command adapter, nothing run', async () => {
    const script = scriptEngine();
    const path = config('ok.json', { enable: [script, 'on'], disable: [script, 'off'], status: [script, 'status'], parser: 'key-value', devices: ['sdz'] });
    const plan = await call<EnginePlan>('engine.plan', { adapter: 'command', device: 'sdz', config: path });
    expect(plan).toEqual({ adapter: 'command', device: 'sdz', mode: 'off', plans: [
      { action: 'enable', to: 'on', steps: [`run ${script} on`] },
      { action: 'disable', to: 'off', steps: [] },
    ] });
    expect(existsSync(join(dir, 'state'))).toBe(false); // status read, nothing switched
  });

  it('engine.plan: one code per refusal, the probe’s sentence kept', async () => {
    const script = scriptEngine();
    const shell = await failure('engine.plan', { adapter: 'command', device: 'sdz', config: config('shell.json', { enable: 'cachectl --on && sync', disable: [script, 'off'], status: [script, 'status'], devices: ['sdz'] }) });
    expect(shell.code).toBe('engine-shell-string');
    expect(shell.message).toContain("field 'enable' is a shell string");
    const missing = await failure('engine.plan', { adapter: 'command', device: 'sdz', config: config('missing.json', { enable: ['/nonexistent/cachectl', 'on'], disable: ['/nonexistent/cachectl', 'off'], status: ['/nonexistent/cachectl', 'status'], devices: ['sdz'] }) });
    expect(missing.code).toBe('engine-not-installed');
    expect(missing.message).toContain("cannot run '/nonexistent/cachectl': it is not installed (not found on PATH)");
    const wrong = await failure('engine.plan', { adapter: 'command', device: 'sdy', config: config('ok2.json', { enable: [script, 'on'], disable: [script, 'off'], status: [script, 'status'], devices: ['sdz'] }) });
    expect(wrong.code).toBe('engine-wrong-device');
    expect(wrong.message).toContain("sdy is not one of the devices the command adapter's config serves (sdz)");
    const notLoop = await failure('engine.plan', { adapter: 'loop-dio', device: 'sdz', config: null });
    expect(notLoop.code).toBe('engine-wrong-device');
    expect((await failure('engine.plan', { adapter: 'command', device: 'sdz', config: join(dir, 'absent.json') })).code).toBe('engine-config-invalid');
    expect((await failure('engine.plan', { adapter: 'command', device: 'sdz', config: null })).code).toBe('engine-config-invalid');
    // the contract refuses what is not an adapter setting at all
    expect((await failure('engine.plan', { adapter: 'manual', device: 'sdz', config: null })).code).toBe('bad-request');
    expect((await failure('engine.plan', { adapter: 'loop-dio', device: '-rf', config: null })).code).toBe('bad-request');
  });

  it('run.start with an adapter: refused when the engine device is not recorded; otherwise switched and restored on schedule, RunStatus.engine says so', async () => {
    const { devices } = await call<{ devices: DeviceEntry[] }>('devices.list', {});
    const disk = devices.find((x) => !x.isPartition && x.kind !== 'loop' && (x.sizeBytes ?? 0) > 0)?.name ?? devices[0]?.name;
    if (disk === undefined) throw new Error('no block device to record');
    const script = scriptEngine();
    rmSync(join(dir, 'state'), { force: true });
    const path = config('run.json', { enable: [script, 'on'], disable: [script, 'off'], status: [script, 'status'], parser: 'key-value', devices: [disk, 'sdz'] });
    const plan: RunPlan = { name: 'engine run', front: null, backing: [disk], baselineSeconds: 2, warmupSeconds: 1, measureSeconds: 2, intervalMs: 1000, targets: 'generic',
      switch: { kind: 'adapter', adapter: 'command', device: 'sdz', config: path, restore: true } };
    const outside = await failure('run.start', { plan });
    expect(outside.code).toBe('engine-wrong-device');
    expect(outside.message).toMatch(/not part of this analysis/);
    const runs = join(dir, 'data', 'runs');
    expect(existsSync(runs) ? readdirSync(runs).filter((f) => f.endsWith('.capture')) : []).toEqual([]);

    const s0 = await call<RunStatus>('run.start', { plan: { ...plan, switch: { ...plan.switch, device: disk } } });
    started.push(s0.id);
    expect(s0.engine).toMatchObject({ adapter: 'command', device: disk, switch: 'planned', lastAction: null });
    let s = s0;
    await waitFor(`run ${s0.id} to be done`, 30_000, async () => {
      s = await call<RunStatus>('run.status', { runId: s0.id });
      return s.state === 'done' ? true : undefined;
    }, () => JSON.stringify(s), 300);
    expect(s.state).toBe('done');
    expect(s.engine?.switch).toBe('done');
    expect(s.engine?.restore).toBe('done');
    expect(s.engine?.mode).toBe('off');
    expect(s.engine?.lastAction).toMatchObject({ action: 'restore', step: `run ${script} off`, ok: true, exitStatus: 0, modeBefore: 'on', modeAfter: 'off' });
  }, 60_000);
});
