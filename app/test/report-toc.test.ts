/**
 * The contents page of the PDF, numbered in place: the headless Chromium printer loads the report
 * once, prints a bare draft (no backgrounds, tags or outline) to learn where each section starts, writes
 * the numbers into the loaded page and prints it (pdf.ts PrintDocument). A printer that cannot keep
 * a report loaded (Electron's) loads the numbered HTML again instead. Both must give the same PDF
 * to a reader: the same pages with the same text (pdftotext, page by page), the same contents
 * numbers, and each of those the page its section's title first appears on. The draft paginates
 * as the printing does: its numbers hold at the first printing (no second one to settle them).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromiumPrinter, findChromium, type PdfPrinter } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { reportText } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import type { Paper } from '../src/host/report/html.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-toc-'));
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;
const skip = findChromium() === null ? 'no Chromium to print with' : !hasPoppler ? 'no poppler-utils (pdftotext)' : null;
const printer = chromiumPrinter();
// the same Chromium without `open`: every printing loads the report again, as Electron's printer does
const reloading: PdfPrinter = { print: (job) => printer.print(job), close: async () => {} };
// the same Chromium, counting the printings of a loaded report after its draft
let printings = 0;
const counting: PdfPrinter = {
  print: (job) => printer.print(job),
  open: async (job) => {
    const doc = await (printer.open as NonNullable<PdfPrinter['open']>)(job);
    return {
      ...doc,
      print: () => {
        printings++;
        return doc.print();
      },
    };
  },
  close: async () => {},
};
afterAll(async () => {
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
});

const norm = (s: string): string => s.replace(/\s+/gu, ' ').trim();
const pageCount = (pdf: string): number => Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
/** Every page's lines as pdftotext lays them out (pages split at form feeds), whitespace runs made one space. */
const pagesLines = (pdf: string): string[][] => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).split('\f').slice(0, pageCount(pdf)).map((p) => p.split('\n').map(norm));

async function exportWith(p: PdfPrinter, out: string, lang: Lang, paper: Paper): Promise<Awaited<ReturnType<typeof exportReport>>> {
  return exportReport({
    format: 'pdf', lang, paper, out, printer: p,
    load: { capturePath: sample, cover: { title: 'Cache PoC' }, scenario: { prefill: lang }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
  });
}

describe.skipIf(skipped('report-toc', skip))('the contents page numbered in place', () => {
  for (const [lang, paper] of [['en', 'a4'], ['ru', 'letter']] as const) {
    it(`${lang}, ${paper}: the same pages and text as a report loaded again with its numbers, each number the page its section starts on`, async () => {
      const inPlace = join(dir, `in-place-${lang}-${paper}.pdf`);
      const reloaded = join(dir, `reloaded-${lang}-${paper}.pdf`);
      printings = 0;
      const a = await exportWith(counting, inPlace, lang, paper);
      expect(printings, 'the draft\'s numbers held: one printing after it').toBe(1);
      const b = await exportWith(reloading, reloaded, lang, paper);
      expect(a.tocPages, 'the in-place PDF was numbered').not.toBeNull();
      expect([...(a.tocPages ?? [])]).toEqual([...(b.tocPages ?? [])]);
      const pages = pagesLines(inPlace);
      expect(pages.length).toBe(pageCount(inPlace));
      expect(pageCount(reloaded)).toBe(pages.length);
      const again = pagesLines(reloaded);
      pages.forEach((lines, i) => expect(lines, `page ${i + 1}`).toEqual(again[i]));
      // each section's title is a line of the page its number names and of no page before it
      const contents = norm((pages[0] ?? []).join(' '));
      for (const s of a.model.sections) {
        const n = a.tocPages?.get(`sec-${s.id}`) as number;
        const title = norm(reportText(s.title, lang));
        expect(contents, `${s.id} in the contents`).toMatch(new RegExp(`${title.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')} ${n}( |$)`, 'u'));
        expect(pages[n - 1], `${s.id} on page ${n}`).toContain(title);
        for (let before = 1; before < n; before++) expect(pages[before - 1], `${s.id} not on page ${before}`).not.toContain(title);
      }
    });
  }
});
