/**
 * One implementation of every figure: the same capture opened in the dashboard, printed by
 * `cacheproof analyze` (text) and exported as the PDF report shows every shared headline figure
 * identically, at the precision each prints (the shared formatter, app/src/shared/i18n/numbers.ts).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, repoRoot, SAMPLE, startApp, previewSettled } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { formatVal } from '../../app/src/shared/i18n/report.ts';
import { fmtSig } from '../../app/src/shared/i18n/numbers.ts';

const cli = join(repoRoot, 'app', 'dist', 'cli.cjs');
/** Spaces of every kind (French groups with a narrow no-break space) as one plain space. */
const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ').trim();
/** The numbers in a text, as printed (with grouping and decimal signs). */
const numbers = (s: string): string[] => norm(s).match(/\d[\d,. ]*\d|\d/gu)?.map((x) => x.trim()) ?? [];

for (const lang of ['en', 'fr'] as const) {
  test(`${lang}: the dashboard's cards, cacheproof analyze and the PDF report print the same headline figures`, async ({ app, page }) => {
    await page.goto(app.authUrl);
    await page.getByTestId(TID.langSelect).selectOption(lang);
    await page.evaluate(() => { location.hash = '#/sample'; });
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    const card = async (id: string): Promise<string[]> => numbers((await page.getByTestId(id).locator('.value').textContent()) ?? '');
    const saved = await card(TID.cardIosSaved);
    const latency = await card(TID.cardLatency);
    const normalized = await card(TID.detailNormalizedIops);
    const throughput = await card(TID.cardThroughput);
    const served = await card(TID.cardCacheServed);
    expect(latency).toHaveLength(2);
    expect(normalized).toHaveLength(2);

    const text = norm(execFileSync(process.execPath, [cli, 'analyze', SAMPLE, '--lang', lang], { encoding: 'utf8' }));
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-agree-'));
    try {
      const pdf = join(dir, 'r.pdf');
      execFileSync(process.execPath, [cli, 'report', SAMPLE, '--format', 'pdf', '--out', pdf, '--lang', lang]);
      const printed = norm(execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }));
      for (const [what, figures] of [['I/Os saved', saved], ['response time', latency], ['normalized IOPS', normalized], ['throughput', throughput], ['served by the cache', served]] as const) {
        for (const f of figures) {
          expect(text, `${lang} ${what} ${f}: cacheproof analyze`).toContain(f);
          expect(printed, `${lang} ${what} ${f}: PDF report`).toContain(f);
        }
      }
      // The response time row of the CLI holds both card values, in order, at the card's precision.
      const row = text.slice(text.indexOf(latency[0] as string));
      expect(row.indexOf(latency[1] as string)).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

for (const lang of ['en', 'ru'] as const) {
  test(`${lang}: the executive summary opens with the verdict, holding the headline figures as analyze --json gives them`, async ({ app, page }) => {
    const json = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', SAMPLE, '--json'], { encoding: 'utf8' })) as {
      benefit: { iosSavedPercent: { value: number; ci95: { low: number; high: number } | null }; latencyMs: { before: number; after: number } };
    };
    const b = json.benefit;
    // the report's own formatter (the one the dashboard and the PDF print with) on the JSON's raw values
    const expected = [
      formatVal({ k: 'pct', v: b.iosSavedPercent.value, d: 1 }, lang),
      ...(b.iosSavedPercent.ci95 === null ? [] : [formatVal({ k: 'ci', low: b.iosSavedPercent.ci95.low, high: b.iosSavedPercent.ci95.high, of: 'pct', d: 1 }, lang)]),
      formatVal({ k: 'ms', v: b.latencyMs.before }, lang),
      formatVal({ k: 'ms', v: b.latencyMs.after }, lang),
    ].map(norm);
    await page.goto(app.authUrl);
    await page.getByTestId(TID.langSelect).selectOption(lang);
    await page.getByTestId(TID.homeSample).click();
    await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
    await page.getByTestId(TID.navExport).click();
    await page.getByTestId(TID.exportLang).selectOption(lang);
    await previewSettled(page);
    const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
    const first = preview.locator('[data-section="summary"] > p').first();
    await expect(first).toContainText(lang === 'en' ? 'Verdict:' : 'Итог:');
    const sentence = norm((await first.textContent()) ?? '');
    // one sentence: it ends at the end of the paragraph
    expect(sentence.replace(/\d[.,]\d/gu, '').match(/[.!?](\s|$)/gu)?.length ?? 0, sentence).toBe(1);
    for (const f of expected) expect(sentence, `the verdict holds ${f}`).toContain(f);
  });
}
/**
 * The cache engine's statistics beside the counters (cacheEngine.comparison): the sample capture
 * with an engine's tables added (capture-schema v4 `engine_stats`, a `command` adapter's cumulative
 * hit and miss counters read at the measure window's edges, figures chosen by hand: reads 9,000 hits
 * of 10,000, writes 300 of 1,000), opened in the dashboard, printed by `cacheproof analyze --json`
 * and exported as the PDF report: every share and difference reads the same in the three.
 */
test('the engine-statistics comparison reads the same on the dashboard, in the PDF report, in cacheproof analyze and in analyze --json', async ({ browser }) => {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-agree-engine-'));
  try {
    const capture = join(dir, 'engine.capture');
    copyFileSync(SAMPLE, capture);
    const before = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', capture, '--json'], { encoding: 'utf8' })) as { windows: { measure: { start: string; end: string } } };
    const t0 = Date.parse(before.windows.measure.start), t1 = Date.parse(before.windows.measure.end);
    const rows = ([[t0, 0, 0, 0, 0], [t1, 9000, 1000, 300, 700]] as const).flatMap(([t, rh, rm, wh, wm]) =>
      [['read_hits', rh], ['read_misses', rm], ['write_hits', wh], ['write_misses', wm]].map(([n, v]) => `(${t}, 'command', 'loop7', '${n}', ${v}, 'requests', 'cumulative')`));
    const migration = readFileSync(join(repoRoot, 'native', 'crates', 'capture', 'src', 'migrations', '0004_engine.sql'), 'utf8');
    execFileSync('sqlite3', [capture], { input: `${migration}\nINSERT INTO engine_stats VALUES ${rows.join(', ')};\nINSERT INTO meta VALUES ('engine', '{"adapter":"command","device":"loop7"}');\n` });

    const json = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', capture, '--json'], { encoding: 'utf8' })) as {
      cacheEngine: { comparison: { shares: Record<'reads' | 'writes' | 'all', { enginePercent: number; countersPercent: number; differencePoints: number; exceeds: boolean }> } };
      warnings: { code: string }[];
    };
    const shares = json.cacheEngine.comparison.shares;
    expect(shares.reads.enginePercent).toBe(90);
    expect(shares.writes.enginePercent).toBe(30);
    expect(shares.all.enginePercent).toBeCloseTo((9300 / 11000) * 100, 9);
    expect(shares.reads.exceeds).toBe(true);
    expect(json.warnings.map((w) => w.code)).toContain('engine-counters-differ');
    const pct = (v: number): string => new Intl.NumberFormat('en-GB', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v / 100);
    const pts = (v: number): string => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(Math.abs(v));

    const host = await startApp(['--sample', capture]);
    try {
      const page = await (await browser.newContext()).newPage();
      await page.goto(host.authUrl);
      await page.evaluate(() => { location.hash = '#/sample'; });
      await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
      await expect(page.getByTestId(TID.cardEngineStats).locator('.value')).toHaveText(`engine ${pct(shares.all.enginePercent)} · counters ${pct(shares.all.countersPercent)}`);
      const pdf = join(dir, 'r.pdf');
      execFileSync(process.execPath, [cli, 'report', capture, '--format', 'pdf', '--out', pdf, '--lang', 'en']);
      const printed = norm(execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }));
      expect(printed).toContain('The cache engine’s own statistics');
      const text = norm(execFileSync(process.execPath, [cli, 'analyze', capture, '--lang', 'en'], { encoding: 'utf8' }));
      for (const kind of ['reads', 'writes', 'all'] as const) {
        const row = page.getByTestId(TID.dashEngineShares).locator(`tr[data-kind="${kind}"]`);
        const s = shares[kind];
        await expect(row.locator('td[data-field="engine"]')).toHaveText(pct(s.enginePercent));
        await expect(row.locator('td[data-field="counters"]')).toHaveText(pct(s.countersPercent));
        await expect(row.locator('td[data-field="diff"]')).toHaveText(`${s.differencePoints > 0 ? '+' : '−'}${pts(s.differencePoints)}`);
        await expect(row).toHaveAttribute('data-exceeds', String(s.exceeds));
        for (const f of [pct(s.enginePercent), pct(s.countersPercent), `${pts(s.differencePoints)} points`]) {
          expect(printed, `${kind} ${f}: PDF report`).toContain(f);
          expect(text, `${kind} ${f}: cacheproof analyze`).toContain(f);
        }
      }
    } finally {
      await host.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a colour means one thing: each series has the same colour on the dashboard and in the report', async ({ app, page }) => {
  const json = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', SAMPLE, '--json'], { encoding: 'utf8' })) as {
    devices: { front: string[]; backing: string[] };
    perDevice: { device: string; baseline: { percentiles: { iops: { p95: number; max: number } | null } }; measure: { percentiles: { iops: { p95: number; max: number } | null } } }[];
  };
  await page.goto(app.authUrl);
  await page.getByTestId(TID.langSelect).selectOption('en');
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  type Drawn = { label: string; role?: string; color: string };
  const drawn = async (testId: string): Promise<Drawn[]> => JSON.parse((await page.getByTestId(testId).locator('canvas').getAttribute('data-series')) ?? '[]') as Drawn[];
  const iops = await drawn(TID.chartIops);
  const dist = await drawn(TID.chartDistribution);
  const roleColour = (role: string): string | undefined => iops.find((l) => l.role === role)?.color;
  expect(roleColour('front')).toBeDefined();
  expect(roleColour('backing')).toBeDefined();
  expect(roleColour('front')).not.toBe(roleColour('backing'));
  // the per-device table: p95 and peak IOPS per window, as analyze --json gives them
  for (const d of json.perDevice) {
    for (const win of ['baseline', 'measure'] as const) {
      const row = page.getByTestId(TID.dashDevices).locator(`tr[data-device="${d.device}"][data-window="${win}"]`);
      const io = d[win].percentiles.iops;
      if (io === null) continue;
      const cells = numbers((await row.locator('td.num').allTextContents()).join(' | '));
      expect(cells, `${d.device} ${win}`).toContain(numbers(fmtSig('en', io.p95))[0]);
      expect(cells, `${d.device} ${win}`).toContain(numbers(fmtSig('en', io.max))[0]);
    }
  }
  // response time: the application-facing line in one panel, the backing drives in a panel of their own (one axis each, never two over one plot)
  const lat = (await drawn(TID.chartLatency)) as (Drawn & { axis?: string })[];
  expect(lat.filter((l) => l.role === 'front').map((l) => l.axis)).toEqual(['y']);
  expect(lat.filter((l) => l.role === 'backing').map((l) => l.axis)).toEqual(['y1']);

  await page.getByTestId(TID.navExport).click();
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  const legend = async (figureId: string): Promise<{ name: string; color: string }[]> => {
    const items = preview.locator(`figure[data-figure="${figureId}"] ul.legend li`);
    await expect(items.first()).toBeVisible();
    const out: { name: string; color: string }[] = [];
    for (let i = 0; i < (await items.count()); i++) {
      out.push({ name: norm((await items.nth(i).textContent()) ?? ''), color: (await items.nth(i).locator('rect').getAttribute('fill')) ?? '' });
    }
    return out;
  };
  // the IOPS chart: every device line in its role's colour, as on the dashboard
  const lines = await legend('iops-time');
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const l of lines) {
    const role = json.devices.front.some((d) => l.name.startsWith(d)) ? 'front' : json.devices.backing.some((d) => l.name.startsWith(d)) ? 'backing' : 'other';
    expect(l.color.toUpperCase(), `${l.name} in the report`).toBe(roleColour(role)?.toUpperCase());
  }
  // the lines themselves are drawn in those colours
  const strokes = await preview.locator('figure[data-figure="iops-time"] path.series').evaluateAll((ps) => ps.map((p) => p.getAttribute('stroke') ?? ''));
  expect(new Set(strokes.map((s) => s.toUpperCase()))).toEqual(new Set(lines.map((l) => l.color.toUpperCase())));
  // the report's response time: a chart each for the application-facing devices and the backing drives
  expect((await legend('latency-time')).every((l) => json.devices.front.some((d) => l.name.startsWith(d)))).toBe(true);
  expect((await legend('latency-backing-time')).every((l) => json.devices.backing.some((d) => l.name.startsWith(d)))).toBe(true);
  // before/after: the baseline and measure bars in the same two colours as the dashboard's
  const windows = await legend('latency-distribution');
  expect(windows.map((w) => w.color.toUpperCase())).toEqual(dist.map((d) => String(d.color).toUpperCase()));
  expect(windows[0]?.color).not.toBe(roleColour('backing'));
});

/**
 * The load's shape (issue 17): reads/s, writes/s and aqu-sz per group and window (mean, p95, peak)
 * and the request sizes read the same on the dashboard, in the PDF report and in analyze --json;
 * the new time charts and the TCO charts keep the palette's meanings on screen and on paper.
 */
test('reads, writes, queue size and request sizes read the same on the dashboard, in the PDF and in analyze --json; their colours and the TCO charts\' are the report\'s', async ({ app, page }) => {
  type Peak = { mean: number | null; p95: number | null; peak: number | null };
  type Ops = { ios: number; percents: number[] } | null;
  type Sizes = { devices: string[]; baseline: { fromCounters: { reads: Ops; writes: Ops }; fromTrace: unknown }; measure: { fromCounters: { reads: Ops; writes: Ops }; fromTrace: unknown } };
  const json = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', SAMPLE, '--json'], { encoding: 'utf8' })) as {
    readWriteQueue: Record<'front' | 'backing', { devices: string[]; baseline: Record<'readsPerSec' | 'writesPerSec' | 'aquSz', Peak>; measure: Record<'readsPerSec' | 'writesPerSec' | 'aquSz', Peak> } | null>;
    requestSizes: Record<'front' | 'backing', Sizes | null>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-agree-shape-'));
  try {
    const pdf = join(dir, 'r.pdf');
    execFileSync(process.execPath, [cli, 'report', SAMPLE, '--format', 'pdf', '--out', pdf, '--lang', 'en']);
    const printed = norm(execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }));
    await page.goto(app.authUrl);
    await page.getByTestId(TID.langSelect).selectOption('en');
    await page.getByTestId(TID.homeSample).click();
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    const table = page.getByTestId(TID.dashReadWriteQueue);
    const windowName = { baseline: 'Baseline (cache off)', measure: 'Measure (cache on)' } as const;
    const figureName = { readsPerSec: 'Reads/s', writesPerSec: 'Writes/s', aquSz: 'Queue size (aqu-sz)' } as const;
    for (const g of ['front', 'backing'] as const) {
      const q = json.readWriteQueue[g];
      if (q === null) continue;
      for (const k of ['baseline', 'measure'] as const) {
        for (const fig of ['readsPerSec', 'writesPerSec', 'aquSz'] as const) {
          const s = q[k][fig];
          const shown = [s.mean, s.p95, s.peak].map((v) => (v === null ? '' : fmtSig('en', v)));
          // the dashboard: the engine's number in each cell, printed as the report prints it
          const cells = await table.locator(`tr[data-group="${g}"][data-window="${k}"][data-figure="${fig}"] td.num`).allTextContents();
          expect(cells.map(norm), `${g} ${k} ${fig} on the dashboard`).toEqual(shown);
          // the PDF: the same row of the table "Reads, writes and queue size per window"
          expect(printed, `${g} ${k} ${fig} in the PDF`).toContain(norm(`${windowName[k]} ${figureName[fig]} ${shown.join(' ')}`));
        }
      }
    }
    // request sizes: the I/Os counted of each group, window and operation, in the PDF's tables
    for (const g of ['front', 'backing'] as const) {
      const s = json.requestSizes[g];
      if (s === null) continue;
      const counted = [s.baseline.fromCounters.reads, s.measure.fromCounters.reads, s.baseline.fromCounters.writes, s.measure.fromCounters.writes].map((o) => (o === null ? '' : fmtSig('en', o.ios)));
      expect(printed, `${g} I/Os counted`).toContain(norm(`I/Os counted ${counted.join(' ')}`));
    }

    // colours: the read/write and queue lines in their group's role colour, on screen and on paper
    type Drawn = { label: string; role?: string; color: string };
    const drawn = async (testId: string): Promise<Drawn[]> => JSON.parse((await page.getByTestId(testId).locator('canvas').getAttribute('data-series')) ?? '[]') as Drawn[];
    const screenColour = new Map((await drawn(TID.chartQueue)).map((l) => [l.role, l.color.toUpperCase()]));
    expect(screenColour.get('front')).not.toBe(screenColour.get('backing'));
    for (const l of await drawn(TID.chartReadWrite)) expect(l.color.toUpperCase(), l.label).toBe(screenColour.get(l.role));

    // the Planner's TCO charts: each configuration and cost item in one colour, the report's
    await page.getByTestId(TID.navPlanner).click();
    await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
    await page.getByTestId(TID.plannerReset).click();
    await expect(page.getByTestId(TID.plannerChartCumulative).locator('canvas')).toHaveAttribute('data-series', /color/u);
    const plannerColours = async (testId: string): Promise<Map<string, string>> => new Map((await drawn(testId)).map((l) => [norm(l.label), String(l.color).toUpperCase()]));
    const configs = await plannerColours(TID.plannerChartCumulative);
    const costs = await plannerColours(TID.plannerChartCosts);
    // each configuration a colour of its own (engine configColor by its place), none a device role's
    expect(new Set(configs.values()).size).toBe(configs.size);
    for (const c of configs.values()) expect(['#0072B2', '#D55E00', '#009E73']).not.toContain(c);
    expect(new Set(costs.values()).size).toBe(costs.size);

    await page.getByTestId(TID.navExport).click();
    await page.getByTestId(TID.exportTco).check();
    await previewSettled(page);
    const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
    const legend = async (figureId: string): Promise<Map<string, string>> => {
      const items = preview.locator(`figure[data-figure="${figureId}"] ul.legend li`);
      await expect(items.first()).toBeVisible({ timeout: 30_000 });
      const out = new Map<string, string>();
      for (let i = 0; i < (await items.count()); i++) out.set(norm((await items.nth(i).textContent()) ?? ''), ((await items.nth(i).locator('rect').first().getAttribute('fill')) ?? '').toUpperCase());
      return out;
    };
    expect(await legend('tco-cumulative')).toEqual(configs);
    expect(await legend('tco-costs')).toEqual(costs);
    // the report's read/write lines: the same two role colours as the dashboard's
    const rw = await legend('rw-time');
    for (const [name, colour] of rw) expect(colour, name).toBe(name.includes('(front)') ? screenColour.get('front') : screenColour.get('backing'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
