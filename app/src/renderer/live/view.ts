/**
 * The Live screen's skeleton (built once; polls only update text, values and `hidden`): the
 * header, the timeline, the progress bars, the switch call to action, the done and problem
 * panels, the charts with their window, the warnings and the actions. No state, no figures.
 */
import { live, type LiveKey } from '../../shared/i18n/live.ts';
import { profile as profileCatalog } from '../../shared/i18n/profile.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { CHARTS, LiveChart } from './charts.ts';
import { engineLines } from './engine.ts';

export const PHASES = ['baseline', 'switch', 'warmup', 'measure'] as const;

type Words = (key: LiveKey, params?: Record<string, string | number>) => string;

export interface TimelineStep {
  li: HTMLLIElement;
  when: HTMLElement;
  planned: HTMLElement;
}

export interface ProgressRow {
  row: HTMLElement;
  label: HTMLLabelElement;
  bar: HTMLProgressElement;
  text: HTMLElement;
}

function timelineView(t: Words): { timeline: HTMLOListElement; steps: Map<string, TimelineStep> } {
  const timeline = el('ol', { class: 'timeline', 'aria-label': t('timeline.label'), 'data-testid': TID.liveTimeline });
  const steps = new Map<string, TimelineStep>();
  for (const p of PHASES) {
    const when = el('span', { class: 'when' });
    const planned = el('span', { class: 'planned' });
    const li = el('li', { 'data-phase': p }, el('span', { class: 'name' }, t(`phase.${p}`)), planned, when);
    steps.set(p, { li, when, planned });
    timeline.append(li);
  }
  return { timeline, steps };
}

function progressRow(testId: string, id: string): ProgressRow {
  const label = el('label', { for: id });
  const bar = el('progress', { id, max: '100', 'aria-describedby': `${id}-text` });
  const text = el('span', { class: 'progress-text', id: `${id}-text`, 'aria-live': 'off' });
  return { row: el('div', { class: 'live-progress', 'data-testid': testId }, label, bar, text), label, bar, text };
}

/** Manual switch: the call to action, then the recorded moment. */
function switchView(t: Words) {
  const switchBody = el('p', {});
  const confirmBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.liveConfirmSwitch }, t('switch.confirm'));
  const switchCta = el('section', { class: 'live-cta', 'data-testid': TID.liveSwitchCta, 'aria-labelledby': 'live-switch-title' },
    el('h3', { id: 'live-switch-title' }, t('switch.title')), switchBody, confirmBtn);
  switchCta.hidden = true;
  const switchRecorded = el('p', { class: 'live-switch-recorded', 'data-testid': TID.liveSwitchRecorded, role: 'status' });
  switchRecorded.hidden = true;
  return { switchBody, confirmBtn, switchCta, switchRecorded };
}

/** Done, and the problems (stopped, failed, probe died): what happened and what to do next. */
function outcomeView(t: Words) {
  const doneBody = el('p', {});
  const openBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.liveOpenResults }, t('open'));
  const done = el('section', { class: 'live-done', 'data-testid': TID.liveDone, 'aria-labelledby': 'live-done-title' },
    el('h3', { id: 'live-done-title' }, t('done.title')), doneBody, openBtn);
  done.hidden = true;
  const problemTitle = el('h3', { id: 'live-problem-title' });
  const problemBody = el('p', { class: 'what' });
  const problemNext = el('p', { class: 'next' });
  const problemDetails = el('p', { class: 'details' });
  const problemCli = el('p', { class: 'cli' });
  const resumeBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.liveResume }, t('resume'));
  const openPartialBtn = el('button', { type: 'button', 'data-testid': TID.liveOpenPartial }, t('openPartial'));
  const problem = el('section', { class: 'live-problem', role: 'alert', 'data-testid': TID.liveProblem, 'aria-labelledby': 'live-problem-title' },
    problemTitle, problemBody, problemNext, problemDetails, problemCli, el('div', { class: 'actions' }, resumeBtn, openPartialBtn));
  problem.hidden = true;
  return { doneBody, openBtn, done, problemTitle, problemBody, problemNext, problemDetails, problemCli, resumeBtn, openPartialBtn, problem };
}

/** Charts and their window. */
function windowView(t: Words, lang: Lang, palette: readonly string[]) {
  const charts = CHARTS.map((spec) => new LiveChart(spec, lang, palette));
  const windowLabel = el('span', { 'data-testid': TID.liveWindowLabel, 'aria-live': 'polite' });
  const earlierBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowEarlier }, t('window.earlier'));
  const laterBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowLater }, t('window.later'));
  const liveBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowLive }, t('window.live'));
  const windowBar = el('div', { class: 'live-window' }, earlierBtn, laterBtn, liveBtn, windowLabel);
  return { charts, windowLabel, earlierBtn, laterBtn, liveBtn, windowBar };
}

/** Detach, Stop and the dialog that asks before stopping. */
function actionsView(t: Words) {
  const detachBtn = el('button', { type: 'button', 'data-testid': TID.liveDetach, 'aria-describedby': 'live-detach-help' }, t('detach'));
  const detachHelp = el('p', { class: 'help', id: 'live-detach-help' }, t('detachHelp'));
  const stopBtn = el('button', { type: 'button', class: 'danger', 'data-testid': TID.liveStop }, t('stop'));
  const stopConfirm = el('button', { type: 'button', class: 'danger', 'data-testid': TID.liveStopConfirm }, t('stop.confirm'));
  const stopCancel = el('button', { type: 'button', 'data-testid': TID.liveStopCancel }, t('stop.cancel'));
  const dialog = el('dialog', { 'data-testid': TID.liveStopDialog, 'aria-labelledby': 'live-stop-title', 'aria-describedby': 'live-stop-body' },
    el('h3', { id: 'live-stop-title' }, t('stop.title')),
    el('p', { id: 'live-stop-body' }, t('stop.body')),
    el('div', { class: 'actions' }, stopCancel, stopConfirm));
  return { detachBtn, detachHelp, stopBtn, stopConfirm, stopCancel, dialog };
}

/** Every element of the Live screen for run `runId`, assembled. */
export function liveView(lang: Lang, runId: string, palette: readonly string[]) {
  const t: Words = (key, params) => translate(live, lang, key, params);
  const title = el('h2', { 'data-testid': TID.liveTitle }, t('loading'));
  const stateBadge = el('span', { class: 'badge live-state', 'data-testid': TID.liveState, role: 'status' });
  const meta = el('p', { class: 'live-meta' });
  const samples = el('p', { class: 'live-samples', 'data-testid': TID.liveSamples });
  const traceLine = el('p', { class: 'live-samples', 'data-testid': TID.liveTrace, hidden: '' });
  const predictionLine = el('p', { class: 'live-samples', 'data-testid': TID.livePrediction, 'aria-live': 'polite', hidden: '' });
  const engine = engineLines(lang);
  const error = el('div', { class: 'error', role: 'alert', 'data-testid': TID.liveError });
  error.hidden = true;
  const { timeline, steps } = timelineView(t);
  const phaseBar = progressRow(TID.liveProgressPhase, 'live-progress-phase-bar');
  const totalBar = progressRow(TID.liveProgressTotal, 'live-progress-total-bar');
  totalBar.label.textContent = t('progress.total');
  const sw = switchView(t);
  const out = outcomeView(t);
  const win = windowView(t, lang, palette);
  const warnings = el('ul', { class: 'warnings', 'data-testid': TID.liveWarnings, 'aria-live': 'polite' });
  const acts = actionsView(t);
  // What is known only from a status: hidden until the first one arrives (a run this app does not know shows its error alone).
  const body = el('div', { class: 'live-body' },
    timeline,
    phaseBar.row, totalBar.row, samples, traceLine, predictionLine, engine.node, sw.switchRecorded,
    win.windowBar,
    el('div', { class: 'live-charts' }, ...win.charts.map((c) => el('figure', { class: 'live-figure' }, c.box, c.summary))),
    el('h3', {}, t('warnings.title')), warnings);
  body.hidden = true;
  const node = el('div', { class: 'live', 'data-testid': TID.live, 'data-run': runId },
    el('div', { class: 'live-head' }, title, stateBadge),
    meta, error, sw.switchCta, out.problem, out.done,
    body,
    el('div', { class: 'actions live-actions' }, acts.detachBtn, acts.stopBtn),
    acts.detachHelp,
    acts.dialog);
  // A run with a baseline and no measure window: the way on is Resume (in the problem panel) or the baseline alone.
  const profileBtn = el('button', { type: 'button', 'data-testid': TID.liveOpenProfile }, translate(profileCatalog, lang, 'open'));
  return { node, body, title, stateBadge, meta, samples, traceLine, predictionLine, engine, error, timeline, steps, phaseBar, totalBar, warnings, profileBtn, ...sw, ...out, ...win, ...acts };
}

export type LiveView = ReturnType<typeof liveView>;
