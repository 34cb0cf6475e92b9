/**
 * The what-if slider's checks, shared by the dashboard's spec (prediction-slider.spec.ts) and the
 * workload profile's (import-trace.spec.ts): the in-page time from the input event to the card's
 * new text, the figures at the slider's size against `cacheproof-probe predict --size` within the
 * bound the card states, and the miss-ratio chart's marker at the slider's size.
 */
import { spawnSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { TID } from '../app/src/shared/testids.ts';
import { prediction } from '../app/src/shared/i18n/prediction.ts';
import type { Lang } from '../app/src/shared/i18n/types.ts';
import { releaseProbe } from '../test/support/testenv.ts';

interface ProbeJson {
  cacheBytes: number;
  readHitRatio: number;
  iosSavedPercent: number;
  backingIos: { perSecond: number | null };
  responseTime: { predictedUs: number } | null;
}

/** The probe's own prediction at `bytes` with `args` (not stored: the capture keeps its prediction). */
function probeAt(capture: string, bytes: number, args: readonly string[]): ProbeJson {
  const p = spawnSync(releaseProbe, ['predict', capture, '--size', String(bytes), ...args, '--quiet', '--json'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`cacheproof-probe predict --size ${bytes} failed (${String(p.status)}): ${p.stderr}`);
  return JSON.parse(p.stdout) as ProbeJson;
}

/** Records, in the page, each input event's timeStamp on the slider and when the card's I/Os saved text next changes. */
export async function watchSlider(page: Page): Promise<void> {
  await page.evaluate(([root, input]) => {
    const w = window as unknown as { whatIfTimes: { ms: number; text: string }[] };
    w.whatIfTimes = [];
    const box = document.querySelector(`[data-testid="${root}"]`);
    const value = box?.querySelector('[data-kind="saved"] .value');
    if (box === null || box === undefined || value === null || value === undefined) throw new Error('no slider card');
    let since: number | null = null;
    document.addEventListener('input', (e) => {
      if ((e.target as Element).getAttribute('data-testid') === input) since = e.timeStamp;
    }, { capture: true });
    new MutationObserver(() => {
      if (since === null) return;
      w.whatIfTimes.push({ ms: performance.now() - since, text: value.textContent ?? '' });
      since = null;
    }).observe(value, { childList: true, characterData: true, subtree: true });
  }, [TID.dashWhatIf, `${TID.dashWhatIf}-size`] as const);
}

/** The next recorded update (waits for it in the page's state, not on a clock). */
export async function nextUpdate(page: Page, n: number): Promise<{ ms: number; text: string }> {
  await expect.poll(() => page.evaluate(() => (window as unknown as { whatIfTimes: unknown[] }).whatIfTimes.length)).toBeGreaterThanOrEqual(n);
  return page.evaluate((i) => (window as unknown as { whatIfTimes: { ms: number; text: string }[] }).whatIfTimes[i - 1] as { ms: number; text: string }, n);
}

/** A card's engine number and bound. */
async function figure(page: Page, kind: string): Promise<{ value: number; error: number }> {
  const c = page.getByTestId(TID.dashWhatIf).locator(`[data-kind="${kind}"]`);
  return { value: Number(await c.getAttribute('data-value')), error: Number(await c.getAttribute('data-error')) };
}

/**
 * The card's figures at the slider's size equal the probe's at that size (`predict` with `args`)
 * within the stated bound, and the miss-ratio chart marks that size on each of its `lines` curves
 * and says it in its summary; returns the size and the I/Os saved bound.
 */
export async function agreesWithProbe(page: Page, capture: string, args: readonly string[], lines: number): Promise<{ bytes: number; errorPp: number }> {
  const value = page.getByTestId(`${TID.dashWhatIf}-value`);
  const bytes = Number(await value.getAttribute('data-bytes'));
  const chart = page.getByTestId(`${TID.chartMrc}-figure`);
  // the marker the drawn chart holds: one per curve, each at the slider's size
  await expect(chart).toHaveAttribute('data-mark-x', Array.from({ length: lines }, () => String(bytes)).join(','));
  // the summary says the size shown, in the page's language
  const lang = await page.evaluate(() => document.documentElement.lang) as Lang;
  const said = prediction[lang].summaryAt.split('{size}')[0] ?? '';
  await expect(page.getByTestId(`${TID.chartMrc}-summary`)).toContainText(`${said}${await value.textContent() ?? ''}`);
  const q = probeAt(capture, bytes, args);
  expect(q.cacheBytes, 'the probe simulated the slider’s size').toBe(bytes);
  const saved = await figure(page, 'saved');
  const hit = await figure(page, 'readHit');
  const backing = await figure(page, 'backing');
  const resp = await figure(page, 'resp');
  const slack = 1e-9;
  expect(Math.abs(saved.value - q.iosSavedPercent), `I/Os saved at ${bytes} B: ${saved.value} ± ${saved.error} against the probe's ${q.iosSavedPercent}`).toBeLessThanOrEqual(saved.error + slack);
  expect(Math.abs(hit.value - q.readHitRatio), `read hits at ${bytes} B`).toBeLessThanOrEqual(hit.error + slack);
  expect(Math.abs(backing.value - (q.backingIos.perSecond ?? NaN)), `backing I/O at ${bytes} B`).toBeLessThanOrEqual(backing.error + 1e-6);
  expect(Math.abs(resp.value - (q.responseTime?.predictedUs ?? NaN)), `response time at ${bytes} B`).toBeLessThanOrEqual(resp.error + 1e-6);
  return { bytes, errorPp: saved.error };
}
