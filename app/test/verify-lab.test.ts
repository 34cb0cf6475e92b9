/**
 * `cacheproof verify` against fio on a real device, as an independent lab checks an analyzer
 * against its load generator: a loop device recorded by the real probe while fio drives it
 * (direct I/O, mixed random reads and writes) with --output-format=json; the capture's reads,
 * writes and bytes equal fio's own totals exactly. Needs root,
 * fio, losetup and the release probe; in CI (CI=true) a missing one fails instead of skipping.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const onPath = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
function skipReason(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (a loop device)';
  for (const tool of ['fio', 'losetup']) if (!onPath(tool)) return `${tool} is not installed`;
  if (!existsSync(probe)) return `${probe} is missing: build it with 'cd native && cargo build --release'`;
  return null;
}
const reason = skipReason();

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-verify-lab-'));
let loop: string | null = null;
afterAll(() => {
  if (loop !== null) spawnSync('losetup', ['-d', loop]);
  rmSync(dir, { recursive: true, force: true });
});
/** The samples the capture holds so far (`status --json`). */
const samplesOf = (capture: string): number => (JSON.parse(execFileSync(probe, ['status', capture, '--json'], { encoding: 'utf8' })) as { samples: number }).samples;

describe.skipIf(skipped('verify-lab', reason))('cacheproof verify against fio on a loop device', () => {
  it('the capture\'s reads, writes and bytes equal fio\'s own totals exactly', async () => {
    const backing = join(dir, 'disk.img');
    execFileSync('truncate', ['-s', '64M', backing]);
    loop = execFileSync('losetup', ['-f', '--show', backing], { encoding: 'utf8' }).trim();
    const dev = loop.replace('/dev/', '');
    const capture = join(dir, 'v.capture');
    execFileSync(probe, ['record', '--out', capture, '--devices', dev, '--interval', '500ms', '--detach'], { stdio: 'pipe' });
    // fio starts once the recorder holds its first sample (the counters fio's I/O is counted from)
    let n = 0;
    await waitFor('the recorder\'s first sample', 20_000, () => ((n = samplesOf(capture)) >= 1 ? true : undefined), () => `${n} samples`, 100);
    const fioJson = join(dir, 'fio.json');
    execFileSync('fio', ['--name=verify', `--filename=${loop}`, '--direct=1', '--rw=randrw', '--rwmixread=70', '--bs=4k', '--size=32M',
      '--ioengine=libaio', '--iodepth=4', '--runtime=3', '--time_based', '--output-format=json', `--output=${fioJson}`], { stdio: 'pipe' });
    // stop once a sample was taken wholly after fio returned (its counters hold fio's last I/O,
    // direct I/O being complete when fio returns): the second sample committed after that moment
    // (the first may have read the counters just before it)
    const atEnd = samplesOf(capture);
    await waitFor('two samples after fio ended', 20_000, () => ((n = samplesOf(capture)) >= atEnd + 2 ? true : undefined), () => `${n} samples, ${atEnd} when fio ended`, 100);
    execFileSync(probe, ['stop', capture], { stdio: 'pipe' });

    let out = '';
    let err = '';
    const code = await runCli(['verify', capture, fioJson, '--device', dev, '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
    expect(err).toBe('');
    expect(code).toBe(0);
    const v = JSON.parse(out) as { rows: { figure: string; source: string; fio: number; capture: number; diffPercent: number }[] };
    const row = (figure: string, source: string) => v.rows.find((r) => r.figure === figure && r.source === source);
    const reads = row('reads', 'disk_util'), writes = row('writes', 'disk_util');
    console.log(`verify-lab: ${JSON.stringify(v.rows)}`);
    // fio's own I/O counts are exact: direct, aligned 4 KiB random I/O on a device only fio used
    // reaches the device one request per I/O, and the capture counts every one of them.
    expect(row('reads', 'jobs')?.fio).toBeGreaterThan(1000);
    expect(row('writes', 'jobs')?.fio).toBeGreaterThan(300);
    for (const f of ['reads', 'writes', 'readBytes', 'writeBytes']) expect(row(f, 'jobs')?.diffPercent, f).toBe(0);
    // fio's disk_util is its own periodic sample of /proc/diskstats (every 250 ms), which can stop
    // short of the run's last requests: shown, and never above what the capture recorded.
    expect(reads?.fio).toBeGreaterThan(0);
    expect(reads?.capture).toBeGreaterThanOrEqual(reads?.fio ?? Infinity);
    expect(writes?.capture).toBeGreaterThanOrEqual(writes?.fio ?? Infinity);

    // The readable table says the same, and a wrong device is one sentence (exit 5).
    let text = '';
    expect(await runCli(['verify', capture, fioJson, '--device', dev], { stdout: (s) => (text += s), stderr: () => undefined })).toBe(0);
    expect(text).toMatch(/reads \(I\/Os\).*0\.00%.*fio jobs/u);
    let bad = '';
    expect(await runCli(['verify', capture, fioJson, '--device', 'sdz'], { stdout: () => undefined, stderr: (s) => (bad += s) })).toBe(5);
    expect(bad).toMatch(/has no interval of device 'sdz' \(it has loop\d+\)/u);
  }, 60_000);
});
