/**
 * Collect on another machine, as a person uses it: from Home, the Windows commands follow the
 * interval and the windows typed (logman's -si and -rf, typeperf's count), a measure of 0 h gives
 * a baseline alone, Linux gives iostat, a bad folder is refused in a sentence, and the script
 * downloads with the text shown. English and French, each scanned with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { collectUi } from '../../app/src/shared/i18n/collect.ts';

async function serious(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test('the commands follow the plan; a baseline alone; Linux; a bad folder; the script downloads as shown; English and French with axe', async ({ app, page }) => {
  const errors = watchConsole(page);
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeCollect).click();
  const screen = page.getByTestId(TID.collectScreen);
  await expect(screen).toBeVisible();
  const steps = page.getByTestId(TID.collectSteps);
  const create = steps.locator('li[data-step="create"][data-window="baseline"] code');
  await expect(create).toContainText('-si 00:00:15 -rf 24:00:00');

  await page.getByTestId(TID.collectInterval).fill('30');
  await expect(create).toContainText('logman create counter "cacheproof-baseline" -c "\\PhysicalDisk(*)\\*" "\\LogicalDisk(*)\\*" -si 00:00:30 -rf 24:00:00');
  // typeperf: 24 h at 30 s is 2,880 samples
  await expect(steps.locator('li[data-step="typeperf"][data-window="baseline"] code')).toContainText('-si 30 -sc 2880');
  await expect(steps.locator('li[data-window="measure"]')).toHaveCount(3);
  expect(await serious(page), 'axe (en)').toEqual([]);

  await page.getByTestId(TID.collectMeasure).fill('0');
  await expect(steps.locator('li[data-window="measure"]')).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(TID.collectDownload).click()]);
  expect(download.suggestedFilename()).toBe('cacheproof.cmd');
  const shown = (await page.getByTestId(TID.collectScript).textContent()) ?? '';
  const saved = readFileSync(await download.path() as string, 'utf8');
  expect(saved.replace(/\r\n/gu, '\n')).toBe(shown.replace(/\r\n/gu, '\n'));
  expect(saved).toContain('\r\n');

  await page.getByTestId(TID.collectOs).selectOption('linux');
  await expect(page.getByTestId(TID.collectFolder)).toHaveValue('/var/tmp/cacheproof');
  await expect(steps.locator('li[data-step="iostat"] code')).toContainText("iostat -dxty -o JSON 30 2880 > '/var/tmp/cacheproof/cacheproof-baseline.json'");

  await page.getByTestId(TID.collectFolder).fill('relative/folder');
  await expect(page.getByTestId(TID.collectProblems)).toContainText(collectUi.en['problem.folder']);

  // French: the screen's words, the same commands
  await page.evaluate(() => { globalThis.localStorage.setItem('cacheproof.lang', 'fr'); });
  await page.reload();
  await expect(page.getByTestId(TID.collectScreen)).toContainText(collectUi.fr.title);
  await expect(page.getByTestId(TID.collectSteps)).toBeVisible();
  expect(await serious(page), 'axe (fr)').toEqual([]);
  expect(errors).toEqual([]);
});
