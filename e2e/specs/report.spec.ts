/**
 * The Export screen end to end: opened from the sample analysis, the live preview follows the
 * cover and the language (a hostile customer name shows literally, nothing runs), and an export
 * shows its progress and downloads a PDF whose text holds the customer and the headline figure,
 * with its contents page numbered; then the short form for managers, previewed and exported.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, sampleTest, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

const XSS = '<img src=x onerror=alert(1)>';

const test = sampleTest;

test('the Export screen previews the report live and exports a PDF with progress', async ({ page, app }, info) => {
  const errors = watchConsole(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  const saved = ((await page.getByTestId(TID.cardIosSaved).locator('.value').textContent()) ?? '').trim();
  await page.getByTestId(TID.navExport).click();
  await expect(page.getByTestId(TID.export)).toBeVisible();

  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  await expect(preview.locator('[data-section="summary"] h2')).toHaveText('Executive summary');
  // The preview is styled (the screen adopts the report's stylesheet): the section title is the accent blue.
  await expect(preview.locator('[data-section="summary"] h2')).toHaveCSS('color', 'rgb(11, 83, 148)');
  // IOPS, the two response times, reads and writes, queue size, read and write request sizes, matched hours, distribution,
  // and (the TCO section is included by default) the costs, the cumulative costs and the savings sensitivity
  await expect(preview.locator('svg.chart')).toHaveCount(12);

  await page.getByTestId(`${TID.exportCover}-customer`).fill(XSS);
  await expect(preview.locator('.cover dl')).toContainText(XSS);
  expect(await preview.locator('img').count()).toBe(0);

  await page.getByTestId(TID.exportLang).selectOption('fr');
  await expect(preview.locator('[data-section="summary"] h2')).toHaveText('Synthèse');

  await page.getByTestId(TID.exportFormat).selectOption('pdf');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(TID.exportStart).click()]);
  await expect(page.getByTestId(TID.exportProgress)).toBeVisible();
  expect(download.suggestedFilename()).toMatch(/-report-fr\.pdf$/);
  const dir = info.outputPath('export');
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByTestId(TID.exportStage)).toContainText('100');
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
  expect(text).toContain(XSS);
  // The dashboard's headline (English) in French format: 73.4% → 73,4 %.
  const fr = saved.replace('.', ',').replace('%', ' %').replace(/[\s\u00a0\u202f]+/gu, ' ');
  expect(text).toContain(fr);
  await expect(page.getByTestId(TID.exportDownload)).toHaveCount(1);
  // The full PDF's contents page numbers its sections (read back from the PDF itself).
  expect(text).toMatch(/Sommaire 1\. Décision \d+ 2\. Synthèse \d+ 3\. Méthode \d+/u);

  // The short form for managers: the preview changes at once, the PDF is two pages at most.
  await page.getByTestId(TID.exportForm).selectOption('short');
  await expect(preview.locator('main.short-form')).toBeVisible();
  await expect(preview.locator('.short-head .subtitle')).toHaveText('Synthèse pour la direction');
  await expect(preview.locator('svg.chart')).toHaveCount(1);
  await expect(preview.locator('.cover dl, nav.toc')).toHaveCount(0);
  const [short] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(TID.exportStart).click()]);
  expect(short.suggestedFilename()).toMatch(/-report-short-fr\.pdf$/);
  const shortFile = join(dir, short.suggestedFilename());
  await short.saveAs(shortFile);
  expect(Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [shortFile], { encoding: 'utf8' }))?.[1])).toBeLessThanOrEqual(2);
  const shortText = execFileSync('pdftotext', [shortFile, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
  expect(shortText).toContain(fr);
  expect(shortText).toContain(XSS);

  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});
