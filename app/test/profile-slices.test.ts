/**
 * PAL-style time slices through the real probe and the CLI: a generated 3-day PerfMon log (60 s
 * intervals, one disk at 5 ms reads) with a 60-minute run of 40 ms reads on day 2, 10:00–11:00 UTC,
 * imported with `cacheproof-probe import perfmon`. The profile's grade is `bad` for the sustained
 * critical run the averages hide; `analyze --profile --json` names the run as the one alert, and the
 * profile report (HTML, English and Russian) has the slices table and that alert.
 * Skipped with a message when the probe is not built (a failure in CI).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { reportText } from '../src/shared/i18n/report.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const skip = skipped('profile-slices', probeAbsent());
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 9, 1);
const RUN = T0 + 34 * 3_600_000;
const COUNTERS = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];

/** 3 days every 60 s, UTC, of `\\SRV\PhysicalDisk(0 C:)`; reads take 40 ms in the run's hour, else 5 ms. */
function log(): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const lines = [['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...COUNTERS.map((c) => `"\\\\SRV\\PhysicalDisk(0 C:)\\${c}"`)].join(',')];
  for (let t = T0; t <= T0 + 3 * 86_400_000; t += 60_000) {
    const d = new Date(t);
    const stamp = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00.000`;
    const read = t > RUN && t <= RUN + 3_600_000 ? 0.04 : 0.005;
    lines.push([`"${stamp}"`, ...[50, 20, 50 * 8192, 20 * 8192, read, 0.003, 80].map((v) => `"${v}"`)].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.skipIf(skip)('time slices of a 3-day log with an hour of 40 ms reads', () => {
  const capture = join(dir, 'slices.capture');
  it('imports, and the profile is graded bad for the sustained critical run, with the run as its one alert', async () => {
    writeFileSync(join(dir, 'slices.csv'), log());
    execFileSync(releaseProbe, ['import', 'perfmon', join(dir, 'slices.csv'), '--out', capture], { stdio: 'ignore' });
    let out = '';
    expect(await runCli(['analyze', capture, '--profile', '--json'], { stdout: (s) => (out += s), stderr: () => undefined })).toBe(0);
    const p = JSON.parse(out) as { health: { window: { grade: string }; gradeRule: string }; slices: { sliceMs: number; alerts: { device: string; counter: string; level: string; startMs: number; endMs: number }[] } };
    expect(p.health.window.grade).toBe('bad');
    expect(p.health.gradeRule).toBe('sustained-critical');
    expect(p.slices.sliceMs).toBe(3_600_000);
    expect(p.slices.alerts).toEqual([expect.objectContaining({ device: 'PhysicalDisk(0 C:)', counter: 'read', level: 'critical', startMs: RUN, endMs: RUN + 3_600_000 })]);
  });

  for (const lang of ['en', 'ru'] as const) {
    it(`the profile report has the slices and names the alert (${lang})`, async () => {
      const html = join(dir, `slices-${lang}.html`);
      expect(await runCli(['report', capture, '--profile', '--format', 'html', '--out', html, '--lang', lang], { stdout: () => undefined, stderr: () => undefined })).toBe(0);
      const text = readFileSync(html, 'utf8').replace(/<[^>]+>/gu, ' ').replace(/[\s\u00a0\u202f]+/gu, ' ');
      expect(text).toContain(reportText({ key: 'pr.t.alerts' }, lang));
      expect(text).toContain(reportText({ key: 'pr.t.slices' }, lang));
      expect(text).toContain(reportText({ key: 'pr.lv.critical' }, lang));
      // the alert's row: the device and the critical level, in time order after the table's heads
      const alerts = text.slice(text.indexOf(reportText({ key: 'pr.t.alerts' }, lang)));
      expect(alerts).toContain('PhysicalDisk(0 C:)');
      expect(alerts).toContain(reportText({ key: 'pr.lv.critical' }, lang));
    });
  }
});
