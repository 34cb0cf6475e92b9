/**
 * The results dashboard on the bundled sample: every chart draws, the cards show the engine's
 * figures formatted for the language (French decimal comma), the time charts' zoom resets from
 * the keyboard, the theme toggle switches light/dark, and every chart exports as PNG, SVG and CSV.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, watchConsole, inkedPixels } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

const CHARTS = [TID.chartIops, TID.chartLatency, TID.chartHourly, TID.chartDistribution, TID.chartFrontBacking] as const;

/** Signs in and opens the bundled sample through its deep link (`#/sample`, as Home's button does). */
async function openSample(page: Page, authUrl: string): Promise<void> {
  await page.goto(authUrl);
  await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
  await page.evaluate(() => { location.hash = '#/sample'; });
  await drawn(page);
}

async function drawn(page: Page): Promise<void> {
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
}

/** Non-transparent pixels on the chart's canvas (a chart that drew nothing has none). */
test('every dashboard chart draws, with a text summary, and no console errors', async ({ app, page }) => {
  const errors = watchConsole(page);
  await openSample(page, app.authUrl);
  for (const id of CHARTS) {
    expect(await inkedPixels(page, id), `${id} canvas`).toBeGreaterThan(2000);
    const summaryId = id === TID.chartIops ? TID.chartSummary : `${id}-summary`;
    await expect(page.getByTestId(summaryId)).toHaveText(/^Chart summary: .*\d/);
  }
  // The app's own performance marks frame the open (bench/dashboard reads them).
  const marks = await page.evaluate(() => ['cacheproof:open-request', 'cacheproof:dashboard-drawn'].map((n) => performance.getEntriesByName(n, 'mark').length));
  expect(marks.every((n) => n > 0)).toBe(true);
  await expect(page.getByTestId(TID.dashHealth).locator('tbody tr')).not.toHaveCount(0);
  await expect(page.getByTestId(TID.dashDrift).locator('li')).toHaveCount(4);
  expect(errors).toEqual([]);
});

test('a figure reads the same on the card and in its chart\'s summary: the application-facing average response time of each window', async ({ app, page }) => {
  await openSample(page, app.authUrl);
  const card = (await page.getByTestId(TID.cardLatency).locator('.value').textContent()) ?? '';
  const [before, after] = card.split(' → ').map((x) => x.trim());
  expect(before, card).toMatch(/\d/);
  const summary = (await page.getByTestId(`${TID.chartLatency}-summary`).textContent()) ?? '';
  // "Front (loop1), Baseline: average 0.182 ms (the window figure), …; Front (loop1), Measure: average …"
  const front = summary.replace(/^Chart summary: /u, '').split('; ').filter((p) => /^Front/u.test(p));
  expect(front, summary).toHaveLength(2);
  expect(front[0]).toContain(`average ${before ?? '?'} `);
  expect(front[1]).toContain(`average ${after ?? '?'} `);
});

test('the cards show the analysis figures formatted for French', async ({ app, page }) => {
  await openSample(page, app.authUrl);
  await page.getByTestId(TID.langSelect).selectOption('fr');
  await drawn(page);
  await expect(page.getByTestId(TID.cardIosSaved).locator('h3')).toHaveText('E/S épargnées aux disques');
  // The engine's figures, straight from the host, formatted here with the browser's own Intl for fr-FR.
  const expected = await page.evaluate(async () => {
    const res = await fetch('/api/analysis.openSample', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: '{}' });
    type Pair = { before: number; after: number };
    type Benefit = {
      iosSavedPercent: { value: number; ci95: { low: number; high: number } };
      latencyMs: Pair & { reductionPercent: number };
      normalizedIops: Pair; throughputMBps: Pair; cacheServedPercent: { reads: number; writes: number };
    };
    const body = (await res.json()) as { ok: boolean; value: { result: { benefit: Benefit } } };
    const b = body.value.result.benefit;
    const pct = (v: number): string => new Intl.NumberFormat('fr-FR', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v / 100);
    // Three significant digits below 100, whole numbers from 100.
    const sig = (v: number): string => new Intl.NumberFormat('fr-FR', Math.abs(v) >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 }).format(v);
    return {
      saved: pct(b.iosSavedPercent.value),
      savedCi: `intervalle à 95 % ${pct(b.iosSavedPercent.ci95.low)} – ${pct(b.iosSavedPercent.ci95.high)}`,
      latency: `${sig(b.latencyMs.before)} ms → ${sig(b.latencyMs.after)} ms`,
      reduction: `réduit de ${pct(b.latencyMs.reductionPercent)}`,
      normalized: `${sig(b.normalizedIops.before)} IOPS → ${sig(b.normalizedIops.after)} IOPS`,
      throughput: `${sig(b.throughputMBps.before)} Mo/s → ${sig(b.throughputMBps.after)} Mo/s`,
      served: `lectures ${pct(b.cacheServedPercent.reads)} · écritures ${pct(b.cacheServedPercent.writes)}`,
    };
  });
  expect(expected.latency).toMatch(/^\d+,\d+ ms → \d+,\d+ ms$/);
  await expect(page.getByTestId(TID.cardIosSaved).locator('.value')).toHaveText(expected.saved);
  await expect(page.getByTestId(TID.cardIosSaved)).toContainText(expected.savedCi);
  await expect(page.getByTestId(TID.cardLatency).locator('.value')).toHaveText(expected.latency);
  await expect(page.getByTestId(TID.cardLatency)).toContainText(expected.reduction);
  // The headline set is what the server did; IOPS at queue depth 1 is in the details, with its definition.
  await expect(page.locator('.cards > .card')).toHaveCount(4);
  expect(await page.locator('.cards > .card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-testid')))).toEqual([TID.cardIosSaved, TID.cardLatency, TID.cardThroughput, TID.cardCacheServed]);
  await expect(page.locator('.cards')).not.toContainText('profondeur de file');
  await expect(page.getByTestId(TID.detailNormalizedIops).locator('.value')).toHaveText(expected.normalized);
  await expect(page.getByTestId(TID.detailNormalizedIops)).toContainText('1000 ÷');
  await expect(page.getByTestId(TID.cardThroughput).locator('.value')).toHaveText(expected.throughput);
  await expect(page.getByTestId(TID.cardCacheServed).locator('.value')).toHaveText(expected.served);
  // Axis titles and the mode badge are French too.
  await expect(page.getByTestId(TID.modeBadge)).toHaveText('Frontal et sous-jacent mesurés (attribution exacte)');
  await expect(page.getByTestId(TID.chartSummary)).toContainText('Résumé du graphique');
});

test('the time charts zoom with the wheel and reset from the keyboard', async ({ app, page }) => {
  await openSample(page, app.authUrl);
  const range = page.getByTestId(TID.dashZoomRange);
  await expect(range).toHaveText(/\S/);
  const full = await range.textContent();
  // the chart must be on screen for the wheel to reach it (the cards and the figures' details sit above it)
  await page.getByTestId(TID.chartIops).locator('canvas').scrollIntoViewIfNeeded();
  const box = await page.getByTestId(TID.chartIops).locator('canvas').boundingBox();
  if (!box) throw new Error('the IOPS chart has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect(range).not.toHaveText(full ?? '');
  // Reach the reset button with the keyboard (Tab from the zoom-out button) and press Enter.
  await page.getByTestId(TID.dashZoomOut).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId(TID.dashZoomReset)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(range).toHaveText(full ?? '');
  // The zoom-in button works from the keyboard too.
  await page.getByTestId(TID.dashZoomIn).focus();
  await page.keyboard.press('Enter');
  await expect(range).not.toHaveText(full ?? '');
  await page.getByTestId(TID.dashZoomReset).focus();
  await page.keyboard.press('Space');
  await expect(range).toHaveText(full ?? '');
});

test('the theme toggle switches between light and dark and the charts redraw', async ({ app, page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openSample(page, app.authUrl);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  const bg = (): Promise<string> => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const light = await bg();
  const toggle = page.getByTestId(TID.themeToggle);
  // a switch whose state is said (aria-checked) and shown (the knob moves), labelled by what it turns on
  await expect(toggle).toHaveAttribute('role', 'switch');
  await expect(page.getByRole('switch', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'false');
  const knobX = (): Promise<number> => toggle.locator('.switch-knob').evaluate((k) => k.getBoundingClientRect().left);
  const knobOff = await knobX();
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('switch', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(knobX).toBeGreaterThan(knobOff + 5);
  await expect(page.getByTestId(TID.themeToggle)).toBeFocused();
  expect(await bg()).not.toBe(light);
  await drawn(page);
  expect(await inkedPixels(page, TID.chartIops)).toBeGreaterThan(2000);
  // The choice is remembered across a reload, then switched back.
  await page.reload();
  await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.evaluate(() => { location.hash = '#/sample'; });
  await drawn(page);
  await page.getByTestId(TID.themeToggle).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await bg()).toBe(light);
});

test('every chart exports as PNG, SVG and CSV: the CSV holds the series the chart draws, the SVG its colours and scales, the PNG decodes', async ({ app, page }, info) => {
  const errors = watchConsole(page);
  await openSample(page, app.authUrl);
  const groups = await page.evaluate(async () => {
    const res = await fetch('/api/analysis.openSample', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: '{}' });
    const body = (await res.json()) as { value: { groupSeries: { group: string; devices: string[]; t: number[]; iops: (number | null)[] }[] } };
    return body.value.groupSeries;
  });
  expect(groups.map((g) => g.group).sort()).toEqual(['backing', 'front']);
  const fetchDownload = async (testId: string): Promise<{ name: string; bytes: Buffer }> => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    const path = await d.path();
    return { name: d.suggestedFilename(), bytes: readFileSync(path) };
  };

  // CSV: the time in ISO 8601 UTC, then one column per drawn line, named with its unit; every value the host's.
  const csv = await fetchDownload(`${TID.chartIops}-export-csv`);
  expect(csv.name).toBe('cacheproof-iops.csv');
  const lines = csv.bytes.toString('utf8').replace(/^\ufeff/u, '').trimEnd().split('\r\n').map((l) => l.split(','));
  const head = lines[0] ?? [];
  expect(head[0]).toBe('Time (UTC)');
  expect(head).toHaveLength(3);
  for (const g of groups) {
    const col = head.findIndex((h) => h.includes(g.devices.join(', ')) && h.endsWith('(IOPS (I/Os per second))'));
    expect(col, `${g.group} column in ${head.join(' | ')}`).toBeGreaterThan(0);
    const byTime = new Map(lines.slice(1).map((r) => [r[0], r[col]]));
    expect(byTime.size).toBe(new Set(groups.flatMap((x) => x.t)).size);
    g.t.forEach((t, i) => {
      const v = g.iops[i];
      expect(byTime.get(new Date(t).toISOString()), `${g.group} at ${t}`).toBe(v === null || v === undefined ? '' : String(v));
    });
  }

  // SVG: a well-formed document, drawn by the report's renderer in the colours the chart draws; the
  // response-time chart keeps its two scales as two panels.
  const drawnLines = JSON.parse((await page.getByTestId(TID.chartIops).locator('canvas').getAttribute('data-series')) ?? '[]') as { color: string; hidden: boolean }[];
  for (const [testId, panels] of [[TID.chartIops, 1], [TID.chartLatency, 2], [TID.chartHourly, 1], [TID.chartDistribution, 1], [TID.chartFrontBacking, 1]] as const) {
    const svg = await fetchDownload(`${testId}-export-svg`);
    expect(svg.name).toMatch(/^cacheproof-.+\.svg$/u);
    const text = svg.bytes.toString('utf8');
    writeFileSync(info.outputPath(svg.name), text);
    const check = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return { ok: doc.querySelector('parsererror') === null, panels: doc.querySelectorAll('svg > svg.chart').length, series: doc.querySelectorAll('.series').length, title: doc.querySelector('svg > title')?.textContent ?? '' };
    }, text);
    expect(check.ok, testId).toBe(true);
    expect(check.panels, testId).toBe(panels);
    expect(check.series, testId).toBeGreaterThan(0);
    expect(check.title.length, testId).toBeGreaterThan(0);
    if (testId === TID.chartIops) for (const l of drawnLines.filter((x) => !x.hidden)) expect(text.toLowerCase()).toContain(`stroke="${l.color.toLowerCase()}"`);
  }

  // PNG: a real image, as wide as the canvas drawn.
  const png = await fetchDownload(`${TID.chartIops}-export-png`);
  expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const size = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    return { w: img.naturalWidth, h: img.naturalHeight };
  }, png.bytes.toString('base64'));
  const canvasWidth = await page.getByTestId(TID.chartIops).locator('canvas').evaluate((c: HTMLCanvasElement) => c.width);
  expect(size.w).toBe(canvasWidth);
  expect(size.h).toBeGreaterThan(100);
  await expect(page.getByTestId(TID.chartIops).locator('xpath=..').getByRole('status').first()).toHaveText('PNG saved.');
  expect(errors).toEqual([]);
});
