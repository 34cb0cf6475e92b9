/**
 * The prediction from a block trace on the dashboard (issue 15), on a traced capture with a
 * stored prediction (test/support/traced-capture.ts: a cyclic read of 100 blocks, so a cache of
 * 409,600 bytes or more serves 95 % of reads) opened from Home: the miss-ratio curve draws with
 * its text summary, the size answer reads the probe's figure, and the predicted I/Os saved stand
 * beside the measured ones, and the response time of every traced request in a table — in English and in French, each scanned with axe (WCAG 2 A and AA,
 * no serious or critical violation) as the other screens are. Needs the release probe.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, watchConsole, repoRoot, SAMPLE } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { prediction } from '../../app/src/shared/i18n/prediction.ts';
import type { AnalysisView } from '../../app/src/shared/contract.ts';
import { writeTracedCapture } from '../../test/support/traced-capture.ts';

const probe = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');

async function api<T>(page: Page, channel: string, body: unknown): Promise<T> {
  const r = await page.evaluate(async ([c, b]) => {
    const res = await fetch(`/api/${c}`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify(b) });
    return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  }, [channel, body] as const);
  if (!r.ok) throw new Error(`${channel}: ${r.error?.code}: ${r.error?.message}`);
  return r.value as T;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).exclude('iframe[sandbox]:not([sandbox~="allow-scripts"])').withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function inkedPixels(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).locator('canvas').evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return 0;
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n++;
    return n;
  });
}

test('the MRC chart, the size answer and predicted beside measured, in English and French, with no serious axe violation', async ({ app, page }) => {
  test.skip(!existsSync(probe), `the probe is not built (${probe}); run 'cargo build --release --manifest-path native/Cargo.toml'`);
  test.setTimeout(180_000);
  const work = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-e2e-'));
  try {
    const { capture } = writeTracedCapture(work, SAMPLE, probe, '1MiB');
    const errors = watchConsole(page);
    await page.goto(app.authUrl);
    await expect(page.getByTestId(TID.home)).toBeVisible();
    await page.getByTestId(TID.homeOpenPath).fill(capture);
    await page.getByTestId(TID.homeOpenSubmit).click();
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });

    // the host's own analysis of that file: the figures the screen must show
    const view = await api<AnalysisView>(page, 'analysis.openCapture', { path: capture });
    const p = view.result.prediction.fromTrace;
    if (p === null) throw new Error('the analysis of the traced capture has no prediction');
    const measured = view.result.benefit.iosSavedPercent.value;
    expect(p.iosSavedPercent).toBeCloseTo(95, 10);

    const section = page.getByTestId(TID.dashPrediction);
    await expect(section.locator('h3')).toHaveText(prediction.en.title);
    const compare = page.getByTestId(TID.dashPredictionCompare);
    await expect(compare.locator('[data-kind="predicted"]')).toHaveAttribute('data-value', String(p.iosSavedPercent));
    await expect(compare.locator('[data-kind="predicted"] .value')).toHaveText('95.0%');
    await expect(compare.locator('[data-kind="measured"]')).toHaveAttribute('data-value', String(measured));
    await expect(compare.locator('[data-kind="measured"] .value')).toHaveText(`${(measured ?? NaN).toFixed(1)}%`);
    await expect(compare.locator('[data-kind="difference"]')).toHaveAttribute('data-value', String(p.differencePp));

    // the size answer: 90 % by default, then 99 % (beyond what first references allow)
    const answer = page.getByTestId(TID.dashSizeAnswer);
    await expect(section.locator('[role="note"]')).toHaveText(/^Note: The 1.05 MB cache is larger than the 410 kB the baseline’s reads touched/u);
    await expect(answer.locator('p')).toHaveText('A cache of 410 kB holds 90.0% of reads.');
    await expect(answer.locator('p')).toHaveAttribute('data-bytes', '409600');
    await page.getByTestId(`${TID.dashSizeAnswer}-target`).selectOption('99');
    await expect(answer.locator('p')).toHaveText('No cache size holds 99.0% of reads: at most 95.0%, the rest are first reads of a block.');

    // the miss-ratio curve draws and says its points in words
    expect(await inkedPixels(page, TID.chartMrc)).toBeGreaterThan(2000);
    await expect(page.getByTestId(`${TID.chartMrc}-summary`)).toContainText('Miss-ratio curve: 4.1 kB → 100.0%');
    await expect(page.getByTestId(`${TID.chartMrc}-summary`)).toContainText('→ 5.0%');
    // the response time of every traced request beside the per-interval figures: 200 µs each
    const row = page.getByTestId(TID.dashTraceLatency).locator('tr[data-device="loop1"][data-window="baseline"][data-op="read"]');
    await expect(row.locator('td')).toHaveText(['loop1', 'Baseline (cache off)', 'reads', '2,000', '0.2 ms', '181–215 µs', '181–215 µs', '181–215 µs', '181–215 µs']);
    expect(await seriousViolations(page), 'axe violations (en)').toEqual([]);

    // French
    await page.getByTestId(TID.langSelect).selectOption('fr');
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    await expect(page.getByTestId(TID.dashPrediction).locator('h3')).toHaveText(prediction.fr.title);
    await expect(page.getByTestId(TID.dashPredictionCompare).locator('[data-kind="predicted"] .value')).toHaveText(/^95,0\s%$/u);
    await expect(page.getByTestId(TID.dashPredictionCompare).locator('[data-kind="measured"] h4')).toHaveText(prediction.fr.measured);
    await expect(page.getByTestId(TID.dashSizeAnswer).locator('p')).toHaveText(/^Un cache de 410\sko sert 90,0\s% des lectures\.$/u);
    // the cache is larger than what the baseline touched: said in French too
    await expect(page.getByTestId(TID.dashPrediction).locator('[role="note"]')).toHaveText(/^Remarque : Le cache de 1,05\sMo dépasse les 410\sko/u);
    expect(await inkedPixels(page, TID.chartMrc)).toBeGreaterThan(2000);
    await expect(page.getByTestId(`${TID.chartMrc}-summary`)).toContainText('Courbe de taux d’échec');
    await expect(page.getByTestId(TID.dashTraceLatency).locator('h4')).toHaveText(prediction.fr['lat.title']);
    await expect(page.getByTestId(TID.dashTraceLatency).locator('tr[data-window="baseline"] td').nth(2)).toHaveText('lectures');
    expect(await seriousViolations(page), 'axe violations (fr)').toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
