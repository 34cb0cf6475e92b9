/**
 * The Planner screen (issue 6): a TCO scenario prefilled from the open analysis (host channel
 * `plan.fromAnalysis`, the same scenario `cacheproof tco --from-capture` writes), every input
 * editable, and the comparison recomputed live in the renderer with the engine's pure planner
 * (`parseScenario`, `planScenario`, `sensitivity`): the same functions `cacheproof tco` runs, so
 * each figure has one implementation.
 *
 * Invalid input shows one sentence per bad field (its label and JSON path) and the results keep
 * the last valid scenario. Valid scenarios are saved with the analysis by the host (`plan.save`,
 * per capture in the app's data folder), so a reload, a reopened app and the report find them;
 * "Export" downloads the scenario JSON and "Import" opens one (checked with parseScenario: a bad
 * file is refused with the sentence naming its field). Configurations and drives can be added
 * (from the drive catalog, `plan.catalog`, its figures and sources shown), duplicated and removed.
 *
 * The host writes the prefilled scenario in the screen's language (its title and the template's
 * drive and configuration labels). When the language changes, or a scenario saved in another
 * language is reopened, the template's texts follow the language (`localizeTemplate`, by id);
 * a label that is not the template's text in any language (a person's own) stays as it is.
 *
 * Files: state.ts (drafts per analysis, saving, checking), form.ts (the inputs), configs.ts (one
 * configuration edited at a time, chosen by its tab), results.ts and
 * charts.ts (the plan drawn). The screen follows the `Screen` contract (screen.ts): its charts
 * are destroyed when it redraws and when it is left.
 */
import type { Chart } from 'chart.js';
import { parseCatalog, parseScenario, type DriveCatalog } from '@cacheproof/engine/plan';
import { planErrorSentence, planner, type PlannerKey } from '../../shared/i18n/planner.ts';
import { localizeTemplate } from '../../shared/i18n/template.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx, Screen } from '../screen.ts';
import { PlannerForm, idFor } from './form.ts';
import { resultsView } from './results.ts';
import { evaluate, followLanguage, plannerState, plansSaved, queueSave, usePlanSaver, type Json, type PlannerState, type PlannerSubject } from './state.ts';

/** The drive catalog for this page: loaded once (plan.catalog), checked with the engine's parseCatalog; a string says why it is missing. */
let catalog: DriveCatalog | string | null = null;
let catalogLoading = false;

/** What the last import said, per analysis: the refused file's sentence, or the file imported. */
const importNotes = new Map<string, { ok: boolean; text: string }>();

/** What the screen's parts share: its subject, its state, its root and its charts, and how to draw it again. */
interface PlannerScreenState {
  ctx: Ctx;
  view: PlannerSubject;
  state: PlannerState;
  root: HTMLElement;
  p: (key: PlannerKey, params?: Record<string, string | number>) => string;
  /** This screen's charts, destroyed when the results are drawn again and when the screen is left. */
  charts: Chart[];
  closeCharts: () => void;
  build: () => void;
}

/** The parts of a drawn scenario that change while it is edited: its error box, its results and the export action. */
interface PlannerResultsArea {
  form: PlannerForm;
  errorBox: HTMLElement;
  results: HTMLElement;
  exportBtn: HTMLButtonElement;
  exportHelp: HTMLElement;
}

/** The Planner screen for an open analysis (the shell puts the title and the screen tabs above it). */
export function plannerScreen(ctx: Ctx, view: PlannerSubject): Screen {
  const root = el('section', { class: 'planner', 'data-testid': TID.planner, 'aria-labelledby': 'planner-title' });
  usePlanSaver(ctx.api);
  const state = plannerState(view, ctx.lang);
  followLanguage(view, state, ctx.lang);
  loadCatalog(ctx, state);
  const s: PlannerScreenState = {
    ctx, view, state, root,
    p: (key, params) => translate(planner, ctx.lang, key, params),
    charts: [],
    closeCharts: () => {
      for (const c of s.charts) c.destroy();
      s.charts = [];
    },
    build: () => buildPlanner(s),
  };
  state.rebuild = () => {
    if (root.isConnected) s.build();
  };
  s.build();
  return { node: root, dispose: s.closeCharts };
}

/** Loads the drive catalog once for the page (plan.catalog), then draws the screen again with it. */
function loadCatalog(ctx: Ctx, state: PlannerState): void {
  if (catalog !== null || catalogLoading) return;
  catalogLoading = true;
  void ctx.api.planCatalog().then((r) => {
    catalogLoading = false;
    if (!r.ok) catalog = errorText(ctx.lang, r.error.code);
    else {
      const c = parseCatalog(r.value);
      catalog = c.ok ? c.value : c.error.message;
    }
    state.rebuild();
  });
}

/** Loads the scenario saved with this analysis (a reset or a save still on its way first), else the prefill. */
async function loadScenario(s: PlannerScreenState): Promise<void> {
  const { ctx, view, state } = s;
  state.loading = true;
  state.loadError = null;
  await plansSaved();
  const saved = await ctx.api.savedPlan(view.id);
  if (saved.ok && saved.value !== null) {
    state.loading = false;
    state.draft = localizeTemplate(saved.value as Json, state.lang);
    state.last = null;
    evaluate(view, state, false);
    state.rebuild();
    return;
  }
  const r = await ctx.api.planFromAnalysis(view.id, state.lang);
  state.loading = false;
  if (r.ok) {
    // The language may have changed while the host was answering.
    state.draft = localizeTemplate(r.value as Json, state.lang);
    state.last = null;
    evaluate(view, state, false);
  } else state.loadError = r.error.code;
  state.rebuild();
}

/** Draws the whole screen: the loading line or its error until a scenario is there, then the actions, the editor and the results. */
function buildPlanner(s: PlannerScreenState): void {
  const { ctx, view, state, root, p } = s;
  const focused = document.activeElement?.id ?? '';
  s.closeCharts();
  root.replaceChildren(el('h2', { id: 'planner-title' }, p('title')), el('p', { class: 'pl-intro' }, p('intro')));
  if (state.draft === null) {
    if (state.loadError !== null) {
      root.append(el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError }, p('loadFailed'), ' ', errorText(ctx.lang, state.loadError)));
    } else root.append(el('p', { role: 'status' }, p('loading')));
    if (!state.loading && state.loadError === null) void loadScenario(s);
    return;
  }
  // A select can change what the form shows (so it is drawn again), and always what the plan
  // computes: evaluate first, so the results drawn are the new choice's, never the last edit's.
  const form = new PlannerForm(ctx.lang, state, () => refreshResults(s, area), () => {
    evaluate(view, state);
    s.build();
  }, catalog);
  const errorBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError });
  const results = el('div', { class: 'pl-results', 'aria-live': 'off' });
  const actions = scenarioActions(s);
  const area: PlannerResultsArea = { form, errorBox, results, exportBtn: actions.exportBtn, exportHelp: actions.exportHelp };
  const saveNote = state.saveError === null ? el('p', { hidden: '' }) : el('p', { class: 'error', role: 'alert' }, p('saveFailed', { detail: errorText(ctx.lang, state.saveError) }));
  root.append(
    // one row of scenario actions and one line of what they do: the editor and the results start high enough to share the window
    actions.row,
    actions.help,
    importNoteView(s),
    saveNote,
    // side by side: the configuration being edited (its tab) and the results, which stay in view while the editor scrolls
    // (a region of their own, scrolled with the keyboard too once focused)
    el('div', { class: 'pl-layout' }, form.element(), el('div', { class: 'pl-right', role: 'region', 'aria-label': p('sec.results'), tabindex: '0' }, errorBox, results)),
    form.drivesElement(),
  );
  showPlanError(s, area);
  drawResults(s, area);
  if (focused !== '') document.getElementById(focused)?.focus();
}

/** The row of scenario actions (export, reset, import) and the line saying what they do. */
function scenarioActions(s: PlannerScreenState): { row: HTMLElement; help: HTMLElement; exportBtn: HTMLButtonElement; exportHelp: HTMLElement } {
  const { view, state, p } = s;
  const exportBtn = el('button', { type: 'button', 'data-testid': TID.plannerExport, 'aria-describedby': 'pl-export-help' }, p('export'));
  exportBtn.addEventListener('click', () => exportScenario(view, state));
  const resetBtn = el('button', { type: 'button', 'data-testid': TID.plannerReset }, p('reset'));
  resetBtn.addEventListener('click', () => {
    void queueSave(view, state, null);
    importNotes.delete(view.id);
    state.draft = null;
    state.last = null;
    state.error = null;
    s.build();
  });
  const exportHelp = el('span', { id: 'pl-export-help' }, p('exportHelp'));
  const fileInput = el('input', { type: 'file', id: 'pl-import', accept: '.json,application/json', 'data-testid': TID.plannerImport, 'aria-describedby': 'pl-import-help', class: 'pl-file' });
  const importLabel = el('label', { for: 'pl-import', class: 'button' }, p('import'));
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file !== undefined) void importFile(s, file);
  });
  return {
    row: el('div', { class: 'pl-actions' }, exportBtn, resetBtn, importLabel, fileInput),
    help: el('p', { class: 'pl-help pl-action-help' }, exportHelp, ' ', el('span', { id: 'pl-import-help' }, p('importHelp')), ' ', p('savedNote')),
    exportBtn,
    exportHelp,
  };
}

/** What the last import said for this analysis: the file imported, the refused file's sentence, or a hidden line. */
function importNoteView(s: PlannerScreenState): HTMLElement {
  const note = importNotes.get(s.view.id);
  if (note === undefined) return el('p', { hidden: '' });
  return note.ok
    ? el('p', { role: 'status', 'data-testid': TID.plannerImportStatus }, note.text)
    : el('p', { class: 'error', role: 'alert', 'data-testid': TID.plannerImportError }, note.text);
}

/** After an edit: the plan evaluated again, its problems shown, and the results drawn when the scenario is valid (or none are drawn yet). */
function refreshResults(s: PlannerScreenState, area: PlannerResultsArea): void {
  evaluate(s.view, s.state);
  showPlanError(s, area);
  if (s.state.error === null || area.results.childElementCount === 0) drawResults(s, area);
}

/** The scenario's problems, one sentence per bad field (its label and JSON path), its inputs marked invalid; export refused while any is left. */
function showPlanError(s: PlannerScreenState, area: PlannerResultsArea): void {
  const { ctx, state, root, p } = s;
  const { errorBox, exportBtn, exportHelp, form } = area;
  for (const bad of root.querySelectorAll('[aria-invalid="true"]')) bad.removeAttribute('aria-invalid');
  const err = state.error;
  exportBtn.disabled = err !== null;
  exportHelp.textContent = err === null ? p('exportHelp') : p('exportDisabled');
  if (err === null) {
    errorBox.replaceChildren();
    errorBox.hidden = true;
    return;
  }
  errorBox.hidden = false;
  const problems = state.problems.length > 0 ? state.problems : [err];
  // One sentence per bad field, each naming it (label and JSON path).
  errorBox.replaceChildren(
    ...(problems.length > 1 ? [el('p', {}, p('problems', { count: problems.length }))] : []),
    el('ul', { class: 'pl-problems' }, ...problems.map((e) => el('li', { class: 'pl-error-sentence' }, planErrorSentence(e, ctx.lang, form.labelFor(e.path))))),
    el('span', { class: 'pl-help' }, state.last === null ? p('noResultYet') : p('lastValid')),
  );
  for (const e of problems) document.getElementById(idFor(e.path))?.setAttribute('aria-invalid', 'true');
}

/** The last valid plan drawn (its charts kept to be destroyed with the next drawing). */
function drawResults(s: PlannerScreenState, area: PlannerResultsArea): void {
  s.closeCharts();
  area.results.replaceChildren();
  if (s.state.last !== null) area.results.append(...resultsView(s.ctx, s.state.last.scenario, s.state.last.result, (c) => s.charts.push(c)));
}

/** Reads a scenario file: refused (the draft kept) with one sentence naming the field when it is not a valid scenario. */
async function importFile(s: PlannerScreenState, file: File): Promise<void> {
  const { ctx, view, state, p } = s;
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch (e) {
    importNotes.set(view.id, { ok: false, text: p('importNotJson', { file: file.name, detail: e instanceof Error ? e.message : String(e) }) });
    s.build();
    return;
  }
  const parsed = parseScenario(json);
  if (!parsed.ok || json === null || typeof json !== 'object') {
    const sentence = parsed.ok ? '' : planErrorSentence(parsed.error, ctx.lang, null);
    importNotes.set(view.id, { ok: false, text: p('importFailed', { file: file.name, sentence }) });
    s.build();
    return;
  }
  importNotes.set(view.id, { ok: true, text: p('imported', { file: file.name }) });
  state.draft = localizeTemplate(json as Json, state.lang);
  state.last = null;
  evaluate(view, state);
  s.build();
}

function exportScenario(view: PlannerSubject, st: PlannerState): void {
  if (st.draft === null || st.error !== null) return;
  const blob = new Blob([`${JSON.stringify(st.draft, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const name = `${view.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'scenario'}.tco.json`;
  const a = el('a', { href: url, download: name, hidden: '' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
