/**
 * The Export screen's TCO section: the scenario is prefilled from the analysis on screen (with
 * `measuredFrom` naming its capture), so the report accepts it and shows the TCO section in the
 * preview, with no error on screen.
 */
import { expect, sampleTest, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';


const test = sampleTest;

test('including the TCO section uses the scenario prefilled from this analysis, which the report accepts', async ({ page, app }) => {
  const errors = watchConsole(page);
  await page.goto(app.authUrl);
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navExport).click();
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  await expect(preview.locator('[data-section="summary"] h2')).toHaveText('Executive summary');
  await expect(preview.locator('[data-section="tco"]')).toHaveCount(0);

  await page.getByTestId(TID.exportTco).check();
  await expect(preview.locator('[data-section="tco"] h2')).toBeVisible();
  await expect(preview.locator('[data-figure="tco-costs"] svg[data-chart="tco-costs"]')).toBeAttached();
  await expect(page.getByTestId(TID.exportError)).toBeHidden();
  expect(errors).toEqual([]);
});
