/**
 * Import a log, driven as a person would, on real Windows Performance Monitor files
 * (../shared/realdata/perfmon_csv; skipped with a message when ../shared is absent, a failure in CI):
 * - one file with a switch time: the preview shows the devices with their proposed roles and
 *   pairing, the time range of the file's first and last rows, the 5 s interval and the counters;
 *   the person changes a role, previews again, imports (progress bar) and lands on a dashboard
 *   whose headline figures are those `cacheproof analyze --json` prints for the imported capture;
 * - a before file and an after file imported together into one capture with two phases;
 * - a header-only file is refused with the probe's sentence naming the file and the line, and
 *   nothing is written;
 * - a file with no switch imports as a baseline alone and opens as a workload profile (capacity
 *   planning without a cache), whose average IOPS is the one the test sums from the capture's rows,
 *   with health against the latency targets; in English and French, scanned with axe;
 * - a real log of queue lengths only is refused in the preview with the reason, what to collect
 *   and the commands that log it (the probe's `partial`), Import disabled; English and Russian.
 */
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, repoRoot, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { importUi } from '../../app/src/shared/i18n/import.ts';
import { probeAbsent, realdata, realdataAbsent, skipped } from '../../test/support/testenv.ts';

const REAL = realdata('perfmon_csv');
const BEFORE = join(REAL, 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');
const AFTER = join(REAL, 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000395.csv');
// a real Data Collector Set log of queue lengths only (LogicalDisk, 15 s): nothing in it can be analysed
const QUEUE_ONLY = join(REAL, 'narmadha6790_IMPC3116_logicaldisk_queue.csv');
// without the real files or the probe: skipped with a message, and a failure in CI
const cannotRun = realdataAbsent(BEFORE, AFTER, QUEUE_ONLY) ?? probeAbsent();
const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');

/** A browser host whose data folder the spec knows (imports land in `<data>/imports/`). */
const test = base.extend<{ host: AppHost & { data: string } }>({
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-import-e2e-'));
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use({ ...app, data });
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  test.skip(skipped('Import a log (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

/** The PDH time of a row (`"10/09/2022 18:35:32.755"`) as HH:MM:SS. */
function rowTime(line: string): string {
  const m = /^"\d\d\/\d\d\/\d{4} (\d\d:\d\d:\d\d)/u.exec(line);
  if (m === null) throw new Error(`not a PDH row: ${line.slice(0, 40)}`);
  return m[1] as string;
}

async function openImport(page: Page, authUrl: string): Promise<void> {
  await page.goto(authUrl);
  await page.getByTestId(TID.homeImport).click();
  await expect(page.getByTestId(TID.importScreen)).toBeVisible();
  await page.getByTestId(TID.importKind).selectOption('perfmon');
}

/** Sets a device's role in the preview's table. */
async function setRole(page: Page, device: string, role: string): Promise<void> {
  await page.getByTestId(TID.importDevices).locator(`tr[data-device="${device}"] select`).selectOption(role);
}

const numbersIn = (s: string): number[] => (s.replace(/[\s\u00a0\u202f]/gu, ' ').match(/\d[\d,]*(?:\.\d+)?/gu) ?? []).map((x) => Number(x.replace(/,/gu, '')));
const decimals = (x: number, s: string): number => {
  const hit = s.match(new RegExp(`${String(Math.trunc(x)).replace(/\B(?=(\d{3})+$)/gu, ',')}\\.(\\d+)`, 'u'));
  return hit?.[1]?.length ?? 0;
};

/**
 * Every number of a card's value is one of `expected` (the `analyze --json` figures, absolute)
 * at the card's printed precision (within half a unit of its last digit).
 */
async function cardMatches(page: Page, id: string, expected: (number | null)[]): Promise<void> {
  const text = (await page.getByTestId(id).locator('.value').textContent()) ?? '';
  const shown = numbersIn(text);
  const want = expected.filter((x): x is number => x !== null).map(Math.abs);
  expect(shown.length, `${id}: "${text}"`).toBeGreaterThan(0);
  expect(want.length, `${id}: analyze --json has the figure`).toBeGreaterThan(0);
  for (const n of shown) {
    const half = 0.5 * 10 ** -decimals(n, text);
    expect(want.some((w) => Math.abs(w - n) <= half + 1e-9), `${id}: ${n} (in "${text}") is one of analyze --json's ${want.join(', ')}`).toBe(true);
  }
}

interface Json {
  benefit: {
    iosSavedPercent: { value: number | null };
    latencyMs: { before: number | null; after: number | null };
    normalizedIops: { before: number | null; after: number | null };
    throughputMBps: { before: number | null; after: number | null };
  };
  windows: { baseline: { start: string }; measure: { start: string } };
}

async function dashboardEqualsAnalyze(page: Page, data: string): Promise<{ capture: string; json: Json }> {
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  const captures = readdirSync(join(data, 'imports')).filter((f) => f.endsWith('.capture'));
  expect(captures).toHaveLength(1);
  const capture = join(data, 'imports', captures[0] as string);
  const json = JSON.parse(execFileSync(process.execPath, [CLI, 'analyze', capture, '--json'], { encoding: 'utf8' })) as Json;
  const b = json.benefit;
  await cardMatches(page, TID.cardIosSaved, [b.iosSavedPercent.value]);
  await cardMatches(page, TID.cardLatency, [b.latencyMs.before, b.latencyMs.after]);
  await cardMatches(page, TID.detailNormalizedIops, [b.normalizedIops.before, b.normalizedIops.after]);
  await cardMatches(page, TID.cardThroughput, [b.throughputMBps.before, b.throughputMBps.after]);
  return { capture, json };
}

test('one real PerfMon file with a switch time: preview, change a role, import with progress, dashboard equals cacheproof analyze --json', async ({ host, page }) => {
  const errors = watchConsole(page);
  await openImport(page, host.authUrl);
  await page.getByTestId(TID.importFiles).fill(BEFORE);
  await page.getByTestId(TID.importSwitchAt).fill('2022-10-09T18:40:00Z');
  await page.getByTestId(TID.importPreviewBtn).click();

  const pv = page.getByTestId(TID.importPreview);
  await expect(pv).toBeVisible();
  await expect(pv).toHaveAttribute('data-ready', 'true');
  const devices = page.getByTestId(TID.importDevices);
  // Roles from the data: on Windows the volume and the disk beneath it (its instance lists C:) are one
  // layer: the disk is the backing, the volume is not counted (backing-only, said in a note).
  await expect(devices.locator('tr[data-device="LogicalDisk(C:)"]')).toHaveAttribute('data-role', 'other');
  await expect(devices.locator('tr[data-device="PhysicalDisk(1 C: E:)"]')).toHaveAttribute('data-role', 'backing');
  await expect(devices.locator('tr[data-device="LogicalDisk(C:)"]')).toContainText('PhysicalDisk(1 C: E:)');
  // The time range is the file's first and last rows (read here from the file); the log samples every 5 s.
  const rows = readFileSync(BEFORE, 'utf8').split(/\r?\n/u).filter((l) => l.startsWith('"1'));
  await expect(page.getByTestId(TID.importRange)).toContainText(rowTime(rows[0] as string));
  await expect(page.getByTestId(TID.importRange)).toContainText(rowTime(rows[rows.length - 1] as string));
  await expect(page.getByTestId(TID.importInterval)).toHaveAttribute('data-ms', '5000');
  await expect(page.getByTestId(TID.importCounters)).toContainText('Disk Reads/sec → reads_per_s');
  await expect(page.getByTestId(TID.importCounters)).toContainText('Avg. Disk sec/Read → read_s_per_io');
  // The file repeats some columns: the preview says so.
  await expect(page.getByTestId(TID.importNotes)).toContainText('repeat an earlier column');
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();

  await expect(page.getByTestId(TID.importNotes)).toContainText('backing-only');
  // This log's volume has only some counters: the preview names it as no possible front.
  await expect(page.getByTestId(TID.importNotes)).toContainText('LogicalDisk(C:) (no write and time counters)');
  await page.getByTestId(TID.importStart).click();
  await expect(page.getByTestId(TID.importProgress)).toBeVisible();

  const { json } = await dashboardEqualsAnalyze(page, host.data);
  expect(json.windows.measure.start >= '2022-10-09T18:40:00').toBe(true);
  expect(errors).toEqual([]);
});

test('a before file and an after file become one capture with a baseline and a measure phase', async ({ host, page }) => {
  const errors = watchConsole(page);
  await openImport(page, host.authUrl);
  await page.getByTestId(TID.importFiles).fill(BEFORE);
  await page.getByTestId(TID.importAfter).fill(AFTER);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId(TID.importPreview)).toContainText('baseline');
  await expect(page.getByTestId(TID.importPreview)).toContainText('measure');
  await setRole(page, 'LogicalDisk(C:)', 'other');
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();
  await page.getByTestId(TID.importStart).click();

  const { capture, json } = await dashboardEqualsAnalyze(page, host.data);
  // The switch is the after file's first row; each file is kept with its part.
  const afterRows = readFileSync(AFTER, 'utf8').split(/\r?\n/u).filter((l) => l.startsWith('"1'));
  expect(json.windows.measure.start).toContain(rowTime(afterRows[0] as string));
  const parts = execFileSync('sqlite3', [capture, 'SELECT name, part FROM import_files ORDER BY id'], { encoding: 'utf8' }).trim().split('\n');
  expect(parts).toEqual(['reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv|baseline', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000395.csv|measure']);
  expect(errors).toEqual([]);
});

test('a header-only log is refused with the probe sentence naming the file, and nothing is written', async ({ host, page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-import-bad-'));
  try {
    const bad = join(dir, 'header-only.csv');
    writeFileSync(bad, `${readFileSync(BEFORE, 'utf8').split(/\r?\n/u)[0] ?? ''}\r\n`);
    await openImport(page, host.authUrl);
    await page.getByTestId(TID.importFiles).fill(bad);
    await page.getByTestId(TID.importSwitchAt).fill('2022-10-09T18:40:00Z');
    await page.getByTestId(TID.importPreviewBtn).click();
    const err = page.getByTestId(TID.importError);
    await expect(err).toBeVisible();
    await expect(err).toContainText(bad);
    await expect(err.locator('.probe-says')).toHaveCount(1);
    await expect(page.getByTestId(TID.importStart)).toBeDisabled();
    // A switch time that is not a time is said before anything is sent.
    await page.getByTestId(TID.importSwitchAt).fill('yesterday');
    await page.getByTestId(TID.importPreviewBtn).click();
    await expect(err).toContainText(importUi.en.switchBad);
    expect(existsSync(join(host.data, 'imports')) ? readdirSync(join(host.data, 'imports')) : []).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a queue-length-only log is refused in the preview with its reason and what to collect, in English and Russian', async ({ host, page }) => {
  const errors = watchConsole(page);
  for (const lang of ['en', 'ru'] as const) {
    await openImport(page, host.authUrl);
    await page.getByTestId(TID.langSelect).selectOption(lang);
    await page.getByTestId(TID.importKind).selectOption('perfmon');
    await page.getByTestId(TID.importFiles).fill(QUEUE_ONLY);
    await page.getByTestId(TID.importPreviewBtn).click();
    const refusal = page.getByTestId(TID.importRefusal);
    await expect(refusal).toBeVisible();
    // the reason in the person's language: it has queue length only, no reads, writes, bytes, response times or busy time
    const u = importUi[lang];
    await expect(refusal).toContainText(u['has.queue']);
    for (const k of ['miss.reads', 'miss.writes', 'miss.bytes', 'miss.times', 'miss.busy'] as const) await expect(refusal).toContainText(u[k]);
    // what to collect, in the source's own counter names, and the commands that log them
    await expect(refusal).toContainText('Disk Reads/sec');
    await expect(refusal.locator('pre')).toContainText('logman create counter');
    await expect(page.getByTestId(TID.importStart)).toBeDisabled();
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), `axe (${lang})`).toEqual([]);
  }
  expect(existsSync(join(host.data, 'imports')) ? readdirSync(join(host.data, 'imports')) : []).toEqual([]);
  expect(errors).toEqual([]);
});

test('a log with no switch imports as a baseline alone and opens as a workload profile, in English and French', async ({ host, page }) => {
  const errors = watchConsole(page);
  await openImport(page, host.authUrl);
  await page.getByTestId(TID.importFiles).fill(BEFORE);
  await page.getByTestId(TID.importPreviewBtn).click();
  const pv = page.getByTestId(TID.importPreview);
  await expect(pv).toHaveAttribute('data-ready', 'true');
  // no switch: the preview says the log opens as a workload profile, and Import is offered
  await expect(pv).toContainText(importUi.en['pv.noSwitch']);
  await setRole(page, 'LogicalDisk(C:)', 'other');
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(devicesRole(page, 'LogicalDisk(C:)')).toHaveAttribute('data-role', 'other');
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();
  await page.getByTestId(TID.importStart).click();

  const profile = page.getByTestId(TID.profile);
  await expect(profile).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(TID.profileBadge)).toBeVisible();
  const captures = readdirSync(join(host.data, 'imports')).filter((f) => f.endsWith('.capture'));
  expect(captures).toHaveLength(1);
  const capture = join(host.data, 'imports', captures[0] as string);
  // The average IOPS of the disk over the whole log, summed here from the capture's rows: I/Os of
  // the intervals that carry numbers over their seconds (docs/metrics.md, window summaries).
  const [ios, seconds] = execFileSync('sqlite3', [capture, `SELECT sum(reads + writes), sum(interval_ms) / 1000.0 FROM intervals
    WHERE device_id = (SELECT id FROM devices WHERE name = 'PhysicalDisk(1 C: E:)') AND status = 'ok' AND reads IS NOT NULL AND writes IS NOT NULL AND interval_ms > 0`], { encoding: 'utf8' }).trim().split('|').map(Number);
  await cardMatches(page, TID.profileCardIops, [(ios as number) / (seconds as number)]);
  const health = page.getByTestId(TID.profileHealth);
  await expect(health).toHaveAttribute('data-grade', /^(good|warning|bad|no-data)$/u);
  // a row per target of the default preset (generic: reads and writes), each graded
  await expect(health.locator('tbody tr[data-metric="read"]')).toHaveCount(1);
  await expect(health.locator('tbody tr[data-metric="write"]')).toHaveCount(1);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), 'axe (en)').toEqual([]);

  // the hardware for this workload: the Planner, prefilled from the profile (no cache measured,
  // the example's capacity and hit shares kept: a PerfMon log records neither), word for word and
  // figure for figure the scenario `cacheproof tco --from-capture` writes
  await page.getByTestId(TID.profilePlan).click();
  await expect(page.getByTestId(TID.plannerComparison)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(TID.analysisName)).toHaveText((captures[0] as string).replace(/\.capture$/u, ''));
  const planDir = mkdtempSync(join(tmpdir(), 'cacheproof-import-plan-'));
  try {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(TID.plannerExport).click()]);
    await download.saveAs(join(planDir, 'page.tco.json'));
    execFileSync(process.execPath, [CLI, 'tco', '--from-capture', capture, '--out', join(planDir, 'cli.tco.json')], { stdio: 'ignore' });
    const fromPage = JSON.parse(readFileSync(join(planDir, 'page.tco.json'), 'utf8')) as { workload: { iops: { p95: number } } };
    expect(fromPage).toEqual(JSON.parse(readFileSync(join(planDir, 'cli.tco.json'), 'utf8')));
    expect(fromPage.workload.iops.p95).toBeGreaterThan(0);
  } finally {
    rmSync(planDir, { recursive: true, force: true });
  }
  const planAxe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(planAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), 'axe (planner of a profile)').toEqual([]);
  await page.getByTestId(TID.profileBack).click();
  await expect(page.getByTestId(TID.profileCardIops)).toBeVisible({ timeout: 60_000 });

  // the same profile in French: its strings, and the same figure in the locale's format
  await page.evaluate(() => { globalThis.localStorage.setItem('cacheproof.lang', 'fr'); });
  await page.reload();
  await expect(page.getByTestId(TID.profile)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(TID.profileHealth)).toContainText('Santé');
  await expect(page.getByTestId(TID.profileCardIops)).toBeVisible();
  const axeFr = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axeFr.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), 'axe (fr)').toEqual([]);
  expect(errors).toEqual([]);
});

function devicesRole(page: Page, device: string): ReturnType<Page['locator']> {
  return page.getByTestId(TID.importDevices).locator(`tr[data-device="${device}"]`);
}
