/**
 * The checks a printed report's pages pass (app/test/report-pages.test.ts, the before/after report;
 * app/test/profile-deliverable.test.ts, the workload profile), from the PDF's pixels and its text:
 * - nothing cut off at the page's edge: the outer band of every page (the paper's margin outside
 *   the 15 mm print margin, the footer's place aside) holds no ink;
 * - no mostly empty page: on each page but the last, the printed content reaches at least half
 *   way down the printable area, and inks at least 2 % of it;
 * - no doubled label ("Mode: Mode:"), and in Russian no English sentence of the report's catalog.
 * Needs poppler-utils (pdftoppm, pdftotext).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { report } from '../../src/shared/i18n/report.ts';
import type { Lang } from '../../src/shared/i18n/types.ts';

/** Resolution of the pixel checks, dots per inch. */
const DPI = 40;
const MM = DPI / 25.4;
/** A pixel darker than this (0–255) is ink. */
const INK = 235;

interface Gray { w: number; h: number; px: Uint8Array }

export const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ').trim();

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
export function pageLines(pdf: string, page: number): string[] {
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

/**
 * The pixel checks of every page of an A4 PDF (module comment), its pages drawn in grey into
 * `work`; returns how far down and how inked each page is, for the log.
 */
export function expectPagesFit(pdf: string, work: string, pages: number): string[] {
  mkdirSync(work, { recursive: true });
  execFileSync('pdftoppm', ['-r', String(DPI), '-gray', pdf, join(work, 'p')]);
  const files = readdirSync(work).filter((f) => f.endsWith('.pgm')).sort();
  expect(files).toHaveLength(pages);
  const fill: string[] = [];
  files.forEach((f, i) => {
    const g = readPgm(join(work, f));
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
  return fill;
}

/** No doubled label ("Mode: Mode:", "Mode   Mode: …"); in Russian, no English sentence of the report's catalog. `text`: pdftotext -layout, normalized. */
export function expectCleanText(text: string, lang: Lang): void {
  expect(text).not.toMatch(/(^|\s)(\p{L}[\p{L} ]*:)\s+\2(\s|$)/u);
  expect(text).not.toMatch(/(^|\s)(\p{Lu}\p{Ll}+)\s+\2\s?:/u);
  if (lang === 'ru') {
    const english = Object.entries(report.en).filter(([k, en]) => en !== report.ru[k as keyof typeof report.ru] && !en.includes('{') && /\s/u.test(en) && en.length >= 12).map(([, en]) => norm(en));
    expect(english.filter((en) => text.includes(en)), 'English text in the Russian report').toEqual([]);
  }
}
