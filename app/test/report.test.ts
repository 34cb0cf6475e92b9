/**
 * `cacheproof report`: the sample capture exported in every format and language, checked
 * against `cacheproof analyze --json` (PDF text, XLSX read back, CSV parsed), the PDF's pages
 * rendered (PNGs of the English, French and Russian sample and of the short form kept in test-results/report/), the HTML
 * loaded in Chromium with the network cut, a hostile device name and customer shown literally,
 * and bad input refused with one sentence and no file left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { chromium, type Browser } from 'playwright-core';
import { runCli } from '../src/cli/main.ts';
import { CHROMIUM_ARGS, chromiumPrinter, findChromium } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { LANGS, LOCALE, translate, type Lang } from '../src/shared/i18n/types.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import { template } from '../src/shared/i18n/template.ts';
import { reportText, rt } from '../src/shared/i18n/report.ts';
import { SHORT_FORM_CHART } from '@cacheproof/engine/report';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const kept = join(root, 'test-results', 'report');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-test-'));
const chromiumPath = findChromium();
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined && spawnSync('pdftoppm', ['-v']).error === undefined;
const XSS = '<img src=x onerror=alert(1)>';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let j: any;
let browser: Browser | null = null;

beforeAll(async () => {
  const r = await cli('analyze', sample, '--json');
  expect(r.code).toBe(0);
  j = JSON.parse(r.out);
  if (chromiumPath !== null) browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
});
// one headless Chromium for the file's PDFs, as the app's host keeps one for its exports
const printer = chromiumPrinter();
afterAll(async () => {
  await printer.close();
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The dashboard's display rules, written out independently of the app's formatter. */
const pct = (lang: Lang, v: number): string => new Intl.NumberFormat(LOCALE[lang], { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v / 100);
const sig = (lang: Lang, v: number): string =>
  Math.abs(v) >= 100 ? new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 }).format(v) : new Intl.NumberFormat(LOCALE[lang], { maximumSignificantDigits: 3 }).format(v);
const count = (lang: Lang, v: number): string => new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 }).format(v);
/** Spaces of every kind (French groups with a narrow no-break space) as one plain space. */
const escapeRe = (s: string): string => s.replace(/[.*+?^$()|[\]\\{}]/gu, '\\$&');
const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ');

function headline(lang: Lang): string[] {
  const b = j.benefit;
  return [
    pct(lang, b.iosSavedPercent.value), pct(lang, b.iosSavedPercent.ci95.low), pct(lang, b.iosSavedPercent.ci95.high),
    count(lang, b.iosToBacking.before), count(lang, b.iosToBacking.after),
    sig(lang, b.latencyMs.before), sig(lang, b.latencyMs.after), pct(lang, b.latencyMs.reductionPercent), sig(lang, b.latencyMs.speedup),
    pct(lang, b.latencyMs.reductionPercentCi95.low), pct(lang, b.latencyMs.reductionPercentCi95.high),
    sig(lang, b.normalizedIops.before), sig(lang, b.normalizedIops.after), sig(lang, b.throughputMBps.before),
    pct(lang, b.cacheServedPercent.reads), pct(lang, b.cacheServedPercent.writes),
  ].map(norm);
}

describe.skipIf(skipped('report PDF', (chromiumPath === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'poppler-utils (pdftotext, pdftoppm) is not installed')))('PDF (needs Chromium and poppler-utils)', () => {
  for (const lang of LANGS) {
    it(`${lang}: holds the headline figures as analyze --json gives them, rounded as displayed; every page renders; nothing runs off the page`, async () => {
      const out = join(dir, `sample-${lang}.pdf`);
      const r = await cli('report', sample, '--format', 'pdf', '--out', out, '--lang', lang, '--cover', writeCover(`cover-${lang}.json`, { customer: 'ACME', title: 'Cache PoC' }));
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const text = norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }));
      for (const figure of headline(lang)) expect(text, `${lang}: ${figure}`).toContain(figure);
      if (lang === 'fr') expect(text).toMatch(/73,4 %/u);
      if (lang === 'en') expect(text).toContain('73.4%');
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      expect(pages).toBeGreaterThan(5);
      // Every glyph, footer included, is drawn in the font shipped with the app (never a machine's font).
      const fonts = pdfFontNames(out);
      expect(fonts, lang).toContain('DejaVuSans');
      expect(fonts, lang).toContain('DejaVuSans-Bold');
      expect(fonts.filter((f) => !/^DejaVuSans(-Bold)?$/u.test(f)), `${lang}: fonts other than the shipped one`).toEqual([]);
      const keep = lang === 'en' || lang === 'fr' || lang === 'ru';
      const pngDir = keep ? join(kept, lang) : join(dir, `png-${lang}`);
      rmSync(pngDir, { recursive: true, force: true });
      mkdirSync(pngDir, { recursive: true });
      execFileSync('pdftoppm', ['-r', keep ? '70' : '30', '-png', out, join(pngDir, 'page')]);
      const pngs = readdirSync(pngDir).filter((f) => f.endsWith('.png'));
      expect(pngs).toHaveLength(pages);
      for (const p of pngs) expect(statSync(join(pngDir, p)).size, p).toBeGreaterThan(2000);
    });
  }

  for (const lang of ['en', 'ru'] as const) {
    it(`${lang}: the contents page gives the page each section starts on, read back from the printed PDF`, async () => {
      const out = join(dir, `toc-${lang}.pdf`);
      const res = await exportReport({
        format: 'pdf', lang, paper: 'a4', out, printer,
        load: { capturePath: sample, cover: { title: 'Cache PoC' }, scenario: { json: prefilledScenario(), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
      });
      const sections = res.model.sections;
      expect(sections.map((s) => s.id)).toEqual(['decision', 'summary', 'method', 'results', 'tco', 'caveats', 'appendix']);
      // Where each TCO input came from: the scenario prefilled from this capture, unedited.
      const sources = sections.find((s) => s.id === 'tco')?.blocks.find((b) => b.type === 'table' && b.table.id === 'tco-sources');
      const originOf = (input: string): string | undefined => {
        if (sources?.type !== 'table') return undefined;
        const row = sources.table.rows.find((r) => r.cells[0]?.k === 'msg' && r.cells[0].m.key === `tin.${input}`);
        const cell = row?.cells[3];
        return cell?.k === 'msg' ? cell.m.key : undefined;
      };
      expect(originOf('iops')).toBe('src.measured');
      expect(originOf('readShare')).toBe('src.measured');
      expect(originOf('capacity')).toBe('src.devices');
      expect(originOf('readHit')).toBe('src.measured');
      expect(originOf('drivePrice')).toBe('src.example');
      const pages = res.tocPages;
      expect(pages, 'the PDF\'s named destinations were read').not.toBeNull();
      const pageCount = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      const pageText = (n: number): string => norm(execFileSync('pdftotext', ['-f', String(n), '-l', String(n), '-layout', out, '-'], { encoding: 'utf8' }));
      // Page 1 is the cover with the contents; each section starts on the page printed for it (its
      // title a line of that page and of no page before), and the pages never go back.
      const toc = pageText(1);
      expect(toc).toContain(rt('x.contents', lang));
      const lines = (n: number): string[] => execFileSync('pdftotext', ['-f', String(n), '-l', String(n), '-layout', out, '-'], { encoding: 'utf8' }).split('\n').map(norm).map((l) => l.trim());
      let last = 1;
      for (const s of sections) {
        const n = pages?.get(`sec-${s.id}`);
        expect(n, s.id).toBeGreaterThanOrEqual(s.id === 'decision' ? 2 : last);
        expect(n, s.id).toBeLessThanOrEqual(pageCount);
        const title = norm(reportText(s.title, lang)).trim();
        // the decision block opens the page after the cover; every other section follows on where the one before it ends
        if (s.id === 'decision') expect(pageText(n as number).trimStart().startsWith(title), `${s.id} starts page ${n}`).toBe(true);
        expect(lines(n as number), `${s.id} is on page ${n}`).toContain(title);
        expect(lines((n as number) - 1), `${s.id} is not on page ${(n as number) - 1}`).not.toContain(title);
        // the contents line: the title, the dotted leader (not text), the number
        expect(toc).toMatch(new RegExp(`${escapeRe(title)}\\s+${n}(\\s|$)`, 'u'));
        last = n as number;
      }
      const tcoPage = pages?.get('sec-tco') as number;
      const tcoText = norm(execFileSync('pdftotext', ['-f', String(tcoPage), '-l', String(tcoPage + 3), '-layout', out, '-'], { encoding: 'utf8' }));
      expect(tcoText).toContain(norm(rt('t.tcoSources', lang)));
      expect(tcoText).toContain(norm(rt('src.measured', lang, { capture: 'lab-sample.capture' })));
    });

    it(`${lang}: the short form for managers is at most two pages: the verdict first, the headline cards, one chart, the TCO bottom line (PNG pages kept)`, async () => {
      const out = join(dir, `short-${lang}.pdf`);
      const res = await exportReport({
        format: 'pdf', form: 'short', lang, paper: 'a4', out, printer,
        load: { capturePath: sample, cover: { title: 'Cache PoC', customer: 'ACME' }, scenario: { json: prefilledScenario(), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
      });
      expect(res.overflow).toEqual([]);
      expect(res.model.form).toBe('short');
      expect(res.model.charts.map((c) => c.id)).toEqual([SHORT_FORM_CHART]);
      const pageCount = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      expect(pageCount).toBe(2);
      const text = norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }));
      const page1 = norm(execFileSync('pdftotext', ['-f', '1', '-l', '1', '-layout', out, '-'], { encoding: 'utf8' }));
      const page2 = norm(execFileSync('pdftotext', ['-f', '2', '-l', '2', '-layout', out, '-'], { encoding: 'utf8' }));
      // The verdict is the full report's first sentence, with the analysis' own figures.
      const full = res.model;
      const verdictText = (model: typeof full): string => {
        const b = model.sections[0]?.blocks[0];
        return b?.type === 'paragraph' ? norm(reportText(b.text, lang)) : '';
      };
      // the decision block first (app/test/decision-block.test.ts reads all of it): its verdict, then its I/Os saved line with the analysis' figure
      const v = verdictText(full);
      const saved = full.decision?.iosSaved;
      expect(saved).toBeDefined();
      expect(norm(reportText(saved ?? { key: 'noCi' }, lang))).toContain(norm(pct(lang, j.benefit.iosSavedPercent.value)));
      expect(page1.replace(/\s+/gu, ' ')).toContain(v.replace(/\s+/gu, ' ').slice(0, 60));
      for (const figure of [pct(lang, j.benefit.iosSavedPercent.value), sig(lang, j.benefit.latencyMs.before), sig(lang, j.benefit.latencyMs.after), count(lang, j.benefit.iosToBacking.before)]) expect(page1, figure).toContain(norm(figure));
      expect(page1).toContain(rt('short.subtitle', lang));
      expect(page2).toContain(norm(rt('sec.tco', lang)));
      expect(text).not.toContain(rt('x.contents', lang));
      const keptDir = join(kept, `short-${lang}`);
      rmSync(keptDir, { recursive: true, force: true });
      mkdirSync(keptDir, { recursive: true });
      execFileSync('pdftoppm', ['-r', '70', '-png', out, join(keptDir, 'page')]);
      expect(readdirSync(keptDir).filter((f) => f.endsWith('.png'))).toHaveLength(2);
    });
  }

  it('fits A4 and Letter: no chart or table is wider than the printable width (measured before printing)', async () => {
    for (const paper of ['a4', 'letter'] as const) {
      const res = await exportReport({
        format: 'pdf', lang: 'ru', paper, out: join(dir, `bounds-${paper}.pdf`), printer,
        load: { capturePath: sample, cover: { customer: 'Очень длинное название заказчика, которое не должно выходить за поля страницы', title: 'Проверка' }, scenario: { json: prefilledScenario(), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
      });
      expect(res.overflow, paper).toEqual([]);
      expect(res.dialogs).toEqual([]);
      // Printed in the font shipped with the app, loaded from the report itself, not a machine's font.
      expect(res.fonts.sort(), paper).toEqual(['DejaVu Sans 400', 'DejaVu Sans 700']);
      expect(res.model.charts.map((c) => c.id)).toEqual(['iops-time', 'latency-time', 'latency-backing-time', 'rw-time', 'queue-time', 'sizes-reads', 'sizes-writes', 'hourly', 'latency-distribution', 'tco-costs', 'tco-cumulative', 'tco-sensitivity']);
    }
  });
});

/** The base font names `pdffonts` lists for a PDF, subset prefixes (`ABCDEF+`) removed. */
function pdfFontNames(pdf: string): string[] {
  const lines = execFileSync('pdffonts', [pdf], { encoding: 'utf8' }).split('\n').slice(2).filter((l) => l.trim() !== '');
  return [...new Set(lines.map((l) => (l.split(/\s+/u)[0] ?? '').replace(/^[A-Z]{6}\+/u, '')))];
}

function writeCover(name: string, cover: object): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(cover));
  return p;
}

/** The scenario `tco --from-capture` writes for the sample (written in beforeAll). */
function prefilledScenario(): unknown {
  return JSON.parse(readFileSync(prefilledPath, 'utf8'));
}
let prefilledPath = '';
beforeAll(async () => {
  prefilledPath = join(dir, 'prefilled.tco.json');
  const r = await cli('tco', '--from-capture', sample, '--out', prefilledPath);
  expect(r.code).toBe(0);
});

describe.skipIf(skipped('report HTML', (chromiumPath === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null)))('HTML', () => {
  for (const lang of LANGS) {
    it(`${lang}: one offline file that renders every chart in Chromium with the network cut, and makes no request`, async () => {
      const out = join(dir, `sample-${lang}.html`);
      const r = await cli('report', sample, '--format', 'html', '--out', out, '--lang', lang, '--scenario', prefilledPath);
      expect(r.code).toBe(0);
      const html = readFileSync(out, 'utf8');
      expect(html).not.toMatch(/<script/i);
      // The scenario file was written in English: its template labels come out in the report's language.
      expect(html).toContain(translate(template, lang, 'config.hdd-ssd-cache').replaceAll('&', '&amp;'));
      if (lang !== 'en') expect(html).not.toContain(translate(template, 'en', 'config.hdd-ssd-cache'));
      const context = await (browser as Browser).newContext({ offline: true });
      const attempted: string[] = [];
      const own = `file://${out}`;
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url === own || url.startsWith('data:') || url.startsWith('about:')) return route.continue();
        attempted.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      page.on('request', (req) => {
        if (req.url() !== own && !req.url().startsWith('data:') && !req.url().startsWith('about:')) attempted.push(req.url());
      });
      await page.goto(own);
      const charts = await page.$$eval('svg.chart', (els) => els.map((e) => ({ id: e.getAttribute('data-chart'), drawn: [...e.querySelectorAll('.series')].filter((s) => { const b = (s as unknown as { getBBox(): { width: number; height: number } }).getBBox(); return b.width > 0 || b.height > 0; }).length, w: e.getBoundingClientRect().width })));
      expect(charts.map((c) => c.id)).toEqual(['iops-time', 'latency-time', 'latency-backing-time', 'rw-time', 'queue-time', 'sizes-reads', 'sizes-writes', 'hourly', 'latency-distribution', 'tco-costs', 'tco-cumulative', 'tco-sensitivity']);
      for (const c of charts) {
        expect(c.drawn, String(c.id)).toBeGreaterThan(0);
        expect(c.w, String(c.id)).toBeGreaterThan(300);
      }
      expect(attempted).toEqual([]);
      const fonts = (await page.evaluate('[...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/["\']/g, "") + " " + f.weight)')) as string[];
      expect(fonts.sort()).toEqual(['DejaVu Sans 400', 'DejaVu Sans 700']);
      expect(await page.evaluate('getComputedStyle(document.documentElement).fontFamily')).toMatch(/^["']?DejaVu Sans/u);
      await context.close();
    });
  }
});

describe('XLSX', () => {
  for (const lang of LANGS) {
    it(`${lang}: the Summary sheet equals the analyze JSON; every device has its per-interval sheet`, async () => {
      const out = join(dir, `sample-${lang}.xlsx`);
      const r = await cli('report', sample, '--format', 'xlsx', '--out', out, '--lang', lang);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(out);
      // the first sheet is the decision block (app/test/decision-block.test.ts reads it), the Summary the second
      expect(wb.worksheets[0]?.name).toBe(rt('sec.decision', lang));
      const summary = wb.worksheets[1] as ExcelJS.Worksheet;
      const rows = new Map<string, (number | null)[]>();
      summary.eachRow((row, n) => {
        if (n === 1) return;
        const v = (c: number): number | null => {
          const x = row.getCell(c).value;
          return typeof x === 'number' ? x : null;
        };
        rows.set(String(row.getCell(1).value), [v(3), v(4), v(5), v(6), v(7)]);
      });
      const b = j.benefit;
      expect(rows.get('iosToBacking')).toEqual([b.iosToBacking.before, b.iosToBacking.after, null, null, null]);
      expect(rows.get('iosSavedPercent')).toEqual([null, null, b.iosSavedPercent.value, b.iosSavedPercent.ci95.low, b.iosSavedPercent.ci95.high]);
      expect(rows.get('latencyMs')).toEqual([b.latencyMs.before, b.latencyMs.after, null, null, null]);
      expect(rows.get('latencyReductionPercent')).toEqual([null, null, b.latencyMs.reductionPercent, b.latencyMs.reductionPercentCi95.low, b.latencyMs.reductionPercentCi95.high]);
      expect(rows.get('speedup')).toEqual([null, null, b.latencyMs.speedup, b.latencyMs.speedupCi95.low, b.latencyMs.speedupCi95.high]);
      expect(rows.get('normalizedIops')).toEqual([b.normalizedIops.before, b.normalizedIops.after, null, null, null]);
      expect(rows.get('throughputMBps')).toEqual([b.throughputMBps.before, b.throughputMBps.after, null, null, null]);
      expect(rows.get('cacheServedReads')?.[2]).toBe(b.cacheServedPercent.reads);
      expect(rows.get('cacheServedWrites')?.[2]).toBe(b.cacheServedPercent.writes);
      expect(rows.get('latencyP99')).toEqual([j.latencyDistribution.baseline.p99, j.latencyDistribution.measure.p99, null, null, null]);
      // per-interval sheets: one per device, one row per interval
      const db = new Database(sample, { readonly: true });
      const counts = db.prepare('SELECT d.name AS name, COUNT(*) AS n FROM intervals i JOIN devices d ON d.id = i.device_id GROUP BY d.name').all() as { name: string; n: number }[];
      db.close();
      for (const { name, n } of counts) {
        const sheet = wb.worksheets.find((w) => w.name.includes(name) && w.getRow(1).getCell(2).value !== null && String(w.getRow(2).getCell(1).value) === name);
        expect(sheet, name).toBeDefined();
        expect((sheet as ExcelJS.Worksheet).rowCount - 1, name).toBe(n);
        const start = (sheet as ExcelJS.Worksheet).getRow(2).getCell(2).value;
        expect(start).toBeInstanceOf(Date);
      }
      const units = String(summary.getRow(1).getCell(8).value);
      expect(units.length).toBeGreaterThan(0);
    });
  }
});

/** A minimal RFC 4180 reader (quoted fields, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let q = false;
  const t = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    if (q) {
      if (c === '"' && t[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') q = false;
      else field += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('CSV', () => {
  for (const lang of LANGS) {
    it(`${lang}: a summary equal to the JSON at full precision and every interval of every device`, async () => {
      const out = join(dir, `sample-${lang}.csv`);
      const r = await cli('report', sample, '--format', 'csv', '--out', out, '--lang', lang);
      expect(r.code).toBe(0);
      const summary = parseCsv(readFileSync(out, 'utf8'));
      const saved = summary.find((row) => row[0] === 'iosSavedPercent') as string[];
      expect(Number(saved[4])).toBe(j.benefit.iosSavedPercent.value);
      expect(Number(saved[5])).toBe(j.benefit.iosSavedPercent.ci95.low);
      const lat = summary.find((row) => row[0] === 'latencyMs') as string[];
      expect([Number(lat[2]), Number(lat[3])]).toEqual([j.benefit.latencyMs.before, j.benefit.latencyMs.after]);
      const intervals = parseCsv(readFileSync(join(dir, `sample-${lang}-intervals.csv`), 'utf8'));
      const db = new Database(sample, { readonly: true });
      const n = (db.prepare('SELECT COUNT(*) AS n FROM intervals').get() as { n: number }).n;
      db.close();
      expect(intervals.length - 1).toBe(n);
      expect(intervals[1]?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });
  }
});

describe.skipIf(skipped('report hostile names', (chromiumPath === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'poppler-utils (pdftotext, pdftoppm) is not installed')))('a hostile device name and customer', () => {
  it('appear literally in the HTML and the PDF, and no script runs', async () => {
    const cap = join(dir, 'xss.capture');
    writeSyntheticCapture({ path: cap, windowSeconds: 900, warmupSeconds: 60, intervalMs: 1000, backingDevices: 1, missShare: 0.2 });
    const db = new Database(cap);
    db.prepare("UPDATE devices SET name = ?, model = ? WHERE name = 'back0'").run(XSS, XSS);
    db.close();
    const cover = writeCover('xss-cover.json', { customer: XSS, title: XSS, author: '"><script>alert(2)</script>' });
    const html = join(dir, 'xss.html');
    expect((await cli('report', cap, '--format', 'html', '--out', html, '--cover', cover)).code).toBe(0);
    // CSP bypassed and scripts on: only the escaping protects here.
    const context = await (browser as Browser).newContext({ bypassCSP: true, javaScriptEnabled: true });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.setContent(readFileSync(html, 'utf8'), { waitUntil: 'load' });
    // anything the page could run (inline scripts, an image's onerror) has run once it has loaded and drawn two frames: no fixed wait
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))))');
    expect(dialogs).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    const body = (await page.textContent('body')) ?? '';
    expect(body).toContain(XSS);
    expect(body).toContain('"><script>alert(2)</script>');
    await context.close();

    const res = await exportReport({
      format: 'pdf', lang: 'en', paper: 'a4', out: join(dir, 'xss.pdf'),
      load: { capturePath: cap, cover: { customer: XSS, title: XSS }, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
    });
    expect(res.dialogs).toEqual([]);
    expect(res.overflow).toEqual([]);
    const text = execFileSync('pdftotext', [join(dir, 'xss.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain(XSS);
  });
});

describe('bad input: one sentence, the documented exit code, no file left behind', () => {
  const listing = (d: string): string[] => (existsSync(d) ? readdirSync(d) : []);
  it('an unwritable output path', async () => {
    const r = await cli('report', sample, '--format', 'html', '--out', join(dir, 'no-such-folder', 'r.html'));
    expect(r.code).toBe(6);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('the folder does not exist');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const r2 = await cli('report', sample, '--format', 'pdf', '--out', folder);
    expect(r2.code).toBe(6);
    expect(r2.err).toContain('it is a folder');
    expect(listing(folder)).toEqual([]);
  });
  it('an unknown format or language', async () => {
    const out = join(dir, 'fmt', 'r.docx');
    mkdirSync(join(dir, 'fmt'));
    const r = await cli('report', sample, '--format', 'docx', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--format: 'docx' is not one of pdf, html, xlsx, csv, pptx\./);
    const r2 = await cli('report', sample, '--format', 'pdf', '--out', out, '--lang', 'de');
    expect(r2.code).toBe(2);
    expect(r2.err).toMatch(/--lang: 'de' is not one of en, fr, es, ru\./);
    expect(listing(join(dir, 'fmt'))).toEqual([]);
  });
  it('a scenario that does not match the capture', async () => {
    const folder = join(dir, 'mismatch');
    mkdirSync(folder);
    // The example with its assumed 0.8 hit shares claimed as measured: not this capture's.
    const claimed = JSON.parse(readFileSync(join(root, 'samples', 'scenarios', 'example.tco.json'), 'utf8')) as { configurations: { cache?: { hitShareSource: string } }[] };
    for (const c of claimed.configurations) if (c.cache !== undefined) c.cache.hitShareSource = 'measured';
    const file = join(dir, 'claimed.tco.json');
    writeFileSync(file, JSON.stringify(claimed));
    const r = await cli('report', sample, '--format', 'pdf', '--out', join(folder, 'r.pdf'), '--scenario', file);
    expect(r.code).toBe(5);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/claimed\.tco\.json: configurations\[1\]\.cache\.readHitShare is 0\.8 "measured", but lab-sample\.capture measures 0\.79\d/);
    expect(listing(folder)).toEqual([]);
  });
  it('an invalid cover file names the field', async () => {
    const folder = join(dir, 'cover');
    mkdirSync(folder);
    const r = await cli('report', sample, '--format', 'html', '--out', join(folder, 'r.html'), '--cover', writeCover('bad-cover.json', { customer: 'x', colour: 'red' }));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/colour: unknown field/);
    expect(listing(folder)).toEqual([]);
  });
});
