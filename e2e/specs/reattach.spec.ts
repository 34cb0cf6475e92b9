/**
 * Runs outlive the window: a run started from the app keeps recording when the window closes
 * and the host process exits; the reopened app finds it on Home, re-attaches, and sees it
 * finish. And when the probe dies (SIGKILL), the Live screen says what happened and what to do
 * next in the person's language, nothing recorded is lost, and Resume continues the run.
 *
 * These runs record a real block device of this machine (reading /proc/diskstats needs no root)
 * with the real probe; no lab is needed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, startApp, watchConsole, repoRoot } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import type { DeviceEntry, RunPlan, RunStatus } from '../../app/src/shared/contract.ts';

const probe = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');

/** A contract call from the page, exactly as the renderer's HTTP client makes it. */
async function api<T>(page: Page, channel: string, body: unknown): Promise<T> {
  const r = await page.evaluate(async ([c, b]) => {
    const res = await fetch(`/api/${c}`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify(b) });
    return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  }, [channel, body] as const);
  if (!r.ok) throw new Error(`${channel}: ${r.error?.code}: ${r.error?.message}`);
  return r.value as T;
}

/** Signs in; the app lands on Home. */
async function signIn(page: Page, authUrl: string): Promise<void> {
  await page.goto(authUrl);
  await expect(page.getByTestId(TID.home)).toBeVisible();
}

async function someDisk(page: Page): Promise<string> {
  const { devices } = await api<{ devices: DeviceEntry[] }>(page, 'devices.list', {});
  const d = devices.find((x) => !x.isPartition && x.kind !== 'loop' && (x.sizeBytes ?? 0) > 0) ?? devices[0];
  if (!d) throw new Error('no block device to record on this machine');
  return d.name;
}

function plan(name: string, disk: string, over: Partial<RunPlan> = {}): RunPlan {
  return { name, front: null, backing: [disk], baselineSeconds: 8, warmupSeconds: 1, measureSeconds: 4, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic', ...over };
}

test.describe('runs outlive the window', () => {
  const why = probeAbsent();
  test.skip(skipped('runs outlive the window (e2e)', why), `SKIP: ${why ?? ''}`);
  test.setTimeout(120_000);

  let dataDir = '';
  test.beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cacheproof-reattach-'));
  });
  test.afterAll(() => {
    // Stop any recorder a failed test left behind, then remove its captures.
    const runs = join(dataDir, 'runs');
    for (const f of existsSync(runs) ? readdirSync(runs) : []) {
      if (f.endsWith('.capture')) spawnSync(probe, ['stop', join(runs, f)], { stdio: 'ignore' });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('closing the window and the host mid-run, then reopening, re-attaches and sees the run finish', async ({ browser }, testInfo) => {
    let host = await startApp([], { CACHEPROOF_DATA_DIR: dataDir });
    let runId = '';
    try {
      const ctx1 = await browser.newContext();
      const page1 = await ctx1.newPage();
      const errors1 = watchConsole(page1);
      await signIn(page1, host.authUrl);
      const started = await api<RunStatus>(page1, 'run.start', { plan: plan('Re-attach check', await someDisk(page1)) });
      runId = started.id;
      await page1.goto(`${host.origin}/#/run/${runId}`);
      const live1 = page1.getByTestId(TID.live);
      await expect(live1).toHaveAttribute('data-state', 'running');
      await expect(page1.getByTestId(TID.liveTitle)).toHaveText('Run: Re-attach check');
      await expect(page1.getByTestId(TID.liveSamples)).toHaveText(/^[2-9] samples|^\d\d+ samples/);
      expect(errors1).toEqual([]);
      // The person closes the window, and the app's host process ends with it.
      await ctx1.close();
      await host.stop();
      // The probe keeps recording without any app.
      const st = JSON.parse(execFileSync(probe, ['status', started.captureFile, '--json'], { encoding: 'utf8' })) as { state: string; recorderAlive: boolean };
      expect(st).toMatchObject({ state: 'running', recorderAlive: true });

      host = await startApp([], { CACHEPROOF_DATA_DIR: dataDir });
      const page = await (await browser.newContext()).newPage();
      const errors = watchConsole(page);
      await signIn(page, host.authUrl);
      // Home lists the run, still recording, and opens its Live screen.
      const row = page.getByTestId(TID.homeRecent).locator(`tr[data-key="run:${runId}"]`);
      await expect(row).toContainText('Re-attach check');
      await expect(row).toContainText(/Recording|Waiting/i);
      await row.getByRole('button').click();
      await expect(page).toHaveURL(new RegExp(`#/run/${runId}$`));
      const live = page.getByTestId(TID.live);
      await expect(live).toHaveAttribute('data-state', /running|waiting-switch/);
      await expect(page.getByTestId(TID.liveConfirmSwitch)).toBeVisible({ timeout: 20_000 });
      // Accessible as it stands when the person is called to act (WCAG 2 A/AA rules of axe).
      const axe = await new AxeBuilder({ page }).include(`[data-testid="${TID.live}"]`).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      const shot = testInfo.outputPath('live-waiting-switch.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('live-waiting-switch', { path: shot, contentType: 'image/png' });
      await page.getByTestId(TID.liveConfirmSwitch).click();
      await expect(page.getByTestId(TID.liveSwitchRecorded)).toHaveText(/^Switch recorded at /);
      await expect(live).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(page.getByTestId(TID.liveProgressTotal).locator('progress')).toHaveJSProperty('value', 100);
      await expect(page.getByTestId(TID.liveProgressTotal).locator('.progress-text')).toHaveText(/100\.0%/);
      expect(errors).toEqual([]);
    } finally {
      await host.stop();
    }
  });

  test('a probe killed mid-run shows what happened and what to do next in French, keeps every sample, and resumes', async ({ browser }, testInfo) => {
    const host = await startApp([], { CACHEPROOF_DATA_DIR: dataDir });
    try {
      const page = await (await browser.newContext()).newPage();
      const errors = watchConsole(page);
      await signIn(page, host.authUrl);
      await page.getByTestId(TID.langSelect).selectOption('fr');
      const started = await api<RunStatus>(page, 'run.start', { plan: plan('Sonde tuée', await someDisk(page), { baselineSeconds: 600 }) });
      await page.goto(`${host.origin}/#/run/${started.id}`);
      const live = page.getByTestId(TID.live);
      await expect(live).toHaveAttribute('data-state', 'running');
      await expect(page.getByTestId(TID.liveState)).toHaveText('Enregistrement');
      await expect(page.getByTestId(TID.liveSamples)).toHaveText(/^[3-9] échantillons|^\d\d+ échantillons/);

      // kill -9 the recorder (its pid from `status`), as a crash would.
      const st = JSON.parse(execFileSync(probe, ['status', started.captureFile, '--json'], { encoding: 'utf8' })) as { pid: string; samples: number };
      process.kill(Number(st.pid), 'SIGKILL');
      await expect(live).toHaveAttribute('data-state', 'probe-died', { timeout: 10_000 });
      const problem = page.getByTestId(TID.liveProblem);
      await expect(problem).toBeVisible();
      await expect(problem.locator('h3')).toHaveText('L’enregistreur s’est arrêté de façon inattendue');
      await expect(problem.locator('.what')).toContainText(`sont en sécurité dans ${started.captureFile}`);
      await expect(problem.locator('.next')).toHaveText(/^Que faire : reprenez l’enregistrement\./);
      await expect(problem.locator('.cli')).toHaveText(`Depuis un terminal : cacheproof-probe record --resume ${started.captureFile}`);
      await expect(page.getByTestId(TID.liveState)).toHaveText('Enregistreur arrêté de façon inattendue');
      // Nothing recorded is lost: the samples the screen reports are in the capture.
      const after = JSON.parse(execFileSync(probe, ['status', started.captureFile, '--json'], { encoding: 'utf8' })) as { state: string; samples: number };
      expect(after.state).toBe('stale');
      expect(after.samples).toBeGreaterThanOrEqual(st.samples);
      await expect(problem.locator('.what')).toContainText(`Les ${after.samples} échantillons déjà enregistrés`);
      const shot = testInfo.outputPath('live-probe-died-fr.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('live-probe-died-fr', { path: shot, contentType: 'image/png' });

      // What to do next, done from the screen: resume; the run records again and says so.
      await page.getByTestId(TID.liveResume).click();
      await expect(live).toHaveAttribute('data-state', 'running');
      await expect(problem).toBeHidden();
      await expect(page.getByTestId(TID.liveWarnings).locator('li[data-code="resumed"]')).toHaveCount(1);

      // Stop asks first: cancelling keeps recording; confirming stops, keyboard only.
      await page.getByTestId(TID.liveStop).click();
      const dialog = page.getByTestId(TID.liveStopDialog);
      await expect(dialog).toBeVisible();
      await expect(page.getByTestId(TID.liveStopCancel)).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(live).toHaveAttribute('data-state', 'running');
      await page.getByTestId(TID.liveStop).focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(page.getByTestId(TID.liveStopConfirm)).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(live).toHaveAttribute('data-state', 'stopped', { timeout: 20_000 });
      await expect(problem.locator('h3')).toHaveText('La mesure a été arrêtée');
      const stopped = JSON.parse(execFileSync(probe, ['status', started.captureFile, '--json'], { encoding: 'utf8' })) as { state: string; samples: number };
      expect(stopped.state).toBe('stopped');
      expect(stopped.samples).toBeGreaterThan(after.samples);

      // Detach goes Home and leaves runs alone.
      await page.getByTestId(TID.liveDetach).click();
      await expect(page).toHaveURL(/#\/home$/);
      expect(errors).toEqual([]);
    } finally {
      await host.stop();
    }
  });
});
