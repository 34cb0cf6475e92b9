/**
 * The Planner's layout (issue 28): at 1280×800 the results and the editor of the configuration
 * chosen by its tab are in the window together, without scrolling, and an edit there moves the
 * comparison beside it; at 1024×700 and 1920×1080 no text of the Planner is cut (every
 * configuration's editor, the drive table, the results) and no axis title of the Planner's or the
 * dashboard's charts is longer than its axis.
 */
import type { Locator, Page } from '@playwright/test';
import { sampleTest as test, expect, watchConsole, type AppHost } from '../fixtures.ts';
import { clippedText, cutAxisTitles } from '../clipping.ts';
import { TID } from '../../app/src/shared/testids.ts';

async function openPlanner(page: Page, app: AppHost): Promise<void> {
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navPlanner).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
  // the prefilled scenario (another spec of this worker may have saved an edited one)
  await page.getByTestId(TID.plannerReset).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
}

/** The box of `l`, which must lie wholly inside a window of `w`×`h` at the current scroll. */
async function inWindow(l: Locator, w: number, h: number, what: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await l.boundingBox();
  expect(b, what).not.toBeNull();
  const box = b as { x: number; y: number; width: number; height: number };
  expect(box.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right`).toBeLessThanOrEqual(w);
  expect(box.y + box.height, `${what}: bottom`).toBeLessThanOrEqual(h);
  return box;
}

test('at 1280×800 the results and the edited configuration are in view together, and an edit moves the comparison beside it', async ({ app, page }, info) => {
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPlanner(page, app);
  const tabs = page.getByRole('tablist').getByRole('tab');
  expect(await tabs.count()).toBeGreaterThanOrEqual(2);
  for (const i of [0, 1]) {
    const tab = tabs.nth(i);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const id = await tab.getAttribute('data-config');
    const editor = page.locator(`fieldset.pl-config[data-config="${id}"]`);
    await expect(editor).toBeVisible();
    // one editor shown: the others are hidden
    await expect(page.locator('fieldset.pl-config:visible')).toHaveCount(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const table = await inWindow(page.getByTestId(TID.plannerComparison), 1280, 800, 'the comparison table');
    await inWindow(page.getByTestId(TID.plannerVerdict), 1280, 800, 'the verdict');
    await inWindow(tab, 1280, 800, 'the tab');
    // the editor's first fields (backing drives, RAID level, group size) are in the window, beside the table
    for (const label of ['Drive model', 'RAID level', 'Drives per RAID group']) {
      const field = await inWindow(editor.getByLabel(label, { exact: false }).first(), 1280, 800, `${label} of ${id}`);
      expect(field.x + field.width, `${label} left of the results`).toBeLessThanOrEqual(table.x);
    }
  }
  // an edit in the shown editor moves that configuration's total in the table beside it, nothing scrolled
  const id = await tabs.nth(1).getAttribute('data-config');
  const total = page.getByTestId(TID.plannerComparison).locator(`tr[data-config="${id}"] [data-col="total"]`);
  const before = await total.textContent();
  const support = page.locator(`fieldset.pl-config[data-config="${id}"]`).getByLabel(/Support/).first();
  await support.fill('987654');
  await expect(total).not.toHaveText(before ?? '');
  await inWindow(total, 1280, 800, 'the edited total');
  await page.screenshot({ path: info.outputPath('planner-1280x800.png') });
  expect(errors).toEqual([]);
});

for (const [w, h] of [[1024, 700], [1920, 1080]] as const) {
  test(`at ${w}×${h} no text of the Planner is cut and no axis title of the Planner's or the dashboard's charts is`, async ({ app, page }, info) => {
    const errors = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
    await openPlanner(page, app);
    const tabs = page.getByRole('tablist').getByRole('tab');
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
      expect(await clippedText(page, `[data-testid="${TID.planner}"]`), `tab ${i + 1}`).toEqual([]);
    }
    // the comparison's columns all fit its box: none hidden behind a sideways scroll (the "USD/TB and Break-even cut")
    const fit = await page.getByTestId(TID.plannerComparison).evaluate((t) => ({ table: t.scrollWidth, box: (t.parentElement as HTMLElement).clientWidth }));
    expect(fit.table, 'the comparison table fits its column').toBeLessThanOrEqual(fit.box);
    await page.screenshot({ path: info.outputPath(`planner-${w}x${h}.png`), fullPage: true });
    const planner = await cutAxisTitles(page, `[data-testid="${TID.planner}"]`);
    expect(planner.charts).toBeGreaterThanOrEqual(3);
    expect(planner.titles).toBeGreaterThanOrEqual(planner.charts);
    expect(planner.cut).toEqual([]);

    await page.getByTestId(TID.navResults).click();
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    const dashboard = await cutAxisTitles(page, `[data-testid="${TID.dashboard}"]`);
    expect(dashboard.charts).toBeGreaterThanOrEqual(3);
    expect(dashboard.titles).toBeGreaterThan(0);
    expect(dashboard.cut).toEqual([]);
    expect(errors).toEqual([]);
  });
}
