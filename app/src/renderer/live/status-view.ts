/**
 * Draws one run status on the Live screen's skeleton (view.ts): the header and its lines, the
 * timeline, the progress bars, the switch call to action, the done and problem panels, and the
 * warnings. Every figure arrives computed (the status, or the engine's run-plan functions).
 */
import { clampPercent, etaEndMs, phaseWidths, sharePercent } from '@cacheproof/engine';
import type { LiveSeries, RunStatus } from '../../shared/contract.ts';
import { stateText, switchDueText, waitSwitchText } from '../../shared/i18n/live.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { warningText } from '../../shared/i18n/warnings.ts';
import { fmtBytes } from '../../shared/i18n/numbers.ts';
import { msToSeconds } from '../../shared/units.ts';
import { el } from '../dom.ts';
import { fmtDateTime, fmtNumber, fmtPercent, fmtTime } from '../format.ts';
import { runPredictionText } from '../predict/fields.ts';
import { PHASES, type LiveView } from './view.ts';
import { durationText, liveWords } from './words.ts';

export const ACTIVE: readonly RunStatus['state'][] = ['starting', 'running', 'waiting-switch'];

/** What drawing a status needs besides the status: the series' phases, whether an action runs, the warnings last drawn. */
export interface StatusDraw {
  lang: Lang;
  phases: LiveSeries['phases'];
  busy: boolean;
  /** The warnings list drawn last (count and newest time): re-read only when it changed, so it is announced once. */
  warningsKey: string;
}

/** The title with the run's name, the person's own text: shown as is, marked as data (not to be translated). */
export function setTitle(v: LiveView, lang: Lang, name: string): void {
  const [before = '', after = ''] = liveWords(lang)('title', { name: '\u0000' }).split('\u0000');
  v.title.replaceChildren(before, el('span', { translate: 'no' }, name), after);
}

/** Stop and Detach while the probe records; otherwise the button just goes Home. */
export function setActive(v: LiveView, lang: Lang, active: boolean): void {
  const t = liveWords(lang);
  v.stopBtn.hidden = !active;
  v.detachBtn.textContent = active ? t('detach') : t('back');
  v.detachHelp.hidden = !active;
  if (active) v.detachBtn.setAttribute('aria-describedby', v.detachHelp.id);
  else v.detachBtn.removeAttribute('aria-describedby');
}

function renderHead(v: LiveView, lang: Lang, s: RunStatus): void {
  const t = liveWords(lang);
  setTitle(v, lang, s.name);
  v.stateBadge.textContent = stateText(lang, s.state, s.plan.switch);
  v.stateBadge.dataset['state'] = s.state;
  const front = s.plan.front ?? t('noDevice');
  const backing = s.plan.backing.length > 0 ? s.plan.backing.join(', ') : t('noDevice');
  v.meta.textContent = t('meta', { front, backing, interval: durationText(lang, msToSeconds(s.plan.intervalMs)), time: s.startedMs === null ? '' : fmtDateTime(lang, s.startedMs) });
  v.samples.textContent = s.samples > 0 && s.lastSampleMs !== null ? t('samples', { count: fmtNumber(lang, s.samples, 0), time: fmtTime(lang, s.lastSampleMs) }) : t('samplesNone');
  v.traceLine.hidden = s.trace === null;
  if (s.trace !== null) {
    const params = { requests: fmtNumber(lang, s.trace.requests, 0), lost: fmtNumber(lang, s.trace.lost, 0) };
    const rate = s.trace.sampleRate ?? 1;
    const { percent, digits } = sharePercent(rate);
    const share = fmtPercent(lang, percent, digits);
    const sampled = s.trace.budgetBytes !== null && s.trace.budgetBytes !== undefined
      ? t('traceBudget', { share, budget: fmtBytes(lang, s.trace.budgetBytes), stored: fmtBytes(lang, s.trace.storedBytes ?? 0) })
      : rate < 1 ? t('traceSampled', { share }) : '';
    v.traceLine.textContent = [s.trace.lost > 0 ? t('traceLost', params) : t('trace', params), sampled].filter((x) => x.length > 0).join(' ');
    v.traceLine.dataset['sampleRate'] = String(rate);
  }
  // the prediction from the baseline's trace the plan asked for (the supervisor runs it when the baseline ends)
  const predicted = runPredictionText(lang, s.prediction);
  v.predictionLine.hidden = predicted === null;
  v.predictionLine.textContent = predicted ?? '';
  v.predictionLine.dataset['state'] = s.prediction?.state ?? '';
}

/** Timeline: widths in proportion to the plan, planned lengths, actual starts, the current step. */
function renderTimeline(v: LiveView, d: StatusDraw, s: RunStatus): void {
  const { lang, phases } = d;
  const t = liveWords(lang);
  const planned: Record<string, number> = { baseline: s.plan.baselineSeconds, warmup: s.plan.warmupSeconds, measure: s.plan.measureSeconds };
  const widths: Record<string, number> = phaseWidths(s.plan);
  // Each step at least as wide as its longest word (and 8.5rem, styles.css): no word is cut.
  v.timeline.style.gridTemplateColumns = PHASES.map((p) => (p === 'switch' ? 'minmax(min-content, auto)' : `minmax(min-content, ${widths[p] ?? 0}fr)`)).join(' ');
  const currentIdx = s.phase === 'done' ? PHASES.length : (PHASES as readonly string[]).indexOf(s.phase);
  PHASES.forEach((p, i) => {
    const step = v.steps.get(p);
    if (!step) return;
    const rec = phases.find((x) => x.name === p);
    step.planned.textContent = p === 'switch' ? switchDueText(lang, s.plan.switch) : t('timeline.planned', { duration: durationText(lang, planned[p] ?? 0) });
    if (p === 'switch') step.when.textContent = s.switchMs !== null ? t('timeline.switchAt', { time: fmtTime(lang, s.switchMs) }) : '';
    else step.when.textContent = rec ? t('timeline.started', { time: fmtTime(lang, rec.startMs) }) : '';
    step.li.className = i < currentIdx ? 'past' : i === currentIdx ? 'current' : 'future';
    if (i === currentIdx) step.li.setAttribute('aria-current', 'step');
    else step.li.removeAttribute('aria-current');
  });
}

function progressText(lang: Lang, s: RunStatus, percent: number | null, eta: number | null): string {
  const t = liveWords(lang);
  if (percent === null) return t('progress.pending');
  if (percent >= 100 || s.state === 'done') return t('progress.complete', { percent: fmtPercent(lang, 100, 1) });
  // A stopped, failed or dead run ends at no time: the percent recorded, without an estimate.
  if (eta === null || !ACTIVE.includes(s.state)) return fmtPercent(lang, percent, 1);
  return t('progress.eta', { percent: fmtPercent(lang, percent, 1), duration: durationText(lang, eta), time: fmtTime(lang, etaEndMs(Date.now(), eta)) });
}

function setBar(bar: HTMLProgressElement, percent: number | null): void {
  if (percent === null) bar.removeAttribute('value');
  else bar.value = clampPercent(percent);
}

function renderProgress(v: LiveView, lang: Lang, s: RunStatus): void {
  const t = liveWords(lang);
  const phaseName = s.phase === 'done' ? t('phase.done') : (PHASES as readonly string[]).includes(s.phase) ? t(`phase.${s.phase as (typeof PHASES)[number]}`) : s.phase;
  v.phaseBar.label.textContent = t('progress.phase', { phase: phaseName });
  setBar(v.phaseBar.bar, s.state === 'waiting-switch' ? null : s.phasePercent);
  v.phaseBar.text.textContent = s.state === 'waiting-switch' ? waitSwitchText(lang, s.plan.switch) : progressText(lang, s, s.phasePercent, s.phaseEtaSeconds);
  setBar(v.totalBar.bar, s.totalPercent);
  v.totalBar.text.textContent = s.state === 'waiting-switch' && s.totalPercent !== null
    ? t('progress.afterSwitch', { percent: fmtPercent(lang, s.totalPercent, 1), duration: durationText(lang, s.plan.warmupSeconds + s.plan.measureSeconds) })
    : progressText(lang, s, s.totalPercent, s.totalEtaSeconds);
}

/** Manual switch (an adapter switches by itself: no call to action). */
function renderSwitch(v: LiveView, d: StatusDraw, s: RunStatus): void {
  const { lang } = d;
  const t = liveWords(lang);
  const backing = s.plan.backing.length > 0 ? s.plan.backing.join(', ') : t('noDevice');
  const due = s.state === 'waiting-switch' && s.switchMs === null && s.plan.switch.kind === 'manual';
  v.switchCta.hidden = !due;
  v.switchBody.textContent = t('switch.body', { front: s.plan.front ?? backing, warmup: durationText(lang, s.plan.warmupSeconds), measure: durationText(lang, s.plan.measureSeconds) });
  v.confirmBtn.disabled = d.busy;
  v.switchRecorded.hidden = s.switchMs === null;
  if (s.switchMs !== null) v.switchRecorded.textContent = `${t('switch.recorded', { time: fmtTime(lang, s.switchMs) })}${s.state === 'waiting-switch' ? ` ${t('switch.pickedUp')}` : ''}`;
}

/** Done / problems: what happened and what to do next. */
function renderOutcome(v: LiveView, d: StatusDraw, s: RunStatus): void {
  const { lang } = d;
  const t = liveWords(lang);
  v.done.hidden = s.state !== 'done';
  v.doneBody.textContent = t('done.body', { samples: fmtNumber(lang, s.samples, 0) });
  const kind = s.state === 'probe-died' ? 'died' : s.state === 'failed' || s.state === 'stopped' ? s.state : null;
  v.problem.hidden = kind === null;
  if (kind !== null) {
    v.problemTitle.textContent = t(`${kind}.title`);
    v.problemBody.textContent = t(`${kind}.body`, { time: s.lastSampleMs === null ? '—' : fmtTime(lang, s.lastSampleMs), samples: fmtNumber(lang, s.samples, 0), file: s.captureFile });
    v.problemNext.textContent = t(`${kind}.next`);
    v.problemDetails.textContent = s.error ? t('details', { text: s.error }) : '';
    v.problemDetails.hidden = !s.error;
    v.problemCli.textContent = t('cli', { command: `cacheproof-probe record --resume ${s.captureFile}` });
  }
  v.resumeBtn.disabled = d.busy;
}

/** Warnings, as they arrive (the list is re-read only when it changed, so it is announced once). */
function renderWarnings(v: LiveView, d: StatusDraw, s: RunStatus): void {
  const t = liveWords(d.lang);
  const key = `${s.warnings.length}:${s.warnings[s.warnings.length - 1]?.utcMs ?? 0}`;
  if (key === d.warningsKey) return;
  d.warningsKey = key;
  v.warnings.replaceChildren();
  if (s.warnings.length === 0) v.warnings.append(el('li', {}, t('warnings.none')));
  for (const w of s.warnings) {
    v.warnings.append(el('li', { 'data-code': w.code }, t('warningLine', { time: fmtTime(d.lang, w.utcMs), text: warningText({ code: w.code, message: w.message, ...(w.device === null ? {} : { device: w.device }) }, d.lang) })));
  }
}

/** Draws status `s` on the skeleton. */
export function renderStatus(v: LiveView, d: StatusDraw, s: RunStatus): void {
  v.node.dataset['state'] = s.state;
  v.node.dataset['phase'] = s.phase;
  v.body.hidden = false;
  renderHead(v, d.lang, s);
  renderTimeline(v, d, s);
  renderProgress(v, d.lang, s);
  v.engine.update(s);
  renderSwitch(v, d, s);
  renderOutcome(v, d, s);
  setActive(v, d.lang, ACTIVE.includes(s.state));
  renderWarnings(v, d, s);
}
