/**
 * The per-work figure (issue #26): a PerfMon before/after pair in the real header form where
 * PhysicalDisk and LogicalDisk both fall 12 % (an in-OS cache) and the log carries the server's
 * own work (`Process(_Total)\IO Data / Read / Write Operations/sec`, SQL Server `Batch
 * Requests/sec`). With the work level, the disks' I/Os per unit of work fall 12 %, as I/Os saved
 * does; with the work 75 % higher, `analyze` (JSON and text) and the report (HTML, PDF text) say
 * "The server did 75.0% more work with 12.0% fewer disk I/Os". I/O time saved and I/Os saved come from one
 * comparison (the time saved's share is the I/Os saved). Skipped with a message when the probe is
 * not built (a failure in CI).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { findChromium } from '../src/host/report/pdf.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { importPerfmonWorkPair } from '../../test/support/perfmon-work.ts';

const skip = skipped('perfmon-per-work', probeAbsent());
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-perfmon-per-work-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pair = (name: string, workAfter: number): string => importPerfmonWorkPair(releaseProbe, dir, name, workAfter);

/** Runs the CLI; `quiet`: nothing on stderr (the PDF may warn of a wide table, a layout matter of its own). */
async function cli(args: string[], quiet = true): Promise<string> {
  let out = '', err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  if (quiet) expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

interface PerWorkJson {
  mode: string;
  benefit: {
    iosSavedPercent: { value: number };
    ioTimeSaved: { sharePercent: number; perHourSeconds: number };
    perWork: { unit: string; instance: string; workPerSecondBefore: number; workPerSecondAfter: number; diskIosPerWorkBefore: number; diskIosPerWorkAfter: number; workChangePercent: number; diskChangePercent: number; savedPercent: number; workLevel: boolean };
  };
}

const flat = (s: string): string => s.replace(/[\s\u00a0\u202f]+/gu, ' ');

describe.skipIf(skip)('the disks\' I/Os per unit of the server\'s work', () => {
  it('level work: I/Os saved 12 %, and per unit of work the same 12 %; I/O time saved from the same comparison', async () => {
    const capture = pair('level', 1);
    const a = JSON.parse(await cli(['analyze', capture, '--json'])) as PerWorkJson;
    expect(a.mode).toBe('backing-only');
    expect(a.benefit.iosSavedPercent.value).toBeCloseTo(12, 6);
    const p = a.benefit.perWork;
    expect([p.unit, p.instance, p.workLevel]).toEqual(['process-io', '_Total', true]);
    expect(p.workPerSecondBefore).toBeCloseTo(200, 9);
    expect(p.workChangePercent).toBeCloseTo(0, 9);
    expect(p.diskIosPerWorkBefore).toBeCloseTo(0.5, 9);
    expect(p.diskIosPerWorkAfter).toBeCloseTo(0.44, 9);
    expect(p.savedPercent).toBeCloseTo(a.benefit.iosSavedPercent.value, 9);
    // one comparison: the share of I/O time saved is the share of I/Os saved
    expect(a.benefit.ioTimeSaved.sharePercent).toBeCloseTo(a.benefit.iosSavedPercent.value, 9);
    expect(a.benefit.ioTimeSaved.perHourSeconds).toBeGreaterThan(0);
    const text = flat(await cli(['analyze', capture]));
    expect(text).toContain('Per unit of the server\'s work the disks did 12.0% fewer I/Os, the same as I/Os saved (12.0%): the work stayed level.');
  });

  it('work 75 % higher: "the server did 75.0 % more work with 12.0 % fewer disk I/Os" in analyze and the report', async () => {
    const capture = pair('more', 1.75);
    const a = JSON.parse(await cli(['analyze', capture, '--json'])) as PerWorkJson;
    const p = a.benefit.perWork;
    expect(a.benefit.iosSavedPercent.value).toBeCloseTo(12, 6);
    expect(p.workChangePercent).toBeCloseTo(75, 9);
    expect(p.diskChangePercent).toBeCloseTo(-12, 9);
    expect(p.workLevel).toBe(false);
    expect(p.savedPercent).toBeCloseTo((1 - 0.88 / 1.75) * 100, 9);
    const sentence = 'The server did 75.0% more work with 12.0% fewer disk I/Os.';
    const text = flat(await cli(['analyze', capture]));
    expect(text).toContain(sentence);
    expect(text).toContain('Disk I/Os per process I/O request (_Total): 0.500 → 0.251');
    const html = join(dir, 'more.html');
    await cli(['report', capture, '--format', 'html', '--out', html, '--lang', 'en']);
    expect(flat(readFileSync(html, 'utf8'))).toContain(sentence);
    const fr = join(dir, 'more-fr.html');
    await cli(['report', capture, '--format', 'html', '--out', fr, '--lang', 'fr']);
    expect(flat(readFileSync(fr, 'utf8'))).toContain('Le serveur a fait 75,0 % de travail en plus avec 12,0 % d’E/S disque en moins.');
  }, 60_000);

  it.skipIf(skipped('perfmon-per-work PDF', (findChromium() === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null) ?? (spawnSync('pdftotext', ['-v']).error !== undefined ? 'poppler-utils (pdftotext) is not installed' : null)))('the PDF report says it (needs Chromium and poppler-utils)', async () => {
    const capture = pair('pdf', 1.75);
    const out = join(dir, 'more.pdf');
    await cli(['report', capture, '--format', 'pdf', '--out', out, '--lang', 'en'], false);
    expect(flat(execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' }))).toContain('The server did 75.0% more work with 12.0% fewer disk I/Os.');
  }, 90_000);
});
