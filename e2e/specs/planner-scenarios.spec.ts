/**
 * The Planner's scenarios end to end (issues 16 and 17): a configuration added with an NVMe drive
 * picked from the catalog (its figures shown with their sources), another removed; the scenario
 * exported, then imported in a fresh browser profile (a new context: nothing in its storage),
 * where the page shows the same totals and the same largest sensitivity bar as `cacheproof tco
 * --json` on the exported file; a bad file refused with the sentence naming its field; and the
 * report printed afterwards (the Export screen's preview: the report's own HTML) shows the
 * edited scenario's TCO, not the prefill.
 *
 * When the bundled sample capture is absent, a synthetic capture stands in for it (`--sample PATH`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, repoRoot, sampleTest, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { formatTcoNumber } from '../../app/src/shared/i18n/tco.ts';
import { report } from '../../app/src/shared/i18n/report.ts';
import { fmtDecimal } from '../../app/src/shared/i18n/numbers.ts';

const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');
const NVME = 'samsung-mzqlb3t8hals';
const test = sampleTest;

interface CliLife {
  expectedFailures: number;
  yearsToWearOut: number | null;
  wearIndexBefore: number | null;
  wearIndexAfter: number | null;
}
interface CliOut {
  result: {
    years: number;
    configurations: { id: string; label: string; totalUsd: number; backingLife: CliLife; cacheLife: CliLife | null }[];
    comparisons: { id: string; savingsUsd: number }[];
  };
  sensitivity: { configId: string; bars: { input: string; swingUsd: number | null }[] } | null;
}

const usd = (x: number): string => formatTcoNumber('en', x, 0);

function cliTco(file: string): CliOut {
  return JSON.parse(execFileSync(process.execPath, [CLI, 'tco', file, '--json'], { encoding: 'utf8' })) as CliOut;
}

async function openPlanner(page: Page, app: AppHost): Promise<void> {
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navPlanner).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
}

async function exportScenario(page: Page, file: string): Promise<Record<string, unknown>> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(TID.plannerExport).click()]);
  await download.saveAs(file);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The comparison table's totals equal the CLI's, configuration by configuration, and nothing else is listed. */
async function expectTotals(page: Page, cli: CliOut): Promise<void> {
  const rows = page.getByTestId(TID.plannerComparison).locator('tbody tr');
  await expect(rows).toHaveCount(cli.result.configurations.length);
  for (const c of cli.result.configurations) await expect(page.getByTestId(TID.plannerComparison).locator(`tbody tr[data-config="${c.id}"] [data-col="total"]`)).toHaveText(usd(c.totalUsd));
}

test('add a configuration with a catalog NVMe drive, remove one, export, import in a fresh profile: the CLI\'s totals and tornado; the report prints the edited scenario', async ({ app, page, browser }, testInfo) => {
  const errors = watchConsole(page);
  await openPlanner(page, app);
  await page.getByTestId(TID.plannerReset).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
  const before = await page.getByTestId(TID.plannerComparison).locator('tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-config')));
  expect(before).toContain('hdd-ram-cache');

  // The catalog: the NVMe drive's figures with their sources and dates, then added to the drive models.
  await page.getByTestId(TID.plannerCatalog).selectOption(NVME);
  const figures = page.getByTestId(TID.plannerCatalogFigures);
  await expect(figures.locator('caption')).toContainText('Samsung');
  for (const name of ['capacityBytes', 'randomReadIops4k', 'dwpd', 'warrantyYears', 'afr', 'priceUsd']) {
    const row = figures.locator(`tr[data-figure="${name}"]`);
    await expect(row.locator('.pl-fig-value')).toHaveText(/\d/);
    await expect(row.locator('.pl-fig-source')).not.toBeEmpty();
    await expect(row.locator('.pl-fig-date')).toHaveText(/^Date: \d{4}/);
  }
  await expect(figures.locator('tr[data-figure="priceUsd"] .pl-fig-value')).toContainText('example price');
  await expect(figures.locator('tr[data-figure="watts"] .pl-fig-value')).toContainText('not given');
  await page.getByTestId(TID.plannerCatalogAdd).click();
  await expect(page.locator('table.pl-drives tbody th').last()).toContainText('Samsung');
  // The catalog gives no power figure for it: the check names the field to type in, then accepts the typed value.
  const error = page.getByTestId(TID.plannerError);
  await expect(error.locator('.pl-error-sentence')).toHaveText(/^Samsung .* — Power \(W\) \(drives\[2\]\.watts\): this field is required\.$/);
  const watts = page.locator('table.pl-drives tbody tr').last().getByLabel(/Power \(W\)/);
  await expect(watts).toHaveAttribute('aria-invalid', 'true');
  await watts.fill('12');
  await expect(error).toBeHidden();

  // A new configuration with an SSD cache on that NVMe drive.
  await page.getByTestId(TID.plannerAddConfig).click();
  const added = page.locator('fieldset.pl-config').last();
  const newId = await added.getAttribute('data-config');
  expect(newId).toMatch(/^config-\d+$/);
  await page.getByTestId(`${TID.plannerAddSsdCache}-${newId}`).click();
  await page.locator('fieldset.pl-config').last().getByLabel('Cache SSD model').selectOption(NVME);
  // Duplicate it and remove the copy; a typed drive added and removed; a drive in use cannot be removed.
  await page.getByTestId(`${TID.plannerDuplicateConfig}-${newId}`).click();
  const copy = page.locator('fieldset.pl-config').nth(-1);
  await expect(copy.locator('> legend')).toHaveText(/\(copy\)$/);
  const copyId = await copy.getAttribute('data-config');
  expect(copyId).not.toBe(newId);
  await page.getByTestId(`${TID.plannerRemoveConfig}-${copyId}`).click();
  await expect(page.locator(`fieldset.pl-config[data-config="${copyId}"]`)).toHaveCount(0);
  await page.getByTestId(TID.plannerAddTypedDrive).click();
  await expect(page.locator('table.pl-drives tbody th').last()).toHaveText('New drive 4');
  await page.getByTestId(`${TID.plannerRemoveDrive}-drive-4`).click();
  await expect(page.locator('table.pl-drives tbody tr')).toHaveCount(3);
  await expect(page.getByTestId(`${TID.plannerRemoveDrive}-${NVME}`)).toBeDisabled();
  // Remove the RAM-cache design (its tab shows its editor).
  await page.locator('[role="tab"][data-config="hdd-ram-cache"]').click();
  await page.getByTestId(`${TID.plannerRemoveConfig}-hdd-ram-cache`).click();
  await expect(page.getByTestId(TID.plannerError)).toBeHidden();
  await expect(page.getByTestId(TID.plannerComparison).locator(`tr[data-config="${newId}"]`)).toBeVisible();
  await expect(page.getByTestId(TID.plannerComparison).locator('tr[data-config="hdd-ram-cache"]')).toHaveCount(0);

  // Exported: the edited scenario, which the CLI plans.
  const file = testInfo.outputPath('edited.tco.json');
  const exported = await exportScenario(page, file);
  const configs = exported['configurations'] as { id: string; cache?: { driveId?: string } }[];
  expect(configs.map((c) => c.id)).not.toContain('hdd-ram-cache');
  expect(configs.find((c) => c.id === newId)?.cache?.driveId).toBe(NVME);
  expect((exported['drives'] as { id: string }[]).map((d) => d.id)).toContain(NVME);
  const cli = cliTco(file);
  await expectTotals(page, cli);

  // A fresh profile: a new browser context with empty storage; the saved scenario is reset, then the file imported.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const otherErrors = watchConsole(other);
  await openPlanner(other, app);
  await other.getByTestId(TID.plannerReset).click();
  await expect(other.getByTestId(TID.plannerComparison)).toBeVisible();
  await expect(other.getByTestId(TID.plannerComparison).locator('tr[data-config="hdd-ram-cache"]')).toHaveCount(1);

  // A bad file is refused with the sentence naming the field; the scenario on screen stays.
  const bad = JSON.parse(JSON.stringify(exported)) as { drives: { priceUsd: number }[] };
  if (bad.drives[0] !== undefined) bad.drives[0].priceUsd = -5;
  const badFile = testInfo.outputPath('bad.tco.json');
  writeFileSync(badFile, JSON.stringify(bad));
  await other.getByTestId(TID.plannerImport).setInputFiles(badFile);
  await expect(other.getByTestId(TID.plannerImportError)).toHaveText('bad.tco.json was not imported: drives[0].priceUsd: must be at least 0, got -5.');
  await expect(other.getByTestId(TID.plannerComparison).locator('tr[data-config="hdd-ram-cache"]')).toHaveCount(1);

  await other.getByTestId(TID.plannerImport).setInputFiles(file);
  await expect(other.getByTestId(TID.plannerImportStatus)).toHaveText('Imported edited.tco.json.');
  await expect(other.getByTestId(TID.plannerComparison).locator('tr[data-config="hdd-ram-cache"]')).toHaveCount(0);
  await expectTotals(other, cli);
  // The tornado's largest bar is the CLI's.
  const largest = cli.sensitivity?.bars[0]?.input;
  expect(largest).toBeDefined();
  await expect(other.getByTestId(TID.plannerChartTornado)).toHaveAttribute('data-largest', largest ?? '');
  await expect(other.getByTestId(TID.plannerChartTornado).locator('canvas')).toBeVisible();
  const shot = await other.screenshot({ fullPage: true, path: testInfo.outputPath('planner-imported.png') });
  await testInfo.attach('planner-imported', { body: shot, contentType: 'image/png' });

  // The dashboard's drive life: the CLI's figures for the cache configuration that saves most in the imported scenario.
  const withCache = new Set(configs.filter((c) => c.cache !== undefined).map((c) => c.id));
  const savings = (id: string): number => cli.result.comparisons.find((x) => x.id === id)?.savingsUsd ?? -Infinity;
  const featured = cli.result.configurations.filter((c) => withCache.has(c.id)).sort((a, b) => savings(b.id) - savings(a.id))[0];
  if (featured?.cacheLife?.yearsToWearOut == null || featured.backingLife.wearIndexBefore === null || featured.backingLife.wearIndexAfter === null) throw new Error('no cache configuration with wear figures');
  await other.getByTestId(TID.navResults).click();
  const life = other.getByTestId(TID.dashLife);
  await expect(life).toContainText(featured.label);
  await expect(life.locator('[data-figure="cacheYearsToWearOut"] [data-value]')).toHaveText(`${fmtDecimal('en', featured.cacheLife.yearsToWearOut, 1)} years`);
  await expect(life.locator('[data-figure="hddWearIndex"] [data-value]')).toHaveText(`${fmtDecimal('en', featured.backingLife.wearIndexBefore, 3)} → ${fmtDecimal('en', featured.backingLife.wearIndexAfter, 3)}`);
  await expect(life.locator('[data-figure="expectedFailures"] [data-value]')).toHaveText(fmtDecimal('en', featured.backingLife.expectedFailures + featured.cacheLife.expectedFailures, 2));
  for (const part of ['Unit', 'Window', 'Method']) await expect(life.locator('[data-figure="cacheYearsToWearOut"] dt', { hasText: part })).toHaveCount(1);
  await expect(life).toContainText('the scenario edited in the Planner');
  await testInfo.attach('dashboard-drive-life', { body: await life.screenshot({ path: testInfo.outputPath('dashboard-life.png') }), contentType: 'image/png' });

  // The report printed afterwards (the Export screen's preview is the report's HTML) shows the edited scenario.
  await other.getByTestId(TID.navExport).click();
  await other.getByTestId(TID.exportTco).check();
  const preview = other.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  const tco = preview.locator('[data-section="tco"]');
  await expect(tco.locator('h2')).toBeVisible();
  await expect(other.getByTestId(TID.exportError)).toBeHidden();
  const text = await tco.innerText();
  // the report says which scenario it prints: the one edited in the Planner
  expect(text).toContain(report.en['tco.originPlanner']);
  for (const c of cli.result.configurations) {
    expect(text).toContain(c.label);
    expect(text).toContain(usd(c.totalUsd));
  }
  expect(text).not.toContain('RAM read cache');
  expect(text).toContain('Savings sensitivity');
  // The report's tornado: the same engine result, its bars in the CLI's order.
  await expect(tco.locator('svg[data-chart="tco-sensitivity"]')).toBeAttached();
  const inputs = await tco.locator('[data-table="tco-sensitivity"] tbody tr td:first-child').allInnerTexts();
  expect(inputs).toEqual((cli.sensitivity?.bars ?? []).map((b) => (report.en as Record<string, string>)[`tsens.${b.input}`]));
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
  await fresh.close();
});
