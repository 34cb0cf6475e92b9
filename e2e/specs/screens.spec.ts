/**
 * Every screen, in English and in French: a full-page screenshot (attached as
 * screens-<screen>-<lang>.png), a check that the French screen shows no English catalog
 * string, and an axe-core scan (WCAG 2 A and AA) that must find no serious or critical
 * violation.
 *
 * Every screen is also drawn once in the dark theme (English), screenshotted as
 * screens-<screen>-en-dark.png and scanned with axe the same way.
 *
 * The table SCREENS is the one place to add a screen: an id, how to reach it from a signed-in
 * page whose language (and theme) is already chosen, and when it is ready. The Live screen's
 * rows start a real run of the probe on a real block device of this machine (the app's own
 * `run.start`, as the wizard sends it) and stop it when the test ends, whatever happened; they
 * skip, saying why, when the probe is not built or the process is not root.
 *
 * The English strings come from the catalogs themselves (every `Catalog` exported by
 * app/src/shared/i18n/*.ts), so a new catalog is checked without touching this file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, repoRoot, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import type { DeviceEntry, RunPlan, RunStatus } from '../../app/src/shared/contract.ts';
import { live } from '../../app/src/shared/i18n/live.ts';
import { report } from '../../app/src/shared/i18n/report.ts';
import { FLEET_SWITCH, twoComputerPerfmonLog } from '../../test/support/fleet-log.ts';
import { probeAbsent, realdata, realdataAbsent, skipped } from '../../test/support/testenv.ts';

type Lang = 'en' | 'fr';

interface ScreenCase {
  /** Used in file names: screens-<id>-<lang>.png. */
  id: string;
  /** From a signed-in page (language already chosen) to the screen. */
  reach(page: Page, app: AppHost): Promise<void>;
  /** Resolves once the screen is drawn and settled. */
  ready(page: Page): Promise<void>;
  /** Why this screen cannot be drawn on this machine, or null when it can. */
  unavailable?: () => string | null;
}

const PROBE = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');

/** The Live rows need a real recorder: the built probe, and root (as the wizard's run spec). */
function liveUnavailable(): string | null {
  const probe = probeAbsent();
  if (probe !== null) return probe;
  if (process.getuid?.() !== 0) return 'recording disk counters through the app needs root here';
  return null;
}

/** A contract call from the page, exactly as the renderer's HTTP client makes it (session cookie + header). */
async function api<T>(page: Page, channel: string, body: unknown): Promise<T> {
  const r = await page.evaluate(async ([c, b]) => {
    const res = await fetch(`/api/${c}`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-cacheproof': '1' }, body: JSON.stringify(b) });
    return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  }, [channel, body] as const);
  if (!r.ok) throw new Error(`${channel}: ${r.error?.code}: ${r.error?.message}`);
  return r.value as T;
}

/**
 * Capture files of the runs the current test started. The test stops each one when it ends
 * (through the app, then with the probe itself in case the app could not), pass or fail.
 */
const startedRuns: { runId: string; capture: string }[] = [];

async function stopStartedRuns(page: Page): Promise<void> {
  for (const run of startedRuns.splice(0)) {
    try {
      await api<RunStatus>(page, 'run.stop', { runId: run.runId });
    } catch {
      // The page or the app is gone: the probe stops its own recorder from the capture.
    }
    spawnSync(PROBE, ['stop', run.capture], { stdio: 'ignore', timeout: 15_000 });
  }
}

/**
 * Starts a real run on this machine's disk (vda when listed, else the first whole non-loop
 * device) as a backing device, and opens its Live screen.
 */
async function startRun(page: Page, app: AppHost, over: Partial<RunPlan>): Promise<RunStatus> {
  const { devices } = await api<{ devices: DeviceEntry[] }>(page, 'devices.list', {});
  const disk = devices.find((d) => d.name === 'vda') ?? devices.find((d) => !d.isPartition && d.kind !== 'loop' && (d.sizeBytes ?? 0) > 0);
  if (!disk) throw new Error('the probe lists no whole block device to record on this machine');
  const plan: RunPlan = { name: 'Screens check', front: null, backing: [disk.name], baselineSeconds: 600, warmupSeconds: 1, measureSeconds: 600, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic', ...over };
  const run = await api<RunStatus>(page, 'run.start', { plan });
  startedRuns.push({ runId: run.id, capture: run.captureFile });
  await route(page, app, `run/${encodeURIComponent(run.id)}`);
  return run;
}

/** The Live screen shows the state and at least `samples` samples, with their points on the charts. */
async function liveReady(page: Page, state: RunStatus['state'], samples: number): Promise<void> {
  await expect(page.getByTestId(TID.live)).toHaveAttribute('data-state', state, { timeout: 20_000 });
  // "N samples, the last at …" / "N échantillons, …": the count comes first in both languages.
  await expect.poll(async () => Number.parseInt((await page.getByTestId(TID.liveSamples).textContent()) ?? '', 10) || 0, { timeout: 20_000 }).toBeGreaterThanOrEqual(samples);
  await expect(page.getByTestId(TID.liveWindowLabel)).not.toBeEmpty();
  // The charts hold those points: their summary gives the latest value instead of "no measurement".
  const lang = (await page.locator('html').getAttribute('lang')) === 'fr' ? 'fr' : 'en';
  await expect(page.getByTestId(`${TID.liveChartIops}-summary`)).not.toContainText(live[lang]['chart.noData']);
}

/** Goes to a route of the app (the hash without `#/`). */
async function route(page: Page, app: AppHost, r: string): Promise<void> {
  await page.goto(`${app.origin}/#/${r}`);
}

/** The wizard step is drawn and nothing on it is still loading. */
async function wizardReady(page: Page, step: string): Promise<void> {
  await expect(page.getByTestId(TID.wizardStep)).toHaveAttribute('data-step', step);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * Picks devices on the Devices step from the probe's real list: the first listed device as
 * the front device and the last as backing. A step without the list (the probe could not list
 * the devices) fails the test with what the step says instead.
 */
async function pickDevices(page: Page, app: AppHost): Promise<void> {
  await route(page, app, 'new/devices');
  await wizardReady(page, 'devices');
  const table = page.getByTestId(TID.wizDevices);
  if (!(await table.isVisible())) {
    const error = page.getByTestId(TID.wizError);
    const said = (await error.isVisible()) ? ((await error.textContent()) ?? '').trim() : 'neither the device list nor an error';
    throw new Error(`the Devices step has no device list to pick from; it shows: ${said}`);
  }
  const radios = table.locator('input[type="radio"]');
  await expect(radios.first(), 'the Devices step lists at least one device').toBeVisible();
  const boxes = table.locator('input[type="checkbox"]');
  await radios.first().check();
  if ((await boxes.count()) > 1) await boxes.last().check();
}

/** A real PerfMon log for the Import screen's preview. */
const REAL_PERFMON = realdata('perfmon_csv', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');

// The longest file by far (about half the e2e time): its screens are independent (each goes to its
// route on the worker's own app host), so both workers share them instead of one waiting at the end.
test.describe.configure({ mode: 'parallel' });

/** Folders the screens wrote (the fleet's log and capture), removed when the file's tests end. */
const madeDirs: string[] = [];
test.afterAll(() => {
  for (const d of madeDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SCREENS: ScreenCase[] = [
  {
    id: 'home',
    reach: (page, app) => route(page, app, 'home'),
    ready: async (page) => {
      await expect(page.getByTestId(TID.home)).toBeVisible();
      await expect(page.getByTestId(TID.homeRecent)).not.toHaveAttribute('aria-busy', 'true');
    },
  },
  {
    id: 'home-open-error',
    reach: async (page, app) => {
      await route(page, app, 'home');
      await page.getByTestId(TID.homeOpenPath).fill('/nonexistent/cacheproof/missing.capture');
      await page.getByTestId(TID.homeOpenPath).press('Enter');
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.homeOpenError)).toBeVisible();
      await expect(page.getByTestId(TID.homeRecent)).not.toHaveAttribute('aria-busy', 'true');
    },
  },
  {
    id: 'import',
    reach: (page, app) => route(page, app, 'import'),
    ready: async (page) => {
      await expect(page.getByTestId(TID.importScreen)).toBeVisible();
    },
  },
  {
    id: 'import-prometheus',
    reach: async (page, app) => {
      await route(page, app, 'import');
      await page.getByTestId(TID.importKind).selectOption('prometheus');
      await page.locator('.import-prom details').evaluate((d) => { (d as HTMLDetailsElement).open = true; });
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.importPromUrl)).toBeVisible();
    },
  },
  {
    // The fleet view of a capture of two computers (test/support/fleet-log.ts) imported by the probe.
    id: 'fleet',
    unavailable: probeAbsent,
    reach: async (page, app) => {
      const dir = mkdtempSync(join(tmpdir(), 'cacheproof-screens-fleet-'));
      madeDirs.push(dir);
      writeFileSync(join(dir, 'log.csv'), twoComputerPerfmonLog());
      const capture = join(dir, 'fleet.capture');
      spawnSync(PROBE, ['import', 'perfmon', join(dir, 'log.csv'), '--switch-at', new Date(FLEET_SWITCH).toISOString(), '--out', capture], { stdio: 'ignore' });
      await route(page, app, `fleet/${encodeURIComponent(capture)}`);
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.fleet)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    },
  },
  {
    // The preview of a real PerfMon log (../shared/realdata) with a switch time.
    id: 'import-preview',
    // a failure in CI (test/support/testenv.ts), a skip with the reason elsewhere
    unavailable: () => realdataAbsent(REAL_PERFMON) ?? probeAbsent(),
    reach: async (page, app) => {
      await route(page, app, 'import');
      await page.getByTestId(TID.importFiles).fill(REAL_PERFMON);
      await page.getByTestId(TID.importSwitchAt).fill('2022-10-09T18:40:00Z');
      await page.getByTestId(TID.importPreviewBtn).click();
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
    },
  },
  {
    id: 'wizard-devices',
    reach: (page, app) => route(page, app, 'new/devices'),
    ready: (page) => wizardReady(page, 'devices'),
  },
  {
    id: 'wizard-devices-none-chosen',
    reach: async (page, app) => {
      await route(page, app, 'new/devices');
      await wizardReady(page, 'devices');
      if (await page.getByTestId(TID.wizFrontNone).isVisible()) await page.getByTestId(TID.wizFrontNone).check();
    },
    ready: async (page) => {
      await wizardReady(page, 'devices');
      await expect(page.getByTestId(TID.wizardNextWhy)).toBeVisible();
    },
  },
  {
    id: 'wizard-engine',
    reach: async (page, app) => {
      await pickDevices(page, app);
      await route(page, app, 'new/engine');
    },
    ready: (page) => wizardReady(page, 'engine'),
  },
  {
    id: 'wizard-plan',
    reach: async (page, app) => {
      await pickDevices(page, app);
      await route(page, app, 'new/plan');
    },
    ready: async (page) => {
      await wizardReady(page, 'plan');
      await expect(page.getByTestId(TID.wizEstimate)).not.toBeEmpty();
    },
  },
  {
    id: 'wizard-plan-invalid',
    reach: async (page, app) => {
      await pickDevices(page, app);
      await route(page, app, 'new/plan');
      await page.getByTestId(`${TID.wizDuration}-baseline`).fill('-3');
    },
    ready: async (page) => {
      await wizardReady(page, 'plan');
      await expect(page.getByTestId(`${TID.wizDuration}-baseline`)).toHaveAttribute('aria-invalid', 'true');
    },
  },
  {
    id: 'wizard-review',
    reach: async (page, app) => {
      await pickDevices(page, app);
      await route(page, app, 'new/review');
    },
    ready: (page) => wizardReady(page, 'review'),
  },
  {
    id: 'wizard-review-not-ready',
    reach: (page, app) => route(page, app, 'new/review'),
    ready: async (page) => {
      await wizardReady(page, 'review');
      await expect(page.getByTestId(TID.wizProblems)).toBeVisible();
    },
  },
  {
    id: 'results',
    reach: (page, app) => route(page, app, 'sample'),
    ready: async (page) => {
      await expect(page.getByTestId(TID.cardIosSaved)).toBeVisible();
      await expect(page.getByTestId(TID.chartIops).locator('canvas').first()).toBeVisible();
    },
  },
  {
    id: 'planner',
    reach: async (page, app) => {
      await route(page, app, 'sample');
      await page.getByTestId(TID.navPlanner).click();
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.plannerComparison)).toBeVisible();
    },
  },
  {
    id: 'export',
    reach: async (page, app) => {
      await route(page, app, 'sample');
      await page.getByTestId(TID.navExport).click();
    },
    ready: async (page) => {
      await expect(page.getByTestId(TID.export)).toBeVisible();
      // The preview has loaded: the report's own document is in the frame, with its cover.
      await expect(page.frameLocator(`[data-testid="${TID.exportPreview}"]`).locator('body h1').first()).toBeVisible();
      await expect(page.getByTestId(TID.export).locator('.export-preview-box [role="status"]')).toBeEmpty();
    },
  },
  {
    // Recording the baseline (a plan of ten minutes per phase: still running when drawn), with
    // its first interval on the charts.
    id: 'live-running',
    unavailable: liveUnavailable,
    reach: async (page, app) => {
      await startRun(page, app, {});
    },
    ready: (page) => liveReady(page, 'running', 2),
  },
  {
    // A one-second baseline: the manual switch is due, and the screen calls the person to act.
    id: 'live-waiting-switch',
    unavailable: liveUnavailable,
    reach: async (page, app) => {
      await startRun(page, app, { baselineSeconds: 1 });
    },
    ready: async (page) => {
      await liveReady(page, 'waiting-switch', 2);
      await expect(page.getByTestId(TID.liveSwitchCta)).toBeVisible();
    },
  },
  {
    // Stopped from the screen (Stop, then confirm): what happened and what to do next.
    id: 'live-stopped',
    unavailable: liveUnavailable,
    reach: async (page, app) => {
      await startRun(page, app, {});
      await liveReady(page, 'running', 2);
      await page.getByTestId(TID.liveStop).click();
      await page.getByTestId(TID.liveStopConfirm).click();
    },
    ready: async (page) => {
      await liveReady(page, 'stopped', 2);
      await expect(page.getByTestId(TID.liveStopDialog)).toBeHidden();
      await expect(page.getByTestId(TID.liveProblem)).toBeVisible();
    },
  },
  {
    // A link to a run this installation does not know: the error alone, and the way Home.
    id: 'live-unknown-run',
    reach: (page, app) => route(page, app, 'run/r-20000101-000000-0000000'),
    ready: async (page) => {
      await expect(page.getByTestId(TID.liveError)).toBeVisible();
      await expect(page.getByTestId(TID.liveStop)).toBeHidden();
    },
  },
];

/** Every string of every catalog in app/src/shared/i18n, per language. */
async function loadCatalogs(): Promise<{ name: string; en: Record<string, string>; fr: Record<string, string> }[]> {
  const dir = join(repoRoot, 'app', 'src', 'shared', 'i18n');
  const out: { name: string; en: Record<string, string>; fr: Record<string, string> }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (value === null || typeof value !== 'object') continue;
      const c = value as Record<string, unknown>;
      const en = c.en;
      const fr = c.fr;
      if (en === null || typeof en !== 'object' || fr === null || typeof fr !== 'object') continue;
      out.push({ name: `${file}:${name}`, en: en as Record<string, string>, fr: fr as Record<string, string> });
    }
  }
  return out;
}

/** Fragments shorter than this are words that can be the same in both languages by chance. */
const MIN_FRAGMENT = 5;

/**
 * English catalog text that must not appear on a French screen: each English value split at
 * its `{placeholders}`, keeping fragments of at least MIN_FRAGMENT characters with a letter,
 * minus what the French catalogs also contain (brand names, units, commands).
 */
function englishOnly(catalogs: Awaited<ReturnType<typeof loadCatalogs>>): { fragment: string; where: string }[] {
  const out = new Map<string, string>();
  const frenchText = catalogs.flatMap((c) => Object.values(c.fr)).filter((v) => typeof v === 'string').join('\n');
  for (const c of catalogs) {
    for (const [key, en] of Object.entries(c.en)) {
      if (typeof en !== 'string') continue;
      const fr = c.fr[key];
      if (typeof fr === 'string' && fr === en) continue;
      for (const raw of en.split(/\{\w+\}/)) {
        const fragment = raw.trim().replace(/^[\s,.:;·–—()]+|[\s,.:;·–—()]+$/g, '');
        if (fragment.length < MIN_FRAGMENT || !/\p{L}/u.test(fragment)) continue;
        // The same words in the French catalogs are a name both languages use (SQL Server, Open CAS).
        if ((typeof fr === 'string' && fr.includes(fragment)) || frenchText.includes(fragment)) continue;
        if (!out.has(fragment)) out.set(fragment, `${c.name} ${key}`);
      }
    }
  }
  return [...out].map(([fragment, where]) => ({ fragment, where }));
}

/**
 * What a person can read or hear on the page and in its same-origin frames: rendered text,
 * option labels and accessible names; data shown as is (device names, paths, labels from a file) is marked translate="no"
 * by the screens and left out.
 */
async function readableText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const isData = (e: Element | null): boolean => e?.closest('[translate="no"]') != null;
    // The page and the documents it shows in frames (the Export screen's report preview).
    const docs: Document[] = [document];
    for (const f of Array.from(document.querySelectorAll('iframe'))) if (f.contentDocument?.body) docs.push(f.contentDocument);
    for (const doc of docs) {
      const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (parent === null || isData(parent) || parent.closest('script, style') !== null) continue;
        if (parent.tagName !== 'OPTION' && !parent.checkVisibility()) continue;
        parts.push(n.textContent ?? '');
      }
      // A label may quote data shown elsewhere on the page ('Open <run name>'): the data's text,
      // as its translate="no" element shows it, is not text of ours in the label either.
      const data = Array.from(doc.querySelectorAll('[translate="no"]'), (e) => e.textContent?.trim() ?? '').filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
      for (const e of Array.from(doc.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))) {
        if (isData(e)) continue;
        for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
          let v = e.getAttribute(a);
          for (const d of data) v = v?.split(d).join(' ') ?? null;
          if (v) parts.push(v);
        }
      }
    }
    return parts.join('\n');
  });
}

/** A fragment as a whole phrase: not inside a longer word. */
function containsPhrase(text: string, fragment: string): boolean {
  const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/** Frames that may not run scripts (the Export screen's report preview): axe cannot run inside them. */
const SCRIPTLESS_FRAME = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/**
 * The serious and critical WCAG 2 A/AA violations axe finds on the page and in the documents
 * of its script-less frames. Axe cannot be injected into a frame whose sandbox forbids scripts
 * (the scan would hang), so such a frame is left out of the page's scan and its document, with
 * the stylesheet the screen adopted into it, is scanned on a page of its own, as drawn.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const out: string[] = [];
  const collect = (where: string, violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): void => {
    for (const v of violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      out.push(`${where}${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
    }
  };
  collect('', (await new AxeBuilder({ page }).exclude(SCRIPTLESS_FRAME).withTags(['wcag2a', 'wcag2aa']).analyze()).violations);
  const framed = await page.locator(SCRIPTLESS_FRAME).evaluateAll((frames) => frames.map((f) => {
    const doc = (f as HTMLIFrameElement).contentDocument;
    return {
      name: f.getAttribute('data-testid') ?? f.getAttribute('title') ?? 'iframe',
      html: doc?.documentElement.outerHTML ?? '',
      css: (doc?.adoptedStyleSheets ?? []).flatMap((sheet) => Array.from(sheet.cssRules, (r) => r.cssText)).join('\n'),
    };
  }));
  for (const f of framed) {
    expect(f.html, `the document of frame ${f.name}`).not.toBe('');
    const doc = await page.context().newPage();
    try {
      await doc.setContent(f.html);
      if (f.css !== '') await doc.addStyleTag({ content: f.css });
      collect(`in frame ${f.name}: `, (await new AxeBuilder({ page: doc }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations);
    } finally {
      await doc.close();
    }
  }
  return out;
}

/** Each screen in English and French (light theme), then once in English in the dark theme. */
const VARIANTS: { lang: Lang; dark: boolean }[] = [
  { lang: 'en', dark: false },
  { lang: 'fr', dark: false },
  { lang: 'en', dark: true },
];

for (const screen of SCREENS) {
  for (const { lang, dark } of VARIANTS) {
    const name = `${screen.id}-${lang}${dark ? '-dark' : ''}`;
    test(`screen ${screen.id} (${lang}${dark ? ', dark theme' : ''}): screenshot, ${lang === 'fr' ? 'translation and ' : ''}accessibility`, async ({ app, page }, testInfo) => {
      const why = screen.unavailable?.() ?? null;
      test.skip(skipped(`screen ${name}`, why), `${screen.id}: ${why ?? ''}`);
      const errors = watchConsole(page);
      try {
        await page.goto(app.authUrl);
        await expect(page.getByTestId(TID.appTitle)).toBeVisible();
        await page.getByTestId(TID.langSelect).selectOption(lang);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        // The theme as a person picks it: the header's toggle (the choice is remembered).
        const theme = dark ? 'dark' : 'light';
        if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId(TID.themeToggle).click();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await screen.reach(page, app);
        await screen.ready(page);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

        const path = testInfo.outputPath(`screens-${name}.png`);
        await page.screenshot({ path, fullPage: true });
        await testInfo.attach(`screens-${name}`, { path, contentType: 'image/png' });

        if (lang === 'fr') {
          const text = await readableText(page);
          const leaks = englishOnly(await loadCatalogs()).filter((f) => containsPhrase(text, f.fragment));
          expect(leaks.map((l) => `“${l.fragment}” (${l.where})`), `English catalog text on the French ${screen.id} screen`).toEqual([]);
        }

        expect(await seriousViolations(page), `axe violations on ${screen.id} (${lang}${dark ? ', dark' : ''})`).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await stopStartedRuns(page);
      }
    });
  }
}

test('the checks themselves: English fragments are found on an English screen, and axe flags an unlabelled input', async ({ app, page }) => {
  // Guards the check itself: it must see English text where English is expected.
  await page.goto(app.authUrl);
  await page.getByTestId(TID.langSelect).selectOption('en');
  await route(page, app, 'home');
  await expect(page.getByTestId(TID.home)).toBeVisible();
  const fragments = englishOnly(await loadCatalogs());
  expect(fragments.length).toBeGreaterThan(100);
  const text = await readableText(page);
  const found = fragments.filter((f) => containsPhrase(text, f.fragment)).map((f) => f.fragment);
  expect(found).toEqual(expect.arrayContaining(['Recent analyses', 'New analysis', 'Open a capture file']));
  // And the axe scan reports what it should: an input without a label is a critical violation.
  await page.evaluate(() => document.querySelector('main')?.append(Object.assign(document.createElement('input'), { type: 'text' })));
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical').map((v) => v.id)).toContain('label');

  // The report preview (a frame that runs no script) is read and scanned too.
  await route(page, app, 'sample');
  await page.getByTestId(TID.navExport).click();
  const preview = page.frameLocator(`[data-testid="${TID.exportPreview}"]`);
  await expect(preview.locator('body h1').first()).toBeVisible();
  const withPreview = await readableText(page);
  expect(fragments.filter((f) => containsPhrase(withPreview, f.fragment)).map((f) => f.fragment)).toContain(report.en['cover.subtitle']);
  expect(await seriousViolations(page)).toEqual([]);
  await page.locator(`[data-testid="${TID.exportPreview}"]`).evaluate((f) => (f as HTMLIFrameElement).contentDocument?.body.append(Object.assign(document.createElement('input'), { type: 'text' })));
  expect((await seriousViolations(page)).join('\n')).toMatch(/^in frame export-preview: critical label:/m);
});
