/**
 * Every screen, in English and in French: a full-page screenshot (attached as
 * screens-<screen>-<lang>.png), a check that the French screen shows no English catalog
 * string, and an axe-core scan (WCAG 2 A and AA) that must find no serious or critical
 * violation.
 *
 * The table SCREENS is the one place to add a screen: an id, how to reach it from a signed-in
 * page whose language is already chosen, and when it is ready. Screens that need a lab run
 * (the Live screen) are covered by the specs that start one.
 *
 * The English strings come from the catalogs themselves (every `Catalog` exported by
 * app/src/shared/i18n/*.ts), so a new catalog is checked without touching this file.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, repoRoot, watchConsole, type AppHost } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

type Lang = 'en' | 'fr';

interface ScreenCase {
  /** Used in file names: screens-<id>-<lang>.png. */
  id: string;
  /** From a signed-in page (language already chosen) to the screen. */
  reach(page: Page, app: AppHost): Promise<void>;
  /** Resolves once the screen is drawn and settled. */
  ready(page: Page): Promise<void>;
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
 * the front device and the last as backing. When the probe cannot list devices, the step
 * shows why, and nothing is picked (the later steps then show what is missing).
 */
async function pickDevices(page: Page, app: AppHost): Promise<void> {
  await route(page, app, 'new/devices');
  await wizardReady(page, 'devices');
  const table = page.getByTestId(TID.wizDevices);
  if (!(await table.isVisible())) return;
  const radios = table.locator('input[type="radio"]');
  const boxes = table.locator('input[type="checkbox"]');
  await radios.first().check();
  if ((await boxes.count()) > 1) await boxes.last().check();
}

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

/**
 * English on a French screen that is known and owned elsewhere, each with its reason; the
 * check skips exactly these fragments on exactly these screens (and still scans them with axe).
 */
const KNOWN_ENGLISH: { screen: string; fragment: string; why: string }[] = [
  {
    screen: 'planner',
    fragment: 'SSD cache',
    why: 'The planner shows the scenario\'s configuration and drive labels as data; the host prefills them from the engine\'s English template (engine/src/plan/template.ts: "HDD RAID 5 + SSD cache"), whatever the language.',
  },
];

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
 * What a person can read or hear on the page: rendered text, option labels and accessible
 * names; data shown as is (device names, paths, labels from a file) is marked translate="no"
 * by the screens and left out.
 */
async function readableText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const isData = (e: Element | null): boolean => e?.closest('[translate="no"]') != null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent === null || isData(parent) || parent.closest('script, style') !== null) continue;
      if (parent.tagName !== 'OPTION' && !parent.checkVisibility()) continue;
      parts.push(n.textContent ?? '');
    }
    for (const e of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))) {
      if (isData(e)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = e.getAttribute(a);
        if (v) parts.push(v);
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

const LANGS: Lang[] = ['en', 'fr'];

for (const screen of SCREENS) {
  for (const lang of LANGS) {
    test(`screen ${screen.id} (${lang}): screenshot, translation and accessibility`, async ({ app, page }, testInfo) => {
      const errors = watchConsole(page);
      await page.goto(app.authUrl);
      await expect(page.getByTestId(TID.appTitle)).toBeVisible();
      await page.getByTestId(TID.langSelect).selectOption(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await screen.reach(page, app);
      await screen.ready(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);

      const path = testInfo.outputPath(`screens-${screen.id}-${lang}.png`);
      await page.screenshot({ path, fullPage: true });
      await testInfo.attach(`screens-${screen.id}-${lang}`, { path, contentType: 'image/png' });

      if (lang === 'fr') {
        const text = await readableText(page);
        const known = new Set(KNOWN_ENGLISH.filter((k) => k.screen === screen.id).map((k) => k.fragment));
        const leaks = englishOnly(await loadCatalogs()).filter((f) => !known.has(f.fragment) && containsPhrase(text, f.fragment));
        expect(leaks.map((l) => `“${l.fragment}” (${l.where})`), `English catalog text on the French ${screen.id} screen`).toEqual([]);
      }

      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const bad = axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
      expect(bad, `axe violations on ${screen.id} (${lang})`).toEqual([]);
      expect(errors).toEqual([]);
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
});
