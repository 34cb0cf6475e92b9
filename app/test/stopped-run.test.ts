/**
 * A run stopped before the switch: "Open what was recorded" says why there is no analysis (no
 * measure window) and what to do, by its own error code (`analysis-no-measure`, translated),
 * and "analyze the baseline alone" works: `run.openProfile` returns the baseline's window
 * summary figures, the same ones the engine's `profileWorkload` computes from the capture.
 * The run is recorded by the real probe on a real block device of this machine (reading
 * /proc/diskstats needs no root), through the host's services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileWorkload, type WorkloadProfile } from '@cacheproof/engine';
import type { DeviceEntry, ProfileView, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { probePath } from '../src/host/paths.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { common } from '../src/shared/i18n/common.ts';
import { profile } from '../src/shared/i18n/profile.ts';
import { LANGS } from '../src/shared/i18n/types.ts';
import { builtCli, root } from './support/built-cli.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const probe = probePath(root);
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-stopped-'));
let capture: string | null = null;

function host(): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir: dir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

let runId = '';
let disk = '';

beforeAll(async () => {
  if (probe === null) return;
  const d = host();
  const { devices } = await call<{ devices: DeviceEntry[] }>(d, 'devices.list', {});
  const found = devices.find((x) => !x.isPartition && x.kind !== 'loop' && (x.sizeBytes ?? 0) > 0)?.name ?? devices[0]?.name;
  if (found === undefined) throw new Error('no block device to record on this machine');
  disk = found;
  const plan: RunPlan = { name: 'stopped in baseline', front: null, backing: [disk], baselineSeconds: 600, warmupSeconds: 60, measureSeconds: 600, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic' };
  const s = await call<RunStatus>(d, 'run.start', { plan });
  runId = s.id;
  capture = s.captureFile;
  let st: RunStatus | null = null;
  await waitFor(`run ${runId} to record 4 samples`, 20_000, async () => {
    st = await call<RunStatus>(d, 'run.status', { runId });
    return st.samples >= 4 ? true : undefined;
  }, () => JSON.stringify(st), 250);
  const stopped = await call<RunStatus>(d, 'run.stop', { runId });
  expect(stopped.state).toBe('stopped');
}, 60_000);

afterAll(() => {
  if (capture !== null && probe !== null) spawnSync(probe, ['stop', capture], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipped('stopped-run', probe === null || !existsSync(probe) ? 'the probe is not built (cargo build --release --manifest-path native/Cargo.toml)' : null))('a run stopped in its baseline (real probe)', () => {
  it('"Open what was recorded" fails with analysis-no-measure: the reason and what to do, not "could not be computed"', async () => {
    const r = await host()('run.open', { runId });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('analysis-no-measure');
    expect(r.error.message).toContain('The capture has no measure phase and no measure window was given.');
    expect(r.error.message).toContain('It holds a baseline alone (a log imported with no switch, or a run stopped before the cache was switched on)');
    expect(r.error.message).toContain('For a before/after, resume the run');
    for (const lang of LANGS) expect(common[lang]['err.analysis-no-measure']).not.toBe(common[lang]['err.analysis-failed']);
    expect(common.en['err.analysis-no-measure']).toContain('Resume the run');
    expect(common.en['err.analysis-no-measure']).toContain('analyze the baseline alone as a workload profile');
    // The CLI says the same reason.
    // No --backing: the capture carries the plan's roles (record --role).
    const cli = await builtCli('analyze', capture as string);
    expect(cli.code).toBe(5);
    expect(cli.err, cli.err).toContain('The capture has no measure phase');
    expect(cli.err, cli.err).toContain('cacheproof analyze CAPTURE --profile gives its workload profile');
  });

  it('"Analyze the baseline alone" gives the baseline\'s window figures (engine profileWorkload), no before/after', async () => {
    const view = await call<ProfileView>(host(), 'run.openProfile', { runId });
    const p = view.profile as unknown as WorkloadProfile;
    expect(p.kind).toBe('workload-profile');
    expect(p.window.source).toBe('baseline-phase');
    expect(p.window.seconds).toBeGreaterThan(2);
    expect(p.mode).toBe('backing-only');
    expect(p.appFacing.okIntervals).toBeGreaterThanOrEqual(3);
    expect(p.appFacing.means.iops).not.toBeNull();
    expect(p.perDevice).toHaveLength(1);
    expect(view.series.length).toBeGreaterThan(0);
    expect(JSON.stringify(p)).not.toMatch(/"before"|"after"|iosSaved/);
    // Exactly what the engine computes from the capture (one implementation of each figure).
    const direct = profileWorkload(openCapture(capture as string).data);
    expect(direct.ok).toBe(true);
    expect(JSON.parse(JSON.stringify(direct))).toEqual(JSON.parse(JSON.stringify(p)));
    // Every string of the profile screen in every language.
    for (const lang of LANGS) expect(Object.keys(profile[lang]).sort()).toEqual(Object.keys(profile.en).sort());
  });

  it('a capture with no baseline either cannot be profiled from an unknown run', async () => {
    const r = await host()('run.openProfile', { runId: 'no-such-run' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('run-not-found');
  });
});
