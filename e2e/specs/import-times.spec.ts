/**
 * Imports that never dead-end on a log's times (issue #37), driven as a person would, on real files
 * (../shared/realdata; skipped with a message when ../shared is absent, a failure in CI):
 * - iostat without -t (the most common output: no times): the preview says the interval is needed
 *   and Import stays off; the person types the interval and the first report's time, previews
 *   again and imports; the profile opens on that day;
 * - a PerfMon log whose header is cut before its zone (`"(PDH-CSV 4.0) ("`, a real Data Collector
 *   Set file) reads as UTC; the person types the offset +08:00 and imports again: the busiest hour
 *   moves by exactly 8 hours.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { probeAbsent, realdata, realdataAbsent, skipped } from '../../test/support/testenv.ts';

const IOSTAT = realdata('linux_iostat_sar_diskstats', 'alifarahani_compute3_iostat-xm.txt');
const PERFMON_CUT = realdata('perfmon_csv', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');
const cannotRun = realdataAbsent(IOSTAT, PERFMON_CUT) ?? probeAbsent();

const test = base.extend<{ host: AppHost }>({
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-import-times-e2e-'));
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use(app);
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  test.skip(skipped('Import a log: the times a log does not say (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

async function openImport(page: Page, authUrl: string, kind: string, file: string): Promise<void> {
  await page.goto(authUrl);
  await page.getByTestId(TID.homeImport).click();
  await expect(page.getByTestId(TID.importScreen)).toBeVisible();
  await page.getByTestId(TID.importKind).selectOption(kind);
  await page.getByTestId(TID.importFiles).fill(file);
}

/** Imports what is previewed and returns the profile's busiest hour start (UTC ms). */
async function importToProfile(page: Page): Promise<number> {
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();
  await page.getByTestId(TID.importStart).click();
  await expect(page.getByTestId(TID.profile)).toBeVisible({ timeout: 60_000 });
  const busiest = page.getByTestId(TID.profileBusiest);
  await expect(busiest).toHaveAttribute('data-start-ms', /^\d+$/u);
  return Number(await busiest.getAttribute('data-start-ms'));
}

test('iostat without -t: the interval and the first report\'s time typed on the screen, then imported', async ({ host, page }) => {
  const errors = watchConsole(page);
  await openImport(page, host.authUrl, 'iostat', IOSTAT);
  await page.getByTestId(TID.importPreviewBtn).click();
  const pv = page.getByTestId(TID.importPreview);
  // no times in the file: the interval is needed, and Import is not offered
  await expect(pv).toHaveAttribute('data-ready', 'false');
  await expect(pv).toContainText('--interval');
  await expect(page.getByTestId(TID.importStart)).toBeDisabled();
  await page.getByTestId(TID.importIntervalTyped).fill('10');
  await page.getByTestId(TID.importStartTime).fill('2022-12-01T08:00:00Z');
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(pv).toHaveAttribute('data-ready', 'true');
  // 10 s apart from the typed start
  await expect(page.getByTestId(TID.importInterval)).toHaveAttribute('data-ms', '10000');
  await expect(page.getByTestId(TID.importRange)).toContainText('2022');
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), 'axe').toEqual([]);
  const busiest = await importToProfile(page);
  // the whole log lies in the hour from the typed start
  expect(busiest).toBe(Date.UTC(2022, 11, 1, 8));
  expect(errors).toEqual([]);
});

test('a PerfMon header cut before its zone: the offset typed moves the busiest hour by exactly that', async ({ host, page }) => {
  const errors = watchConsole(page);
  await openImport(page, host.authUrl, 'perfmon', PERFMON_CUT);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  const asUtc = await importToProfile(page);
  await openImport(page, host.authUrl, 'perfmon', PERFMON_CUT);
  await page.getByTestId(TID.importUtcOffset).fill('+08:00');
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  const withOffset = await importToProfile(page);
  // local 18:35 in UTC+8 is 10:35 UTC: every time, the busiest hour with them, 8 h earlier
  expect(asUtc - withOffset).toBe(8 * 3600_000);
  expect(errors).toEqual([]);
});
