/**
 * The pages of the report as a manager receives them: the full and the short form, in English and
 * Russian, exported from the bundled sample with the TCO scenario prefilled from it, every page
 * written as a PNG under `test-results/report-pages/<form>-<lang>/` (kept for a person to look
 * at; ignored by git) and checked from its pixels and its text:
 * - the page count (the short form two pages; the full one as many as its contents say);
 * - no mostly empty page: on each page but the last, the printed content reaches at least half
 *   way down the printable area, and inks at least 2 % of it;
 * - nothing cut off at the page's edge: the outer band of every page (the paper's margin outside
 *   the 15 mm print margin, the footer's place aside) holds no ink, and the layout measured before
 *   printing has no overflow;
 * - no headline value wrapped: each card's value is on one line of its page;
 * - no doubled label ("Mode: Mode:"), and in Russian no English sentence of the report's catalog.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { findChromium } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { formatVal, report } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import type { ReportModel } from '@cacheproof/engine/report';
import { localizeTemplate } from '../src/shared/i18n/template.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const kept = join(root, 'test-results', 'report-pages');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-pages-'));
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined && spawnSync('pdftoppm', ['-v']).error === undefined;
const skip = findChromium() === null ? 'no Chromium to print with' : !hasPoppler ? 'no poppler-utils (pdftoppm, pdftotext)' : null;
if (skip !== null) console.log(`SKIP report pages: ${skip}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolution of the pixel checks, dots per inch (the kept PNGs are drawn at 70). */
const DPI = 40;
const MM = DPI / 25.4;
/** A pixel darker than this (0–255) is ink. */
const INK = 235;

interface Gray { w: number; h: number; px: Uint8Array }

/** A binary PGM (P5, 8-bit) as pdftoppm -gray writes it. */
function readPgm(file: string): Gray {
  const b = readFileSync(file);
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/u.test(String.fromCharCode(b[i] as number))) i++;
    let f = '';
    while (!/\s/u.test(String.fromCharCode(b[i] as number))) f += String.fromCharCode(b[i++] as number);
    fields.push(f);
  }
  i++;
  const [magic, w, h, max] = fields;
  if (magic !== 'P5' || max !== '255') throw new Error(`${file}: not an 8-bit binary PGM (${fields.join(' ')})`);
  return { w: Number(w), h: Number(h), px: b.subarray(i, i + Number(w) * Number(h)) };
}

/** Ink in a rectangle (pixels): how many, and the lowest row that has any. */
function ink(g: Gray, x0: number, y0: number, x1: number, y1: number): { n: number; lowest: number } {
  let n = 0, lowest = -1;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(g.h, Math.ceil(y1)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(g.w, Math.ceil(x1)); x++) {
      if ((g.px[y * g.w + x] as number) < INK) {
        n++;
        lowest = y;
      }
    }
  }
  return { n, lowest };
}

/** The words of a page with their boxes (pdftotext -bbox), grouped into lines of text left to right. */
function pageLines(pdf: string, page: number): string[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdf, '-'], { encoding: 'utf8' });
  const words = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/gu)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), t: (m[3] ?? '').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>') }));
  const lines = new Map<number, { x: number; t: string }[]>();
  for (const w of words) {
    const key = [...lines.keys()].find((y) => Math.abs(y - w.y) < 1.5) ?? w.y;
    lines.set(key, [...(lines.get(key) ?? []), { x: w.x, t: w.t }]);
  }
  return [...lines.values()].map((ws) => norm(ws.sort((a, b) => a.x - b.x).map((w) => w.t).join(' ')));
}

const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ').trim();

/** The headline cards' values as printed (the model's values, formatted by the report's own formatter). */
function cardValues(model: ReportModel, lang: Lang): string[] {
  const out: string[] = [];
  for (const s of model.sections) for (const b of s.blocks) if (b.type === 'cards') for (const c of b.cards) out.push(norm(c.value.map((v) => formatVal(v, lang)).join(' ')));
  return out;
}

let prefilled = '';
async function scenario(): Promise<unknown> {
  if (prefilled === '') {
    prefilled = join(dir, 'prefilled.tco.json');
    let err = '';
    const code = await runCli(['tco', '--from-capture', sample, '--out', prefilled], { stdout: () => {}, stderr: (s) => (err += s) });
    expect(code, err).toBe(0);
  }
  return JSON.parse(readFileSync(prefilled, 'utf8'));
}

describe.skipIf(skip !== null)('the report\'s pages, short and full, in English and Russian (PNG kept in test-results/report-pages)', () => {
  for (const form of ['full', 'short'] as const) {
    for (const lang of ['en', 'ru'] as const) {
      it(`${form}, ${lang}: every page rendered and kept; none mostly empty, none cut at the edge; headline values on one line`, async () => {
        const out = join(dir, `${form}-${lang}.pdf`);
        const res = await exportReport({
          format: 'pdf', form, lang, paper: 'a4', out,
          // the scenario as the CLI and the Export screen pass it: the template's labels in the report's language
          load: { capturePath: sample, cover: { title: 'Cache PoC', customer: 'ACME' }, scenario: { json: localizeTemplate(await scenario(), lang), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
        });
        expect(res.overflow, 'layout wider than the printable column').toEqual([]);
        const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
        if (form === 'short') expect(pages).toBe(2);
        else {
          expect(pages).toBeGreaterThan(8);
          // the contents' last section starts on a page the PDF has
          expect(Math.max(...(res.tocPages?.values() ?? [0]))).toBeLessThanOrEqual(pages);
        }

        // the PNG pages a person looks at
        const keep = join(kept, `${form}-${lang}`);
        rmSync(keep, { recursive: true, force: true });
        mkdirSync(keep, { recursive: true });
        execFileSync('pdftoppm', ['-r', '70', '-png', out, join(keep, 'page')]);
        expect(readdirSync(keep).filter((f) => f.endsWith('.png'))).toHaveLength(pages);

        // the same pages in grey at a lower resolution, for the pixel checks
        const gray = join(dir, `${form}-${lang}-gray`);
        mkdirSync(gray, { recursive: true });
        execFileSync('pdftoppm', ['-r', String(DPI), '-gray', out, join(gray, 'p')]);
        const files = readdirSync(gray).filter((f) => f.endsWith('.pgm')).sort();
        expect(files).toHaveLength(pages);
        const fill: string[] = [];
        files.forEach((f, i) => {
          const g = readPgm(join(gray, f));
          const page = i + 1;
          // A4 210 × 297 mm: printable area inside 15 mm margins, the footer in the bottom margin (18 mm)
          const left = 15 * MM, right = g.w - 15 * MM, top = 15 * MM, bottom = g.h - 18 * MM;
          // nothing outside the print margins but the footer: an outer band of 9 mm left, right and top, 4 mm at the foot
          const bands: [string, number, number, number, number][] = [['left', 0, 0, 9 * MM, g.h], ['right', g.w - 9 * MM, 0, g.w, g.h], ['top', 0, 0, g.w, 9 * MM], ['foot', 0, g.h - 4 * MM, g.w, g.h]];
          for (const [where, x0, y0, x1, y1] of bands) expect(ink(g, x0, y0, x1, y1).n, `page ${page}: ink in the ${where} edge band`).toBe(0);
          const body = ink(g, left, top, right, bottom);
          const reach = (body.lowest - top) / (bottom - top);
          const share = body.n / ((right - left) * (bottom - top));
          fill.push(`${page}: ${Math.round(reach * 100)}% down, ${(share * 100).toFixed(1)}% ink`);
          if (page < pages) {
            expect(reach, `page ${page} is mostly empty (its content ends ${Math.round(reach * 100)}% down the page)`).toBeGreaterThan(0.5);
            expect(share, `page ${page} is mostly empty (${(share * 100).toFixed(2)}% ink)`).toBeGreaterThan(0.02);
          }
        });
        console.log(`${form}-${lang}: ${pages} pages; ${fill.join('; ')}`);

        // headline values: each card's value on one line of the page that holds the cards
        const values = cardValues(res.model, lang);
        // the headline set: I/Os saved, response time, throughput, served by the cache (QD1 IOPS is in the details)
        expect(values.length).toBe(4);
        const all = Array.from({ length: pages }, (_, i) => pageLines(out, i + 1));
        for (const v of values) expect(all.some((lines) => lines.some((l) => l.includes(v))), `"${v}" is on one line`).toBe(true);

        // no doubled label ("Mode: Mode:"); in Russian, no English sentence of the report's catalog
        const text = norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }));
        expect(text).not.toMatch(/(^|\s)(\p{L}[\p{L} ]*:)\s+\2(\s|$)/u);
        // …nor a fact's label said again by its value ("Mode   Mode: front and backing…")
        expect(text).not.toMatch(/(^|\s)(\p{Lu}\p{Ll}+)\s+\2\s?:/u);
        if (lang === 'ru') {
          const english = Object.entries(report.en).filter(([k, en]) => en !== report.ru[k as keyof typeof report.ru] && !en.includes('{') && /\s/u.test(en) && en.length >= 12).map(([, en]) => norm(en));
          expect(english.filter((en) => text.includes(en)), 'English text in the Russian report').toEqual([]);
        }
      });
    }
  }
});
