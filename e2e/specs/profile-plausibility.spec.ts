/**
 * The profile screen flags data too short for its figures (issue 36), driven as a person would: a
 * 10-minute PerfMon log with no switch (PDH-CSV, 10 s samples, one disk and its volume filling),
 * imported on the Import screen, opens as a profile whose warnings list says, in the engine's
 * words translated by code, that it covers less than an hour and that the volume's growth is fitted
 * over 0.2 h, and the capacity table withholds its growth and days to full; in Russian too. It
 * used to say "No warnings."
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { warningCatalog } from '../../app/src/shared/i18n/warnings.ts';
import { profileCharts } from '../../app/src/shared/i18n/profile-charts.ts';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';

const cannotRun = probeAbsent();

const test = base.extend<{ host: AppHost & { log: string } }>({
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-plausibility-e2e-'));
    const log = join(data, 'srv2-10min.csv');
    writeFileSync(log, perfmonLog());
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use({ ...app, log });
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  test.skip(skipped('Plausibility warnings on the profile screen (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

/** 10 minutes at 10 s from 2026-10-05 08:00 UTC: 150 reads and 50 writes per s, C: losing 1 MB a sample. */
function perfmonLog(): string {
  const head = ['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...['Disk Reads/sec', 'Disk Writes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write'].map((c) => `\\\\SRV2\\PhysicalDisk(0 C:)\\${c}`),
    '\\\\SRV2\\LogicalDisk(C:)\\% Free Space', '\\\\SRV2\\LogicalDisk(C:)\\Free Megabytes'];
  const q = (s: string | number): string => `"${s}"`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const rows = [head.map(q).join(',')];
  for (let i = 0; i <= 60; i++) {
    const d = new Date(Date.UTC(2026, 9, 5, 8, 0, 0) + i * 10_000);
    const time = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.000`;
    const freeMb = 50_000 - i;
    rows.push([time, 150, 50, 0.002, 0.003, (freeMb / 100_000) * 100, freeMb].map(q).join(','));
  }
  return `${rows.join('\r\n')}\r\n`;
}

test('a 10-minute log\'s profile lists why its figures do not represent an hour or a day', async ({ host, page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await page.goto(host.authUrl);
  await page.getByTestId(TID.homeImport).click();
  await page.getByTestId(TID.importKind).selectOption('perfmon');
  await page.getByTestId(TID.importFiles).fill(host.log);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  await page.getByTestId(TID.importStart).click();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 30_000 });

  const list = page.getByTestId(TID.profileWarnings);
  await expect(list.locator('li[data-code="very-short-log"]')).toHaveText(warningCatalog.en['very-short-log'].replace('{seconds}', '600'));
  await expect(list.locator('li[data-code="capacity-short-fit"]')).toHaveText(warningCatalog.en['capacity-short-fit'].replace('{volume}', 'C:').replace('{fitHours}', '0.2'));
  await expect(list).not.toContainText('No warnings');
  // and the capacity table withholds C:'s growth and days to full rather than print "full in N days" from 10 minutes
  const row = page.getByTestId(TID.profileCapacity).locator('tr[data-volume="C:"]');
  await expect(row.locator('td').nth(3)).toHaveText(profileCharts.en['cap.withheld']);
  await expect(row.locator('td').nth(4)).toHaveText(profileCharts.en['cap.withheld']);

  // the same warnings in Russian, translated by code
  await page.getByTestId(TID.langSelect).selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId(TID.profileWarnings).locator('li[data-code="very-short-log"]')).toHaveText(warningCatalog.ru['very-short-log'].replace('{seconds}', '600'));
  expect(errors).toEqual([]);
});
