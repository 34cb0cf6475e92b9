/**
 * Home and the new-analysis wizard, driven as a person would, in French where the point is
 * what the person reads:
 * - a capture that cannot be opened says what happened and what to do, and nothing already
 *   listed or typed is lost (the recent list survives a reload);
 * - a large capture being opened shows where it is (reading, analysing) and Stop cancels it;
 * - the wizard will not go on with no device chosen, says why, and keeps every choice across
 *   Back, Next and a reload;
 * - Start launches the probe detached with the plan and lands on the run's Live screen (the
 *   run is then stopped through the contract);
 * - custom latency targets: each field's error in French, a decimal comma read as such, and the
 *   values in the run's plan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, repoRoot, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { common } from '../../app/src/shared/i18n/common.ts';
import { home } from '../../app/src/shared/i18n/home.ts';
import { wizard } from '../../app/src/shared/i18n/wizard.ts';


async function signIn(page: Page, authUrl: string, lang: 'en' | 'fr'): Promise<void> {
  await page.goto(authUrl);
  await expect(page.getByTestId(TID.home)).toBeVisible();
  await page.getByTestId(TID.langSelect).selectOption(lang);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

test('a capture that cannot be opened says why in French; the recent list and the typed path stay', async ({ app, page }) => {
  const errors = watchConsole(page);
  await signIn(page, app.authUrl, 'fr');

  // Open the sample once: it joins the recent analyses.
  await page.getByTestId(TID.homeSample).click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  await page.getByTestId(TID.navHome).click();
  const recent = page.getByTestId(TID.homeRecent);
  const sampleRow = recent.locator('tbody tr').filter({ hasText: home.fr['status.sample'] });
  await expect(sampleRow).toHaveCount(1);
  // The headline in French notation: "91,2 %".
  await expect(sampleRow.locator('td.num')).toHaveText(/^\d+,\d\s%/);

  const path = page.getByTestId(TID.homeOpenPath);
  const error = page.getByTestId(TID.homeOpenError);

  await page.getByTestId(TID.homeOpenSubmit).click();
  await expect(error).toHaveText(home.fr.pathEmpty);

  const missing = '/nonexistent/cacheproof/missing.capture';
  await path.fill(missing);
  await path.press('Enter');
  await expect(error).toContainText(home.fr.openFailed.replace('{what}', missing));
  await expect(error).toContainText(common.fr['err.capture-not-found']);
  await expect(path).toHaveAttribute('aria-invalid', 'true');
  await expect(path).toHaveValue(missing);

  const notCapture = join(repoRoot, 'package.json');
  await path.fill(notCapture);
  await page.getByTestId(TID.homeOpenSubmit).click();
  await expect(error).toContainText(common.fr['err.capture-not-sqlite']);
  await expect(sampleRow).toHaveCount(1);

  // Leaving Home and coming back keeps the typed path; a reload keeps the recent list.
  await page.getByTestId(TID.homeNew).click();
  await expect(page.getByTestId(TID.wizard)).toBeVisible();
  await page.getByTestId(TID.navHome).click();
  await expect(path).toHaveValue(notCapture);
  await page.reload();
  await expect(recent.locator('tbody tr').filter({ hasText: home.fr['status.sample'] })).toHaveCount(1);

  // And the listed analysis opens again from its row.
  await recent.locator('tbody tr').filter({ hasText: home.fr['status.sample'] }).getByRole('button').click();
  await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
  expect(errors).toEqual([]);
});

test('a large capture shows where its opening is, in French, and Stop cancels it; it opens after', async ({ app, page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  // 2 × 24 h of 16 devices at 1 s (2.8 million intervals, no interval blocks: the rows are read):
  // 1.5–3 s of opening on this machine, time to see the progress and press Stop (2 × 8 h opened
  // in about 0.6 s once the hash no longer held the open's reply, sometimes before Stop was pressed)
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-e2e-progress-'));
  try {
    const big = join(dir, 'gros.capture');
    writeSyntheticCapture({ path: big, windowSeconds: 24 * 3600, warmupSeconds: 600, intervalMs: 1000, backingDevices: 14, extraDevices: 1, missShare: 0.1 });
    await signIn(page, app.authUrl, 'fr');
    const path = page.getByTestId(TID.homeOpenPath);
    await path.fill(big);
    await page.getByTestId(TID.homeOpenSubmit).click();
    const progress = page.getByTestId(TID.openProgress);
    await expect(progress).toBeVisible({ timeout: 20_000 });
    await expect(progress).toHaveAttribute('data-stage', /^(read|analyze)$/);
    // French numbers: a narrow no-break space before % and between thousands (\s matches it)
    await expect(progress).toContainText(/Lecture de .*gros\.capture\s:\s\d+\s%\sd’environ\s[\d\s]+\sintervalles…|Analyse de .*gros\.capture/u);
    await page.getByTestId(TID.openCancel).click();
    const error = page.getByTestId(TID.homeOpenError);
    await expect(error).toContainText(common.fr['err.analysis-cancelled']);
    await expect(progress).toHaveCount(0);
    // the next open starts again and reaches the dashboard
    await page.getByTestId(TID.homeOpenSubmit).click();
    await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible({ timeout: 120_000 });
    expect(errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the wizard refuses to go on with no device chosen, says why in French, and keeps every choice', async ({ app, page }) => {
  const absent = probeAbsent();
  test.skip(skipped('the wizard refuses no device (e2e)', absent), `SKIP: ${absent ?? ''}: the Devices step can only show the probe-missing error`);
  const errors = watchConsole(page);
  await signIn(page, app.authUrl, 'fr');
  await page.getByTestId(TID.homeNew).click();

  const step = page.getByTestId(TID.wizardStep);
  const next = page.getByTestId(TID.wizardNext);
  const why = page.getByTestId(TID.wizardNextWhy);
  await expect(step).toHaveAttribute('data-step', 'devices');
  const table = page.getByTestId(TID.wizDevices);
  await expect(table).toBeVisible();

  // Nothing chosen: Next is disabled and the reason is written beside it, tied to it.
  await expect(page.getByTestId(TID.wizFrontNone)).toBeChecked();
  await expect(next).toBeDisabled();
  await expect(why).toHaveText(common.fr['err.no-devices-chosen']);
  await expect(next).toHaveAttribute('aria-describedby', 'wiz-next-why');

  // Choose a front device: Next opens.
  const firstFront = table.locator('input[type="radio"]').first();
  const frontName = await firstFront.getAttribute('value');
  await firstFront.check();
  await expect(next).toBeEnabled();
  await expect(why).toBeHidden();
  await expect(page.getByTestId(TID.wizChosen)).toContainText(`${frontName}`);
  // The front device cannot also be a backing device.
  await expect(table.locator(`input[type="checkbox"][value="${frontName}"]`)).toBeDisabled();
  await next.click();
  await expect(step).toHaveAttribute('data-step', 'engine');
  await next.click();
  await expect(step).toHaveAttribute('data-step', 'plan');

  // A bad duration: marked on its field, explained beside it, Next closed.
  const measure = page.getByTestId(`${TID.wizDuration}-measure`);
  await measure.fill('abc');
  await expect(measure).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#wiz-measure-error')).toHaveText(wizard.fr['dur.not-a-number']);
  await expect(measure).toHaveAttribute('aria-describedby', /wiz-measure-error/);
  await expect(next).toBeDisabled();
  await expect(why).toHaveText(wizard.fr['plan.fix']);

  // A trial plan in seconds, with a decimal comma.
  await page.getByTestId(`${TID.wizDuration}-baseline`).fill('0,5');
  await page.getByTestId(`${TID.wizDuration}-baseline-unit`).selectOption('min');
  await page.getByTestId(`${TID.wizDuration}-warmup`).fill('5');
  await page.getByTestId(`${TID.wizDuration}-warmup-unit`).selectOption('s');
  await measure.fill('20');
  await page.getByTestId(`${TID.wizDuration}-measure-unit`).selectOption('s');
  await page.getByTestId(TID.wizInterval).selectOption('1000');
  await expect(measure).not.toHaveAttribute('aria-invalid', 'true');
  // 56 samples of 1 device: 45,056 + 56 × (82 + 165) = 58,888 bytes, "59 ko" in French units.
  await expect(page.getByTestId(TID.wizEstimate)).toContainText(/environ 59\sko \(échantillons : 56 ; périphériques : 1\)/);
  await expect(next).toBeEnabled();
  await next.click();

  await expect(step).toHaveAttribute('data-step', 'review');
  const summary = page.getByTestId(TID.wizSummary);
  await expect(summary).toContainText(`CacheProof mesurera ${frontName} (frontal) à intervalles de 1 seconde : 30 secondes cache désactivé`);
  await expect(summary).toContainText('ignorera 5 secondes de préchauffage, puis mesurera 20 secondes cache activé.');

  // Back keeps the plan; a reload keeps the draft.
  await page.getByTestId(TID.wizardBack).click();
  await expect(step).toHaveAttribute('data-step', 'plan');
  await expect(page.getByTestId(`${TID.wizDuration}-baseline`)).toHaveValue('0,5');
  await page.reload();
  await expect(page.getByTestId(`${TID.wizDuration}-measure`)).toHaveValue('20');
  await expect(page.getByTestId(TID.wizInterval)).toHaveValue('1000');

  // Going straight to Review with the device unchosen says what is missing and where to fix it.
  await page.goto(`${app.origin}/#/new/devices`);
  await page.getByTestId(TID.wizFrontNone).check();
  await page.goto(`${app.origin}/#/new/review`);
  const problems = page.getByTestId(TID.wizProblems);
  await expect(problems).toContainText(common.fr['err.no-devices-chosen']);
  await expect(next).toBeDisabled();
  await problems.getByRole('button', { name: wizard.fr['rev.goto.devices'] }).click();
  await expect(step).toHaveAttribute('data-step', 'devices');
  expect(errors).toEqual([]);
});

test('Start launches the probe detached with the plan and opens the run’s Live screen', async ({ app, page }) => {
  const why = probeAbsent() ?? (process.getuid?.() !== 0 ? 'recording disk counters through the app needs root here' : null);
  test.skip(skipped('the wizard starts a run (e2e)', why), `SKIP: ${why ?? ''}`);
  await signIn(page, app.authUrl, 'en');
  await page.getByTestId(TID.homeNew).click();
  const table = page.getByTestId(TID.wizDevices);
  await expect(table).toBeVisible();
  // The machine's own disk if listed (other specs' lab loop devices come and go), else the first device.
  const names = await table.locator('input[type="checkbox"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  const device = names.includes('vda') ? 'vda' : names.includes('sda') ? 'sda' : names[0];
  expect(device, 'the probe lists at least one device').toBeDefined();
  await table.locator(`input[type="checkbox"][value="${device}"]`).check();
  await page.getByTestId(TID.wizardNext).click();
  await page.getByTestId(TID.wizardNext).click();
  for (const [field, text] of [['baseline', '3'], ['warmup', '0'], ['measure', '2']] as const) {
    await page.getByTestId(`${TID.wizDuration}-${field}`).fill(text);
    await page.getByTestId(`${TID.wizDuration}-${field}-unit`).selectOption('s');
  }
  await page.getByTestId(TID.wizInterval).selectOption('1000');
  await page.getByTestId(TID.wizardNext).click();
  await expect(page.getByTestId(TID.wizSummary)).toContainText(`CacheProof will measure ${device} (backing) every 1 second: 3 seconds with the cache off`);
  const name = `e2e wizard run ${Date.now()}`;
  await page.getByTestId(TID.wizName).fill(name);
  await page.getByTestId(TID.wizardNext).click();

  await expect(page).toHaveURL(/#\/run\/r-[0-9-]+-[0-9a-f]+$/, { timeout: 30_000 });
  const runId = decodeURIComponent(new URL(page.url()).hash.replace('#/run/', ''));
  try {
    // The host knows the run under the plan the wizard sent.
    const status = await page.evaluate(async (id) => {
      const r = await fetch('/api/run.status', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify({ runId: id }) });
      return (await r.json()) as { ok: boolean; value?: { name: string; plan: { backing: string[]; front: string | null; baselineSeconds: number; warmupSeconds: number; measureSeconds: number; intervalMs: number } } };
    }, runId);
    expect(status.ok).toBe(true);
    expect(status.value?.name).toBe(name);
    expect(status.value?.plan).toMatchObject({ front: null, backing: [device], baselineSeconds: 3, warmupSeconds: 0, measureSeconds: 2, intervalMs: 1000 });
    // Home lists it.
    await page.getByTestId(TID.navHome).click();
    await expect(page.getByTestId(TID.homeRecent).locator('tbody tr').filter({ hasText: name })).toHaveCount(1);
  } finally {
    await page.evaluate(async (id) => {
      await fetch('/api/run.stop', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify({ runId: id }) });
    }, runId);
  }
});

test('custom latency targets: each field says what is wrong in French, a decimal comma is read as such, and the run’s plan carries them', async ({ app, page }) => {
  const why = probeAbsent() ?? (process.getuid?.() !== 0 ? 'recording disk counters through the app needs root here' : null);
  test.skip(skipped('the wizard starts a run (e2e)', why), `SKIP: ${why ?? ''}`);
  const errors = watchConsole(page);
  const fr = wizard.fr;
  await signIn(page, app.authUrl, 'fr');
  await page.getByTestId(TID.homeNew).click();
  const table = page.getByTestId(TID.wizDevices);
  await expect(table).toBeVisible();
  const names = await table.locator('input[type="checkbox"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  const device = names.includes('vda') ? 'vda' : names.includes('sda') ? 'sda' : names[0];
  await table.locator(`input[type="checkbox"][value="${device}"]`).check();
  await page.getByTestId(TID.wizardNext).click();
  await page.getByTestId(TID.wizardNext).click();
  for (const [field, text] of [['baseline', '3'], ['warmup', '0'], ['measure', '2']] as const) {
    await page.getByTestId(`${TID.wizDuration}-${field}`).fill(text);
    await page.getByTestId(`${TID.wizDuration}-${field}-unit`).selectOption('s');
  }
  const box = page.getByTestId(TID.wizCustomTargets);
  await expect(box).toBeHidden();
  await page.getByTestId(TID.wizTargets).selectOption('custom');
  await expect(box).toBeVisible();
  const field = (name: 'read' | 'write' | 'warn') => page.getByTestId(`${TID.wizCustomTargets}-${name}`);
  const errorOf = (name: 'read' | 'write' | 'warn') => page.locator(`#wiz-custom-${name}-error`);
  await field('read').fill('dix');
  await expect(errorOf('read')).toHaveText(fr['custom.err.not-a-number']);
  await expect(field('read')).toHaveAttribute('aria-invalid', 'true');
  await field('read').fill('0');
  await expect(errorOf('read')).toHaveText(fr['custom.err.range'].replace('{max}', new Intl.NumberFormat('fr-FR').format(60000)));
  await field('read').fill('12,5');
  await expect(errorOf('read')).toHaveText('');
  await field('write').fill('');
  await expect(errorOf('write')).toHaveText(fr['custom.err.empty']);
  await field('write').fill('5');
  await field('warn').fill('6');
  await expect(errorOf('warn')).toHaveText(fr['custom.err.warn-above']);
  // Next is refused while a field is wrong, with the step's sentence
  await expect(page.getByTestId(TID.wizardNext)).toBeDisabled();
  await expect(page.getByTestId(TID.wizard)).toContainText(fr['rev.badTargets']);
  await field('warn').fill('4');
  await expect(errorOf('warn')).toHaveText('');
  const axe = await new AxeBuilder({ page }).include(`[data-testid="${TID.wizCustomTargets}"]`).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByTestId(TID.wizardNext).click();
  await expect(page.getByTestId(TID.wizSummary)).toContainText('lectures sous 12,5 ms, écritures sous 5 ms, une alerte à partir de 4 ms');
  await page.getByTestId(TID.wizName).fill(`e2e custom targets ${Date.now()}`);
  await page.getByTestId(TID.wizardNext).click();
  await expect(page).toHaveURL(/#\/run\/r-[0-9-]+-[0-9a-f]+$/, { timeout: 30_000 });
  const runId = decodeURIComponent(new URL(page.url()).hash.replace('#/run/', ''));
  try {
    const status = await page.evaluate(async (id) => {
      const r = await fetch('/api/run.status', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify({ runId: id }) });
      return (await r.json()) as { ok: boolean; value?: { plan: { targets: string; customTargets?: unknown } } };
    }, runId);
    expect(status.value?.plan.targets).toBe('custom');
    expect(status.value?.plan.customTargets).toEqual({ readMs: 12.5, writeMs: 5, warnMs: 4 });
  } finally {
    await page.evaluate(async (id) => {
      await fetch('/api/run.stop', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify({ runId: id }) });
    }, runId);
  }
  expect(errors).toEqual([]);
});
