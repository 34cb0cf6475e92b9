/**
 * The decision block (issue 36) drawn first in every format: the bundled lab sample with the
 * scenario `tco --from-capture` prefills, exported as the full PDF (its first content page), the
 * short form (page 1), the PowerPoint deck (slides 1–2) and the XLSX (its first sheet), in
 * English, French, Spanish and Russian, for the bundled sample, the in-OS PerfMon pair and a workload profile (a PerfMon log with no switch, sized from its prefilled scenario). Each must hold every sentence of the block — the verdict
 * with its basis and the other basis' outcome, what it rests on, pays back or not, I/Os saved with
 * its interval, the response time, drive life — and the three caveats, word for word as the
 * engine's keys read in the catalog (app/src/shared/i18n/decision-text.ts): the words are equal
 * across formats. Needs Chromium (PDF) and poppler-utils (pdftotext); without them the file is
 * skipped saying why, and fails in CI (test/support/testenv.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { ReportModel } from '@cacheproof/engine/report';
import { runCli } from '../src/cli/main.ts';
import { chromiumPrinter, findChromium } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { decisionTexts } from '../src/shared/i18n/decision-text.ts';
import { localizeTemplate } from '../src/shared/i18n/template.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { importInOsPair } from './support/in-os-pair.ts';
import { perfmonLog } from './support/profile-logs.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const LANGS = ['en', 'fr', 'es', 'ru'] as const satisfies readonly Lang[];
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-decision-'));
// one headless Chromium for the file's 24 PDFs, as the app's host keeps one for its exports (a
// browser started per export was half of this file's minute and a half)
const printer = chromiumPrinter();
afterAll(async () => {
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
});

const why = probeAbsent() ?? (findChromium() === null ? 'no Chromium to print the PDF' : spawnSync('pdftotext', ['-v']).error !== undefined ? 'no poppler-utils (pdftotext)' : null);
const skip = skipped('decision block in every format', why);

/** Spaces of every kind as one space; a PDF line broken inside a word at a hyphen joined again. */
const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009\u00ad]+/gu, ' ').trim();
const unxml = (s: string): string => s.replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&apos;/gu, '\'').replace(/&amp;/gu, '&');

/** The captures the block is read back from: the bundled lab sample and the in-OS PerfMon pair (issue #26's V-locity case). */
const CAPTURES = { sample, inOs: '', profile: '' } as Record<'sample' | 'inOs' | 'profile', string>;
const scenarios: Partial<Record<keyof typeof CAPTURES, unknown>> = {};
beforeAll(async () => {
  if (skip) return;
  CAPTURES.inOs = importInOsPair(dir).capture;
  // a workload profile: a two-day PerfMon log with no switch, imported with the probe
  const log = join(dir, 'profile.csv');
  writeFileSync(log, perfmonLog({ startMs: Date.UTC(2026, 9, 5), days: 2, stepS: 300, iops: 400, hotHour: 14 }).text);
  CAPTURES.profile = join(dir, 'profile.capture');
  execFileSync(releaseProbe, ['import', 'perfmon', log, '--out', CAPTURES.profile], { stdio: 'pipe' });
  for (const [which, capture] of Object.entries(CAPTURES) as [keyof typeof CAPTURES, string][]) {
    const file = join(dir, `${which}.tco.json`);
    let err = '';
    expect(await runCli(['tco', '--from-capture', capture, '--out', file], { stdout: () => {}, stderr: (s) => (err += s) }), err).toBe(0);
    scenarios[which] = JSON.parse(readFileSync(file, 'utf8'));
  }
}, 60_000);

async function exported(which: keyof typeof CAPTURES, format: 'pdf' | 'pptx' | 'xlsx', form: 'full' | 'short', lang: Lang): Promise<{ out: string; model: ReportModel }> {
  const out = join(dir, `${which}-${form}-${lang}.${format}`);
  const res = await exportReport({
    format, form, lang, paper: 'a4', out, printer,
    load: { capturePath: CAPTURES[which], cover: { title: 'Cache PoC' }, scenario: { json: localizeTemplate(scenarios[which], lang), file: `${which}.tco.json` }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
  });
  return { out, model: res.model };
}

const pdfText = (file: string, first: number, last: number): string => norm(execFileSync('pdftotext', ['-f', String(first), '-l', String(last), file, '-'], { encoding: 'utf8' }).replace(/-\n(?=\p{Ll})/gu, '-'));

async function slidesText(file: string, slides: number[]): Promise<string> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const parts: string[] = [];
  for (const n of slides) {
    const xml = await zip.file(`ppt/slides/slide${n}.xml`)?.async('string');
    expect(xml, `slide ${n}`).toBeDefined();
    // each paragraph's runs joined, paragraphs apart
    for (const p of (xml ?? '').split('</a:p>')) parts.push([...p.matchAll(/<a:t>([^<]*)<\/a:t>/gu)].map((x) => unxml(x[1] ?? '')).join(''));
  }
  return norm(parts.join(' '));
}

async function firstSheetText(file: string): Promise<{ name: string; text: string }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const cells: string[] = [];
  ws?.eachRow((row) => row.eachCell((c) => cells.push(String(c.value ?? ''))));
  return { name: ws?.name ?? '', text: norm(cells.join(' ')) };
}

/** Every sentence of the block and its caveats, as the engine's keys read in `lang`. */
function expected(model: ReportModel, lang: Lang): string[] {
  expect(model.decision, 'the model carries the decision block').toBeDefined();
  const t = decisionTexts(model.decision as NonNullable<ReportModel['decision']>, lang);
  return [...t.lines, ...t.caveats].map(norm);
}

describe.skipIf(skip)('the decision block, first in every format and language, word for word', () => {
  for (const which of Object.keys(CAPTURES) as (keyof typeof CAPTURES)[]) {
    for (const lang of LANGS) {
      it(`${which}, ${lang}: full PDF page 2, short form page 1, PPTX slides 1–2, XLSX first sheet`, async () => {
        const full = await exported(which, 'pdf', 'full', lang);
        const want = expected(full.model, lang);
        // every sentence ends once (a noise sentence inside a line brings its own full stop)
        for (const s of want) expect(s).not.toMatch(/\.\.(\s|$)/u);
        // the sentences the issue names are there: the verdict with both bases, I/Os saved with its interval, drive life, the three caveats
        const d = full.model.decision as NonNullable<ReportModel['decision']>;
        expect(d.verdict.key).toBe('tco.verdict');
        expect(d.life?.key).toBe('dec.life');
        if (which === 'profile') {
          // a profile: the sizing the verdict rests on instead of a before/after, the log's one window
          expect(d.kind).toBe('profile');
          expect(d.iosSaved).toBeNull();
          expect(d.sizing).not.toBeNull();
          expect(d.caveats.map((c) => c.key)).toEqual(['dec.cav.logOk', 'dec.cav.examplePrices', 'dec.cav.counters']);
        } else {
          expect(d.iosSaved?.key).toMatch(/^dec\.iosSaved/u);
          if (which === 'sample') expect(d.iosSaved?.p?.['ci']?.k).toBe('ci');
          expect(d.caveats.map((c) => c.key)).toEqual(['dec.cav.windowShort', 'dec.cav.examplePrices', 'dec.cav.counters']);
        }
        expect(full.model.sections[0]?.id).toBe('decision');
        // page 1 is the cover with the contents; the block is the first content page
        const page = pdfText(full.out, 1, 2);
        const short = await exported(which, 'pdf', 'short', lang);
        const shortPage = pdfText(short.out, 1, 1);
        // the short form is two pages at most for every capture and language (the in-OS pair's said the
        // backing-only fact, the windows' length and the in-OS note twice each, and ran to a third)
        expect(Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [short.out], { encoding: 'utf8' }))?.[1]), `${which} ${lang} short form pages`).toBeLessThanOrEqual(2);
        const deck = await exported(which, 'pptx', 'full', lang);
        const slides = await slidesText(deck.out, [1, 2]);
        const book = await exported(which, 'xlsx', 'full', lang);
        const sheet = await firstSheetText(book.out);
        expect(sheet.name).toBe(decisionTexts(d, lang).title);
        // pdftotext joins a word hyphenated at a line's end without its hyphen ("au-/dessus" → "audessus"): the PDFs are compared without word-inner hyphens
        const unhyphen = (x: string): string => x.replace(/(?<=\p{L})-(?=\p{L})/gu, '');
        for (const [format, text] of [['pdf', page], ['short', shortPage], ['pptx', slides], ['xlsx', sheet.text]] as const) {
          const pdf = format === 'pdf' || format === 'short';
          for (const s of want) expect(pdf ? unhyphen(text) : text, `${which} ${lang} ${format}: «${s}»`).toContain(pdf ? unhyphen(s) : s);
        }
        // the same model in every format: the block's words come from one engine call
        for (const m of [short.model, deck.model, book.model]) expect(expected(m, lang)).toEqual(want);
      }, 240_000);
    }
  }
});

describe('cacheproof analyze: the decision block first, in the text and in --json', () => {
  const run = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await runCli(args, { stdout: (x) => (out += x), stderr: (x) => (err += x) });
    return { code, out, err };
  };
  for (const lang of LANGS) {
    it(`${lang}: the text opens on the block's sentences, the same as --json's keys read in the catalog and as the report's block`, async () => {
      const j = await run(['analyze', sample, '--json', '--lang', lang]);
      expect(j.code, j.err).toBe(0);
      const d = (JSON.parse(j.out) as { decision: NonNullable<ReportModel['decision']> }).decision;
      expect(d.kind).toBe('before-after');
      // without --scenario, the scenario prefilled from the capture, as cacheproof report prints it
      expect(d.verdict.key).toBe('tco.verdict');
      expect(d.payback?.key).toBe('dec.notPays');
      expect(d.iosSaved?.key).toBe('dec.iosSaved');
      expect(d.caveats.map((c) => c.key)).toEqual(['dec.cav.windowShort', 'dec.cav.examplePrices', 'dec.cav.counters']);
      const text = await run(['analyze', sample, '--lang', lang]);
      expect(text.code, text.err).toBe(0);
      const t = decisionTexts(d, lang);
      const head = text.out.split('\n').slice(0, 3 + t.lines.length + t.caveats.length).join('\n');
      for (const s of [t.title, ...t.lines, t.caveatsTitle, ...t.caveats]) expect(head, s).toContain(s);
      // the report without --scenario draws the same block, word for word
      const book = await exportReport({
        format: 'xlsx', form: 'full', lang, paper: 'a4', out: join(dir, `analyze-${lang}.xlsx`),
        load: { capturePath: sample, cover: {}, scenario: { prefill: lang }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
      });
      expect(expected(book.model, lang)).toEqual([...t.lines, ...t.caveats].map(norm));
    }, 60_000);
  }

  it('--scenario: the verdict comes from the file; a scenario measured from another capture is refused naming both', async () => {
    const file = join(dir, 'analyze-prefilled.tco.json');
    const w = await run(['tco', '--from-capture', sample, '--out', file]);
    expect(w.code, w.err).toBe(0);
    // prices changed in the file: the block's verdict follows the file, and its caveat names it
    const edited = JSON.parse(readFileSync(file, 'utf8')) as { priceKind?: string };
    expect(edited.priceKind).toBe('example');
    edited.priceKind = 'quoted';
    const mine = join(dir, 'quoted.tco.json');
    writeFileSync(mine, JSON.stringify(edited));
    const j = await run(['analyze', sample, '--json', '--scenario', mine]);
    expect(j.code, j.err).toBe(0);
    const d = (JSON.parse(j.out) as { decision: NonNullable<ReportModel['decision']> }).decision;
    expect(d.verdict.key).toBe('tco.verdict');
    expect(d.caveats[1]?.key).toBe('dec.cav.scenarioPrices');
    expect(JSON.stringify(d.caveats[1]?.p)).toContain('quoted.tco.json');
    // the same file against a copy of the capture with another hash: refused before any figure is printed
    const other = join(dir, 'other.capture');
    writeFileSync(other, Buffer.concat([readFileSync(sample), Buffer.alloc(4096)]));
    const bad = await run(['analyze', other, '--scenario', mine]);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toBe('');
    expect(bad.err).toContain('quoted.tco.json');
    expect(bad.err).toContain('other.capture');
  }, 60_000);
});
