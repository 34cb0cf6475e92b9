/**
 * The Export screen's TCO section: ticked by default, with the scenario prefilled from the
 * analysis on screen (with `measuredFrom` naming its capture) when the Planner has not edited
 * one, so the report accepts it, says it is the prefill, and shows the TCO section and its
 * bottom line in the preview, with no error on screen; unticked, the section goes. Its own host
 * (a fresh data folder): the hint depends on whether a Planner scenario was saved for this
 * analysis, which the specs sharing the worker's host do (planner-scenarios saves one).
 */
import { expect, SAMPLE, sampleTest, startApp, watchConsole } from '../fixtures.ts';
import type { Page } from '@playwright/test';
import { TID } from '../../app/src/shared/testids.ts';
import { exportUi, report } from '../../app/src/shared/i18n/report.ts';

const test = sampleTest;

test('the TCO section is included by default, with the scenario prefilled from this analysis, which the report accepts and names as the prefill', async ({ page, capture }) => {
  const app = await startApp(capture === SAMPLE ? [] : ['--sample', capture]);
  try {
    await prefilledByDefault(page, app.authUrl);
  } finally {
    await app.stop();
  }
});

async function prefilledByDefault(page: Page, authUrl: string): Promise<void> {
  const errors = watchConsole(page);
  await page.goto(authUrl);
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navExport).click();
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  await expect(preview.locator('[data-section="summary"] h2')).toHaveText('Executive summary');
  await expect(page.getByTestId(TID.exportTco)).toBeChecked();
  await expect(preview.locator('[data-section="tco"] h2')).toBeVisible();
  await expect(page.getByTestId(TID.exportTcoHint)).toHaveText(exportUi.en['h.tcoPrefilled']);
  await expect(preview.locator('[data-section="tco"]')).toContainText(report.en['tco.originPrefilled']);
  await expect(preview.locator('[data-section="tco"]')).toContainText('Sized on the 95th percentile of the measured IOPS');
  await expect(preview.locator('[data-figure="tco-costs"] svg[data-chart="tco-costs"]')).toBeAttached();
  await expect(page.getByTestId(TID.exportError)).toBeHidden();

  await page.getByTestId(TID.exportTco).uncheck();
  await expect(preview.locator('[data-section="tco"]')).toHaveCount(0);
  expect(errors).toEqual([]);
}
