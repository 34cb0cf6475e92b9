/**
 * The Planner screen (issue 6): a TCO scenario prefilled from the open analysis (host channel
 * `plan.fromAnalysis`, the same scenario `cacheproof tco --from-capture` writes), every input
 * editable, and the comparison recomputed live in the renderer with the engine's pure planner
 * (`parseScenario`, `planScenario`, `sensitivity`): the same functions `cacheproof tco` runs, so
 * each figure has one implementation.
 *
 * Invalid input shows one sentence naming the field (its label and JSON path) and the results
 * keep the last valid scenario. Valid scenarios are saved in localStorage keyed by the analysis
 * id (and checked against the capture's SHA-256); "Export" downloads the scenario JSON.
 *
 * The host writes the prefilled scenario in the screen's language (its title and the template's
 * drive and configuration labels). When the language changes, or a scenario saved in another
 * language is reopened, the template's texts follow the language (`localizeTemplate`, by id);
 * a label that is not the template's text in any language (a person's own) stays as it is.
 *
 * Files: state.ts (drafts per analysis, saving, checking), form.ts (the inputs), results.ts and
 * charts.ts (the plan drawn). The screen follows the `Screen` contract (screen.ts): its charts
 * are destroyed when it redraws and when it is left.
 */
import type { Chart } from 'chart.js';
import type { AnalysisView } from '../../shared/contract.ts';
import { planErrorSentence, planner, type PlannerKey } from '../../shared/i18n/planner.ts';
import { localizeTemplate } from '../../shared/i18n/template.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx, Screen } from '../screen.ts';
import { PlannerForm, idFor } from './form.ts';
import { resultsView } from './results.ts';
import { evaluate, followLanguage, plannerState, storageKey, type Json, type PlannerState } from './state.ts';

/** The Planner screen for an open analysis (the shell puts the title and the screen tabs above it). */
export function plannerScreen(ctx: Ctx, view: AnalysisView): Screen {
  const root = el('section', { class: 'planner', 'data-testid': TID.planner, 'aria-labelledby': 'planner-title' });
  const state = plannerState(view, ctx.lang);
  followLanguage(view, state, ctx.lang);
  state.rebuild = () => {
    if (root.isConnected) build();
  };
  /** This screen's charts, destroyed when the results are drawn again and when the screen is left. */
  let charts: Chart[] = [];
  const closeCharts = (): void => {
    for (const c of charts) c.destroy();
    charts = [];
  };
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);

  const load = async (): Promise<void> => {
    state.loading = true;
    state.loadError = null;
    const r = await ctx.api.planFromAnalysis(view.id, state.lang);
    state.loading = false;
    if (r.ok) {
      // The language may have changed while the host was answering.
      state.draft = localizeTemplate(r.value as Json, state.lang);
      state.last = null;
      evaluate(view, state);
    } else state.loadError = r.error.code;
    state.rebuild();
  };

  function build(): void {
    const focused = document.activeElement?.id ?? '';
    closeCharts();
    root.replaceChildren(el('h2', { id: 'planner-title' }, p('title')), el('p', { class: 'pl-intro' }, p('intro')));
    if (state.draft === null) {
      if (state.loadError !== null) {
        root.append(el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError }, p('loadFailed'), ' ', errorText(ctx.lang, state.loadError)));
      } else root.append(el('p', { role: 'status' }, p('loading')));
      if (!state.loading && state.loadError === null) void load();
      return;
    }
    // A select can change what the form shows (so it is drawn again), and always what the plan
    // computes: evaluate first, so the results drawn are the new choice's, never the last edit's.
    const form = new PlannerForm(ctx.lang, state, () => refresh(), () => {
      evaluate(view, state);
      build();
    });
    const errorBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError });
    const results = el('div', { class: 'pl-results', 'aria-live': 'off' });
    const exportBtn = el('button', { type: 'button', 'data-testid': TID.plannerExport, 'aria-describedby': 'pl-export-help' }, p('export'));
    exportBtn.addEventListener('click', () => exportScenario(view, state));
    const resetBtn = el('button', { type: 'button', 'data-testid': TID.plannerReset }, p('reset'));
    resetBtn.addEventListener('click', () => {
      localStorage.removeItem(storageKey(view));
      state.draft = null;
      state.last = null;
      state.error = null;
      build();
    });
    const exportHelp = el('span', { id: 'pl-export-help', class: 'pl-help' }, p('exportHelp'));
    root.append(
      el('div', { class: 'pl-actions' }, exportBtn, resetBtn, exportHelp),
      el('p', { class: 'pl-help' }, p('savedNote')),
      el('div', { class: 'pl-layout' }, form.element(), el('div', { class: 'pl-right' }, errorBox, results)),
    );

    function refresh(): void {
      evaluate(view, state);
      showError();
      if (state.error === null || results.childElementCount === 0) drawResults();
    }
    function showError(): void {
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
      errorBox.replaceChildren(
        el('span', { class: 'pl-error-sentence' }, planErrorSentence(err, ctx.lang, form.labelFor(err.path))),
        el('span', { class: 'pl-help' }, ' ', state.last === null ? p('noResultYet') : p('lastValid')),
      );
      document.getElementById(idFor(err.path))?.setAttribute('aria-invalid', 'true');
    }
    function drawResults(): void {
      closeCharts();
      results.replaceChildren();
      if (state.last !== null) results.append(...resultsView(ctx, state.last.scenario, state.last.result, (c) => charts.push(c)));
    }
    showError();
    drawResults();
    if (focused !== '') document.getElementById(focused)?.focus();
  }

  build();
  return { node: root, dispose: closeCharts };
}

function exportScenario(view: AnalysisView, st: PlannerState): void {
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
