/**
 * A device the person names takes that role; the roles the probe guessed only fill what the
 * person did not say. On a capture of one raw loop device (the probe guesses it `front`),
 * `--backing loopN` alone means: loopN is backing, there is no front, backing-only mode, and the
 * output says so. Checked through the real built CLI (`analyze`, `report`) and the app's
 * analysis of a run whose plan names the backing device only.
 *
 * The captures are real probe recordings of one raw loop device: samples/fixtures/capture-v2.sqlite
 * (recorded by samples/fixtures/record-capture-v2.sh) and, as root, one recorded here on a loop
 * device made for the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadAnalysisView } from '../src/host/analysis.ts';
import { analyzeOptionsOf } from '../src/host/runs/supervisor.ts';
import type { RunPlan } from '../src/shared/contract.ts';
import { builtCli, root } from './support/built-cli.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const fixture = join(root, 'samples', 'fixtures', 'capture-v2.sqlite');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-roles-'));
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const onPath = (tool: string): boolean => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
// without root, the probe, losetup or fio: skipped with a message, and a failure in CI
const cannotRecord = skipped('explicit-roles (a capture recorded here)', !isRoot ? 'needs root (a loop device)'
  : !existsSync(probe) ? `the probe is not built (${probe})` : ['losetup', 'fio'].map((t) => (onPath(t) ? null : `${t} is not installed`)).find((r) => r !== null) ?? null);
let loop: string | null = null;
let recorded: string | null = null;

let lastStatus = '';
/** The probe's `status --json` of a capture (the last one read is kept for a timeout's message). */
function status(capture: string): Record<string, unknown> {
  const st = spawnSync(probe, ['status', capture, '--json'], { encoding: 'utf8' });
  lastStatus = st.status === 0 ? st.stdout.trim() : `exit ${String(st.status)}: ${st.stderr.trim()}`;
  return st.status === 0 ? (JSON.parse(st.stdout) as Record<string, unknown>) : {};
}

/** Records ~7 s of one raw loop device under a small random read/write load, with the real probe. */
async function recordOneLoopDevice(): Promise<string> {
  const img = join(dir, 'disk.img');
  const dd = spawnSync('dd', ['if=/dev/zero', `of=${img}`, 'bs=1M', 'count=32', 'status=none']);
  if (dd.status !== 0) throw new Error(`dd: ${dd.stderr.toString()}`);
  const ls = spawnSync('losetup', ['-f', '--show', '--direct-io=on', img], { encoding: 'utf8' });
  if (ls.status !== 0) throw new Error(`losetup: ${ls.stderr}`);
  loop = ls.stdout.trim();
  const name = loop.replace('/dev/', '');
  const capture = join(dir, 'one-raw.capture');
  const rec = spawnSync(probe, ['record', '--out', capture, '--devices', name, '--interval', '1s',
    '--plan', 'baseline=3s,warmup=1s,measure=3s', '--switch', 'manual', '--detach'], { encoding: 'utf8' });
  if (rec.status !== 0) throw new Error(`cacheproof-probe record: ${rec.stderr}`);
  const load = spawn('fio', ['--name=roles', `--filename=${loop}`, '--direct=1', '--ioengine=libaio', '--iodepth=4', '--rw=randrw', '--rwmixread=70',
    '--bs=16k', '--size=16M', '--time_based', '--runtime=9', '--rate_iops=300', '--output=/dev/null'], { stdio: 'ignore' });
  const loadDone = new Promise<void>((r) => load.once('exit', () => r()));
  // the baseline is over when the recorder waits for the switch (phase "switch")
  await waitFor('the recorder to wait for the switch (phase "switch")', 20_000, () => (status(capture)['phase'] === 'switch' ? true : undefined), () => lastStatus, 200);
  const mark = spawnSync(probe, ['mark', capture, 'switch'], { encoding: 'utf8' });
  if (mark.status !== 0) throw new Error(`cacheproof-probe mark: ${mark.stderr}`);
  await waitFor('the recording to be done (state "done")', 30_000, () => (status(capture)['state'] === 'done' ? true : undefined), () => lastStatus, 200);
  await loadDone;
  return capture;
}

beforeAll(async () => {
  if (!cannotRecord) recorded = await recordOneLoopDevice();
}, 60_000);

afterAll(() => {
  if (recorded !== null) spawnSync(probe, ['stop', recorded]);
  if (loop !== null) spawnSync('losetup', ['-d', loop]);
  rmSync(dir, { recursive: true, force: true });
});

function onlyDevice(capture: string): string {
  const db = new Database(capture, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, role FROM devices').all() as { name: string; role: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.role).toBe('front'); // what the probe guessed for a raw device
    return rows[0]?.name as string;
  } finally {
    db.close();
  }
}

function checks(capture: () => string): void {
  it('analyze --backing DEV: DEV is backing, no front, backing-only, and the output says why', async () => {
    const path = capture();
    const dev = onlyDevice(path);
    const j = await builtCli('analyze', path, '--backing', dev, '--json');
    expect(j.err).toBe('');
    expect(j.code).toBe(0);
    const r = JSON.parse(j.out);
    expect(r.mode).toBe('backing-only');
    expect(r.devices.front).toEqual([]);
    expect(r.devices.backing).toEqual([dev]);
    const codes = (r.warnings as { code: string; params?: { device?: string } }[]).map((w) => w.code);
    expect(codes.slice(0, 2)).toEqual(['front-named-backing', 'backing-only-mode']);
    expect(r.warnings[0].params.device).toBe(dev);
    expect(r.warnings[0].message).toContain('with no front device left the analysis is backing-only');

    const text = await builtCli('analyze', path, '--backing', dev);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Mode: backing device only (windows compared per second; the workload may have changed)');
    expect(text.out).toContain(`Device ${dev} was recorded as the front device, but you named it a backing device, so it is analyzed as backing.`);
    const fr = await builtCli('analyze', path, '--backing', dev, '--lang', 'fr');
    expect(fr.out).toContain(`Le périphérique ${dev} a été enregistré comme frontal`);

    // Without options the guessed role stands (front, so nothing is backing); naming it in both groups is still refused.
    const plain = await builtCli('analyze', path, '--json');
    expect(plain.code).toBe(5);
    expect(plain.err).toContain('The capture has no backing device; name the backing devices explicitly.');
    const both = await builtCli('analyze', path, '--front', dev, '--backing', dev);
    expect(both.code).toBe(2);
    expect(both.err).toContain(`Device "${dev}" cannot be both front and backing.`);
  });

  it('report --backing DEV: the report is made, in backing-only mode, saying why', async () => {
    const path = capture();
    const dev = onlyDevice(path);
    const out = join(dir, `r-${dev}-${Math.random().toString(36).slice(2)}.html`);
    const r = await builtCli('report', path, '--backing', dev, '--format', 'html', '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`Device ${dev} was recorded as the front device, but you named it a backing device, so it is analyzed as backing.`);
  });

  it('the app: a run whose plan names only the backing device is analyzed backing-only', async () => {
    const path = capture();
    const dev = onlyDevice(path);
    const plan: RunPlan = { name: 'roles', front: null, backing: [dev], baselineSeconds: 3, warmupSeconds: 1, measureSeconds: 3, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic' };
    const view = await loadAnalysisView(path, { id: 'roles', name: 'roles', isSample: false }, analyzeOptionsOf(plan), null);
    const result = view.result as unknown as { mode: string; devices: { front: string[]; backing: string[] }; warnings: { code: string }[] };
    expect(result.mode).toBe('backing-only');
    expect(result.devices).toMatchObject({ front: [], backing: [dev] });
    expect(result.warnings.map((w) => w.code)).toContain('front-named-backing');
    expect(view.groupSeries?.map((g) => g.group)).toEqual(['backing']);
  });
}

describe('explicit roles on the shipped one-raw-device capture (capture-v2 fixture, recorded by the probe)', () => {
  checks(() => fixture);
});

describe.skipIf(cannotRecord)('explicit roles on a one-raw-device capture recorded here (needs root, losetup, fio and the built probe)', () => {
  checks(() => {
    if (recorded === null) throw new Error('the capture was not recorded (see beforeAll)');
    return recorded;
  });
});
