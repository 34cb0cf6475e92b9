/**
 * The Planner screen end to end: opened from the sample analysis, edited (RAID level and
 * electricity price), its table and chart summaries compared with what `cacheproof tco --json`
 * computes for the scenario the page exports; and a bad input (a negative price) that shows
 * one sentence naming the field while the last valid table stays; and the prefilled scenario in
 * French, equal to what `cacheproof tco --from-capture --lang fr` writes, following the language
 * when it changes.
 *
 * When the bundled sample capture is absent (it is recorded on a lab machine), a synthetic
 * capture stands in for it (`--sample PATH`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, repoRoot, sampleTest, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { formatTcoNumber } from '../../app/src/shared/i18n/tco.ts';

const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');

const test = sampleTest;

/** The parts of `cacheproof tco --json` the page shows. */
interface CliConfig {
  id: string;
  label: string;
  lines: { id: string; costUsd: number }[];
  upfrontUsd: number;
  totalUsd: number;
  cumulativeUsd: number[];
  raidLevel: string;
  sizing: { driveCount: number };
  cacheDriveCount: number;
}
interface CliResult {
  configurations: CliConfig[];
  energy: { usdPerKwh?: number };
}

/** Whole USD as the page and `cacheproof tco` print them (English locale). */
const usd = (x: number): string => formatTcoNumber('en', x, 0);

/**
 * Opens the sample's Planner. The edited scenario is saved with the analysis by the host, which
 * the specs of this file share: unless `keepSaved`, the Planner is reset to the prefilled scenario
 * first, so each test starts from the measurement.
 */
async function openPlanner(page: Page, app: AppHost, keepSaved = false): Promise<void> {
  await page.goto(app.authUrl);
  // The app boots on Home; the sample is one click away.
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navPlanner).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
  if (!keepSaved) {
    await page.getByTestId(TID.plannerReset).click();
    await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
  }
}

async function exportScenario(page: Page, file: string): Promise<unknown> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(TID.plannerExport).click()]);
  expect(download.suggestedFilename()).toMatch(/\.tco\.json$/);
  await download.saveAs(file);
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

/** The scenario `cacheproof tco --from-capture CAPTURE --lang LANG` writes. */
function cliFromCapture(capture: string, lang: string, file: string): unknown {
  execFileSync(process.execPath, [CLI, 'tco', '--from-capture', capture, '--out', file, '--lang', lang], { encoding: 'utf8' });
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

/** The bottom line `cacheproof tco FILE --lang LANG` prints (its second line, under the title). */
function cliVerdict(file: string, lang: string): string {
  return execFileSync(process.execPath, [CLI, 'tco', file, '--lang', lang], { encoding: 'utf8' }).split('\n')[1] ?? '';
}

function cliTco(file: string): CliResult {
  const out = execFileSync(process.execPath, [CLI, 'tco', file, '--json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { result: CliResult }).result;
}

/** Every line item, day-one and total row of every configuration, and the comparison and chart summaries, equal the CLI's. */
async function expectPageShows(page: Page, r: CliResult): Promise<void> {
  const costs = page.getByTestId(`${TID.plannerChartCosts}-summary`);
  const cumulative = page.getByTestId(`${TID.plannerChartCumulative}-summary`);
  for (const c of r.configurations) {
    const table = page.getByTestId(`${TID.plannerLines}-${c.id}`);
    await expect(table.locator('tbody tr')).toHaveCount(c.lines.length);
    for (const line of c.lines) await expect(table.locator(`tr[data-line="${line.id}"] td.num`)).toHaveText(usd(line.costUsd));
    await expect(table.locator('tr[data-line="upfront"] td.num')).toHaveText(usd(c.upfrontUsd));
    await expect(table.locator('tr[data-line="total"] td.num')).toHaveText(usd(c.totalUsd));
    const row = page.getByTestId(TID.plannerComparison).locator(`tr[data-config="${c.id}"]`);
    await expect(row.locator('td[data-col="total"]')).toHaveText(usd(c.totalUsd));
    await expect(row.locator('td').first()).toHaveText(usd(c.sizing.driveCount + c.cacheDriveCount));
    await expect(costs).toContainText(`${c.label}: ${usd(c.totalUsd)} USD`);
    await expect(cumulative).toContainText(`${c.label}: ${usd(c.cumulativeUsd[0] ?? NaN)} USD on day one, ${usd(c.cumulativeUsd[c.cumulativeUsd.length - 1] ?? NaN)} USD after`);
  }
}

test('the planner opens from the sample analysis and follows RAID level and electricity price edits exactly as cacheproof tco does', async ({ app, page }, testInfo) => {
  const errors = watchConsole(page);
  await openPlanner(page, app);
  for (const id of [TID.plannerChartCosts, TID.plannerChartCumulative, TID.plannerChartSpindles]) await expect(page.getByTestId(id).locator('canvas')).toBeVisible();
  await expect(page.getByTestId(TID.plannerLife)).toContainText('Expected failures');

  // The prefilled scenario, as the CLI computes it.
  const initialFile = testInfo.outputPath('initial.tco.json');
  await exportScenario(page, initialFile);
  const initial = cliTco(initialFile);
  await expectPageShows(page, initial);
  // the bottom line: the engine's verdict and its basis, word for word the CLI's
  await expect(page.getByTestId(TID.plannerVerdict)).toHaveText(cliVerdict(initialFile, 'en'));
  await expect(page.getByTestId(TID.plannerVerdict)).toContainText('Sized on the 95th percentile of the measured IOPS');
  const first = initial.configurations[0];
  if (first === undefined) throw new Error('no configuration');
  expect(first.raidLevel).toBe('10');

  // Edit: the first configuration from RAID 10 to RAID 6, electricity from 0.15 to 0.32 USD/kWh.
  const group = page.getByRole('group', { name: first.label, exact: true });
  await group.getByLabel('RAID level').first().selectOption('6');
  await page.getByLabel('Electricity price').fill('0.32');
  await expect(page.getByTestId(TID.plannerError)).toBeHidden();

  const file = testInfo.outputPath('edited.tco.json');
  const scenario = (await exportScenario(page, file)) as { energy: { usdPerKwh: number }; configurations: { backing: { raid: { level: string; groupSize: number } } }[] };
  expect(scenario.energy.usdPerKwh).toBe(0.32);
  expect(scenario.configurations[0]?.backing.raid).toEqual({ level: '6', groupSize: 4 });
  const edited = cliTco(file);
  await expectPageShows(page, edited);

  // The figures really moved: the first configuration's total and every power line differ from before.
  const editedFirst = edited.configurations[0];
  expect(editedFirst?.raidLevel).toBe('6');
  expect(editedFirst?.totalUsd).not.toBe(first.totalUsd);
  for (const [i, c] of edited.configurations.entries()) {
    const power = (x: CliConfig | undefined): number | undefined => x?.lines.find((l) => l.id === 'powerCooling')?.costUsd;
    expect(power(c)).not.toBe(power(initial.configurations[i]));
  }
  await expect(page.getByTestId(`${TID.plannerLines}-${first.id}`).locator('tr[data-line="powerCooling"] td').first()).toContainText('0.32');

  const shot = await page.screenshot({ fullPage: true, path: testInfo.outputPath('planner.png') });
  await testInfo.attach('planner', { body: shot, contentType: 'image/png' });

  // Saved with the analysis: a reload keeps the edits.
  await openPlanner(page, app, true);
  await expect(page.getByLabel('Electricity price')).toHaveValue('0.32');
  await expect(page.getByTestId(`${TID.plannerLines}-${first.id}`).locator('tr[data-line="total"] td.num')).toHaveText(usd(editedFirst?.totalUsd ?? NaN));
  expect(errors).toEqual([]);
});

test('the RAM cache is sized from the measurement, and a typed size re-prices it per GB exactly as cacheproof tco does on the export', async ({ app, page }, testInfo) => {
  const errors = watchConsole(page);
  await openPlanner(page, app);
  const initialFile = testInfo.outputPath('ram-initial.tco.json');
  type RamFile = { configurations: { id: string; label: string; cache?: { kind: string; capacityBytes: number; costUsd: number; watts: number; sizing?: { basis: string; suggestedBytes: number; moduleId: string } } }[] };
  const initial = (await exportScenario(page, initialFile)) as RamFile;
  const ramConfig = initial.configurations.find((c) => c.cache?.kind === 'ram');
  const ram = ramConfig?.cache;
  if (ramConfig === undefined || ram?.sizing === undefined) throw new Error('the prefilled scenario has no measured RAM cache');
  // the sample's 369 MB backing device: the cache is the bytes its baseline moved, not the example's 512 GiB
  expect(ram.sizing.basis).toBe('bytes-moved');
  expect(ram.capacityBytes).toBe(ram.sizing.suggestedBytes);
  expect(ram.capacityBytes).toBeLessThan(369_098_752);
  // one configuration is edited at a time: its tab shows its editor
  await page.getByRole('tab', { name: ramConfig.label, exact: true }).click();
  const group = page.getByRole('group', { name: ramConfig.label, exact: true });
  const size = group.getByLabel('Cache size');
  await expect(size).toHaveValue(String(Number((ram.capacityBytes / 1e9).toPrecision(6))));
  await expect(group.getByTestId('planner-ram-basis')).toContainText('the bytes read and written on the backing devices in the baseline window');
  const before = cliTco(initialFile).configurations.find((c) => c.id === ramConfig.id);

  await size.fill('2');
  await expect(group.getByTestId('planner-ram-price')).toContainText(`${usd((2e9 / 2 ** 30) * 3)} USD`);
  const file = testInfo.outputPath('ram-edited.tco.json');
  const edited = ((await exportScenario(page, file)) as RamFile).configurations.find((c) => c.id === ramConfig.id)?.cache;
  expect(edited?.capacityBytes).toBe(2e9);
  // linear in the size, from the catalog's ddr4-rdimm-32gb: 3 USD and 5 W ÷ 32 per GiB
  expect(edited?.costUsd).toBeCloseTo((2e9 / 2 ** 30) * 3, 6);
  expect(edited?.watts).toBeCloseTo((2e9 / 2 ** 30) * (5 / 32), 6);
  const after = cliTco(file);
  await expectPageShows(page, after);
  expect(after.configurations.find((c) => c.id === ramConfig.id)?.totalUsd).not.toBe(before?.totalUsd);
  expect(errors).toEqual([]);
});

test('every dropdown of the Planner recomputes at once: after each change the line items are the CLI\'s for the exported scenario', async ({ app, page }, testInfo) => {
  const errors = watchConsole(page);
  await openPlanner(page, app);
  const form = page.locator('form.pl-form');
  const count = await form.locator('select').count();
  expect(count).toBeGreaterThanOrEqual(5);
  let changed = 0;
  for (let i = 0; i < count; i++) {
    const select = form.locator('select').nth(i);
    // a configuration's selects are in its tab's panel: its tab shows them
    const tab = await select.evaluate((x) => x.closest('[role="tabpanel"]')?.getAttribute('aria-labelledby') ?? null);
    if (tab !== null) await page.locator(`#${tab}`).click();
    const name = (await select.getAttribute('id')) ?? String(i);
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const current = await select.inputValue();
    const other = options.find((o) => o !== current);
    if (other === undefined) continue;
    await select.selectOption(other);
    // A choice the scenario cannot hold is refused in a sentence (nothing to compare); any other is computed now.
    if (await page.getByTestId(TID.plannerError).isVisible()) continue;
    const file = testInfo.outputPath(`select-${i}.tco.json`);
    await exportScenario(page, file);
    await expectPageShows(page, cliTco(file));
    changed++;
    testInfo.annotations.push({ type: 'select', description: `${name}: ${current} → ${other}` });
  }
  expect(changed).toBeGreaterThanOrEqual(5);
  expect(errors).toEqual([]);
});

test('a negative electricity price shows one sentence naming the field and keeps the last valid table', async ({ app, page }) => {
  const errors = watchConsole(page);
  await openPlanner(page, app);
  const table = page.getByTestId(`${TID.plannerLines}-all-hdd`);
  await expect(table).toBeVisible();
  const before = await table.innerText();
  const comparison = await page.getByTestId(TID.plannerComparison).innerText();

  const price = page.getByLabel('Electricity price');
  await price.fill('-0.1');
  const error = page.getByTestId(TID.plannerError);
  await expect(error).toBeVisible();
  await expect(error.locator('.pl-error-sentence')).toHaveText('Electricity price (energy.usdPerKwh): must be at least 0, got -0.1.');
  await expect(error).toContainText('last valid input');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId(TID.plannerExport)).toBeDisabled();
  expect(await table.innerText()).toBe(before);
  expect(await page.getByTestId(TID.plannerComparison).innerText()).toBe(comparison);

  // Corrected: the error goes, the figures follow the new price.
  await price.fill('0.2');
  await expect(error).toBeHidden();
  await expect(price).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId(TID.plannerExport)).toBeEnabled();
  await expect(table.locator('tr[data-line="powerCooling"] td').first()).toContainText('0.2');
  expect(await table.innerText()).not.toBe(before);
  expect(errors).toEqual([]);
});

test('in French the prefilled scenario is French, as cacheproof tco --from-capture --lang fr writes it, and follows a language change', async ({ app, capture, page }, testInfo) => {
  const errors = watchConsole(page);
  await page.goto(app.authUrl);
  await page.getByTestId(TID.langSelect).selectOption('fr');
  await openPlanner(page, app);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

  const comparison = page.getByTestId(TID.plannerComparison);
  const rowLabel = (id: string) => comparison.locator(`tr[data-config="${id}"] th`);
  await expect(rowLabel('all-hdd')).toHaveText('100 % HDD, RAID 10');
  await expect(rowLabel('hdd-ssd-cache')).toHaveText('HDD en RAID 5 + cache SSD');
  await expect(rowLabel('all-flash-nvme')).toHaveText('100 % flash NVMe, RAID 5');
  await page.getByRole('tab', { name: 'HDD en RAID 5 + cache SSD', exact: true }).click();
  await expect(page.getByRole('group', { name: 'HDD en RAID 5 + cache SSD', exact: true })).toBeVisible();
  await expect(page.locator('table.pl-drives tbody th')).toHaveText(['Toshiba MG10ACA20TE 20 To 7 200 tr/min SATA', 'Micron 7400 PRO M.2 3,84 To NVMe (1 DWPD)']);
  for (const english of ['SSD cache', 'All HDD', 'All-flash', 'rpm']) await expect(page.getByTestId(TID.planner)).not.toContainText(english);

  // The page's scenario is the CLI's, word for word and figure for figure.
  const french = await exportScenario(page, testInfo.outputPath('page-fr.tco.json'));
  expect(french).toEqual(cliFromCapture(capture, 'fr', testInfo.outputPath('cli-fr.tco.json')));
  await expect(page.getByTestId(TID.plannerVerdict)).toHaveText(cliVerdict(testInfo.outputPath('page-fr.tco.json'), 'fr'));

  // Switched to English: the template's labels follow (nothing was renamed), the figures stay.
  await page.getByTestId(TID.langSelect).selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(rowLabel('hdd-ssd-cache')).toHaveText('HDD RAID 5 + SSD cache');
  await expect(rowLabel('all-hdd')).toHaveText('All HDD, RAID 10');
  const english = await exportScenario(page, testInfo.outputPath('page-en.tco.json'));
  expect(english).toEqual(cliFromCapture(capture, 'en', testInfo.outputPath('cli-en.tco.json')));

  // An edit made in English is kept when going back to French; the labels turn French again.
  await page.getByLabel('Electricity price').fill('0.21');
  await page.getByTestId(TID.langSelect).selectOption('fr');
  await expect(rowLabel('hdd-ssd-cache')).toHaveText('HDD en RAID 5 + cache SSD');
  // Shown in French (a decimal comma), and read back from it: typing 0,25 plans 0.25 USD/kWh.
  await expect(page.getByLabel('Prix de l’électricité')).toHaveValue('0,21');
  await page.getByLabel('Prix de l’électricité').fill('0,25');
  const typed = await exportScenario(page, testInfo.outputPath('page-fr-typed.tco.json'));
  expect((typed as { energy: { usdPerKwh: number } }).energy.usdPerKwh).toBe(0.25);

  // The bottom line in Spanish and Russian too: the page's verdict is `cacheproof tco --lang` on its scenario.
  for (const lang of ['es', 'ru'] as const) {
    await page.getByTestId(TID.langSelect).selectOption(lang);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    const file = testInfo.outputPath(`page-${lang}.tco.json`);
    await exportScenario(page, file);
    await expect(page.getByTestId(TID.plannerVerdict)).toHaveText(cliVerdict(file, lang));
  }
  expect(errors).toEqual([]);
});
