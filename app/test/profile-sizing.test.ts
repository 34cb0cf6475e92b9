/**
 * Sizing from any profile or fleet (issue 37): `cacheproof report` (the built CLI) on captures with
 * no cache switch — a PerfMon log and a `sadf -d` log (support/profile-logs.ts) and a PerfMon log of
 * twenty computers (a fleet capture), each imported by the release probe — writes PDF (full and
 * short), PPTX and XLSX whose sizing gives, per configuration, the drives for IOPS, for capacity and
 * to buy, the TCO bottom line and drive life, EQUAL to `cacheproof tco` on the scenario that
 * `cacheproof tco --from-capture` writes for the same capture (in the same language), in en and ru.
 * The expected words are built from `tco --json`'s result by the engine's own sizing section and
 * the catalogs' sentences (verdictText, driveLifeSentence), so a figure that differs fails.
 * Skipped with a message without the probe, Chromium or poppler; a failure in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { parseScenario, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import { sizingSection } from '@cacheproof/engine/report';
import { findChromium } from '../src/host/report/pdf.ts';
import { driveLifeSentence } from '../src/shared/i18n/planner.ts';
import { formatVal, reportText, rt } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { verdictText } from '../src/shared/i18n/verdict.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { ensureBuiltCli, runBuiltCli } from './support/built-cli.ts';
import { norm } from './support/page-checks.ts';
import { perfmonLog, sadfLog } from './support/profile-logs.ts';

const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;
const skip = skipped('profile-sizing', probeAbsent() ?? (findChromium() === null ? 'Chromium is not installed (CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'poppler-utils (pdftotext) is not installed'));
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-profile-sizing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Id = 'perfmon' | 'sadf' | 'fleet';
const IDS: Id[] = ['perfmon', 'sadf', 'fleet'];
const LANGS: Lang[] = ['en', 'ru'];
const captures = new Map<Id, string>();
/** Per capture and language: the scenario `tco --from-capture --lang` wrote and `tco --json`'s plan of it. */
const plans = new Map<string, { scenario: Scenario; plan: PlanResult }>();

async function cli(...args: string[]): Promise<{ out: string; err: string }> {
  const r = await runBuiltCli(args);
  expect(r.code, `cacheproof ${args.join(' ')}: ${r.err}`).toBe(0);
  return r;
}

/** A PerfMon log of `n` computers (HOST01…), one PhysicalDisk each, every 60 s for two hours, no switch; each host its own load. */
function fleetLog(n: number): string {
  const counters = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];
  const hosts = Array.from({ length: n }, (_, k) => `HOST${String(k + 1).padStart(2, '0')}`);
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...hosts.flatMap((h) => counters.map((c) => `"\\\\${h}\\PhysicalDisk(0 C:)\\${c}"`))];
  const lines = [head.join(',')];
  const p2 = (x: number): string => String(x).padStart(2, '0');
  const t0 = Date.UTC(2026, 2, 14, 8);
  for (let i = 0; i <= 120; i++) {
    const t = new Date(t0 + i * 60_000);
    const row = [`"${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:00.000"`];
    hosts.forEach((_h, k) => {
      const reads = 50 + 10 * k + ((i * (k + 3)) % 40);
      const writes = 20 + 3 * k + ((i * 7) % 15);
      row.push(`"${reads}"`, `"${writes}"`, `"${reads * 8192}"`, `"${writes * 4096}"`, `"${0.004 + (k % 5) / 1000}"`, `"0.002"`, `"${60 - (k % 10)}"`);
    });
    lines.push(row.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The words a report must print for a plan, built from `tco`'s result: the engine's sizing section, the verdict, each configuration's drive life. */
function expected(id: Id, lang: Lang): { verdict: string; why: string[]; lives: string[]; rows: string[][]; plan: PlanResult } {
  const { scenario, plan } = plans.get(`${id}-${lang}`) as { scenario: Scenario; plan: PlanResult };
  const sizing = sizingSection({ scenarioFile: 'x', scenario, plan }).section;
  const why = sizing.blocks.flatMap((b) => (b.type === 'notes' ? b.items.filter((v) => v.k === 'msg' && v.m.key.startsWith('sz.why.')).map((v) => norm(formatVal(v, lang))) : []));
  const table = sizing.blocks.find((b) => b.type === 'table');
  const rows = table?.type === 'table' ? table.table.rows.map((r) => r.cells.map((c) => norm(formatVal(c, lang)))) : [];
  return {
    verdict: norm(verdictText(plan.verdict, lang)), why, rows, plan,
    lives: plan.configurations.map((c) => norm(driveLifeSentence(c, plan.years, lang, false))),
  };
}

const pdfText = (file: string): string => norm(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
/** Without any white space: a sentence the PDF wraps after a slash ("ТБ/ год") reads the same. */
const flat = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, '');
const unxml = (s: string): string => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
const textOf = (xml: string): string => norm([...xml.matchAll(/<a:t>([^<]*)<\/a:t>/gu)].map((m) => unxml(m[1] as string)).join(' '));

describe.skipIf(skip)('sizing in the workload-profile and fleet reports', () => {
  beforeAll(async () => {
    ensureBuiltCli();
    const pm = perfmonLog({ startMs: Date.UTC(2026, 9, 5), days: 2, stepS: 300, iops: 400, hotHour: 14 });
    const sd = sadfLog({ startMs: Date.UTC(2026, 9, 5, 6), hours: 30, stepS: 600, tps: 120, hotHour: 9 });
    const logs: [Id, string, string][] = [['perfmon', 'perfmon', pm.text], ['sadf', 'sadf', sd.text], ['fleet', 'perfmon', fleetLog(20)]];
    for (const [id, kind, text] of logs) {
      const log = join(dir, `${id}.log`);
      writeFileSync(log, text);
      const capture = join(dir, `${id}.capture`);
      execFileSync(releaseProbe, ['import', kind, log, '--out', capture], { stdio: 'ignore' });
      captures.set(id, capture);
      for (const lang of LANGS) {
        const file = join(dir, `${id}-${lang}.tco.json`);
        await cli('tco', '--from-capture', capture, '--out', file, '--lang', lang);
        const parsed = parseScenario(JSON.parse(readFileSync(file, 'utf8')));
        if (!parsed.ok) throw new Error(parsed.error.message);
        const plan = (JSON.parse((await cli('tco', file, '--json', '--lang', lang)).out) as { result: PlanResult }).result;
        plans.set(`${id}-${lang}`, { scenario: parsed.value, plan });
      }
    }
  }, 300_000);

  it('--scenario is honoured for a profile: its own prefilled scenario plans the same counts; another capture\'s is refused', async () => {
    const own = join(dir, 'perfmon-en.tco.json');
    const out = join(dir, 'perfmon-scenario.xlsx');
    const r = await cli('report', captures.get('perfmon') as string, '--scenario', own, '--format', 'xlsx', '--out', out);
    expect(r.err).not.toContain('warning');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const values = new Map<string, unknown>();
    for (const ws of wb.worksheets) ws.eachRow((row) => values.set(String(row.getCell(1).value), row.getCell(5).value));
    for (const c of expected('perfmon', 'en').plan.configurations) expect(values.get(`sizing.${c.id}.toBuy`)).toBe(c.sizing.driveCount);
    const other = await runBuiltCli(['report', captures.get('sadf') as string, '--scenario', own, '--format', 'xlsx', '--out', join(dir, 'mismatch.xlsx')]);
    expect(other.code, other.err).toBe(5);
    expect(other.err).toContain('measuredFrom');
  }, 60_000);

  for (const id of IDS) {
    it(`${id}: PDF full (en, ru): the sizing per configuration, the bottom line and drive life, as tco says them`, async () => {
      for (const lang of LANGS) {
        const out = join(dir, `${id}-full-${lang}.pdf`);
        const r = await cli('report', captures.get(id) as string, '--format', 'pdf', '--lang', lang, '--out', out);
        expect(r.err).not.toContain('no TCO section');
        const text = pdfText(out);
        const e = expected(id, lang);
        expect(text).toContain(norm(rt('sec.sizing', lang)));
        expect(text).toContain(e.verdict);
        // each configuration: its drives for IOPS and for capacity, which decides and why, the drives to buy
        expect(e.why).toHaveLength(e.plan.configurations.length);
        for (const w of e.why) expect(flat(text)).toContain(flat(w));
        for (const l of e.lives) expect(flat(text)).toContain(flat(l));
      }
    }, 180_000);

    it(`${id}: PDF short (ru): the bottom line, the drive counts per configuration and the recommended drive life`, async () => {
      const lang: Lang = 'ru';
      const out = join(dir, `${id}-short-${lang}.pdf`);
      await cli('report', captures.get(id) as string, '--format', 'pdf', '--form', 'short', '--lang', lang, '--out', out);
      const text = pdfText(out);
      const e = expected(id, lang);
      expect(text).toContain(e.verdict);
      expect(Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1])).toBeLessThanOrEqual(2);
      // the sizing table (after its column heads): each row's label, then its drives for IOPS, for capacity and to buy, whole numbers in that order
      let from = text.indexOf(norm(rt('sz.c.forIops', lang)));
      expect(from, text).toBeGreaterThanOrEqual(0);
      const esc = (x: string): string => x.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
      for (const row of e.rows) {
        const re = new RegExp(`${esc(row[0] as string)}.*?(?<![\\d,])${esc(row[3] as string)}(?![\\d,]) ${esc(row[4] as string)} ${esc(row[5] as string)}(?![\\d,])`, 'u');
        const at = re.exec(text.slice(from));
        expect(at, `${row.join(' | ')} in ${text.slice(from)}`).not.toBeNull();
        from += (at?.index ?? 0) + (row[0] as string).length;
      }
      const best = [...e.plan.configurations].sort((a, b) => a.totalUsd - b.totalUsd)[0];
      if (best !== undefined) expect(flat(text)).toContain(flat(driveLifeSentence(best, e.plan.years, lang, false)));
    }, 120_000);

    for (const lang of LANGS) {
      it(`${id}: PPTX ${lang}: a sizing slide whose table is tco's counts, and the bottom line`, async () => {
        const out = join(dir, `${id}-${lang}.pptx`);
        await cli('report', captures.get(id) as string, '--format', 'pptx', '--lang', lang, '--out', out);
        const zip = await JSZip.loadAsync(readFileSync(out));
        const names = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/u.test(f));
        const slides = await Promise.all(names.map(async (f) => (await zip.file(f)?.async('string')) ?? ''));
        const e = expected(id, lang);
        const sizing = slides.find((x) => textOf(x).startsWith(norm(rt('sec.sizing', lang))));
        expect(sizing, 'a sizing slide').toBeDefined();
        const rows = [...(sizing ?? '').matchAll(/<a:tr\b[\s\S]*?<\/a:tr>/gu)].map((tr) => [...tr[0].matchAll(/<a:tc\b[\s\S]*?<\/a:tc>/gu)].map((tc) => textOf(tc[0])));
        expect(rows.slice(1)).toEqual(e.rows);
        expect(slides.map(textOf).join(' ')).toContain(e.verdict);
        const best = [...e.plan.configurations].sort((a, b) => a.totalUsd - b.totalUsd)[0];
        if (best !== undefined) expect(slides.map(textOf).join(' ')).toContain(norm(driveLifeSentence(best, e.plan.years, lang, false)));
      }, 60_000);
    }

    it(`${id}: XLSX: the summary's drive counts are tco's, a sizing sheet, the decision sheet's bottom line`, async () => {
      const out = join(dir, `${id}.xlsx`);
      await cli('report', captures.get(id) as string, '--format', 'xlsx', '--out', out);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(out);
      const values = new Map<string, unknown>();
      for (const ws of wb.worksheets) ws.eachRow((row) => values.set(String(row.getCell(1).value), row.getCell(5).value));
      const e = expected(id, 'en');
      for (const c of e.plan.configurations) {
        expect(values.get(`sizing.${c.id}.forIops`)).toBe(c.sizing.countForIops);
        expect(values.get(`sizing.${c.id}.forCapacity`)).toBe(c.sizing.countForCapacity);
        expect(values.get(`sizing.${c.id}.toBuy`)).toBe(c.sizing.driveCount);
      }
      expect(wb.worksheets.map((w) => w.name)).toContain(rt('sz.xl.sheet', 'en'));
      const first = wb.worksheets[0];
      const cells: string[] = [];
      first?.eachRow((row) => row.eachCell((cell) => cells.push(norm(String(cell.value)))));
      expect(cells.join(' ')).toContain(e.verdict);
      expect(reportText({ key: 'sec.sizing' }, 'en')).toBe('Sizing');
    }, 60_000);
  }
});
