/**
 * An unattended guided analysis on the loop-device lab (root, fio, losetup), switched by the
 * probe's `loop-dio` adapter: Home → New analysis → the lab's front and backing devices → the
 * cache-engine step lists the lab's engine (`engine detect`), refuses bad settings in one
 * sentence (a command config with a shell string, a missing program, a device the engine does not
 * have, a device outside the analysis), shows the dry run (`run losetup --direct-io=off
 * /dev/loopN`) → a short plan (20 s baseline, 5 s warm-up, 20 s measure) → Start. Nobody
 * switches anything: the Live screen shows the engine and its last action, the run completes, and
 * the dashboard shows the engine-statistics comparison (loop-dio keeps no hit counters: the
 * counters' share beside "the engine keeps no such counters"), the adapter's actions, with the
 * figures of `cacheproof analyze --json`. The engine is restored (direct I/O again) and the lab
 * torn down even when the test fails.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, startApp, watchConsole, repoRoot, endProcess } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

const probe = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');
const cli = join(repoRoot, 'app', 'dist', 'cli.cjs');
const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const why =
  process.getuid?.() !== 0 ? 'the lab needs root (loop devices, mount)'
  : !has('fio') ? 'fio is not installed (apt-get install fio)'
  : !has('losetup') ? 'losetup is not installed (util-linux)'
  : probeAbsent();

/** `en` percent as the dashboard prints it: 99.4%. */
const pct = (v: number): string => new Intl.NumberFormat('en-GB', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v / 100);

interface Share { enginePercent: number | null; countersPercent: number | null; exceeds: boolean; reasons: Record<string, string> }
interface Comparison {
  adapter: string; device: string; shares: { reads: Share; writes: Share; all: Share };
  actions: { action: string; step: string; ok: boolean; modeBefore: string | null; modeAfter: string | null }[];
}

test.describe('unattended analysis switched by the loop-dio adapter', () => {
  test.skip(skipped('the engine lab (e2e)', why), `SKIP: ${why ?? ''}`);
  test.setTimeout(200_000);

  let work = '';
  let labDir = '';
  let dataDir = '';
  let workload: ChildProcess | null = null;

  test.beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cacheproof-e2e-engine-lab-'));
    labDir = join(work, 'lab');
    dataDir = join(work, 'data');
  });

  test.afterAll(async () => {
    if (work === '') return;
    const stuck = workload === null ? null : await endProcess(workload, 'the lab workload');
    const runs = join(dataDir, 'runs');
    for (const f of existsSync(runs) ? readdirSync(runs) : []) {
      if (f.endsWith('.capture')) spawnSync(probe, ['stop', join(runs, f)], { stdio: 'ignore' });
    }
    // the engine back in direct I/O whatever happened (the recorder restores it when the plan completes)
    spawnSync(probe, ['lab', 'switch', 'off', '--dir', labDir], { stdio: 'ignore' });
    const down = spawnSync(probe, ['lab', 'down', '--dir', labDir], { encoding: 'utf8' });
    rmSync(work, { recursive: true, force: true });
    if (down.status !== 0) throw new Error(`lab down failed: ${down.stderr}`);
    if (stuck !== null) throw new Error(stuck);
  });

  test('wizard with the detected engine and its dry run → scheduled switch and restore → dashboard with the engine statistics of `cacheproof analyze --json`', async ({ browser }, testInfo) => {
    execFileSync(probe, ['lab', 'up', '--dir', labDir, '--size-mb', '64'], { stdio: 'pipe' });
    const lab = JSON.parse(execFileSync(probe, ['lab', 'status', '--dir', labDir, '--json'], { encoding: 'utf8' })) as { frontDevice: string; backingDevice: string; directIo: boolean };
    expect(lab.directIo).toBe(true);
    const front = lab.frontDevice.replace(/^\/dev\//, '');
    const backing = lab.backingDevice.replace(/^\/dev\//, '');
    workload = spawn(probe, ['lab', 'workload', '--dir', labDir, '--seconds', '150', '--hot-mb', '4', '--read-iops', '1500', '--read-only'], { detached: true, stdio: 'ignore' });
    // bad command-adapter configs, as a person might write them
    const shellConfig = join(work, 'shell.json');
    writeFileSync(shellConfig, JSON.stringify({ enable: 'cachectl --on && sync', disable: ['/bin/true'], status: ['/bin/true'], devices: [front] }));
    const frontOnlyConfig = join(work, 'front-only.json');
    writeFileSync(frontOnlyConfig, JSON.stringify({ enable: ['/bin/echo', 'on'], disable: ['/bin/echo', 'off'], status: ['/bin/echo', 'mode: off'], devices: [front] }));
    const missingConfig = join(work, 'missing.json');
    writeFileSync(missingConfig, JSON.stringify({ enable: ['/nonexistent/cachectl', 'on'], disable: ['/nonexistent/cachectl', 'off'], status: ['/nonexistent/cachectl', 'status'], devices: [front] }));

    const host = await startApp([], { CACHEPROOF_DATA_DIR: dataDir });
    try {
      const page = await (await browser.newContext()).newPage();
      const errors = watchConsole(page);
      await page.goto(host.authUrl);
      await page.getByTestId(TID.homeNew).click();
      await expect(page.getByTestId(TID.wizardStep)).toHaveAttribute('data-step', 'devices');
      await page.getByTestId(`${TID.wizDeviceRow}-${front}`).locator('input[type="radio"]').check();
      await page.getByTestId(`${TID.wizDeviceRow}-${backing}`).locator('input[type="checkbox"]').check();
      await page.getByTestId(TID.wizardNext).click();

      // 2 Cache engine: the lab's engine is detected; the adapter way picks the one on the front device and shows its dry run.
      await expect(page.getByTestId(TID.wizardStep)).toHaveAttribute('data-step', 'engine');
      const row = page.getByTestId(`${TID.wizEngineRow}-loop-dio-${front}`);
      await expect(row).toContainText('direct-io');
      await expect(row).toContainText('yes'); // measured
      await page.getByTestId(TID.wizEngineAdapter).check();
      await expect(row.locator('input[type="radio"]')).toBeChecked();
      const plan = page.getByTestId(TID.wizEnginePlan);
      await expect(page.getByTestId(TID.wizEnginePlanMode)).toHaveText(`loop-dio ${front} is in mode direct-io now.`);
      await expect(plan.locator('li[data-action="enable"]')).toHaveText(`When the baseline ends it switches the engine on (to page-cache): run losetup --direct-io=off /dev/${front}.`);
      await expect(plan.locator('li[data-action="restore"]')).toContainText('(to direct-io)');
      await expect(plan).toContainText('nothing was changed');
      await expect(page.getByTestId(TID.wizardNext)).toBeEnabled();

      // Bad input: one sentence each, the probe's own sentence under it, Next held back.
      const engineError = page.getByTestId(TID.wizEngineError);
      const device = page.getByTestId(TID.wizEngineDevice);
      // loop-dio on a device that is not measured: refused before the probe is asked
      await device.fill('loop9999');
      await expect(engineError.locator('.err-what')).toHaveText(/^The chosen device is not one of this engine’s devices here, or is not one of the devices measured/);
      await expect(engineError.locator('.err-detail')).toHaveText(`loop9999 is not one of the measured devices (${front}, ${backing}).`);
      await expect(page.getByTestId(TID.wizardNext)).toBeDisabled();
      // the command adapter on a device its config does not serve: the probe's own refusal
      await page.getByTestId(TID.wizEngineAdapterName).selectOption('command');
      await page.getByTestId(TID.wizEngineConfig).fill(frontOnlyConfig);
      await device.fill(backing);
      await page.getByTestId(TID.wizEnginePlanButton).click();
      await expect(engineError.locator('.err-what')).toHaveText(/^The chosen device is not one of this engine’s devices here/);
      await expect(engineError.locator('.err-detail')).toContainText(`${backing} is not one of the devices the command adapter's config serves (${front})`);
      await expect(page.getByTestId(TID.wizardNext)).toBeDisabled();
      await device.fill(front);
      await page.getByTestId(TID.wizEngineConfig).fill(shellConfig);
      await page.getByTestId(TID.wizEnginePlanButton).click();
      await expect(engineError.locator('.err-what')).toHaveText(/^The adapter’s config file gives a command as a shell string/);
      await expect(engineError.locator('.err-detail')).toContainText("field 'enable' is a shell string");
      await expect(page.getByTestId(TID.wizardNextWhy)).toHaveText(/shell string/);
      await page.getByTestId(TID.wizEngineConfig).fill(missingConfig);
      await page.getByTestId(TID.wizEnginePlanButton).click();
      await expect(engineError.locator('.err-what')).toHaveText(/^A program the adapter runs is not installed on this machine/);
      await expect(engineError.locator('.err-detail')).toContainText("cannot run '/nonexistent/cachectl': it is not installed");
      await expect(page.getByText('internal', { exact: false })).toHaveCount(0);

      // Back to the lab's engine: the dry run again, then on.
      await row.locator('input[type="radio"]').check();
      await expect(page.getByTestId(TID.wizEngineAdapterName)).toHaveValue('loop-dio');
      await expect(plan.locator('li[data-action="enable"]')).toContainText(`run losetup --direct-io=off /dev/${front}`);
      await expect(engineError).toBeHidden();
      await page.getByTestId(TID.wizardNext).click();

      // 3 Plan: 20 s / 5 s / 20 s, one sample a second.
      await expect(page.getByTestId(TID.wizardStep)).toHaveAttribute('data-step', 'plan');
      for (const [field, value] of [['baseline', '20'], ['warmup', '5'], ['measure', '20']] as const) {
        await page.getByTestId(`${TID.wizDuration}-${field}-unit`).selectOption('s');
        await page.getByTestId(`${TID.wizDuration}-${field}`).fill(value);
      }
      await page.getByTestId(TID.wizInterval).selectOption('1000');
      await page.getByTestId(TID.wizardNext).click();
      await expect(page.getByTestId(TID.wizardStep)).toHaveAttribute('data-step', 'review');
      await expect(page.getByTestId(TID.wizard)).toContainText(`loop-dio on ${front}, switched by the probe when the baseline ends; restored to its original mode at the end`);
      await page.getByTestId(TID.wizName).fill('Lab engine run');
      await page.getByTestId(TID.wizardNext).click();

      // Live: the engine and its plan; nobody confirms anything.
      await expect(page).toHaveURL(/#\/run\/r-[0-9-a-f]+$/);
      const runId = decodeURIComponent(page.url().split('/').pop() ?? '');
      const live = page.getByTestId(TID.live);
      const liveEngine = page.getByTestId(TID.liveEngine);
      await expect(liveEngine).toContainText(`Cache engine: loop-dio on ${front}, mode direct-io. The probe switches it on when the baseline ends.`);
      await expect(page.getByTestId(TID.liveEngineAction)).toHaveText('No action yet.');
      // the switch, by the probe, at the baseline's end
      await expect(liveEngine).toHaveAttribute('data-switch', 'done', { timeout: 60_000 });
      await expect(page.getByTestId(TID.liveSwitchCta)).toBeHidden();
      await expect(liveEngine).toHaveAttribute('data-mode', 'page-cache');
      await expect(page.getByTestId(TID.liveEngineAction)).toHaveText(new RegExp(`^Last action: switch on at \\d\\d:\\d\\d:\\d\\d UTC: run losetup --direct-io=off /dev/${front} \\(done, direct-io → page-cache\\)\\.$`));
      await expect(live).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
      await expect(page.getByTestId(TID.liveEngineAction)).toHaveText(/^Last action: restore at .*\(done, page-cache → direct-io\)\.$/, { timeout: 15_000 });
      const shot = testInfo.outputPath('live-engine-done.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('live-engine-done', { path: shot, contentType: 'image/png' });
      // the lab's cache is off again: restored by the recorder
      const after = JSON.parse(execFileSync(probe, ['lab', 'status', '--dir', labDir, '--json'], { encoding: 'utf8' })) as { directIo: boolean };
      expect(after.directIo).toBe(true);

      // Results: the engine-statistics comparison of `cacheproof analyze --json`.
      await page.getByTestId(TID.liveOpenResults).click();
      await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
      const capture = join(dataDir, 'runs', `${runId}.capture`);
      const analysis = JSON.parse(execFileSync(process.execPath, [cli, 'analyze', capture, '--json'], { encoding: 'utf8' })) as {
        benefit: { iosSavedPercent: { value: number } }; cacheEngine: { comparison: Comparison | null };
      };
      const c = analysis.cacheEngine.comparison;
      expect(c?.adapter).toBe('loop-dio');
      expect(c?.device).toBe(front);
      expect(analysis.benefit.iosSavedPercent.value).toBeGreaterThan(80);
      expect(c?.actions.map((a) => [a.action, a.ok, a.modeBefore, a.modeAfter])).toEqual([['enable', true, 'direct-io', 'page-cache'], ['restore', true, 'page-cache', 'direct-io']]);
      const all = c?.shares.all as Share;
      expect(all.enginePercent).toBeNull();
      expect(all.reasons['enginePercent']).toBe('engine-has-no-counters');
      expect(all.countersPercent).not.toBeNull();
      const card = page.getByTestId(TID.cardEngineStats);
      await expect(card.locator('.value')).toHaveText(`engine not available · counters ${pct(all.countersPercent as number)}`);
      await expect(card).toContainText('the engine keeps no such counters');
      await expect(card).toContainText(`Adapter loop-dio on ${front}`);
      const shares = page.getByTestId(TID.dashEngineShares);
      await expect(shares.locator('tr[data-kind="reads"] td[data-field="counters"]')).toHaveText(pct(c?.shares.reads.countersPercent as number));
      await expect(page.getByTestId(TID.dashEngineCounters)).toContainText('loop-dio keeps none');
      const actions = page.getByTestId(TID.dashEngineActions);
      await expect(actions.locator('tr[data-action="enable"]')).toContainText(`run losetup --direct-io=off /dev/${front}`);
      await expect(actions.locator('tr[data-action="restore"]')).toContainText(`run losetup --direct-io=on /dev/${front}`);
      const dash = testInfo.outputPath('dashboard-engine.png');
      await page.getByTestId(TID.dashEngine).screenshot({ path: dash });
      await testInfo.attach('dashboard-engine', { path: dash, contentType: 'image/png' });
      expect(errors).toEqual([]);
    } finally {
      await host.stop();
    }
  });
});
