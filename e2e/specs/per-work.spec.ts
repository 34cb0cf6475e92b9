/**
 * The per-work figure on the dashboard (issue #26): a PerfMon before/after pair of a SQL Server
 * host with an in-OS cache (test/support/perfmon-work.ts: the disks fall 12 %, the process's I/O
 * requests rise 75 %), imported by the probe and opened from Home. The I/Os saved card reads
 * 12.0 % and says, in the engine's words, that the server did 75.0 % more work with 12.0 % fewer
 * disk I/Os, in English and French. Needs the release probe.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, repoRoot } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { importPerfmonWorkPair } from '../../test/support/perfmon-work.ts';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';

const probe = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');

async function open(page: Page, capture: string): Promise<void> {
  await page.getByTestId(TID.navHome).click();
  await expect(page.getByTestId(TID.home)).toBeVisible();
  await page.getByTestId(TID.homeOpenPath).fill(capture);
  await page.getByTestId(TID.homeOpenSubmit).click();
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
}

test('the I/Os saved card says the server did 75 % more work with 12 % fewer disk I/Os, in English and French', async ({ app, page }) => {
  const cannotRun = probeAbsent();
  test.skip(skipped('the per-work figure on the dashboard (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
  test.setTimeout(120_000);
  const work = mkdtempSync(join(tmpdir(), 'cacheproof-per-work-e2e-'));
  try {
    const capture = importPerfmonWorkPair(probe, work, 'more', 1.75);
    await page.goto(app.authUrl);
    await open(page, capture);
    const card = page.getByTestId(TID.cardIosSaved);
    await expect(card.locator('.value')).toHaveText('12.0%');
    await expect(card).toContainText('The server did 75.0% more work with 12.0% fewer disk I/Os.');
    await expect(card).toContainText('Disk I/Os per process I/O request (_Total): 0.500 → 0.251');
    await page.getByTestId(TID.langSelect).selectOption('fr');
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    await expect(card).toContainText(/Le serveur a fait 75,0\s%\sde travail en plus avec 12,0\s%\sd’E\/S disque en moins\./u);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
