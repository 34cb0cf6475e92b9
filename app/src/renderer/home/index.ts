/**
 * Home: start a new analysis, open the bundled sample or a capture file, and the recent
 * analyses (the host's runs from `run.list`, then the captures opened in this browser profile).
 * Opening anything never forgets anything: a failed open leaves the list and the typed path
 * as they were and says what happened and what to do next.
 */
import { plannedEndMs } from '@cacheproof/engine';
import type { AnalysisView, RunStatus } from '../../shared/contract.ts';
import { common } from '../../shared/i18n/common.ts';
import { home, type HomeKey } from '../../shared/i18n/home.ts';
import { importUi } from '../../shared/i18n/import.ts';
import { collectUi } from '../../shared/i18n/collect.ts';
import { LOCALE, translate, type Lang } from '../../shared/i18n/types.ts';
import type { Result } from '../../shared/result.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import { fmtNumber, fmtPercent } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';
import { recentCaptures, type RecentCapture } from './recent.ts';
import { openWithProgress } from './open-progress.ts';

/** The path typed in "Open a capture file" survives leaving Home and coming back. */
let typedPath = '';

/** "20 Nov 2026, 22:12 – 22:16 UTC" per locale; a single date when the end is unknown. */
export function fmtSpan(lang: Lang, startMs: number | null, endMs: number | null): string {
  if (startMs === null) return '';
  const f = new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  if (endMs === null || endMs <= startMs) return `${f.format(new Date(startMs))} UTC`;
  return `${f.formatRange(new Date(startMs), new Date(endMs))} UTC`;
}

interface Row {
  key: string;
  name: string;
  host: string;
  /** A host name from the capture (data, not text of ours). */
  hostIsData: boolean;
  dates: string;
  status: string;
  saved: string;
  open: () => Promise<void>;
}

/** What every part of Home shares: the context, its words, and whether the screen is gone. */
interface HomeCtx {
  ctx: Ctx;
  lang: Ctx['lang'];
  h: (key: HomeKey, params?: Record<string, string | number>) => string;
  state: { disposed: boolean };
}

/** Opens an analysis returned by the host, or shows why it could not be opened in `errorBox`. */
function shower(hc: HomeCtx, errorBox: HTMLElement, what: string) {
  const { ctx, h, lang } = hc;
  return (r: Result<AnalysisView>): void => {
    if (hc.state.disposed) return;
    if (r.ok) {
      ctx.remember(r.value);
      ctx.go(`results/${encodeURIComponent(r.value.id)}`);
      return;
    }
    errorBox.replaceChildren(
      el('p', { class: 'err-what' }, h('openFailed', { what })),
      el('p', {}, errorText(lang, r.error.code)));
    errorBox.hidden = false;
  };
}

/** Actions: new analysis, import, collect and the sample. */
function homeActions(hc: HomeCtx) {
  const { ctx, h, lang } = hc;
  const actionsError = el('div', { class: 'error', role: 'alert', 'data-testid': TID.homeActionsError, hidden: '' });
  /** Where the sample's opening shows its progress. */
  const actions = el('div', {});
  const newBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.homeNew }, h('newAnalysis'));
  newBtn.addEventListener('click', () => ctx.go('new/devices'));
  const sampleBtn = el('button', { type: 'button', 'data-testid': TID.homeSample }, translate(common, lang, 'openSample'));
  sampleBtn.addEventListener('click', () => {
    sampleBtn.disabled = true;
    void openWithProgress(ctx, { sample: true }, h('theSample'), actions, () => ctx.api.openSample()).then((r) => {
      sampleBtn.disabled = false;
      shower(hc, actionsError, h('theSample'))(r);
    });
  });
  const importBtn = el('button', { type: 'button', 'data-testid': TID.homeImport }, translate(importUi, lang, 'nav'));
  importBtn.addEventListener('click', () => ctx.go('import'));
  const collectBtn = el('button', { type: 'button', 'data-testid': TID.homeCollect }, translate(collectUi, lang, 'nav'));
  collectBtn.addEventListener('click', () => ctx.go('collect'));
  return { buttons: el('div', { class: 'home-actions' }, newBtn, importBtn, collectBtn, sampleBtn), actions, actionsError };
}

/** Open a capture file by path (the browser host has no native file dialog). */
function openForm(hc: HomeCtx): HTMLFormElement {
  const { ctx, h } = hc;
  const pathInput = el('input', {
    id: 'home-capture-path', type: 'text', 'data-testid': TID.homeOpenPath, value: typedPath, spellcheck: 'false', autocomplete: 'off',
    'aria-describedby': 'home-capture-help home-capture-error',
  });
  pathInput.addEventListener('input', () => {
    typedPath = pathInput.value;
    pathInput.removeAttribute('aria-invalid');
  });
  const openError = el('div', { class: 'error', role: 'alert', id: 'home-capture-error', 'data-testid': TID.homeOpenError, hidden: '' });
  const openBtn = el('button', { type: 'submit', 'data-testid': TID.homeOpenSubmit }, h('open'));
  const form = el('form', { class: 'home-open', 'aria-labelledby': 'home-open-title', novalidate: '' },
    el('h3', { id: 'home-open-title' }, h('openCapture')),
    el('label', { for: 'home-capture-path' }, h('capturePath')),
    el('div', { class: 'home-open-row' }, pathInput, openBtn),
    el('p', { class: 'help', id: 'home-capture-help' }, h('capturePathHelp')),
    openError);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const path = pathInput.value.trim();
    if (path.length === 0) {
      pathInput.setAttribute('aria-invalid', 'true');
      openError.replaceChildren(el('p', {}, h('pathEmpty')));
      openError.hidden = false;
      pathInput.focus();
      return;
    }
    openBtn.disabled = true;
    openError.hidden = true;
    void openWithProgress(ctx, { path }, path, form, () => ctx.api.openCapture(path)).then((r) => {
      openBtn.disabled = false;
      if (!r.ok) pathInput.setAttribute('aria-invalid', 'true');
      shower(hc, openError, path)(r);
    });
  });
  return form;
}

/** A run of this computer's probe as a row: a finished run opens its results, any other its Live screen. */
function runRow(hc: HomeCtx, r: RunStatus, recentError: HTMLElement, recent: HTMLElement): Row {
  const { ctx, h, lang } = hc;
  const live = r.state === 'starting' || r.state === 'running' || r.state === 'waiting-switch';
  const plannedEnd = plannedEndMs(r.startedMs, r.plan);
  return {
    key: `run:${r.id}`,
    name: r.name,
    host: h('thisComputer'),
    hostIsData: false,
    dates: fmtSpan(lang, r.startedMs, live ? plannedEnd : r.lastSampleMs ?? plannedEnd),
    status: h(`state.${r.state}`),
    saved: r.iosSavedPercent === null ? '—' : h('headline.saved', { percent: fmtPercent(lang, r.iosSavedPercent, 1) }),
    open: async () => {
      // Only a finished run goes straight to its results; a live, stopped, failed or dead run
      // opens its Live screen, which says what happened and offers Resume or the partial results.
      if (r.state !== 'done') {
        ctx.go(`run/${encodeURIComponent(r.id)}`);
        return;
      }
      shower(hc, recentError, r.name)(await openWithProgress(ctx, { runId: r.id }, r.name, recent, () => ctx.api.openRun(r.id)));
    },
  };
}

/** A capture opened in this browser profile: an analysis (opened again by the host), or a workload profile (its screen's route). */
function captureRow(hc: HomeCtx, c: RecentCapture, recentError: HTMLElement, recent: HTMLElement): Row {
  const { ctx, h, lang } = hc;
  const num = (v: number | null): string => (v === null ? '—' : fmtNumber(lang, v, 1));
  const p = c.profile;
  return {
    key: p === null ? `capture:${c.captureFile}` : `profile:${p.route}`,
    name: c.name,
    host: c.hostname ?? '—',
    hostIsData: c.hostname !== null,
    dates: fmtSpan(lang, c.startMs, c.endMs),
    status: p !== null ? h('status.profile') : c.isSample ? h('status.sample') : h('status.capture'),
    saved: p !== null ? h('headline.profile', { iops: num(p.meanIops), p95: num(p.p95Iops) })
      : c.iosSavedPercent === null ? '—' : h('headline.saved', { percent: fmtPercent(lang, c.iosSavedPercent, 1) }),
    open: async () => {
      if (p !== null) {
        ctx.go(p.route);
        return;
      }
      shower(hc, recentError, c.name)(c.isSample
        ? await openWithProgress(ctx, { sample: true }, c.name, recent, () => ctx.api.openSample())
        : await openWithProgress(ctx, { path: c.captureFile }, c.name, recent, () => ctx.api.openCapture(c.captureFile)));
    },
  };
}

/** The recent rows as a table, each with its Open button. */
function recentTable(hc: HomeCtx, rows: Row[], recentError: HTMLElement): HTMLElement {
  const { h } = hc;
  const head = el('tr', {}, ...(['col.name', 'col.host', 'col.dates', 'col.status', 'col.saved', 'col.action'] as const).map((k) => el('th', { scope: 'col' }, h(k))));
  const body = el('tbody', {});
  for (const row of rows) {
    const btn = el('button', { type: 'button', 'aria-label': h('openNamed', { name: row.name }) }, h('open'));
    btn.addEventListener('click', () => {
      btn.disabled = true;
      recentError.hidden = true;
      void row.open().finally(() => (btn.disabled = false));
    });
    body.append(el('tr', { 'data-key': row.key },
      el('th', { scope: 'row', translate: 'no' }, row.name),
      el('td', row.hostIsData ? { translate: 'no' } : {}, row.host),
      el('td', {}, row.dates),
      el('td', {}, row.status),
      el('td', { class: 'num' }, row.saved),
      el('td', {}, btn)));
  }
  return el('table', { class: 'home-table' }, el('caption', {}, h('recentCaption')), el('thead', {}, head), body);
}

/** Recent analyses: this computer's runs (`listRuns`) and the captures opened here. */
function recentSection(hc: HomeCtx): HTMLElement {
  const { ctx, h, lang } = hc;
  const recentError = el('div', { class: 'error', role: 'alert', 'data-testid': TID.homeRecentError, hidden: '' });
  const recentBody = el('div', { 'data-testid': TID.homeRecent, 'aria-busy': 'true' }, el('p', { role: 'status' }, translate(common, lang, 'loading')));
  const recent = el('section', { class: 'home-recent', 'aria-labelledby': 'home-recent-title' },
    el('h3', { id: 'home-recent-title' }, h('recent')), recentError, recentBody);
  const fill = (runs: RunStatus[]): void => {
    const runFiles = new Set(runs.map((r) => r.captureFile));
    const rows: Row[] = [
      ...runs.map((r) => runRow(hc, r, recentError, recent)),
      ...recentCaptures().filter((c) => c.profile !== null || !runFiles.has(c.captureFile)).map((c) => captureRow(hc, c, recentError, recent)),
    ];
    recentBody.removeAttribute('aria-busy');
    if (rows.length === 0) {
      recentBody.replaceChildren(el('p', { class: 'help' }, h('recentEmpty')));
      return;
    }
    recentBody.replaceChildren(recentTable(hc, rows, recentError));
  };
  void ctx.api.listRuns().then((r) => {
    if (hc.state.disposed) return;
    if (!r.ok) {
      // The captures opened here are still listed; the runs' failure is said once, with what to do.
      recentError.replaceChildren(el('p', { class: 'err-what' }, h('runsFailed')), el('p', {}, errorText(lang, r.error.code)));
      recentError.hidden = false;
    }
    fill(r.ok ? r.value : []);
  });
  return recent;
}

export function homeScreen(ctx: Ctx): Screen {
  const lang = ctx.lang;
  const hc: HomeCtx = { ctx, lang, h: (key, params) => translate(home, lang, key, params), state: { disposed: false } };
  const { buttons, actions, actionsError } = homeActions(hc);
  const form = openForm(hc);
  const recent = recentSection(hc);
  const node = el('div', { class: 'home', 'data-testid': TID.home },
    el('h2', {}, hc.h('title')),
    el('p', { class: 'intro' }, hc.h('intro')),
    buttons,
    actions,
    actionsError,
    form,
    recent);
  return { node, dispose: () => { hc.state.disposed = true; } };
}
