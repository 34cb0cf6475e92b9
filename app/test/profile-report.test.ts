/**
 * The workload-profile report (issue 27) of a real Windows Performance Monitor log (typeperf, one
 * PhysicalDisk, ../shared/realdata/perfmon_csv) imported with no switch: a baseline alone.
 * - `cacheproof report --format pdf` writes the workload-profile report (it was refused: "no
 *   measure phase"), says so on standard error, and its verdict read back from the PDF
 *   (pdftotext) gives the figures of `analyze --profile --json` at the precision it prints them;
 * - `--profile --format html` in English and Russian: the verdict and the figures table (mean,
 *   p95, peak) equal the JSON's;
 * - `--format xlsx` and `--format csv`: the summary's figures are the JSON's at full precision,
 *   the tables have sheets, and the per-interval data of the device is there;
 * - the PDF's pages pass the overflow checks the before/after report passes (no element wider or
 *   taller than the page), in English and Russian, with targets every interval breaks (the health
 *   table and the longest runs filled).
 * Skipped with a message without the file, the probe, Chromium or poppler; a failure in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkloadProfile } from '@cacheproof/engine';
import { runCli } from '../src/cli/main.ts';
import { exportReport } from '../src/host/report/export.ts';
import { chromiumPrinter, findChromium } from '../src/host/report/pdf.ts';
import { fmtNumber, fmtPercent } from '../src/shared/i18n/numbers.ts';
import { rt } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const real = realdata('perfmon_csv', 'dbxtune_GORANS2_typeperf_physicaldisk_from_java_comment.csv');
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;
const skip = skipped('profile-report', realdataAbsent(real) ?? probeAbsent() ?? (findChromium() === null ? 'Chromium is not installed (CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'pdftotext (poppler-utils) is not installed'));

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-profile-report-'));
// one headless Chromium for the file's PDFs, as the app's host keeps one for its exports
const printer = chromiumPrinter();
afterAll(async () => {
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
});
const capture = join(dir, 'gorans2.capture');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ').trim();

/** The verdict's figures, from the JSON, as `analyze --profile` prints them: IOPS 1 decimal, MB/s 2, ms 3, percent 1, KiB 1; in the verdict's order. */
function verdictFigures(p: WorkloadProfile, lang: Lang): string[] {
  const a = p.appFacing;
  const need = (v: number | null | undefined): number => {
    expect(v, 'a figure the verdict states').not.toBeNull();
    return v as number;
  };
  return [
    fmtNumber(lang, need(a.percentiles.iops?.p95), 1), fmtNumber(lang, need(a.percentiles.iops?.max), 1), fmtNumber(lang, need(a.means.iops), 1),
    fmtNumber(lang, need(a.means.mbps), 2), fmtNumber(lang, need(a.percentiles.mbps?.max), 2),
    fmtPercent(lang, need(a.means.readSharePercent), 1), fmtNumber(lang, need(a.means.avgRequestBytes) / 1024, 1), fmtNumber(lang, need(a.means.awaitMs), 3),
  ].map(norm);
}

/** Each figure found in the text after the one before it (the verdict states them in this order), each a whole number token. */
function expectInOrder(text: string, figures: string[]): void {
  let from = 0;
  for (const f of figures) {
    const re = new RegExp(`(?<![\\d.,])${f.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![\\d])`, 'u');
    const at = re.exec(text.slice(from));
    expect(at, `"${f}" after position ${from} in: ${text}`).not.toBeNull();
    from += (at?.index ?? 0) + f.length;
  }
}

/** The summary section's first paragraph (the verdict) and the figures table's rows of an HTML report, as text. */
function htmlParts(html: string): { verdict: string; rows: string[][] } {
  const text = (s: string): string => norm(s.replace(/<[^>]+>/gu, ' ').replace(/&nbsp;/gu, ' ').replace(/&amp;/gu, '&').replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&#39;/gu, "'"));
  const summary = /<section class="section" id="sec-summary"[^>]*>([\s\S]*?)<\/section>/u.exec(html)?.[1] ?? '';
  const verdict = text(/<p[^>]*>([\s\S]*?)<\/p>/u.exec(summary)?.[1] ?? '');
  const table = /<table[^>]*data-table="profile-figures"[^>]*>([\s\S]*?)<\/table>/u.exec(html)?.[1] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/u.exec(table)?.[1] ?? '';
  const rows = [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gu)].map((r) => [...(r[1] ?? '').matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/gu)].map((c) => text(c[1] ?? '')));
  return { verdict, rows };
}

describe.skipIf(skip)('the workload-profile report of a PerfMon log with no switch', () => {
  let profile: WorkloadProfile;

  beforeAll(async () => {
    execFileSync(releaseProbe, ['import', 'perfmon', real, '--out', capture], { stdio: 'ignore' });
    const json = await cli(['analyze', capture, '--profile', '--json']);
    expect(json.code, json.err).toBe(0);
    profile = JSON.parse(json.out) as WorkloadProfile;
    expect(profile.kind).toBe('workload-profile');
  }, 60_000);

  it('report --format pdf on a baseline alone writes the profile report, and its verdict gives the figures of analyze --profile --json', async () => {
    const out = join(dir, 'profile-en.pdf');
    const r = await cli(['report', capture, '--format', 'pdf', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('holds a baseline alone (no measure window): wrote its workload-profile report');
    // an overflowing element is a warning on standard error (the CLI's overflow check)
    expect(r.err).not.toContain('warning:');
    const text = norm(execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' }));
    const start = text.indexOf(norm(rt('sec.summary', 'en')), text.indexOf(norm(rt('pr.subtitle', 'en'))) + 1);
    const verdict = text.slice(start, text.indexOf('This report profiles', start));
    expect(verdict).toContain('To carry this workload, the storage of PhysicalDisk(0 C:) needs');
    expectInOrder(verdict, verdictFigures(profile, 'en'));
    expect(verdict).toContain('within the latency targets (Generic: reads < 20 ms, writes < 20 ms)');
  }, 120_000);

  it('XLSX and CSV: the summary holds the JSON\'s figures at full precision (mean, p95, peak), the tables their sheets, the device its intervals', async () => {
    const a = profile.appFacing;
    const want: [string, number | null | undefined][] = [
      ['iopsMean', a.means.iops], ['iopsP95', a.percentiles.iops?.p95], ['iopsPeak', a.percentiles.iops?.max], ['mbpsMean', a.means.mbps], ['mbpsPeak', a.percentiles.mbps?.max],
      ['awaitMsMean', a.means.awaitMs], ['awaitMsP95', a.percentiles.awaitMs?.p95], ['readShareMean', a.means.readSharePercent], ['requestSizeMean', a.means.avgRequestBytes],
    ];
    const xlsx = join(dir, 'profile.xlsx');
    const r = await cli(['report', capture, '--format', 'xlsx', '--out', xlsx]);
    expect(r.code, r.err).toBe(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const values = new Map<string, unknown>();
    // the summary sheet (a profile with a plan opens on the decision block's sheet: profile-sizing.test.ts)
    (wb.worksheets.find((w) => w.name === rt('xl.summarySheet', 'en')) as ExcelJS.Worksheet).eachRow((row, n) => {
      if (n > 1) values.set(String(row.getCell(1).value), row.getCell(5).value);
    });
    for (const [id, v] of want) expect(values.get(id), id).toBe(v);
    const sheets = wb.worksheets.map((w) => w.name).join(' | ');
    for (const name of ['xl.sh.health', 'xl.sh.devices'] as const) expect(sheets).toContain(rt(name, 'en'));
    expect(sheets).toContain('Intervals PhysicalDisk(0 C)'); // the drive letter's colon, which Excel refuses, left out
    expect(wb.worksheets.some((w) => String(w.getRow(2).getCell(1).value) === 'PhysicalDisk(0 C:)' && w.rowCount - 1 === profile.appFacing.okIntervals)).toBe(true);

    const csv = join(dir, 'profile.csv');
    expect((await cli(['report', capture, '--format', 'csv', '--out', csv])).code).toBe(0);
    const lines = readFileSync(csv, 'utf8').replace(/^\uFEFF/u, '').trim().split(/\r\n/u);
    // the fifth field (Value); a quoted field ("IOPS, mean") is one field
    const field = (l: string | undefined, i: number): string | undefined => l?.replace(/"(?:[^"]|"")*"/gu, 'q').split(',')[i];
    for (const [id, v] of want) expect(field(lines.find((l) => l.startsWith(`${id},`)), 4), id).toBe(String(v));
    const intervals = readFileSync(join(dir, 'profile-intervals.csv'), 'utf8').trim().split(/\r\n/u);
    expect(intervals.length - 1).toBe(profile.appFacing.okIntervals);
  }, 60_000);

  for (const lang of ['en', 'ru'] as const) {
    it(`${lang}: report --profile --format html: the verdict and the figures table (mean, p95, peak) equal the JSON's`, async () => {
      const out = join(dir, `profile-${lang}.html`);
      const r = await cli(['report', capture, '--profile', '--format', 'html', '--lang', lang, '--out', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toBe('');
      const { verdict, rows } = htmlParts(readFileSync(out, 'utf8'));
      expectInOrder(verdict, verdictFigures(profile, lang));
      const a = profile.appFacing;
      const row = (label: string): string[] => rows.find((x) => x[0] === norm(rt(label as 'pr.f.iops', lang))) ?? [];
      expect(row('pr.f.iops').slice(2)).toEqual([a.means.iops, a.percentiles.iops?.p95, a.percentiles.iops?.max].map((v) => norm(fmtNumber(lang, v as number, 1))));
      expect(row('pr.f.mbps').slice(2)).toEqual([a.means.mbps, a.percentiles.mbps?.p95, a.percentiles.mbps?.max].map((v) => norm(fmtNumber(lang, v as number, 2))));
      expect(row('pr.f.awaitMs').slice(2)).toEqual([a.means.awaitMs, a.percentiles.awaitMs?.p95, a.percentiles.awaitMs?.max].map((v) => norm(fmtNumber(lang, v as number, 3))));
      expect(row('pr.f.readShare')[2]).toBe(norm(fmtPercent(lang, a.means.readSharePercent as number, 1)));
      // the sources appendix: the imported file and its SHA-256, as the before/after report lists them
      const imports = /<table[^>]*data-table="imports"[^>]*>([\s\S]*?)<\/table>/u.exec(readFileSync(out, 'utf8'))?.[1] ?? '';
      expect(imports).toContain('dbxtune_GORANS2_typeperf_physicaldisk_from_java_comment.csv');
      expect(imports).toContain(execFileSync('sha256sum', [real], { encoding: 'utf8' }).split(' ')[0]);
    }, 60_000);

    it(`${lang}: the PDF's pages pass the overflow checks, with targets every interval breaks (health table and longest runs filled)`, async () => {
      const out = join(dir, `strict-${lang}.pdf`);
      const res = await exportReport({
        format: 'pdf', lang, paper: 'a4', out, printer,
        load: { capturePath: capture, cover: { customer: 'ACME', title: 'Storage sizing' }, scenario: null, analyzeOptions: { targets: { readMs: 0.3, writeMs: 0.3 } }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 27) },
      });
      expect(res.kind).toBe('profile');
      expect(res.overflow).toEqual([]);
      expect(res.dialogs).toEqual([]);
      const tables = res.model.sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'table' ? [b.table.id] : []));
      expect(tables).toEqual(['profile-figures', 'profile-devices', 'profile-hours', 'profile-health', 'profile-spans', 'profile-slices', 'profile-alerts', 'imports']);
      const text = norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }));
      expect(text).toContain(norm(rt('pr.t.spans', lang)));
      expect(text).toContain(norm(rt('pr.t.health', lang, { preset: rt('preset.custom', lang) })));
    }, 120_000);
  }
});
