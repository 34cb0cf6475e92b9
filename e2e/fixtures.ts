/**
 * Fixtures: a CacheProof browser host started exactly as a person would (`npm start -- --no-open`),
 * with its sign-in URL read from a private file, and a page that fails the test on console errors.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSyntheticCapture } from '../test/support/synthetic-capture.ts';
import { waitFor } from '../test/support/testenv.ts';
import { TID } from '../app/src/shared/testids.ts';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface AppHost {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The sign-in URL (contains the token). */
  authUrl: string;
  token: string;
  process: ChildProcess;
  output: () => string;
}

export async function startApp(extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<AppHost & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-e2e-'));
  const urlFile = join(dir, 'url');
  let out = '';
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs'), '--no-open', '--url-file', urlFile, ...extraArgs], {
    cwd: repoRoot,
    env: { ...process.env, CACHEPROOF_DATA_DIR: join(dir, 'data'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  let authUrl: string;
  try {
    authUrl = await waitFor('the browser host to start (its sign-in URL in the URL file)', 240_000, () => {
      if (child.exitCode !== null) throw new Error(`npm start exited early (${child.exitCode}):\n${out}`);
      return existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() || undefined : undefined;
    }, () => `its output so far: ${out.slice(-1000)}`, 200);
  } catch (e) {
    // a host that did not start in time is not left running (or building) after the test
    await endProcess(child, 'npm start', false);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const u = new URL(authUrl);
  return {
    origin: u.origin,
    port: Number(u.port),
    authUrl,
    token: u.searchParams.get('token') ?? '',
    process: child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The canvas pixels a chart has drawn (alpha > 0) in the chart box of `testId`: 0 when it drew nothing. */
export async function inkedPixels(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).locator('canvas').evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return 0;
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n++;
    return n;
  });
}

/**
 * Waits until the Export screen's report preview shows what was last asked for: a change of form,
 * language or TCO replaces the frame's document after a pause, and a read between reads the old one.
 */
export async function previewSettled(page: Page): Promise<void> {
  await expect(page.getByTestId(TID.exportPreview)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

/** axe's serious and critical WCAG 2 A/AA violations on the page (sandboxed report previews left out), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).exclude('iframe[sandbox]:not([sandbox~="allow-scripts"])').withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Collects console errors and page errors; a spec asserts the list is empty. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export const test = base.extend<object, { app: AppHost }>({
  app: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const app = await startApp();
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});

/** The bundled sample capture. */
export const SAMPLE = join(repoRoot, 'samples', 'lab', 'lab-sample.capture');

/**
 * A browser host whose "sample" is the bundled lab capture, or, in a checkout without it, a
 * generated one (`capture` names the file the app opens, so a spec can run the CLI on the same one).
 */
export const sampleTest = base.extend<object, { app: AppHost; capture: string }>({
  capture: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      if (existsSync(SAMPLE)) {
        await use(SAMPLE);
        return;
      }
      const dir = mkdtempSync(join(tmpdir(), 'cacheproof-sample-'));
      const path = join(dir, 'synthetic.capture');
      writeSyntheticCapture({ path, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 1000, backingDevices: 2, missShare: 0.05 });
      await use(path);
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  app: [
    async ({ capture }, use) => {
      const app = await startApp(capture === SAMPLE ? [] : ['--sample', capture]);
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});

export { expect };

/**
 * Ends `child`: SIGTERM (to its process group when `group`, for a process spawned with
 * `detached: true`, so that its children go too), then waits for it to exit; if it has not after
 * `graceMs`, SIGKILL and waits again. Resolves with null, or with the sentence saying it had to
 * be killed, for the caller to fail with once its other teardown is done.
 */
export async function endProcess(child: ChildProcess, what: string, group = true, graceMs = 10_000): Promise<string | null> {
  const pid = child.pid;
  const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
  if (pid === undefined || ended()) return null;
  const exited = new Promise((r) => child.once('exit', r));
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(group ? -pid : pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  try {
    await waitFor(`${what} to exit after SIGTERM`, graceMs, () => (ended() ? true : undefined));
    return null;
  } catch (e) {
    signal('SIGKILL');
    await exited;
    return `${(e as Error).message}: killed with SIGKILL`;
  }
}
