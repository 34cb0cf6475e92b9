/**
 * Profiles are first-class, and another cache is predicted on a trace's profile (issue 37), driven
 * as a person would:
 * - a PerfMon log imported with no switch opens as a workload profile; Home lists it among the
 *   recent analyses with its host, dates and headline (the engine's mean and p95 IOPS, as
 *   `cacheproof analyze --profile --json` prints them); its row opens it again, and a reload lands
 *   on the same profile with the same figures, as it does on the profile's Planner;
 * - a WPA export with offsets (a block trace) opens as a profile with its prediction; "Predict
 *   another cache" there takes 1 GiB on RAM, the host runs the probe, and the profile redrawn shows
 *   the figures `cacheproof-probe predict --size 1073741824B --cache-device ram --policy …` prints
 *   on the same capture (JSON values, not text); the size reads "1 GiB", no sentence says the
 *   prediction was made without a cache device, the p95 card never reads "n/a-s", and six
 *   coinciding policy curves are said to coincide (the engine's test). A reload keeps it all.
 * Without the probe: skipped with a message, a failure in CI (test/support/testenv.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { WorkloadProfile } from '@cacheproof/engine';
import { test as base, expect, repoRoot, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { home } from '../../app/src/shared/i18n/home.ts';
import { predictUi } from '../../app/src/shared/i18n/predict-ui.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { writeWpaExport } from '../../test/support/wpa-export.ts';

const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');
const cannotRun = probeAbsent();

const test = base.extend<{ host: AppHost & { data: string } }>({
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-profile-predict-e2e-'));
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use({ ...app, data });
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

// the browser host's start counts in the test's time, and this machine is shared
test.describe.configure({ timeout: 360_000 });

test.beforeEach(() => {
  test.skip(skipped('Profiles first-class and predicted (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

/** A PerfMon PDH-CSV log of host SRV7: 3 h at 60 s from 2026-10-05 08:00 UTC, one disk. */
function perfmonLog(): string {
  const counters = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', 'Avg. Disk Queue Length'];
  const q = (s: string | number): string => `"${s}"`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const rows = [['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...counters.map((c) => `\\\\SRV7\\PhysicalDisk(0 C:)\\${c}`)].map(q).join(',')];
  const t0 = Date.UTC(2026, 9, 5, 8, 0, 0);
  for (let i = 0; i < 180; i++) {
    const d = new Date(t0 + i * 60_000);
    const r = 300 + (i % 13) * 5;
    const w = 120 + (i % 7) * 3;
    const time = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00.000`;
    rows.push([time, r, w, r * 8192, w * 16384, 0.002, 0.003, 0.5].map(q).join(','));
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** Imports `file` as `kind` from the Import screen; resolves with the capture the profile's route names. */
async function importAsProfile(page: Page, file: string, kind: 'perfmon' | 'wpa'): Promise<string> {
  await page.getByTestId(TID.navHome).click();
  await page.getByTestId(TID.homeImport).click();
  await page.getByTestId(TID.importKind).selectOption(kind);
  await page.getByTestId(TID.importFiles).fill(file);
  if (kind === 'wpa') {
    await page.getByTestId(`${TID.importPredictChoice}-size`).fill('1');
    await page.getByTestId(`${TID.importPredictChoice}-unit`).selectOption('MiB');
    await page.getByTestId(`${TID.importPredictChoice}-device`).selectOption('nvme');
  }
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  await page.getByTestId(TID.importStart).click();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 120_000 });
  const route = /#\/profile-file\/([^/]+)$/u.exec(page.url());
  if (route === null) throw new Error(`not a capture's profile: ${page.url()}`);
  return decodeURIComponent(route[1] as string);
}

const cardValue = (page: Page, id: string): Promise<string> => page.getByTestId(id).locator('.value').innerText();

test('an imported profile is listed on Home with its host, dates and headline, reopens from its row, and survives a reload with its Planner', async ({ host, page }) => {
  const errors = watchConsole(page);
  const log = join(host.data, 'srv7-perfmon.csv');
  writeFileSync(log, perfmonLog());
  await page.goto(host.authUrl);
  const capture = await importAsProfile(page, log, 'perfmon');
  expect(readdirSync(join(host.data, 'imports')).some((f) => capture.endsWith(f))).toBe(true);
  const json = JSON.parse(execFileSync(process.execPath, [CLI, 'analyze', capture, '--profile', '--json'], { encoding: 'utf8' })) as WorkloadProfile;
  const profileUrl = page.url();
  const iops = await cardValue(page, TID.profileCardIops);
  const p95 = await cardValue(page, TID.profileCardP95);

  // Home: the profile's row, with the host, its dates and the engine's figures as headline
  await page.getByTestId(TID.navHome).click();
  const row = page.getByTestId(TID.homeRecent).locator('tbody tr').filter({ hasText: home.en['status.profile'] });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-key', `profile:profile-file/${encodeURIComponent(capture)}`);
  await expect(row.locator('td').nth(0)).toHaveText('SRV7');
  await expect(row.locator('td').nth(1)).toHaveText(/5 Oct 2026, 08:00.10:59 UTC|Oct 5, 2026/u);
  const fmt = (v: number | null | undefined): string => new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v ?? NaN);
  await expect(row.locator('td.num')).toHaveText(home.en['headline.profile'].replace('{iops}', fmt(json.appFacing.means.iops)).replace('{p95}', fmt(json.appFacing.percentiles.iops?.p95)));
  // a reload keeps the row; the row opens the profile again
  await page.reload();
  await expect(row).toHaveCount(1);
  await row.getByRole('button').click();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  expect(page.url()).toBe(profileUrl);

  // a reload lands on the same profile, with the same figures
  await page.reload();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  expect(await cardValue(page, TID.profileCardIops)).toBe(iops);
  expect(await cardValue(page, TID.profileCardP95)).toBe(p95);
  await expect(page.getByTestId(TID.profileTitle)).toContainText('SRV7');

  // its Planner's route carries the capture: a reload lands on it again, and Back returns to the profile
  await page.getByTestId(TID.profilePlan).click();
  await expect(page.getByTestId(TID.analysisName)).toBeVisible();
  const plannerUrl = page.url();
  expect(plannerUrl).toContain(`#/profile-planner/profile-file/${encodeURIComponent(capture)}`);
  await page.reload();
  expect(page.url()).toBe(plannerUrl);
  await expect(page.getByTestId(TID.profileBack)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(TID.analysisName)).toBeVisible();
  await page.getByTestId(TID.profileBack).click();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  // so does its Export screen's
  await page.getByTestId(TID.profileExport).click();
  await expect(page.getByTestId(TID.profileBack)).toBeVisible({ timeout: 60_000 });
  const exportUrl = page.url();
  await page.reload();
  expect(page.url()).toBe(exportUrl);
  await expect(page.getByTestId(TID.profileBack)).toBeVisible({ timeout: 60_000 });
  expect(errors).toEqual([]);
});

interface ProbeJson {
  cacheBytes: number;
  iosSavedPercent: number;
  backingIos: { perSecond: number | null } | null;
  responseTime: { predictedUs: number } | null;
  cacheDevice: { preset: string } | null;
  policies: { policy: string; curve: { bytes: number; iosSavedPercent: number }[] }[];
}

test('Predict another cache on a trace\'s profile: 1 GiB on RAM gives the probe\'s own figures on that capture, in words that are true', async ({ host, page }) => {
  const errors = watchConsole(page);
  const wpa = join(host.data, 'Disk_Usage_Offsets.csv');
  writeWpaExport(wpa);
  await page.goto(host.authUrl);
  const capture = await importAsProfile(page, wpa, 'wpa');
  const section = page.getByTestId(TID.profilePrediction);
  const predicted = section.getByTestId(TID.dashPredictionCompare).locator('[data-kind="predicted"]');
  const before = await predicted.getAttribute('data-value');

  // the form on the profile: 1 GiB, RAM
  const form = section.getByTestId(TID.dashPredictRun);
  await expect(form).toBeVisible();
  await form.getByTestId(`${TID.dashPredictChoice}-size`).fill('1');
  await form.getByTestId(`${TID.dashPredictChoice}-unit`).selectOption('GiB');
  await form.getByTestId(`${TID.dashPredictChoice}-device`).selectOption('ram');
  await form.getByTestId(TID.dashPredictButton).click();
  // the profile is drawn again with the new prediction stored in the capture
  await expect(page.getByTestId(TID.profilePrediction).getByTestId(TID.dashPredictRun)).toContainText(predictUi.en['run.done'], { timeout: 120_000 });
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true');

  // the same command the host ran (host/predict.ts predictCommand), without --store: its JSON values
  const args = ['predict', capture, '--size', `${2 ** 30}B`, '--cache-device', 'ram', '--policy', 'lru,fifo,clock,arc,2q,s3fifo', '--json', '--quiet'];
  const p = spawnSync(releaseProbe, args, { encoding: 'utf8' });
  expect(p.status, p.stderr).toBe(0);
  const probe = JSON.parse(p.stdout) as ProbeJson;
  expect(probe.cacheBytes).toBe(2 ** 30);
  const again = page.getByTestId(TID.profilePrediction);
  const card = again.getByTestId(TID.dashPredictionCompare).locator('[data-kind="predicted"]');
  await expect(card).toHaveAttribute('data-value', String(probe.iosSavedPercent));
  expect(before === null || Number.isFinite(Number(before))).toBe(true);
  await expect(again.getByTestId(TID.dashBackingCompare).locator('[data-kind="predicted"]')).toHaveAttribute('data-value', String(probe.backingIos?.perSecond));
  await expect(again.getByTestId(TID.dashCacheDevice)).toHaveAttribute('data-preset', 'ram');
  if (probe.responseTime === null) {
    await expect(again.getByTestId(TID.dashResponseCompare)).toHaveAttribute('data-missing', 'no-completion-times');
  } else {
    await expect(again.getByTestId(TID.dashResponseCompare).locator('[data-kind="predicted"]')).toHaveAttribute('data-value', String(probe.responseTime.predictedUs / 1000));
  }

  // the words: the size as typed, no "without a cache device" with RAM chosen, no "n/a-s" interval
  await expect(again).toContainText('1 GiB');
  await expect(again).not.toContainText('1.07 GB');
  await expect(again).not.toContainText('without a cache device');
  await expect(page.getByTestId(TID.profileCardP95).locator('h3')).not.toContainText('n/a');
  // six coinciding curves are said to coincide (the engine's test on the probe's curves)
  const first = probe.policies[0]?.curve ?? [];
  const coincide = probe.policies.length > 1 && probe.policies.every((c) => c.curve.length === first.length && c.curve.every((x, i) => Math.abs(x.iosSavedPercent - (first[i]?.iosSavedPercent ?? NaN)) < 0.05));
  await expect(page.getByTestId(`${TID.chartMrc}-coincide`)).toHaveCount(coincide ? 1 : 0);

  // a reload lands on the same profile with the same prediction
  await page.reload();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  await expect(page.getByTestId(TID.profilePrediction).getByTestId(TID.dashPredictionCompare).locator('[data-kind="predicted"]')).toHaveAttribute('data-value', String(probe.iosSavedPercent));
  expect(errors).toEqual([]);
});
