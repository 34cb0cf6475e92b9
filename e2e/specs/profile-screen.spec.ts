/**
 * The workload profile screen at the dashboard's standard (issue 27), driven as a person would:
 * a PerfMon log with no switch, written here in PDH-CSV's own header form (26 h at 60 s, one disk
 * with a busy hour, a volume filling up), is imported on the Import screen and opens as a profile:
 * - its cards are the figures `cacheproof analyze --profile --json` prints for the capture;
 * - the IOPS, MB/s, response-time and queue charts are drawn (inked canvases) and zoom together;
 * - the IOPS chart exports as CSV (every value the host's group series), SVG (well-formed, drawn
 *   by the report's renderer) and PNG (decodes, as wide as the canvas);
 * - the busiest hour is the engine's, the capacity of volume C: is shown with its days to full;
 * - its Export button opens the Export screen for the profile, which previews and writes the
 *   workload-profile report (HTML here) quoting the profile's devices and average IOPS;
 * - in English and in Russian at 1024×700: axe finds no serious or critical violation, no text or
 *   axis title is cut, and a full-page screenshot is kept under the test's output folder (Russian
 *   in the dark theme too).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, inkedPixels, repoRoot, seriousViolations, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { clippedText, cutAxisTitles } from '../clipping.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';

const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');
const cannotRun = probeAbsent();

const test = base.extend<{ host: AppHost & { data: string; log: string } }>({
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-profile-e2e-'));
    const log = join(data, 'srv1-perfmon.csv');
    writeFileSync(log, perfmonLog());
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use({ ...app, data, log });
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  test.skip(skipped('The profile screen (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

/** A PerfMon PDH-CSV log: 26 h at 60 s from 2026-10-05 08:00 UTC, PhysicalDisk(0 C:) four times as busy from 14:00 to 15:00 UTC on the first day, volume C: losing 2 MB a minute. */
function perfmonLog(): string {
  const counters = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', 'Avg. Disk Queue Length'];
  const head = ['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...counters.map((c) => `\\\\SRV1\\PhysicalDisk(0 C:)\\${c}`), '\\\\SRV1\\LogicalDisk(C:)\\% Free Space', '\\\\SRV1\\LogicalDisk(C:)\\Free Megabytes'];
  const q = (s: string | number): string => `"${s}"`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const t0 = Date.UTC(2026, 9, 5, 8, 0, 0);
  const rows = [head.map(q).join(',')];
  for (let i = 0; i < 26 * 60; i++) {
    const d = new Date(t0 + i * 60_000);
    const peak = d.getUTCHours() === 14 && d.getUTCDate() === 5 ? 4 : 1;
    const r = (200 + (i % 17) * 3) * peak;
    const w = (100 + (i % 11) * 2) * peak;
    const freeMb = 50_000 - i * 2;
    const time = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00.000`;
    rows.push([time, r, w, r * 8192, w * 16384, 0.002 * peak, 0.003, 0.5 * peak, (freeMb / 100_000) * 100, freeMb].map(q).join(','));
  }
  return `${rows.join('\r\n')}\r\n`;
}

interface ProfileJson {
  appFacing: { means: { iops: number; mbps: number; awaitMs: number }; percentiles: { iops?: { p95: number } } };
  hours: { busiest: { startMs: number } | null };
  capacity: { inLog: boolean; volumes: { volume: string; daysToFull: number | null }[] };
  days: { day: string; iops: { mean: number | null; p95: number | null; peak: number | null } }[];
}

const numbersIn = (s: string): number[] => (s.replace(/[\s\u00a0\u202f]/gu, '').replace(/,/gu, '').match(/\d+(?:\.\d+)?/gu) ?? []).map(Number);

/** The card's value, in English, is `expected` at its printed precision. */
async function cardIs(page: Page, id: string, expected: number): Promise<void> {
  const text = (await page.getByTestId(id).locator('.value').textContent()) ?? '';
  const [shown] = numbersIn(text);
  const digits = /\.(\d+)/u.exec(text.replace(/,/gu, ''))?.[1]?.length ?? 0;
  expect(shown, `${id}: "${text}"`).toBeDefined();
  expect(Math.abs((shown as number) - expected), `${id}: "${text}" vs analyze --profile --json ${expected}`).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
}

/** Screenshot, axe and clipping of the profile screen as it is now. */
async function checkScreen(page: Page, path: string): Promise<void> {
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 30_000 });
  await page.screenshot({ path, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  expect(await clippedText(page, 'body')).toEqual([]);
  const axes = await cutAxisTitles(page, `[data-testid="${TID.profile}"]`);
  expect(axes.charts).toBe(4);
  expect(axes.cut).toEqual([]);
}

test('an imported log with no switch opens as a profile with the dashboard\'s charts, export, busiest hour and capacity, in English and Russian', async ({ host, page }, info) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(host.authUrl);
  await page.getByTestId(TID.homeImport).click();
  await page.getByTestId(TID.importKind).selectOption('perfmon');
  await page.getByTestId(TID.importFiles).fill(host.log);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  await page.getByTestId(TID.importStart).click();
  const profile = page.getByTestId(TID.profile);
  await expect(profile).toHaveAttribute('data-drawn', 'true', { timeout: 30_000 });

  const captures = readdirSync(join(host.data, 'imports')).filter((f) => f.endsWith('.capture'));
  expect(captures).toHaveLength(1);
  const capture = join(host.data, 'imports', captures[0] as string);
  const json = JSON.parse(execFileSync(process.execPath, [CLI, 'analyze', capture, '--profile', '--json'], { encoding: 'utf8' })) as ProfileJson;
  await cardIs(page, TID.profileCardIops, json.appFacing.means.iops);
  await cardIs(page, TID.profileCardMbps, json.appFacing.means.mbps);
  await cardIs(page, TID.profileCardLatency, json.appFacing.means.awaitMs);
  await cardIs(page, TID.profileCardP95, json.appFacing.percentiles.iops?.p95 ?? NaN);
  // titled by the host and its dates, not the capture's file name
  await expect(page.getByTestId(TID.profileTitle)).toContainText('SRV1');
  await expect(page.getByTestId(TID.profileTitle)).not.toContainText('.capture');

  // the four time charts drawn, zooming together
  for (const id of [TID.profileChartIops, TID.profileChartMbps, TID.profileChartLatency, TID.profileChartQueue]) {
    await expect(page.getByTestId(id).locator('canvas')).toBeVisible();
    expect(await inkedPixels(page, id), id).toBeGreaterThan(1000);
  }
  const range = page.getByTestId(TID.dashZoomRange);
  const whole = (await range.textContent()) ?? '';
  await page.getByTestId(TID.dashZoomIn).click();
  await expect(range).not.toHaveText(whole);
  await page.getByTestId(TID.dashZoomReset).click();
  await expect(range).toHaveText(whole);

  // the busiest hour and the capacity are the engine's
  expect(json.hours.busiest).not.toBeNull();
  await expect(page.getByTestId(TID.profileBusiest)).toHaveAttribute('data-start-ms', String(json.hours.busiest?.startMs));
  await expect(page.getByTestId(TID.profileHeatmap).locator('tbody tr')).toHaveCount(2);
  // each day's mean, p95 and peak IOPS: analyze --profile --json's days (engine report/profile-days.ts), at 1 decimal
  const days = page.locator(`[data-testid="${TID.profileDays}"][data-table="profile-days-iops"] tbody tr`);
  await expect(days).toHaveCount(json.days.length);
  for (const [i, d] of json.days.entries()) {
    const cells = days.nth(i).locator('td');
    await expect(cells.first()).toHaveText(d.day);
    for (const [k, v] of [d.iops.mean, d.iops.p95, d.iops.peak].entries()) expect(numbersIn((await cells.nth(k + 1).textContent()) ?? '')[0], `${d.day} IOPS ${k}`).toBeCloseTo(v ?? NaN, 1);
  }
  const cap = page.getByTestId(TID.profileCapacity);
  await expect(cap).toHaveAttribute('data-in-log', 'true');
  const c = json.capacity.volumes.find((v) => v.volume === 'C:');
  expect(c?.daysToFull).not.toBeNull();
  await expect(cap.locator('tr[data-volume="C:"] td').last()).toHaveText(new RegExp(`^${Math.round(c?.daysToFull ?? NaN)} days$`, 'u'));

  // chart export: CSV values are the host's group series, SVG well-formed, PNG decodes
  const groups = await page.evaluate(async (path) => {
    const res = await fetch('/api/analysis.openProfile', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify({ path }) });
    const body = (await res.json()) as { value: { groupSeries: { group: string; t: number[]; iops: (number | null)[] }[] } };
    return body.value.groupSeries;
  }, capture);
  expect(groups.length).toBeGreaterThan(0);
  const fetchDownload = async (testId: string): Promise<{ name: string; bytes: Buffer }> => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
  };
  const csv = await fetchDownload(`${TID.profileChartIops}-export-csv`);
  expect(csv.name).toBe('cacheproof-profile-chart-iops.csv');
  const lines = csv.bytes.toString('utf8').replace(/^\ufeff/u, '').trimEnd().split('\r\n').map((l) => l.split(','));
  expect(lines[0]?.[0]).toBe('Time (UTC)');
  expect(lines[0]).toHaveLength(1 + groups.length);
  groups.forEach((g, k) => {
    const byTime = new Map(lines.slice(1).map((r) => [r[0], r[k + 1]]));
    expect(byTime.size).toBe(g.t.length);
    g.t.forEach((t, i) => {
      const v = g.iops[i];
      expect(byTime.get(new Date(t).toISOString()), `${g.group} at ${t}`).toBe(v === null || v === undefined ? '' : String(v));
    });
  });
  const svg = (await fetchDownload(`${TID.profileChartIops}-export-svg`)).bytes.toString('utf8');
  writeFileSync(info.outputPath('profile-iops.svg'), svg);
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { ok: doc.querySelector('parsererror') === null, series: doc.querySelectorAll('.series').length };
  }, svg);
  expect(parsed).toEqual({ ok: true, series: groups.length });
  const png = await fetchDownload(`${TID.profileChartMbps}-export-png`);
  expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const width = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    return img.naturalWidth;
  }, png.bytes.toString('base64'));
  expect(width).toBe(await page.getByTestId(TID.profileChartMbps).locator('canvas').evaluate((el: HTMLCanvasElement) => el.width));

  await checkScreen(page, info.outputPath('profile-en-1024x700.png'));

  // Export: the profile's Export screen previews and writes the workload-profile report, sized from
  // the scenario prefilled from the capture (ticked by default, as `cacheproof report --profile` does)
  await page.getByTestId(TID.profileExport).click();
  await expect(page.getByTestId(TID.export)).toBeVisible();
  await expect(page.getByTestId(TID.exportTco)).toBeChecked();
  await expect(page.getByTestId(TID.export)).toContainText('Include the sizing, TCO and drive-life sections, and the decision block');
  // the profile's own words: no "proof of concept", no PowerPoint "verdict … TCO" it does not have
  await expect(page.getByTestId(TID.export).locator('h3').first()).toHaveText('Export the workload-profile report');
  await expect(page.getByTestId(TID.export)).not.toContainText('proof of concept');
  await expect(page.getByTestId(TID.exportFormat).locator('option[value="pptx"]')).toHaveText('PowerPoint slides (profile, charts over time, figures, busiest hours)');
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  await expect(preview.locator('body')).toContainText('Workload profile', { timeout: 20_000 });
  await expect(preview.locator('body')).toContainText('PhysicalDisk(0 C:)');
  // the busiest cell of the preview's heatmap (step 10 of 10, host/report/heat.ts) is shaded: a class the preview's stylesheet styles
  const darkest = preview.locator('td.heat-10').first();
  await expect(darkest).toHaveCSS('background-color', /^rgba?\(230, 120, 20/u);
  await page.getByTestId(TID.exportFormat).selectOption('html');
  const [report] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId(TID.exportStart).click()]);
  expect(report.suggestedFilename()).toMatch(/-report-en\.html$/u);
  const html = readFileSync(await report.path(), 'utf8');
  writeFileSync(info.outputPath(report.suggestedFilename()), html);
  expect(html).toContain('PhysicalDisk(0 C:)');
  expect(html).toContain(json.appFacing.means.iops.toFixed(1));
  await expect(page.getByTestId(TID.exportTcoHint)).toContainText('prefilled');
  // the decision block and the sizing, word for word as the command line's report of the same capture
  const cliHtml = join(host.data, 'cli-profile.html');
  execFileSync(process.execPath, [CLI, 'report', capture, '--profile', '--format', 'html', '--out', cliHtml], { encoding: 'utf8', stdio: 'pipe' });
  const section = (h: string, id: string): string => {
    const m = new RegExp(`<section[^>]*data-section="${id}"[\\s\\S]*?</section>`, 'u').exec(h);
    return (m?.[0] ?? '').replace(/<[^>]+>/gu, ' ').replace(/\s+/gu, ' ').trim();
  };
  const decision = section(html, 'decision');
  expect(decision).toContain('Decision');
  expect(decision).toContain('drives to buy');
  expect(decision).toBe(section(readFileSync(cliHtml, 'utf8'), 'decision'));
  expect(section(html, 'sizing')).not.toBe('');
  expect(section(html, 'sizing')).toBe(section(readFileSync(cliHtml, 'utf8'), 'sizing'));
  await page.getByTestId(TID.profileBack).click();
  await expect(page.getByTestId(TID.profile)).toHaveAttribute('data-drawn', 'true', { timeout: 30_000 });

  await page.getByTestId(TID.langSelect).selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId(TID.profileCapacity)).toContainText('Ёмкость');
  await checkScreen(page, info.outputPath('profile-ru-1024x700.png'));
  // the dark theme too: the heatmap's tints and the charts keep their contrast
  await page.getByTestId(TID.themeToggle).click();
  await checkScreen(page, info.outputPath('profile-ru-dark-1024x700.png'));
  // no console error: the Export preview's heatmap is shaded by classes (heat-N), which its CSP allows, not by inline styles
  expect(errors).toEqual([]);
});
