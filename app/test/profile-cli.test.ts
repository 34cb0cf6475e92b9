/**
 * Capacity planning without a cache on the command line: a real Windows Performance Monitor log
 * (typeperf, one PhysicalDisk, ../shared/realdata/perfmon_csv; skipped with a message when it or
 * the probe is absent, a failure in CI) imported with no switch is a baseline alone:
 * - `cacheproof analyze` says so and what to run, with exit code 5 (it cannot compare);
 * - `cacheproof analyze --profile` gives the workload profile: its IOPS is the file's own
 *   "Disk Transfers/sec", each sample's rate over the time since the one before, time-weighted
 *   (docs/import.md), and the text shows the same figure as the JSON;
 * - `cacheproof tco --from-capture` prefills a scenario from that profile (the same p95, read
 *   share and request size), keeps the example's capacity and hit shares (the log records no disk
 *   size and no cache), and says both.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkloadProfile } from '@cacheproof/engine';
import { EXAMPLE_SCENARIO } from '@cacheproof/engine/plan';
import { runCli } from '../src/cli/main.ts';
import { fmtNumber } from '../src/shared/i18n/numbers.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const real = realdata('perfmon_csv', 'dbxtune_GORANS2_typeperf_physicaldisk_from_java_comment.csv');
const probe = releaseProbe;
// without the file or the probe: skipped with a message, and a failure in CI
const skip = skipped('profile-cli', realdataAbsent(real) ?? probeAbsent());

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-profile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

/** The file's PhysicalDisk(0 C:) transfers per second, time-weighted over the intervals between its samples. */
function transfersFromFile(): number {
  const rows = readFileSync(real, 'utf8').trim().split(/\r?\n/u).map((l) => l.split('","').map((f) => f.replace(/^"|"$/gu, '')));
  const col = (rows[0] ?? []).indexOf('\\\\GORANS2\\PhysicalDisk(0 C:)\\Disk Transfers/sec');
  expect(col).toBeGreaterThan(0);
  // "12/29/2020 18:34:28.308": month/day/year (typeperf's US layout); only differences are used
  const t = rows.slice(1).map((r) => {
    const m = /^(\d+)\/(\d+)\/(\d+) (\d+):(\d+):(\d+(?:\.\d+)?)$/u.exec(r[0] ?? '');
    if (m === null) throw new Error(`unexpected time ${r[0]}`);
    return Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), Number(m[4]), Number(m[5])) + Number(m[6]) * 1000;
  });
  let ios = 0;
  let seconds = 0;
  for (let i = 1; i < t.length; i++) {
    const dt = ((t[i] as number) - (t[i - 1] as number)) / 1000;
    ios += Number(rows[i + 1]?.[col]) * dt;
    seconds += dt;
  }
  return ios / seconds;
}

describe.skipIf(skip)('a PerfMon log with no switch on the command line: profile and TCO prefill', () => {
  const capture = join(dir, 'gorans2.capture');

  it('analyze says it is a baseline alone; --profile gives the file\'s own IOPS; tco --from-capture plans from it', async () => {
    execFileSync(probe, ['import', 'perfmon', real, '--out', capture], { stdio: 'ignore' });

    const plain = await cli(['analyze', capture]);
    expect(plain.code).toBe(5);
    expect(plain.err).toContain('It holds a baseline alone');
    expect(plain.err).toContain('cacheproof analyze CAPTURE --profile');

    const json = await cli(['analyze', capture, '--profile', '--json']);
    expect(json.code, json.err).toBe(0);
    const p = JSON.parse(json.out) as WorkloadProfile;
    expect(p.kind).toBe('workload-profile');
    expect(p.devices.backing).toEqual(['PhysicalDisk(0 C:)']);
    const iops = p.appFacing.means.iops as number;
    expect(Math.abs(iops - transfersFromFile()) / transfersFromFile()).toBeLessThan(0.005);

    const text = await cli(['analyze', capture, '--profile']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Baseline only: no before/after');
    expect(text.out).toMatch(new RegExp(`Average IOPS +${fmtNumber('en', iops, 1).replace('.', '\\.')} IOPS`, 'u'));

    const scenario = join(dir, 'gorans2.tco.json');
    const tco = await cli(['tco', '--from-capture', capture, '--out', scenario]);
    expect(tco.code, tco.err).toBe(0);
    expect(tco.err).toContain('does not record its devices’ sizes');
    expect(tco.err).toContain('holds a baseline alone (no switch)');
    const s = JSON.parse(readFileSync(scenario, 'utf8')) as typeof EXAMPLE_SCENARIO & { workload: { iops: { p95: number } } };
    expect(s.workload.iops.p95).toBe(p.appFacing.percentiles.iops?.p95);
    expect(s.workload.readShare).toBeCloseTo((p.appFacing.means.readSharePercent as number) / 100, 12);
    expect(s.workload.capacityBytes).toBe(EXAMPLE_SCENARIO.workload.capacityBytes);
    const cached = EXAMPLE_SCENARIO.configurations.filter((c) => c.cache !== undefined);
    for (const c of cached) expect(s.configurations.find((x) => x.id === c.id)?.cache?.hitShareSource).toBe(c.cache?.hitShareSource);
    // and the plan runs on it
    expect((await cli(['tco', scenario])).code).toBe(0);
  }, 60_000);
});
