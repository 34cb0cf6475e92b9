/**
 * The PowerPoint export's slides as a meeting sees them: the deck written by the export (the
 * code path of `cacheproof report --format pptx`) in English and Russian, rendered by LibreOffice
 * (`soffice --convert-to pdf`, the slides' Arial laid out with its metrics, Liberation Sans), every
 * slide kept as a PNG under `test-results/report-slides/<lang>/` for a person to look at (ignored by
 * git), and checked from the rendered PDF's words and pixels the way app/test/report-pages.test.ts
 * checks the report's pages:
 * - one page per slide;
 * - nothing cut off at the slide's edge: the outer band of every slide holds no ink, and every
 *   word lies on the slide;
 * - no text out of its box: each text box's words, all of them, lie inside the box the deck gives
 *   it (a table may grow down to the next shape below it; a chart's legend and axis titles lie in
 *   its frame), and no word lies outside every box;
 * - no headline cut: the engine's verdict sentence, the headline cards' values and the TCO bottom
 *   line are wholly inside their boxes.
 * The check is seen to fail on a deck with a sentence too long for its box, rendered in the same
 * LibreOffice run.
 *
 * Needs LibreOffice and poppler-utils (`scripts/ensure.mjs` installs both); without them the file is
 * skipped saying why, and fails in CI (test/support/testenv.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { runCli } from '../src/cli/main.ts';
import { exportReport } from '../src/host/report/export.ts';
import { formatVal, reportText } from '../src/shared/i18n/report.ts';
import { decisionTexts } from '../src/shared/i18n/decision-text.ts';
import { localizeTemplate } from '../src/shared/i18n/template.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import type { ReportModel } from '@cacheproof/engine/report';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const kept = join(root, 'test-results', 'report-slides');
const LANGS = ['en', 'ru'] as const satisfies readonly Lang[];

const runs = (cmd: string, arg: string): boolean => spawnSync(cmd, [arg], { stdio: 'ignore' }).error === undefined;
const why = !runs('soffice', '--version')
  ? 'no LibreOffice (soffice) to render the slides: install libreoffice-impress (node scripts/ensure.mjs as root does)'
  : !runs('pdftotext', '-v') || !runs('pdftoppm', '-v') ? 'no poppler-utils (pdftotext, pdftoppm)'
  // without it LibreOffice lays Arial out in a wider font, and the boxes would overflow where PowerPoint's do not
  : !/Liberation Sans/u.test(spawnSync('fc-list', { encoding: 'utf8' }).stdout ?? '') ? 'no Liberation Sans (Arial\'s metrics): install fonts-liberation2' : null;
const skip = skipped('report slides (LibreOffice)', why);

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-slides-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Points per EMU (914,400 EMU to the inch, 72 points). */
const PT = 1 / 12_700;
/** How far (points) a word may stand past its box: the outline of the glyphs against the box's edge. */
const SLACK = 2;
/** Resolution of the pixel check, dots per inch; a pixel darker than INK (0–255) is ink. */
const DPI = 40;
const INK = 235;

interface Rect { x0: number; y0: number; x1: number; y1: number }
/** A box of a slide and the texts that must lie inside it, each as one run of words. */
interface Box { name: string; rect: Rect; texts: string[] }
interface Word { t: string; r: Rect }

const unxml = (s: string): string => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
/** A text as compared: its characters, no space of any kind (a line may break at any space). */
const squash = (s: string): string => s.normalize('NFKC').replace(/[\s\u00a0\u202f\u2009\u200b]+/gu, '');
const runsOf = (xml: string): string => [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/gu)].map((m) => unxml(m[1] as string)).join(' ');
const inside = (w: Rect, r: Rect): boolean => w.x0 >= r.x0 - SLACK && w.x1 <= r.x1 + SLACK && w.y0 >= r.y0 - SLACK && w.y1 <= r.y1 + SLACK;

function frame(xml: string): Rect {
  const off = /<a:off x="(\d+)" y="(\d+)"\/>/u.exec(xml);
  const ext = /<a:ext cx="(\d+)" cy="(\d+)"\/>/u.exec(xml);
  if (off === null || ext === null) throw new Error(`a shape without its place: ${xml.slice(0, 200)}`);
  const [x, y, w, h] = [off[1], off[2], ext[1], ext[2]].map((v) => Number(v) * PT) as [number, number, number, number];
  return { x0: x, y0: y, x1: x + w, y1: y + h };
}

/**
 * The boxes of each slide of a deck, read from its XML: text boxes (their paragraphs' text),
 * tables (each cell's text), charts (series names and titles, from the chart's part).
 */
async function deckBoxes(file: string): Promise<{ boxes: Box[][]; width: number; height: number }> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const read = async (p: string): Promise<string> => (await zip.file(p)?.async('string')) ?? '';
  const size = /<p:sldSz cx="(\d+)" cy="(\d+)"/u.exec(await read('ppt/presentation.xml'));
  const slides = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/u.test(f)).sort((a, b) => Number(/\d+/u.exec(a)?.[0]) - Number(/\d+/u.exec(b)?.[0]));
  const boxes: Box[][] = [];
  for (const s of slides) {
    const xml = await read(s);
    const rels = await read(s.replace('slides/', 'slides/_rels/') + '.rels');
    const out: Box[] = [];
    for (const m of xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/gu)) {
      const sp = m[1] as string;
      const paras = [...sp.matchAll(/<a:p>([\s\S]*?)<\/a:p>/gu)].map((p) => runsOf(p[1] as string)).filter((t) => squash(t) !== '');
      if (paras.length > 0) out.push({ name: /name="([^"]*)"/u.exec(sp)?.[1] ?? 'a text box', rect: frame(sp), texts: paras });
    }
    for (const m of xml.matchAll(/<p:graphicFrame>([\s\S]*?)<\/p:graphicFrame>/gu)) {
      const gf = m[1] as string;
      const name = /name="([^"]*)"/u.exec(gf)?.[1] ?? 'a frame';
      const rect = frame(/<p:xfrm>[\s\S]*?<\/p:xfrm>/u.exec(gf)?.[0] ?? '');
      if (gf.includes('<a:tbl>')) {
        out.push({ name, rect, texts: [...gf.matchAll(/<a:tc[ >]([\s\S]*?)<\/a:tc>/gu)].map((c) => runsOf(c[1] as string)).filter((t) => squash(t) !== '') });
      } else {
        const rid = /<c:chart r:id="([^"]+)"/u.exec(gf)?.[1];
        const target = new RegExp(`Id="${rid}"[^>]*Target="([^"]+)"`, 'u').exec(rels)?.[1] ?? '';
        const chart = await read(target.replace(/^\//u, ''));
        expect(chart, `${s}: the chart part of ${name}`).toContain('<c:chartSpace');
        const names = [...chart.matchAll(/<c:ser>[\s\S]*?<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/gu)].map((n) => unxml(n[1] as string));
        const titles = [...chart.matchAll(/<c:title>([\s\S]*?)<\/c:title>/gu)].map((t) => runsOf(t[1] as string));
        out.push({ name, rect, texts: [...names, ...titles].filter((t) => squash(t) !== '') });
      }
    }
    boxes.push(out);
  }
  return { boxes, width: Number(size?.[1]) * PT, height: Number(size?.[2]) * PT };
}

/** The words of one page of a PDF with their boxes, in points (pdftotext -bbox). */
function pageWords(pdf: string, page: number): { words: Word[]; width: number; height: number } {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdf, '-'], { encoding: 'utf8' });
  const size = /<page width="([\d.]+)" height="([\d.]+)"/u.exec(html);
  const words = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/gu)]
    .map((m) => ({ t: unxml(m[5] as string), r: { x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]) } }));
  return { words, width: Number(size?.[1]), height: Number(size?.[2]) };
}

/**
 * A table's rows grow with their text: its box reaches down to the next box below it that shares
 * some of its width (or the slide's foot).
 */
function grown(boxes: Box[], height: number): Box[] {
  return boxes.map((b) => {
    if (!b.name.startsWith('Table')) return b;
    const below = boxes.filter((o) => o !== b && o.rect.y0 >= b.rect.y1 - SLACK && o.rect.x0 < b.rect.x1 && o.rect.x1 > b.rect.x0).map((o) => o.rect.y0);
    return { ...b, rect: { ...b.rect, y1: Math.min(height, ...below) } };
  });
}

/**
 * What is out of place on one rendered slide, one line each (empty when nothing is): a word off
 * the slide or in no box, and a box's text not wholly inside it.
 */
function slideProblems(boxes: Box[], words: Word[], width: number, height: number): string[] {
  const out: string[] = [];
  const slide = { x0: 0, y0: 0, x1: width, y1: height };
  for (const w of words) {
    if (!inside(w.r, slide)) out.push(`"${w.t}" lies off the slide (${w.r.x0.toFixed(0)},${w.r.y0.toFixed(0)}–${w.r.x1.toFixed(0)},${w.r.y1.toFixed(0)} pt)`);
    else if (!boxes.some((b) => inside(w.r, b.rect))) out.push(`"${w.t}" lies outside every box (at ${w.r.x0.toFixed(0)},${w.r.y0.toFixed(0)} pt)`);
  }
  for (const b of boxes) {
    const within = squash(words.filter((w) => inside(w.r, b.rect)).map((w) => w.t).join(''));
    for (const t of b.texts) if (!within.includes(squash(t))) out.push(`${b.name}: "${t.slice(0, 80)}" is not wholly inside its box (${b.rect.x0.toFixed(0)},${b.rect.y0.toFixed(0)}–${b.rect.x1.toFixed(0)},${b.rect.y1.toFixed(0)} pt)`);
  }
  return out;
}

/** Inked pixels in the outer band of a grey page (P5 PGM): `band` points wide at the sides and top, `foot` at the bottom. */
function edgeInk(pgm: string, band: number, foot: number): number {
  const b = readFileSync(pgm);
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/u.exec(b.subarray(0, 40).toString('latin1'));
  if (head === null) throw new Error(`${pgm}: not an 8-bit binary PGM`);
  const [w, h] = [Number(head[1]), Number(head[2])];
  const px = b.subarray(head[0].length);
  const [s, f] = [Math.round((band * DPI) / 72), Math.round((foot * DPI) / 72)];
  let n = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x < s || x >= w - s || y < s || y >= h - f) && (px[y * w + x] as number) < INK) n++;
  return n;
}

/** A deck with one sentence far too long for its box: the check must see it. */
async function tooLongDeck(file: string): Promise<void> {
  const pres = new PptxGenJS();
  pres.layout = 'LAYOUT_WIDE';
  const s = pres.addSlide();
  s.addText('A short title', { x: 0.4, y: 0.3, w: 12.5, h: 0.7, fontFace: 'Arial', fontSize: 26 });
  s.addText(Array.from({ length: 12 }, () => 'A verdict sentence much too long for the box it was given on this slide.').join(' '), { x: 0.4, y: 1.1, w: 6, h: 1.0, fontFace: 'Arial', fontSize: 18, valign: 'top' });
  s.addText('The foot of the slide', { x: 0.4, y: 6.6, w: 12.5, h: 0.4, fontFace: 'Arial', fontSize: 10 });
  await pres.writeFile({ fileName: file });
}

const decks = new Map<string, { pptx: string; pdf: string; model?: ReportModel }>();
let renderMs = 0;

beforeAll(async () => {
  if (skip) return;
  const scenarioFile = join(dir, 'prefilled.tco.json');
  let err = '';
  expect(await runCli(['tco', '--from-capture', sample, '--out', scenarioFile], { stdout: () => {}, stderr: (s) => (err += s) }), err).toBe(0);
  const scenario: unknown = JSON.parse(readFileSync(scenarioFile, 'utf8'));
  for (const lang of LANGS) {
    const pptx = join(dir, `slides-${lang}.pptx`);
    const res = await exportReport({
      format: 'pptx', form: 'full', lang, paper: 'a4', out: pptx,
      load: { capturePath: sample, cover: { title: 'Cache PoC', customer: 'ACME' }, scenario: { json: localizeTemplate(scenario, lang), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
    });
    decks.set(lang, { pptx, pdf: join(dir, `slides-${lang}.pdf`), model: res.model });
    // the same capture's workload profile (its baseline alone): the deck with the profile's time charts and tables
    const profile = join(dir, `profile-${lang}.pptx`);
    const pr = await exportReport({
      format: 'pptx', form: 'full', lang, paper: 'a4', out: profile,
      load: { capturePath: sample, profile: true, cover: { title: 'Workload profile', customer: 'ACME' }, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
    });
    decks.set(`profile-${lang}`, { pptx: profile, pdf: join(dir, `profile-${lang}.pdf`), model: pr.model });
  }
  const guard = join(dir, 'too-long.pptx');
  await tooLongDeck(guard);
  decks.set('too-long', { pptx: guard, pdf: join(dir, 'too-long.pdf') });
  // one LibreOffice run for every deck, with a profile of its own (parallel runs do not share one)
  const t0 = Date.now();
  const r = spawnSync('soffice', [`-env:UserInstallation=file://${join(dir, 'lo-profile')}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', dir, ...[...decks.values()].map((d) => d.pptx)], { encoding: 'utf8', timeout: 120_000 });
  renderMs = Date.now() - t0;
  expect(r.status, `soffice: ${r.stderr}`).toBe(0);
  for (const d of decks.values()) expect(readFileSync(d.pdf).subarray(0, 5).toString('latin1'), d.pdf).toBe('%PDF-');
}, 180_000);

describe.skipIf(skip)('the PowerPoint export\'s slides rendered by LibreOffice, English and Russian (PNG kept in test-results/report-slides)', () => {
  it('the check sees a sentence too long for its box, on the slide LibreOffice draws', async () => {
    const d = decks.get('too-long');
    expect(d).toBeDefined();
    const { pptx, pdf } = d as { pptx: string; pdf: string };
    const deck = await deckBoxes(pptx);
    const page = pageWords(pdf, 1);
    const problems = slideProblems(deck.boxes[0] ?? [], page.words, page.width, page.height);
    expect(problems.some((p) => /^Text 1: "A verdict sentence much too long.*is not wholly inside its box/u.test(p)), problems.join('\n')).toBe(true);
    expect(problems.some((p) => /outside every box/u.test(p))).toBe(true);
    // the boxes that fit are not flagged
    expect(problems.filter((p) => p.startsWith('Text 0') || p.startsWith('Text 2'))).toEqual([]);
  });

  for (const lang of LANGS) {
    it(`${lang}, a workload profile's deck: no word off the slide or out of its box; each time chart's summary and note whole under it`, async () => {
      const d = decks.get(`profile-${lang}`);
      expect(d?.model).toBeDefined();
      const { pptx, pdf, model } = d as { pptx: string; pdf: string; model: ReportModel };
      const deck = await deckBoxes(pptx);
      const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
      expect(pages, 'one page per slide').toBe(deck.boxes.length);
      const all: string[] = [];
      const texts: string[] = [];
      for (let i = 0; i < pages; i++) {
        const page = pageWords(pdf, i + 1);
        const boxes = grown(deck.boxes[i] ?? [], deck.height);
        texts.push(squash(page.words.filter((w) => boxes.some((b) => inside(w.r, b.rect))).map((w) => w.t).join('')));
        all.push(...slideProblems(boxes, page.words, page.width, page.height).map((p) => `slide ${i + 1}: ${p}`));
      }
      expect(all, 'text out of place on the rendered slides').toEqual([]);
      const charts = model.sections.flatMap((x) => x.blocks).flatMap((b) => (b.type === 'chart' && b.chart.id.startsWith('profile-') && b.chart.id !== 'profile-queue-time' && b.chart.id !== 'profile-size-time' ? [b.chart] : []));
      expect(charts.map((c) => c.id)).toEqual(['profile-iops-time', 'profile-mbps-time', 'profile-latency-time']);
      for (const c of charts) {
        const at = texts.findIndex((t) => t.startsWith(squash(reportText(c.title, lang))));
        expect(at, `a slide titled «${reportText(c.title, lang)}»`).toBeGreaterThanOrEqual(0);
        for (const x of [reportText(c.summary, lang), ...(c.note === undefined ? [] : [reportText(c.note, lang)])]) expect(texts[at]?.includes(squash(x)), `«${x}», whole, on slide ${at + 1}`).toBe(true);
      }
    });

    it(`${lang}: every slide rendered and kept; no word off the slide or out of its box; the verdict, the headline values and the TCO bottom line whole`, async () => {
      const d = decks.get(lang);
      expect(d?.model).toBeDefined();
      const { pptx, pdf, model } = d as { pptx: string; pdf: string; model: ReportModel };
      const deck = await deckBoxes(pptx);
      const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
      // the cover, the decision block, the verdict and cards, the chart, (the scenario given) the TCO slide, the caveats
      expect(deck.boxes).toHaveLength(6);
      expect(pages, 'one page per slide').toBe(deck.boxes.length);
      // the font the slides name, laid out with its metrics: Arial, or Liberation Sans in its place
      expect(execFileSync('pdffonts', [pdf], { encoding: 'utf8' })).toMatch(/Arial|LiberationSans/u);

      // the PNG slides a person looks at
      const keep = join(kept, lang);
      rmSync(keep, { recursive: true, force: true });
      mkdirSync(keep, { recursive: true });
      execFileSync('pdftoppm', ['-r', '60', '-png', pdf, join(keep, 'slide')]);
      expect(readdirSync(keep).filter((f) => f.endsWith('.png'))).toHaveLength(pages);

      // nothing inked at the slide's edge: the shapes keep 0.3 in from the sides and top (a band of 0.25 in), the footer ends 0.15 in above the foot (0.1 in)
      const gray = join(dir, `${lang}-gray`);
      mkdirSync(gray, { recursive: true });
      execFileSync('pdftoppm', ['-r', String(DPI), '-gray', pdf, join(gray, 'p')]);
      const pgms = readdirSync(gray).filter((f) => f.endsWith('.pgm')).sort();
      expect(pgms).toHaveLength(pages);
      pgms.forEach((f, i) => expect(edgeInk(join(gray, f), 18, 7.2), `slide ${i + 1}: ink in the edge band`).toBe(0));

      const all: string[] = [];
      const words: Word[][] = [];
      for (let i = 0; i < pages; i++) {
        const page = pageWords(pdf, i + 1);
        expect(page.width, 'the page is the slide').toBeCloseTo(deck.width, 0);
        expect(page.height, 'the page is the slide').toBeCloseTo(deck.height, 0);
        expect(page.words.length, `slide ${i + 1} has text`).toBeGreaterThan(3);
        const boxes = grown(deck.boxes[i] ?? [], deck.height);
        words.push(page.words.filter((w) => boxes.some((b) => inside(w.r, b.rect))));
        all.push(...slideProblems(boxes, page.words, page.width, page.height).map((p) => `slide ${i + 1}: ${p}`));
      }
      expect(all, 'text out of place on the rendered slides').toEqual([]);

      // the headlines, from the engine's model in the export's words, each whole on its slide
      const blocks = (id: string): ReportModel['sections'][number]['blocks'] => model.sections.find((s) => s.id === id)?.blocks ?? [];
      const verdict = blocks('summary').find((b) => b.type === 'paragraph');
      const cards = blocks('summary').find((b) => b.type === 'cards');
      const tco = blocks('tco').find((b) => b.type === 'paragraph' && b.text.key === 'tco.verdict');
      expect(verdict?.type === 'paragraph' && cards?.type === 'cards' && tco?.type === 'paragraph').toBe(true);
      const onSlide = (n: number, text: string): boolean => squash((words[n - 1] ?? []).map((w) => w.t).join('')).includes(squash(text));
      // the decision block (engine decision.ts), every sentence and caveat whole on slide 2
      const decision = model.decision === undefined ? null : decisionTexts(model.decision, lang);
      expect(decision).not.toBeNull();
      for (const x of [...(decision?.lines ?? []), ...(decision?.caveats ?? [])]) expect(onSlide(2, x), `«${x}», whole, on slide 2`).toBe(true);
      if (verdict?.type === 'paragraph') expect(onSlide(3, reportText(verdict.text, lang)), 'the verdict sentence, whole, on slide 3').toBe(true);
      if (cards?.type === 'cards') {
        expect(cards.cards.length).toBeGreaterThanOrEqual(4);
        for (const c of cards.cards) {
          const v = c.value.map((x) => formatVal(x, lang)).join(' ');
          expect(onSlide(3, v), `the headline value "${v}", whole, on slide 3`).toBe(true);
        }
      }
      if (tco?.type === 'paragraph') expect(onSlide(5, reportText(tco.text, lang)), 'the TCO bottom line, whole, on slide 5').toBe(true);
      console.log(`report slides ${lang}: ${pages} slides rendered by LibreOffice (all decks in ${renderMs} ms), kept in ${keep}`);
    });
  }
});
