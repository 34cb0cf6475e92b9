/**
 * The decision block at the top of the results (issue 36) on the bundled sample: first on the
 * dashboard, before the headline cards; once the Planner's prefilled scenario is planned it gives
 * the TCO verdict on p95 with the peak's reversal, pays back or not with the deciding line item,
 * the I/Os saved with its 95% interval, drive life and the three caveats (the words every report
 * format prints: app/test/decision-block.test.ts checks those word for word). Its sentences equal
 * `cacheproof analyze --json`'s block (the same prefilled scenario, the same provenance: a
 * capacity the capture does not record is named as an assumption) read in the catalog.
 */
import type { Page } from '@playwright/test';
import { test, expect, repoRoot as root, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { decisionTexts } from '../../app/src/shared/i18n/decision-text.ts';

async function openSample(page: Page, authUrl: string): Promise<void> {
  await page.goto(authUrl);
  await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
  await page.evaluate(() => { location.hash = '#/sample'; });
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
}

test('the decision block is first on the dashboard, with the verdict on both bases, I/Os saved, drive life and the caveats', async ({ app, page }) => {
  const errors = watchConsole(page);
  await openSample(page, app.authUrl);
  const box = page.getByTestId(TID.dashDecision);
  await expect(box).toHaveAttribute('data-tco', 'true', { timeout: 30_000 });
  // first: before the headline cards
  const order = await page.getByTestId(TID.dashboard).evaluate((d, ids) => {
    const all = [...d.querySelectorAll('[data-testid]')].map((x) => x.getAttribute('data-testid'));
    return [all.indexOf(ids[0] ?? ''), all.indexOf(ids[1] ?? '')];
  }, [TID.dashDecision, TID.cardIosSaved]);
  expect(order[0]).toBeGreaterThanOrEqual(0);
  expect(order[0]).toBeLessThan(order[1] ?? -1);
  const verdict = (await box.locator('.decision-verdict').textContent()) ?? '';
  expect(verdict).toMatch(/does not pay back within 4 years/u);
  expect(verdict).toMatch(/Sized on the 95th percentile .*sized on the peak .* saves [\d,]+ USD/u);
  const lines = (await box.locator('.decision-line').allTextContents()).join('\n');
  expect(lines).toMatch(/^Does not pay back: .* The line item that differs most from the cheapest other configuration, .*: Cache licence, [\d,]+\sUSD more with the cache\.$/mu);
  expect(lines).toMatch(/^Measured: I\/Os reaching loop0 fell by [\d.]+% \(95% interval [\d.]+% – [\d.]+%\)/mu);
  expect(lines).toMatch(/^Recommended configuration, .* \(estimate\): Drive life: /mu);
  expect(lines).toMatch(/example price/u);
  await expect(box.locator('.decision-caveats li')).toHaveCount(3);
  // word for word the block cacheproof analyze prints for the same capture (and the report: decision-block.test.ts)
  const cli = spawnSync(process.execPath, [join(root, 'app', 'dist', 'cli.cjs'), 'analyze', join(root, 'samples', 'lab', 'lab-sample.capture'), '--json'], { encoding: 'utf8' });
  expect(cli.status, cli.stderr).toBe(0);
  const want = decisionTexts((JSON.parse(cli.stdout) as { decision: Parameters<typeof decisionTexts>[0] }).decision, 'en');
  const norm = (x: string): string => x.replace(/[\s\u00a0\u202f]+/gu, ' ').trim();
  const shown = [verdict, ...(await box.locator('.decision-line').allTextContents())].map(norm);
  expect(shown).toEqual(want.lines.map(norm));
  expect((await box.locator('.decision-caveats li').allTextContents()).map(norm)).toEqual(want.caveats.map(norm));
  expect(errors).toEqual([]);
});
