/**
 * The screens a manager is shown — Home, the dashboard, the Planner (each configuration's tab) and
 * Export — in English and Russian (the longest words of the four languages) at 1024×700 and
 * 1920×1080: a full-page screenshot of each is kept under test-results/e2e/<this test>/ as
 * `<screen>-<lang>-<w>x<h>.png`, and no text of it is cut (e2e/clipping.ts: no ellipsis, no hidden
 * overflow, no text out of its box, no field narrower than its value, no sideways scroll of the
 * page) and no axis title of the dashboard's or the Planner's charts is longer than its axis.
 */
import type { Page, TestInfo } from '@playwright/test';
import { sampleTest as test, expect, watchConsole, type AppHost } from '../fixtures.ts';
import { clippedText, cutAxisTitles } from '../clipping.ts';
import { TID } from '../../app/src/shared/testids.ts';

const LANGS = ['en', 'ru'] as const;
const SIZES = [[1024, 700], [1920, 1080]] as const;

/** Keeps a full-page screenshot of the screen as drawn, and says what of its text is cut (header and navigation included). */
async function shoot(page: Page, info: TestInfo, name: string): Promise<string[]> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
  return (await clippedText(page, 'body')).map((c) => `${name}: ${c}`);
}

async function open(page: Page, app: AppHost, lang: string): Promise<void> {
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.appTitle)).toBeVisible();
  await page.getByTestId(TID.langSelect).selectOption(lang);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

for (const lang of LANGS) {
  for (const [w, h] of SIZES) {
    test(`${lang} at ${w}×${h}: Home, the dashboard, the Planner and Export kept as screenshots, no text cut`, async ({ app, page }, info) => {
      const errors = watchConsole(page);
      await page.setViewportSize({ width: w, height: h });
      await open(page, app, lang);
      const at = `${lang}-${w}x${h}`;
      const cut: string[] = [];

      await page.goto(`${app.origin}/#/home`);
      await expect(page.getByTestId(TID.home)).toBeVisible();
      await expect(page.getByTestId(TID.homeRecent)).not.toHaveAttribute('aria-busy', 'true');
      cut.push(...(await shoot(page, info, `home-${at}`)));

      await page.getByTestId(TID.homeSample).click();
      await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
      await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
      cut.push(...(await shoot(page, info, `dashboard-${at}`)));
      const dashboard = await cutAxisTitles(page, `[data-testid="${TID.dashboard}"]`);
      expect(dashboard.charts).toBeGreaterThanOrEqual(3);
      cut.push(...dashboard.cut.map((c) => `dashboard-${at}: ${c}`));

      await page.getByTestId(TID.navPlanner).click();
      await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
      // the prefilled scenario (another spec of this worker may have saved an edited one)
      await page.getByTestId(TID.plannerReset).click();
      await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
      const tabs = page.getByRole('tablist').getByRole('tab');
      const n = await tabs.count();
      expect(n).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < n; i++) {
        await tabs.nth(i).click();
        await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
        // each configuration's editor checked; the first kept as a screenshot (planner-layout.spec.ts shoots the Planner in English)
        if (i === 0) cut.push(...(await shoot(page, info, `planner-${at}`)));
        else cut.push(...(await clippedText(page, 'body')).map((c) => `planner-tab${i + 1}-${at}: ${c}`));
      }
      const planner = await cutAxisTitles(page, `[data-testid="${TID.planner}"]`);
      expect(planner.charts).toBeGreaterThanOrEqual(3);
      cut.push(...planner.cut.map((c) => `planner-${at}: ${c}`));

      await page.getByTestId(TID.navExport).click();
      await expect(page.getByTestId(TID.export)).toBeVisible();
      // the preview has loaded: the report's own document is in the frame, with its cover
      await expect(page.frameLocator(`[data-testid="${TID.exportPreview}"]`).locator('body h1').first()).toBeVisible();
      await expect(page.getByTestId(TID.export).locator('.export-preview-box [role="status"]')).toBeEmpty();
      cut.push(...(await shoot(page, info, `export-${at}`)));

      expect(cut, `text cut on the screens in ${lang} at ${w}×${h}`).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
}
