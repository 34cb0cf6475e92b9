/**
 * The figures people see (engine/src/metrics/interval.ts `intervalMetrics`) against sysstat's own
 * test oracle, end to end: sysstat's fake roots (root1, root2: real /proc/diskstats and
 * /proc/uptime snapshots, ../shared/realdata/linux_iostat_sar_diskstats) are imported by the
 * release probe (`import diskstats`), read back by the app's capture reader, and every interval
 * goes through the engine; the result must equal `iostat -x 1 2` as sysstat's test suite expects
 * it (sysstat_expected_iostat-x_from_root1.txt, whose .source.txt names sysstat's
 * tests/expected.iostat-x), to its printed precision. Report 1 of that file is "since boot": the
 * counters of root1 over its uptime, i.e. from an all-zero snapshot at uptime 0, which this test
 * writes beside the real files. The probe's own rates (delta::rates) are checked against the same
 * file in native/probe/tests/realdata.rs; this checks what the app shows.
 * Without the files or the probe: skipped with a message, and a failure in CI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intervalMetrics, type IntervalMetrics } from '@cacheproof/engine';
import { openCapture } from '../src/host/capture/reader.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const src = realdata('linux_iostat_sar_diskstats');
const file = (name: string): string => join(src, name);
const EXPECTED = file('sysstat_expected_iostat-x_from_root1.txt');
const ROOT = (n: number, what: 'diskstats' | 'uptime'): string => file(`sysstat_root${n}_proc_${what}.txt`);
const skip = skipped('sysstat-oracle', realdataAbsent(EXPECTED, ROOT(1, 'diskstats'), ROOT(1, 'uptime'), ROOT(2, 'diskstats'), ROOT(2, 'uptime')) ?? probeAbsent());

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-sysstat-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Report = Map<string, Map<string, number>>;

/** The reports of iostat's output: device → column → the printed value. */
function iostatReports(text: string): Report[] {
  const reports: Report[] = [];
  let cols: string[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim().split(/\s+/u);
    if (line.startsWith('Device')) {
      cols = t.slice(1);
      reports.push(new Map());
    } else if (line.trim() === '') {
      cols = [];
    } else if (cols.length > 0 && t.length === cols.length + 1) {
      reports[reports.length - 1]?.set(t[0] as string, new Map(cols.map((c, i) => [c, Number(t[i + 1])])));
    }
  }
  return reports;
}

/** iostat's column from the engine's figure: kB is 1024 bytes there, MB is 10^6 bytes in the engine. */
const COLUMNS: [string, (m: IntervalMetrics) => number | null][] = [
  ['r/s', (m) => m.readsPerSec],
  ['w/s', (m) => m.writesPerSec],
  ['rkB/s', (m) => (m.readMBps === null ? null : (m.readMBps * 1e6) / 1024)],
  ['wkB/s', (m) => (m.writeMBps === null ? null : (m.writeMBps * 1e6) / 1024)],
  ['r_await', (m) => m.rAwaitMs],
  ['w_await', (m) => m.wAwaitMs],
  ['aqu-sz', (m) => m.aquSz],
  ['%util', (m) => m.utilPercent],
];

/** Imports the diskstats snapshots with the release probe; the app's reader gives its intervals. */
function importSnapshots(name: string, files: string[]): ReturnType<typeof openCapture> {
  const out = join(dir, `${name}.capture`);
  execFileSync(releaseProbe, ['import', 'diskstats', ...files, '--out', out, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return openCapture(out);
}

/** Checks every device and column of an iostat report against the engine's figures of the capture's one interval per device; returns how many values were compared. */
function check(label: string, report: Report, capture: ReturnType<typeof openCapture>, intervalMs: number): number {
  let checked = 0;
  for (const [device, cols] of report) {
    const recs = capture.data.intervals.filter((r) => r.device === device);
    expect(recs, `${label}: intervals of ${device}`).toHaveLength(1);
    const rec = recs[0] as (typeof recs)[number];
    expect(rec.status, `${label} ${device}`).toBe('ok');
    expect(rec.intervalMs, `${label} ${device}: Δt from the uptimes`).toBeCloseTo(intervalMs, 3); // the probe keeps ns: 7192.55 s is 7192549999999 ns
    const m = intervalMetrics(rec);
    for (const [col, of] of COLUMNS) {
      const want = cols.get(col);
      expect(want, `${label} ${device}: iostat prints ${col}`).toBeTypeOf('number');
      const got = of(m);
      // absent (no request to divide by) is null in the engine; iostat prints 0.00 there
      if (got === null) expect(want, `${label} ${device} ${col}: the engine has no figure, iostat ${want}`).toBe(0);
      // printed with 2 decimals: equal to half a unit of the last digit
      else expect(Math.abs(got - (want as number)), `${label} ${device} ${col}: engine ${got.toFixed(4)}, iostat ${want}`).toBeLessThanOrEqual(0.005 + 1e-9);
      checked++;
    }
  }
  return checked;
}

describe.skipIf(skip)('the engine\'s interval figures against sysstat\'s expected iostat -x', () => {
  const reports = skip ? [] : iostatReports(readFileSync(EXPECTED, 'utf8'));
  const uptimeS = (n: number): number => Number(readFileSync(ROOT(n, 'uptime'), 'utf8').trim().split(/\s+/u)[0]);

  it('the expected file has its two reports of five devices', () => {
    expect(reports).toHaveLength(2);
    for (const r of reports) expect([...r.keys()]).toEqual(['sda', 'sdb', 'sdq', 'sdr', 'sds']);
  });

  it('report 1 (since boot): root1\'s counters over its uptime, as the engine shows them', () => {
    // an all-zero snapshot of root1's devices at uptime 0: what iostat's first report is measured from
    const zero = readFileSync(ROOT(1, 'diskstats'), 'utf8').split('\n').filter((l) => l.trim() !== '')
      .map((l) => { const t = l.trim().split(/\s+/u); return [...t.slice(0, 3), ...t.slice(3).map(() => '0')].join(' '); });
    const zeroFile = join(dir, 'root0_proc_diskstats.txt');
    writeFileSync(zeroFile, `${zero.join('\n')}\n`);
    writeFileSync(join(dir, 'root0_proc_uptime.txt'), '0.00 0.00\n');
    const checked = check('since boot', reports[0] as Report, importSnapshots('since-boot', [zeroFile, ROOT(1, 'diskstats')]), uptimeS(1) * 1000);
    expect(checked).toBe(5 * COLUMNS.length);
  });

  it('report 2: root1 → root2 over the time between their uptimes (31.17 s), as the engine shows them', () => {
    const capture = importSnapshots('root1-root2', [ROOT(1, 'diskstats'), ROOT(2, 'diskstats')]);
    const intervalMs = (uptimeS(2) - uptimeS(1)) * 1000;
    expect(intervalMs).toBeCloseTo(31_170, 6);
    expect(check('root1->root2', reports[1] as Report, capture, intervalMs)).toBe(5 * COLUMNS.length);
  });
});
