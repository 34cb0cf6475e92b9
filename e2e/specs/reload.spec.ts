/**
 * A reload keeps the person where they were: `#/results/<id>` (and the planner and export routes
 * of the same analysis) opens the analysis again from its capture, with the same figures, when
 * this window opened it before; a route whose analysis this window never opened says so and
 * links Home, instead of showing Home without a word.
 */
import { test, expect, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { home } from '../../app/src/shared/i18n/home.ts';

test('a reloaded dashboard, planner or export route opens its analysis again with the same figures', async ({ app, page }) => {
  const errors = watchConsole(page);
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeSample).click();
  const dashboard = page.getByTestId(TID.dashboard);
  await expect(dashboard).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  const url = page.url();
  expect(url).toMatch(/#\/results\/[0-9a-f]{16}$/u);
  const saved = (await page.getByTestId(TID.cardIosSaved).textContent()) ?? '';
  expect(saved).toMatch(/\d/u);

  await page.reload();
  await expect(dashboard).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  expect(page.url()).toBe(url);
  await expect(page.getByTestId(TID.cardIosSaved)).toHaveText(saved);
  await expect(page.getByTestId(TID.reopen)).toHaveCount(0);

  // the planner of the same analysis, reloaded
  await page.getByTestId(TID.navPlanner).click();
  await expect(page.getByTestId(TID.planner)).toBeVisible();
  const plannerUrl = page.url();
  expect(plannerUrl).toBe(url.replace('#/results/', '#/planner/'));
  await page.reload();
  await expect(page.getByTestId(TID.planner)).toBeVisible({ timeout: 60_000 });
  expect(page.url()).toBe(plannerUrl);
  expect(errors).toEqual([]);
});

test('a route whose analysis this window never opened says so and links Home', async ({ app, page }) => {
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.home)).toBeVisible();
  const base = page.url().replace(/#.*$/u, '');
  await page.goto(`${base}#/results/0123456789abcdef`);
  const screen = page.getByTestId(TID.reopen);
  await expect(screen.getByRole('alert')).toHaveText(home.en['reopen.gone']);
  await expect(page.getByTestId(TID.dashboard)).toHaveCount(0);
  await screen.getByRole('link', { name: home.en['reopen.home'] }).click();
  await expect(page.getByTestId(TID.home)).toBeVisible();
});
