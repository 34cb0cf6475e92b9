/**
 * Plausibility warnings (issue 36) on the command line, through the real probe: data that cannot
 * support a figure is flagged, not reported plainly.
 * - Generated Windows Performance Monitor logs (one PhysicalDisk and its volume's free space) of
 *   10 s, 60 s and 10 minutes, imported with `cacheproof-probe import perfmon`: `cacheproof analyze
 *   --profile` warns that they are shorter than an hour (they used to raise no warning), and their
 *   volume's growth and days to full are withheld with `capacity-short-fit`; the workload-profile
 *   report (`cacheproof report --profile`, HTML) lists the warning too.
 * - The real CloudPhysics block trace (../shared/realdata/block_traces, 113,872 requests whose
 *   microsecond times span 7.2 ms), imported with `import-trace cloudphysics`: its collapsed times
 *   warn, and no rate over 10 × the catalog's fastest drive is shown without a warning; the real
 *   MSN trace (149,999 requests over 30 s) is not flagged.
 * - The real PerfView TraceEvent dump of 10 disk requests (../shared/realdata/etw), imported with
 *   `import-trace traceevent` and predicted with `predict --store`: the prediction warns.
 * Without the probe or the real files: skipped with a message, a failure in CI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkloadProfile } from '@cacheproof/engine';
import { runCli } from '../src/cli/main.ts';
import { shippedRateLimit } from '../src/host/drive-catalog.ts';
import { warningCatalog } from '../src/shared/i18n/warnings.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const CLOUDPHYSICS = realdata('block_traces', 'libcachesim_cloudPhysicsIO.csv');
const PERFVIEW = realdata('etw', 'microsoft_perfview__net.4.5.x64.baseline.txt');
const MSN = realdata('block_traces', 'huaicheng_MSN-FS-30s-ms.trace');
const skip = skipped('plausibility-cli', probeAbsent() ?? realdataAbsent(CLOUDPHYSICS, PERFVIEW, MSN));
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-plausibility-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function profileOf(capture: string): Promise<{ p: WorkloadProfile; text: string }> {
  let out = '', err = '';
  const code = await runCli(['analyze', capture, '--profile', '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  expect(code, err).toBe(0);
  let text = '';
  expect(await runCli(['analyze', capture, '--profile'], { stdout: (s) => (text += s), stderr: () => undefined })).toBe(0);
  return { p: JSON.parse(out) as WorkloadProfile, text };
}

/** A PerfMon log of `seconds` sampled every `stepS` (first row blank, as PDH writes it): 120 reads and 30 writes per s, C: losing 1 MB a step. */
function perfmonLog(seconds: number, stepS: number): string {
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...['Disk Reads/sec', 'Disk Writes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write'].map((c) => `"\\\\SRV1\\PhysicalDisk(0 C:)\\${c}"`),
    '"\\\\SRV1\\LogicalDisk(C:)\\% Free Space"', '"\\\\SRV1\\LogicalDisk(C:)\\Free Megabytes"'];
  const lines = [head.join(',')];
  const t0 = Date.UTC(2026, 10, 2, 9, 0, 0);
  for (let r = 0; r * stepS <= seconds; r++) {
    const d = new Date(t0 + r * stepS * 1000);
    const p2 = (n: number): string => String(n).padStart(2, '0');
    const t = `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.000`;
    const freeMb = 50_000 - r;
    const vals = r === 0 ? [' ', ' ', ' ', ' '] : [120, 30, 0.004, 0.006];
    lines.push([`"${t}"`, ...[...vals, (freeMb / 100_000) * 100, freeMb].map((v) => `"${v}"`)].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.skipIf(skip)('plausibility warnings through the real probe', () => {
  it.each([[10, 1], [60, 1], [600, 10]])('a %i s PerfMon log warns that it is shorter than an hour', async (seconds, stepS) => {
    const log = join(dir, `perfmon-${seconds}s.csv`), capture = join(dir, `perfmon-${seconds}s.capture`);
    writeFileSync(log, perfmonLog(seconds, stepS));
    execFileSync(releaseProbe, ['import', 'perfmon', log, '--out', capture], { stdio: 'ignore' });
    const { p, text } = await profileOf(capture);
    expect(p.window.seconds).toBe(seconds);
    expect(p.warnings.find((w) => w.code === 'very-short-log')?.params).toEqual({ seconds });
    expect(text).toContain(warningCatalog.en['very-short-log'].replace('{seconds}', String(seconds)));
    expect(text).not.toContain('raised no warning');
    // the volume's growth comes from the same span: withheld ("full in N days" from a minute is no forecast), and said so
    const c = p.capacity.volumes.find((v) => v.volume === 'C:');
    expect([c?.growthBytesPerDay, c?.daysToFull, c?.reasons]).toEqual([null, null, { growthBytesPerDay: 'short-fit', daysToFull: 'short-fit' }]);
    expect(c?.fitGrowthBytesPerDay).toBeGreaterThan(0);
    const fit = p.warnings.find((w) => w.code === 'capacity-short-fit');
    expect(fit?.params?.['volume']).toBe('C:');
    expect(fit?.params?.['fitHours']).toBeCloseTo(seconds / 3600, 9);
    // the workload-profile report (HTML) lists the same warning, not "raised no warning"
    const html = join(dir, `perfmon-${seconds}s.html`);
    let err = '';
    expect(await runCli(['report', capture, '--profile', '--format', 'html', '--out', html], { stdout: () => undefined, stderr: (s) => (err += s) }), err).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(warningCatalog.en['very-short-log'].replace('{seconds}', String(seconds)));
    expect(page).not.toContain('raised no warning');
  }, 60_000);

  it('the CloudPhysics trace\'s collapsed times warn; no rate beyond 10 × the fastest drive goes unwarned', async () => {
    const capture = join(dir, 'cloudphysics.capture');
    execFileSync(releaseProbe, ['import-trace', 'cloudphysics', CLOUDPHYSICS, '--out', capture], { stdio: 'ignore' });
    const { p, text } = await profileOf(capture);
    const limit = shippedRateLimit();
    if (limit === undefined) throw new Error('the shipped catalog has no IOPS figure');
    const w = p.warnings.find((x) => x.code === 'trace-times-collapsed');
    expect(w?.device).toBe('vscsi');
    expect(w?.params).toMatchObject({ requests: 113_872, spanMs: 7.2, limitIops: limit.limitIops });
    expect(w?.params?.['iops']).toBeCloseTo(113_872 / 0.0072, 3);
    expect(w?.params?.['iops'] as number).toBeGreaterThan(limit.limitIops);
    expect(text).toContain('The trace’s times collapsed');
    // every interval rate shown is under the limit, or carries implausible-iops
    const max = p.appFacing.percentiles.iops?.max ?? 0;
    if (max > limit.limitIops) expect(p.warnings.map((x) => x.code)).toContain('implausible-iops');
    // and under the MB/s limit (the catalog's fastest sourced sequential read × 10), or carries implausible-mbps
    expect(limit.mbps, 'the shipped catalog sources a sequential read').not.toBeNull();
    const maxMb = p.appFacing.percentiles.mbps?.max ?? 0;
    if (maxMb > (limit.mbps?.limitMBps ?? Infinity)) expect(p.warnings.map((x) => x.code)).toContain('implausible-mbps');
    // the profile is one second long as well
    expect(p.warnings.map((x) => x.code)).toContain('very-short-log');
  }, 120_000);

  it('the MSN trace, 149,999 requests over its real 30 s, is not taken for collapsed', async () => {
    const capture = join(dir, 'msn.capture');
    execFileSync(releaseProbe, ['import-trace', 'msn', MSN, '--out', capture], { stdio: 'ignore' });
    const { p } = await profileOf(capture);
    expect(p.warnings.map((w) => w.code)).not.toContain('trace-times-collapsed');
    expect(p.warnings.map((w) => w.code)).not.toContain('implausible-iops');
    expect(p.warnings.map((w) => w.code)).toContain('very-short-log');
  }, 60_000);

  it('a prediction from the 10 requests of the PerfView dump warns', async () => {
    const capture = join(dir, 'perfview.capture');
    execFileSync(releaseProbe, ['import-trace', 'traceevent', PERFVIEW, '--out', capture], { stdio: 'ignore' });
    execFileSync(releaseProbe, ['predict', capture, '--size', '1MiB', '--store', '--quiet', '--threads', '1'], { stdio: 'ignore' });
    const { p, text } = await profileOf(capture);
    expect(p.warnings.find((w) => w.code === 'prediction-few-requests')?.params).toEqual({ requests: 10, minimumRequests: 1000 });
    expect(text).toContain(warningCatalog.en['prediction-few-requests'].replace('{requests}', '10').replace('{minimumRequests}', '1,000'));
  }, 60_000);
});
