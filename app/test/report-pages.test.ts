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
import { chromiumPrinter, findChromium } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { formatVal } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import type { ReportModel } from '@cacheproof/engine/report';
import { localizeTemplate } from '../src/shared/i18n/template.ts';
import { expectCleanText, expectPagesFit, norm, pageLines } from './support/page-checks.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const kept = join(root, 'test-results', 'report-pages');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-pages-'));
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined && spawnSync('pdftoppm', ['-v']).error === undefined;
const skip = findChromium() === null ? 'no Chromium to print with' : !hasPoppler ? 'no poppler-utils (pdftoppm, pdftotext)' : null;
// one headless Chromium for the file's PDFs, as the app's host keeps one for its exports
const printer = chromiumPrinter();
afterAll(async () => {
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe.skipIf(skipped('report-pages', skip))('the report\'s pages, short and full, in English and Russian (PNG kept in test-results/report-pages)', () => {
  for (const form of ['full', 'short'] as const) {
    for (const lang of ['en', 'ru'] as const) {
      it(`${form}, ${lang}: every page rendered and kept; none mostly empty, none cut at the edge; headline values on one line`, async () => {
        const out = join(dir, `${form}-${lang}.pdf`);
        const res = await exportReport({
          format: 'pdf', form, lang, paper: 'a4', out, printer,
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

        // the same pages in grey at a lower resolution, for the pixel checks (support/page-checks.ts)
        const fill = expectPagesFit(out, join(dir, `${form}-${lang}-gray`), pages);
        console.log(`${form}-${lang}: ${pages} pages; ${fill.join('; ')}`);

        // headline values: each card's value on one line of the page that holds the cards
        const values = cardValues(res.model, lang);
        // the headline set: I/Os saved, response time, throughput, served by the cache (QD1 IOPS is in the details)
        expect(values.length).toBe(4);
        const all = Array.from({ length: pages }, (_, i) => pageLines(out, i + 1));
        for (const v of values) expect(all.some((lines) => lines.some((l) => l.includes(v))), `"${v}" is on one line`).toBe(true);

        // no doubled label ("Mode: Mode:"); in Russian, no English sentence of the report's catalog
        expectCleanText(norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' })), lang);
      });
    }
  }
});
