/**
 * The dashboard's time charts hide nothing and exaggerate nothing, on the bundled sample at
 * 1024×700 and 1920×1080: every series in a chart's legend has visible pixels of its own colour in
 * each window where it has data (before the switch the backing drives' line lies under the
 * front's and must still show), no two y scales share one plot (two panels instead), and no axis
 * title is longer than its axis (so none is cut); the report preview's line charts (full and short
 * form) likewise show every legend series in the baseline and the measure window. A PerfMon
 * before/after pair a day apart shows every line in both windows and none across the hours
 * between the files (needs the release probe).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, watchConsole, previewSettled, repoRoot, startApp } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { importPerfmonWorkPair } from '../../test/support/perfmon-work.ts';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';

const TIME_CHARTS = [TID.chartIops, TID.chartLatency, TID.chartReadWrite, TID.chartQueue] as const;

interface ScaleBox { id: string; left: number; right: number; top: number; bottom: number; min: number; max: number; vertical: boolean; title: string }
interface Plot { area: { left: number; right: number; top: number; bottom: number }; scales: ScaleBox[]; titleFont: string; windows: Record<'baseline' | 'measure', [number, number]> }
interface Series { label: string; color: string; hidden: boolean; axis: string; points: number }
interface Found { label: string; window: string; pixels: number; hasData: boolean; points: number }
/** A series' pixels between the baseline's end and the measure window's start (6 px in from each), and how wide that is. */
interface Between { label: string; pixels: number; widthPx: number }

/** For each visible series and window: the pixels of the series' colour inside its plot over that window. */
async function seriesPixels(page: Page, testId: string): Promise<{ found: Found[]; between: Between[]; plot: Plot; titles: { id: string; text: string; width: number; room: number }[] }> {
  const canvas = page.getByTestId(testId).locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  await expect(canvas).toHaveAttribute('data-plot', /area/u, { timeout: 30_000 });
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const plot = JSON.parse(c.dataset['plot'] ?? '{}') as Plot;
    const series = (JSON.parse(c.dataset['series'] ?? '[]') as Series[]).filter((s) => !s.hidden);
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    const ratio = c.width / c.clientWidth;
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const x = plot.scales.find((s) => s.id === 'x') as ScaleBox;
    const px = (t: number): number => x.left + ((t - x.min) / (x.max - x.min)) * (x.right - x.left);
    const rgb = (hex: string): number[] => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
    const found: Found[] = [];
    const between: Between[] = [];
    for (const s of series) {
      const [r, g, b] = rgb(s.color) as [number, number, number];
      const y = plot.scales.find((sc) => sc.id === s.axis) as ScaleBox;
      const y0 = Math.round(y.top * ratio), y1 = Math.round(y.bottom * ratio);
      const count = (x0: number, x1: number): number => {
        let n = 0;
        for (let j = Math.max(0, y0); j < Math.min(c.height, y1 + 1); j++) {
          for (let i = Math.max(0, x0); i < Math.min(c.width, x1); i++) {
            const k = (j * c.width + i) * 4;
            if ((data[k + 3] ?? 0) > 200 && Math.abs((data[k] ?? 0) - r) + Math.abs((data[k + 1] ?? 0) - g) + Math.abs((data[k + 2] ?? 0) - b) < 60) n++;
          }
        }
        return n;
      };
      for (const [name, [t0, t1]] of Object.entries(plot.windows)) {
        const a = Math.max(t0, x.min), z = Math.min(t1, x.max);
        found.push({ label: s.label, window: name, pixels: count(Math.round(px(a) * ratio), Math.round(px(z) * ratio)), hasData: z > a, points: s.points });
      }
      const g0 = Math.round((px(plot.windows.baseline[1]) + 6) * ratio), g1 = Math.round((px(plot.windows.measure[0]) - 6) * ratio);
      if (g1 > g0) between.push({ label: s.label, pixels: count(g0, g1), widthPx: (g1 - g0) / ratio });
    }
    ctx.save();
    ctx.font = plot.titleFont;
    const titles = plot.scales.filter((s) => s.title !== '').map((s) => ({ id: s.id, text: s.title, width: ctx.measureText(s.title).width, room: s.vertical ? s.bottom - s.top : s.right - s.left }));
    ctx.restore();
    return { found, between, plot, titles };
  });
}

for (const [w, h] of [[1024, 700], [1920, 1080]] as const) {
  test(`at ${w}×${h} every series of the dashboard's time charts shows in each window, on one y scale per plot, with whole axis titles`, async ({ app, page }, info) => {
    const errors = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
    await page.goto(app.authUrl);
    await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
    await page.evaluate(() => { location.hash = '#/sample'; });
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    let charts = 0;
    for (const id of TIME_CHARTS) {
      if ((await page.getByTestId(id).count()) === 0) continue;
      charts++;
      const { found, plot, titles } = await seriesPixels(page, id);
      await page.getByTestId(id).screenshot({ path: info.outputPath(`${id}-${w}x${h}.png`) });
      expect(found.length, id).toBeGreaterThan(0);
      // the sample's front and backing lines carry the same I/O before the switch: both must show
      for (const f of found.filter((x) => x.hasData)) expect(f.pixels, `${id}: ${f.label}, ${f.window}`).toBeGreaterThan(15);
      // y scales that share a plot (their boxes overlap) differ by at most 3×
      const ys = plot.scales.filter((s) => s.vertical);
      for (const a of ys) for (const b of ys) {
        if (a.id >= b.id) continue;
        const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (overlap > 0) expect(Math.max(a.max, b.max) / Math.max(1e-12, Math.min(a.max, b.max)), `${id}: ${a.id} and ${b.id} share a plot`).toBeLessThanOrEqual(3);
      }
      // a title no longer than its axis (Chart.js neither wraps nor shortens it: a longer one is cut)
      for (const t of titles) expect(t.width, `${id} ${t.id} "${t.text}"`).toBeLessThanOrEqual(t.room);
    }
    expect(charts).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });
}

/**
 * Each line chart of the report preview (full and short form), drawn to pixels: the series of its
 * legend that have data in a shaded window each show there in their colour.
 */
async function reportLinePixels(page: Page, previewTestId: string): Promise<{ chart: string; series: string; band: number; pixels: number }[]> {
  return page.evaluate(async (tid) => {
    const frame = document.querySelector(`[data-testid="${tid}"]`) as HTMLIFrameElement;
    const doc = frame.contentDocument as Document;
    const out: { chart: string; series: string; band: number; pixels: number }[] = [];
    for (const fig of [...doc.querySelectorAll('figure.chart')]) {
      const svg = fig.querySelector('svg.chart');
      const bands = [...(svg?.querySelectorAll('rect.band') ?? [])].map((r) => [Number(r.getAttribute('x')), Number(r.getAttribute('x')) + Number(r.getAttribute('width'))] as [number, number]);
      if (svg === null || bands.length === 0 || svg.querySelector('path.series') === null) continue;
      const scale = 2;
      const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
      const img = new Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = w * scale;
      c.height = h * scale;
      const ctx = c.getContext('2d') as CanvasRenderingContext2D;
      ctx.drawImage(img, 0, 0, c.width, c.height);
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      const legend = [...fig.querySelectorAll('ul.legend li')].map((li) => ({ name: li.textContent ?? '', color: li.querySelector('rect')?.getAttribute('fill') ?? '' }));
      for (const s of legend) {
        const [r, g, b] = [1, 3, 5].map((k) => parseInt(s.color.slice(k, k + 2), 16)) as [number, number, number];
        // the first band is the baseline, the last the measure window
        for (const bi of [0, bands.length - 1]) {
          const [x0, x1] = bands[bi] as [number, number];
          let n = 0;
          for (let j = 0; j < c.height; j++) {
            for (let i = Math.round(x0 * scale); i < Math.round(x1 * scale); i++) {
              const k = (j * c.width + i) * 4;
              if (Math.abs((data[k] ?? 0) - r) + Math.abs((data[k + 1] ?? 0) - g) + Math.abs((data[k + 2] ?? 0) - b) < 60) n++;
            }
          }
          out.push({ chart: fig.getAttribute('data-figure') ?? '', series: s.name, band: bi, pixels: n });
        }
      }
    }
    return out;
  }, previewTestId);
}

test('every line chart of the report preview, full and short form, shows each legend series in the baseline and the measure window', async ({ app, page }) => {
  await page.goto(app.authUrl);
  await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
  await page.evaluate(() => { location.hash = '#/sample'; });
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  await page.getByTestId(TID.navExport).click();
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  for (const form of ['full', 'short'] as const) {
    await page.getByTestId(TID.exportForm).selectOption(form);
    await previewSettled(page);
    await expect(preview.locator(form === 'short' ? 'main.short-form' : 'nav.toc')).toBeVisible({ timeout: 30_000 });
    await expect(preview.locator('figure[data-figure="iops-time"] svg.chart')).toBeVisible();
    const found = await reportLinePixels(page, TID.exportPreview);
    expect(found.filter((f) => f.chart === 'iops-time').length, form).toBeGreaterThanOrEqual(4);
    for (const f of found) expect(f.pixels, `${form}: ${f.chart}, ${f.series}, band ${f.band}`).toBeGreaterThan(100);
  }
});

/**
 * A PerfMon before/after pair a day apart (1 and 2 October, 30 minutes each: 23.5 h without data
 * between the files), opened as the sample: each series shows in both windows, and none draws a
 * line across the hours between them (the dashboard's lines span at most 3 intervals without data).
 */
test('a before/after pair a day apart: every series in both windows, no line across the 23.5 h between the files', async ({ page }) => {
  const cannotRun = probeAbsent();
  test.skip(skipped('dashboard chart gaps (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
  // a browser host of its own (it starts as slowly as the worker's, which gets 300 s)
  test.setTimeout(300_000);
  const work = mkdtempSync(join(tmpdir(), 'cacheproof-chart-gap-'));
  const capture = importPerfmonWorkPair(join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe'), work, 'pair', 1);
  const app = await startApp(['--sample', capture]);
  try {
    const errors = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(app.authUrl);
    await expect(page.getByTestId(TID.appTitle)).toHaveText('CacheProof');
    await page.evaluate(() => { location.hash = '#/sample'; });
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    let gaps = 0;
    for (const id of TIME_CHARTS) {
      if ((await page.getByTestId(id).count()) === 0) continue;
      const { found, between } = await seriesPixels(page, id);
      // a line with points has them in both windows (the pair has data nowhere else); one without any (no queue counter in PerfMon) draws nothing
      for (const f of found.filter((x) => x.hasData && x.points > 0)) expect(f.pixels, `${id}: ${f.label}, ${f.window}`).toBeGreaterThan(8);
      for (const b of between) {
        expect(b.widthPx, `${id}: the hours between the files take most of the plot`).toBeGreaterThan(200);
        expect(b.pixels, `${id}: ${b.label} drawn across the ${Math.round(b.widthPx)} px between the files`).toBe(0);
        gaps++;
      }
    }
    expect(gaps).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  } finally {
    await app.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
