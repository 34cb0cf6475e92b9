/**
 * The renderer shell: untrusted, no Node, talks to the host only through the task-shaped API
 * (`window.cacheproof` under Electron, the loopback HTTP client under the browser host).
 * It owns the frame (title, language, footer) and the router; each screen lives in its own
 * folder and is reached by a hash route:
 *   #/results/<analysisId>   results dashboard (dashboard/)
 *   #/planner/<analysisId>   TCO and drive-life planner (planner/)
 *   #/export/<analysisId>    report export with live preview (export/)
 *   #/run/<runId>            live run: progress, charts, the manual switch (live/)
 *   #/profile/<runId>        a stopped run's baseline alone, as a workload profile (profile/)
 *   #/profile-file/<path>[/<host>]  a capture file's baseline alone (an imported log with no switch; one host of a fleet capture)
 *   #/profile-planner/<profile route>  a workload profile's Planner (a baseline alone); the route carries the profile's, so a reload lands here again (profile-sub.ts)
 *   #/profile-export/<profile route>   a workload profile's Export screen (its workload-profile report), likewise
 *   #/fleet/<path>           the hosts of a fleet capture or of a folder of one capture per host (fleet/)
 *   #/collect                 the commands that collect on a machine without the probe (collect/)
 *   #/home                   Home: recent analyses, open a capture or the sample, new analysis (home/); the default
 *   #/new/<step>             new-analysis wizard: devices, engine, plan, review (wizard/)
 *   #/import                 Import a log: preview, import, open the dashboard (import/)
 *   #/sample                 opens the bundled sample analysis (a deep link; Home has the button)
 */
import type { CacheProofApi } from '../shared/api.ts';
import type { AnalysisView, AppInfo } from '../shared/contract.ts';
import { common, type CommonKey } from '../shared/i18n/common.ts';
import { planner } from '../shared/i18n/planner.ts';
import { isLang, LANGS, translate, type Lang } from '../shared/i18n/types.ts';
import { TID } from '../shared/testids.ts';
import { httpApi } from './api-http.ts';
import { dashboardScreen } from './dashboard/index.ts';
import { liveScreen } from './live/index.ts';
import { profileScreen, profileTargetOf } from './profile/index.ts';
import { profileSubScreen } from './profile-sub.ts';
import { collectScreen } from './collect/index.ts';
import { homeScreen } from './home/index.ts';
import { importScreen } from './import/index.ts';
import { fleetScreen } from './fleet/index.ts';
import { rememberRecent, rememberRecentProfile } from './home/recent.ts';
import { reopenScreen } from './home/reopen.ts';
import { wizardScreen } from './wizard/index.ts';
import { home } from '../shared/i18n/home.ts';
import { el } from './dom.ts';
import { fmtDuration } from './format.ts';
import { plannerScreen } from './planner/index.ts';
import { exportScreen } from './export/index.ts';
import { exportUi } from '../shared/i18n/report.ts';
import type { Ctx, Screen } from './screen.ts';
// Chart.js components, the time scale's date adapter, zoom and our plugins (charts.ts).
import './charts.ts';
import { prewarmCharts } from './dashboard/prewarm.ts';
import { applyTheme, followSystemTheme, themedPalette, themeToggle } from './theme.ts';

declare global {
  interface Window {
    cacheproof?: CacheProofApi;
  }
}

const api: CacheProofApi = window.cacheproof ?? httpApi;
const LANG_NAMES: Record<Lang, string> = { en: 'English', fr: 'Français', es: 'Español', ru: 'Русский' };

let lang: Lang = (() => {
  const saved = localStorage.getItem('cacheproof.lang');
  return saved && isLang(saved) ? saved : 'en';
})();
let info: AppInfo | null = null;
let errorCode: string | null = null;
let current: Screen | null = null;
/** Analyses opened in this window, by id. */
const views = new Map<string, AnalysisView>();

const t = (key: CommonKey, params?: Record<string, string | number>): string => translate(common, lang, key, params);

function route(): string[] {
  return location.hash.replace(/^#\/?/, '').split('/').filter((s) => s.length > 0).map(decodeURIComponent);
}

function go(r: string): void {
  const target = `#/${r}`;
  if (location.hash === target) render();
  else location.hash = target;
}

function ctx(): Ctx {
  return { api, lang, info, palette: themedPalette(), go, remember: (v) => { views.set(v.id, v); rememberRecent(v); }, rememberProfile: (v, r) => rememberRecentProfile(v, r), view: (id) => views.get(id) };
}

/** Tabs between the screens of one open analysis. */
function screenNav(active: string, id: string): HTMLElement {
  const nav = el('nav', { class: 'screens', 'aria-label': translate(planner, lang, 'nav.label') });
  for (const [name, key, testId] of [['results', 'nav.results', TID.navResults], ['planner', 'nav.planner', TID.navPlanner]] as const) {
    const b = el('button', { type: 'button', 'data-testid': testId, 'aria-pressed': String(active === name) }, translate(planner, lang, key));
    b.addEventListener('click', () => go(`${name}/${encodeURIComponent(id)}`));
    nav.append(b);
  }
  const exp = el('button', { type: 'button', 'data-testid': TID.navExport, 'aria-pressed': String(active === 'export') }, translate(exportUi, lang, 'nav'));
  exp.addEventListener('click', () => go(`export/${encodeURIComponent(id)}`));
  nav.append(exp);
  return nav;
}

function analysisScreen(name: string, v: AnalysisView): Screen {
  const title = el('h2', { 'data-testid': TID.analysisName }, v.name, ' ', v.isSample ? el('span', { class: 'badge' }, t('sampleBadge')) : '');
  if (name === 'planner') {
    const pl = plannerScreen(ctx(), v);
    return { node: el('div', {}, title, screenNav(name, v.id), pl.node), ...(pl.dispose ? { dispose: pl.dispose } : {}) };
  }
  if (name === 'export') {
    const ex = exportScreen(ctx(), v);
    return { node: el('div', {}, title, screenNav(name, v.id), ex.node), ...(ex.dispose ? { dispose: ex.dispose } : {}) };
  }
  const dash = dashboardScreen(ctx(), v);
  return { node: el('div', {}, title, screenNav('results', v.id), dash.node), ...(dash.dispose ? { dispose: dash.dispose } : {}) };
}

function langSelect(): HTMLSelectElement {
  const select = el('select', { 'data-testid': TID.langSelect, id: 'lang', 'aria-label': t('language') });
  for (const l of LANGS) {
    const opt = el('option', { value: l }, LANG_NAMES[l]);
    if (l === lang) opt.selected = true;
    select.append(opt);
  }
  select.addEventListener('change', () => {
    if (isLang(select.value)) {
      lang = select.value;
      localStorage.setItem('cacheproof.lang', lang);
      render();
    }
  });
  return select;
}

function render(): void {
  const root = document.getElementById('app');
  if (!root) return;
  current?.dispose?.();
  current = null;
  document.documentElement.lang = lang;
  root.replaceChildren(
    el('header', { class: 'top' },
      el('h1', { 'data-testid': TID.appTitle }, t('appTitle')),
      el('span', { class: 'tagline' }, t('tagline')),
      el('a', { href: '#/home', class: 'home-link', 'data-testid': TID.navHome }, translate(home, lang, 'nav.home')),
      el('label', { for: 'lang' }, t('language')), langSelect(),
      themeToggle(t('darkTheme'), TID.themeToggle, render)),
  );
  const main = el('main', {});
  root.append(main);
  if (errorCode !== null) {
    const key = `err.${errorCode}` as CommonKey;
    main.append(el('div', { class: 'error', role: 'alert', 'data-testid': TID.error }, key in common.en ? t(key) : t('err.internal')));
    // Said once: the next screen starts clean.
    errorCode = null;
  }
  const [name, id, sub] = route();
  // a profile's sub-screen names the profile by its own route (profile-sub.ts)
  const subTarget = name === 'profile-planner' || name === 'profile-export' ? profileTargetOf(route().slice(1)) : null;
  const v = id === undefined ? undefined : views.get(id);
  if ((name === 'results' || name === 'planner' || name === 'export') && v !== undefined) {
    current = analysisScreen(name, v);
    main.append(current.node);
  } else if ((name === 'results' || name === 'planner' || name === 'export') && id !== undefined) {
    current = reopenScreen(ctx(), `${name}/${encodeURIComponent(id)}`, id);
    main.append(current.node);
  } else if (subTarget !== null) {
    current = profileSubScreen(ctx(), name === 'profile-planner' ? 'planner' : 'export', subTarget);
    main.append(current.node);
  } else if (name === 'run' && id !== undefined) {
    current = liveScreen(ctx(), id);
    main.append(current.node);
  } else if (name === 'profile' && id !== undefined) {
    current = profileScreen(ctx(), { runId: id });
    main.append(current.node);
  } else if (name === 'profile-file' && id !== undefined) {
    current = profileScreen(ctx(), sub === undefined ? { path: id } : { path: id, host: sub });
    main.append(current.node);
  } else if (name === 'fleet' && id !== undefined) {
    current = fleetScreen(ctx(), id);
    main.append(current.node);
  } else if (name === 'import') {
    current = importScreen(ctx());
    main.append(current.node);
  } else if (name === 'collect') {
    current = collectScreen(ctx());
    main.append(current.node);
  } else if (name === 'new') {
    current = wizardScreen(ctx(), id);
    main.append(current.node);
  } else if (name === 'sample') {
    main.append(el('p', { 'data-testid': TID.status, role: 'status' }, t('loading')));
    void loadSample();
  } else {
    current = homeScreen(ctx());
    main.append(current.node);
  }
  root.append(el('footer', {}, el('span', { 'data-testid': TID.version }, `${t('version')} ${info?.version ?? ''} · ${t('probe')} ${info?.probeVersion ?? t('probeMissing')} · ${info === null ? '' : t(info.shell === 'electron' ? 'shell.electron' : 'shell.browser')}`)));
}

async function loadSample(): Promise<void> {
  // Every open of an analysis sets this mark; the dashboard sets 'cacheproof:dashboard-drawn' (bench/dashboard).
  performance.mark('cacheproof:open-request');
  const reply = api.openSample();
  // the charts' code compiled while the host analyses (dashboard/prewarm.ts)
  prewarmCharts();
  const r = await reply;
  performance.mark('cacheproof:open-reply');
  if (r.ok) {
    ctx().remember(r.value);
    errorCode = null;
    go(`results/${encodeURIComponent(r.value.id)}`);
  } else {
    errorCode = r.error.code;
    go('home');
  }
}

/**
 * The window's one bug reporter: an uncaught error or unhandled rejection is logged to the console
 * (the host's log in Electron, the test's console watch in e2e) and said once on screen with the
 * internal-error sentence, instead of leaving a screen half drawn in silence.
 */
function reportWindowBug(reason: unknown): void {
  console.error('cacheproof: bug in the window:', reason);
  if (document.querySelector(`[data-testid="${TID.bug}"]`) !== null) return;
  const detail = reason instanceof Error ? reason.message : String(reason);
  (document.getElementById('app') ?? document.body).prepend(el('div', { class: 'error', role: 'alert', 'data-testid': TID.bug }, `${t('err.internal')} (${detail})`));
}

async function boot(): Promise<void> {
  window.addEventListener('error', (e) => reportWindowBug(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => reportWindowBug(e.reason));
  applyTheme();
  followSystemTheme(render);
  window.addEventListener('hashchange', render);
  // The footer shows the probe's version: ask first, then draw. Boot lands on Home (or the deep link).
  // Charts draw text on a canvas, which does not wait for a web font: load the shipped font
  // first (both weights), so the first chart is not drawn in a fallback face.
  const fonts = Promise.all([document.fonts.load('400 12px "DejaVu Sans"'), document.fonts.load('700 12px "DejaVu Sans"')]).catch(() => undefined);
  const i = await api.appInfo();
  await fonts;
  if (i.ok) info = i.value;
  render();
  // The first unit-style number format (the sample interval's "1 s") costs about 15 ms of ICU set-up:
  // paid while the first screen idles rather than when a dashboard opens.
  requestIdleCallback(() => { fmtDuration(lang, 1); });
}

void boot();
