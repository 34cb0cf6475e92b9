/**
 * The Live run screen (`#/run/<runId>`): attaches to a run the probe records in the background,
 * whether this window started it or found it on disk. It polls `run.status` every second and
 * draws: the phase timeline, progress for the phase and the whole run (percent, time left and
 * the clock time it ends), live charts of the last hour (with scrolling back an hour at a time),
 * the recorder's warnings as they arrive, the manual-switch call to action, and what happened
 * and what to do next when the run stops, fails or its probe dies. Detach leaves the run going;
 * Stop asks first. Nothing here keeps the run alive: the probe does not depend on this window.
 */
/* eslint-disable cacheproof/no-renderer-arithmetic -- issue 38: figures still computed here, to move to engine/ */
import type { LiveSeries, RunStatus } from '../../shared/contract.ts';
import { common, type CommonKey } from '../../shared/i18n/common.ts';
import { live, stateText, switchDueText, waitSwitchText, type LiveKey } from '../../shared/i18n/live.ts';
import { profile as profileCatalog } from '../../shared/i18n/profile.ts';
import { translate } from '../../shared/i18n/types.ts';
import { warningText } from '../../shared/i18n/warnings.ts';
import { TID } from '../../shared/testids.ts';
import { engineLines } from './engine.ts';
import { el } from '../dom.ts';
import { fmtDateTime, fmtNumber, fmtPercent, fmtTime } from '../format.ts';
import { fmtBytes } from '../../shared/i18n/numbers.ts';
import type { Ctx, Screen } from '../screen.ts';
import { CHARTS, LiveChart, type DeviceBuffer } from './charts.ts';
import { runPredictionText } from '../predict/fields.ts';

/** The hour the charts show. */
const WINDOW_MS = 3600_000;
const POLL_MS = 1000;
/** Finished, stopped or dead runs change rarely (only a resume from a terminal): poll slower. */
const POLL_IDLE_MS = 3000;
const ACTIVE: readonly RunStatus['state'][] = ['starting', 'running', 'waiting-switch'];
const PHASES = ['baseline', 'switch', 'warmup', 'measure'] as const;

// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function liveScreen(ctx: Ctx, runId: string): Screen {
  const lang = ctx.lang;
  const t = (key: LiveKey, params?: Record<string, string | number>): string => translate(live, lang, key, params);
  const tc = (key: CommonKey): string => translate(common, lang, key);
  const errText = (code: string): string => {
    const key = `err.${code}` as CommonKey;
    return key in common.en ? tc(key) : tc('err.internal');
  };

  /** `1 h 05 min`, `12 min 30 s`, `45 s`: two units at most, in the locale's words. */
  const duration = (seconds: number): string => {
    const s = Math.max(0, Math.round(seconds));
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = s % 60;
    const n = (v: number): string => fmtNumber(lang, v, 0);
    const parts: string[] = [];
    if (d > 0) parts.push(t('dur.d', { n: n(d) }), ...(h > 0 ? [t('dur.h', { n: n(h) })] : []));
    else if (h > 0) parts.push(t('dur.h', { n: n(h) }), ...(m > 0 ? [t('dur.min', { n: n(m) })] : []));
    else if (m > 0) parts.push(t('dur.min', { n: n(m) }), ...(sec > 0 ? [t('dur.s', { n: n(sec) })] : []));
    else parts.push(t('dur.s', { n: n(sec) }));
    return parts.join(' ');
  };

  // ---- skeleton (built once; polls only update text, values and `hidden`) ----
  const title = el('h2', { 'data-testid': TID.liveTitle }, t('loading'));
  const stateBadge = el('span', { class: 'badge live-state', 'data-testid': TID.liveState, role: 'status' });
  const meta = el('p', { class: 'live-meta' });
  const samples = el('p', { class: 'live-samples', 'data-testid': TID.liveSamples });
  const traceLine = el('p', { class: 'live-samples', 'data-testid': TID.liveTrace, hidden: '' });
  const predictionLine = el('p', { class: 'live-samples', 'data-testid': TID.livePrediction, 'aria-live': 'polite', hidden: '' });
  const engine = engineLines(lang);
  const error = el('div', { class: 'error', role: 'alert', 'data-testid': TID.liveError });
  error.hidden = true;

  const timeline = el('ol', { class: 'timeline', 'aria-label': t('timeline.label'), 'data-testid': TID.liveTimeline });
  const steps = new Map<string, { li: HTMLLIElement; when: HTMLElement; planned: HTMLElement }>();
  for (const p of PHASES) {
    const when = el('span', { class: 'when' });
    const planned = el('span', { class: 'planned' });
    const li = el('li', { 'data-phase': p }, el('span', { class: 'name' }, t(`phase.${p}`)), planned, when);
    steps.set(p, { li, when, planned });
    timeline.append(li);
  }

  const progressRow = (testId: string, id: string): { row: HTMLElement; label: HTMLLabelElement; bar: HTMLProgressElement; text: HTMLElement } => {
    const label = el('label', { for: id });
    const bar = el('progress', { id, max: '100', 'aria-describedby': `${id}-text` });
    const text = el('span', { class: 'progress-text', id: `${id}-text`, 'aria-live': 'off' });
    return { row: el('div', { class: 'live-progress', 'data-testid': testId }, label, bar, text), label, bar, text };
  };
  const phaseBar = progressRow(TID.liveProgressPhase, 'live-progress-phase-bar');
  const totalBar = progressRow(TID.liveProgressTotal, 'live-progress-total-bar');
  totalBar.label.textContent = t('progress.total');

  // Manual switch: the call to action, then the recorded moment.
  const switchBody = el('p', {});
  const confirmBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.liveConfirmSwitch }, t('switch.confirm'));
  const switchCta = el('section', { class: 'live-cta', 'data-testid': TID.liveSwitchCta, 'aria-labelledby': 'live-switch-title' },
    el('h3', { id: 'live-switch-title' }, t('switch.title')), switchBody, confirmBtn);
  switchCta.hidden = true;
  const switchRecorded = el('p', { class: 'live-switch-recorded', 'data-testid': TID.liveSwitchRecorded, role: 'status' });
  switchRecorded.hidden = true;

  // Done, and the problems (stopped, failed, probe died): what happened and what to do next.
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

  // Charts and their window.
  const charts = CHARTS.map((spec) => new LiveChart(spec, lang, ctx.palette));
  const windowLabel = el('span', { 'data-testid': TID.liveWindowLabel, 'aria-live': 'polite' });
  const earlierBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowEarlier }, t('window.earlier'));
  const laterBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowLater }, t('window.later'));
  const liveBtn = el('button', { type: 'button', 'data-testid': TID.liveWindowLive }, t('window.live'));
  const windowBar = el('div', { class: 'live-window' }, earlierBtn, laterBtn, liveBtn, windowLabel);

  const warnings = el('ul', { class: 'warnings', 'data-testid': TID.liveWarnings, 'aria-live': 'polite' });

  const detachBtn = el('button', { type: 'button', 'data-testid': TID.liveDetach, 'aria-describedby': 'live-detach-help' }, t('detach'));
  const detachHelp = el('p', { class: 'help', id: 'live-detach-help' }, t('detachHelp'));
  const stopBtn = el('button', { type: 'button', class: 'danger', 'data-testid': TID.liveStop }, t('stop'));
  const stopConfirm = el('button', { type: 'button', class: 'danger', 'data-testid': TID.liveStopConfirm }, t('stop.confirm'));
  const stopCancel = el('button', { type: 'button', 'data-testid': TID.liveStopCancel }, t('stop.cancel'));
  const dialog = el('dialog', { 'data-testid': TID.liveStopDialog, 'aria-labelledby': 'live-stop-title', 'aria-describedby': 'live-stop-body' },
    el('h3', { id: 'live-stop-title' }, t('stop.title')),
    el('p', { id: 'live-stop-body' }, t('stop.body')),
    el('div', { class: 'actions' }, stopCancel, stopConfirm));

  // What is known only from a status: hidden until the first one arrives (a run this app does not know shows its error alone).
  const body = el('div', { class: 'live-body' },
    timeline,
    phaseBar.row, totalBar.row, samples, traceLine, predictionLine, engine.node, switchRecorded,
    windowBar,
    el('div', { class: 'live-charts' }, ...charts.map((c) => el('figure', { class: 'live-figure' }, c.box, c.summary))),
    el('h3', {}, t('warnings.title')), warnings);
  body.hidden = true;
  const node = el('div', { class: 'live', 'data-testid': TID.live, 'data-run': runId },
    el('div', { class: 'live-head' }, title, stateBadge),
    meta, error, switchCta, problem, done,
    body,
    el('div', { class: 'actions live-actions' }, detachBtn, stopBtn),
    detachHelp,
    dialog);

  // ---- state ----
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let status: RunStatus | null = null;
  /** null = live (the last hour, growing); a number = the end of the earlier hour shown. */
  let viewEnd: number | null = null;
  let buffers: DeviceBuffer[] = [];
  let phases: LiveSeries['phases'] = [];
  let chartsReady = false;
  let warningsKey = '';
  let busy = false;

  // A run with a baseline and no measure window: the way on is Resume (in the problem panel) or the baseline alone.
  const profileBtn = el('button', { type: 'button', 'data-testid': TID.liveOpenProfile }, translate(profileCatalog, lang, 'open'));
  profileBtn.addEventListener('click', () => ctx.go(`profile/${encodeURIComponent(runId)}`));
  const showError = (code: string | null): void => {
    error.hidden = code === null;
    if (code === 'analysis-no-measure') error.replaceChildren(el('p', {}, errText(code)), el('div', { class: 'actions' }, profileBtn));
    else error.textContent = code === null ? '' : errText(code);
  };

  const setActive = (active: boolean): void => {
    stopBtn.hidden = !active;
    // Detach only means something while the probe records; otherwise the button just goes Home.
    detachBtn.textContent = active ? t('detach') : t('back');
    detachHelp.hidden = !active;
    if (active) detachBtn.setAttribute('aria-describedby', detachHelp.id);
    else detachBtn.removeAttribute('aria-describedby');
  };

  /** The title with the run's name, the person's own text: shown as is, marked as data (not to be translated). */
  const setTitle = (name: string): void => {
    const [before = '', after = ''] = t('title', { name: '\u0000' }).split('\u0000');
    title.replaceChildren(before, el('span', { translate: 'no' }, name), after);
  };

  const lastT = (): number => buffers.reduce((m, b) => Math.max(m, b.t[b.t.length - 1] ?? 0), 0);

  const intervalText = (): string => (status ? duration(status.plan.intervalMs / 1000) : '');

  const drawCharts = (): void => {
    if (!chartsReady) return;
    const end = viewEnd ?? Math.max(lastT(), status?.lastSampleMs ?? 0);
    const firstT = buffers.reduce((m, b) => Math.min(m, b.t[0] ?? Infinity), Infinity);
    const from = viewEnd !== null ? end - WINDOW_MS : Math.max(end - WINDOW_MS, Number.isFinite(firstT) ? firstT : end - WINDOW_MS);
    const to = Math.max(end, from + 1000);
    for (const c of charts) c.update(buffers, phases, from, to, intervalText());
    const recording = status !== null && ACTIVE.includes(status.state);
    windowLabel.textContent = `${t('window.label', { from: fmtTime(lang, from), to: fmtTime(lang, to) })}${viewEnd === null && recording ? ` (${t('window.liveNote')})` : ''}`;
    // An earlier hour exists when the run started before the hour ending where this view ends.
    const start = status?.startedMs ?? firstT;
    earlierBtn.disabled = !(Number.isFinite(start) && start < to - WINDOW_MS);
    laterBtn.disabled = viewEnd === null;
    liveBtn.disabled = viewEnd === null;
  };

  /** Adds points after the last one (live), trimming what falls out of the hour. */
  const merge = (s: LiveSeries): void => {
    phases = s.phases;
    for (const inc of s.series) {
      let b = buffers.find((x) => x.device === inc.device);
      if (!b) {
        b = { device: inc.device, role: inc.role, t: [], iops: [], mbps: [], latencyMs: [], means: inc.means };
        buffers.push(b);
        buffers.sort((x, y) => (x.role === 'front' ? 0 : 1) - (y.role === 'front' ? 0 : 1) || x.device.localeCompare(y.device));
      }
      // the host's means over the hour shown (engine window summary), replaced with every reply
      b.means = inc.means;
      const after = b.t[b.t.length - 1] ?? -Infinity;
      inc.t.forEach((x, i) => {
        if (x <= after) return;
        b.t.push(x);
        b.iops.push(inc.iops[i] ?? null);
        b.mbps.push(inc.mbps[i] ?? null);
        b.latencyMs.push(inc.latencyMs[i] ?? null);
      });
    }
    const cut = lastT() - WINDOW_MS;
    for (const b of buffers) {
      let k = 0;
      while (k < b.t.length && (b.t[k] ?? 0) < cut) k++;
      if (k > 0) {
        b.t.splice(0, k);
        b.iops.splice(0, k);
        b.mbps.splice(0, k);
        b.latencyMs.splice(0, k);
      }
    }
  };

  const replace = (s: LiveSeries): void => {
    buffers = [];
    merge(s);
  };

  const fetchSeries = async (): Promise<void> => {
    if (viewEnd !== null) return;
    const since = lastT();
    const r = await ctx.api.runSeries(runId, since);
    if (disposed || viewEnd !== null) return;
    if (r.ok) {
      merge(r.value);
      drawCharts();
    }
  };

  const showWindow = async (end: number | null): Promise<void> => {
    viewEnd = end;
    const r = end === null ? await ctx.api.runSeries(runId, 0) : await ctx.api.runSeries(runId, end - WINDOW_MS, end);
    if (disposed || viewEnd !== end) return;
    if (r.ok) {
      replace(r.value);
      showError(null);
    } else showError(r.error.code);
    drawCharts();
  };

  const progressText = (s: RunStatus, percent: number | null, eta: number | null): string => {
    if (percent === null) return t('progress.pending');
    if (percent >= 100 || s.state === 'done') return t('progress.complete', { percent: fmtPercent(lang, 100, 1) });
    // A stopped, failed or dead run ends at no time: the percent recorded, without an estimate.
    if (eta === null || !ACTIVE.includes(s.state)) return fmtPercent(lang, percent, 1);
    return t('progress.eta', { percent: fmtPercent(lang, percent, 1), duration: duration(eta), time: fmtTime(lang, Date.now() + eta * 1000) });
  };

  const setBar = (bar: HTMLProgressElement, percent: number | null): void => {
    if (percent === null) bar.removeAttribute('value');
    else bar.value = Math.min(100, Math.max(0, percent));
  };

  // eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
  const render = (s: RunStatus): void => {
    node.dataset['state'] = s.state;
    node.dataset['phase'] = s.phase;
    body.hidden = false;
    setTitle(s.name);
    stateBadge.textContent = stateText(lang, s.state, s.plan.switch);
    stateBadge.dataset['state'] = s.state;
    const front = s.plan.front ?? t('noDevice');
    const backing = s.plan.backing.length > 0 ? s.plan.backing.join(', ') : t('noDevice');
    meta.textContent = t('meta', { front, backing, interval: duration(s.plan.intervalMs / 1000), time: s.startedMs === null ? '' : fmtDateTime(lang, s.startedMs) });
    samples.textContent = s.samples > 0 && s.lastSampleMs !== null ? t('samples', { count: fmtNumber(lang, s.samples, 0), time: fmtTime(lang, s.lastSampleMs) }) : t('samplesNone');
    traceLine.hidden = s.trace === null;
    if (s.trace !== null) {
      const params = { requests: fmtNumber(lang, s.trace.requests, 0), lost: fmtNumber(lang, s.trace.lost, 0) };
      const rate = s.trace.sampleRate ?? 1;
      const share = fmtPercent(lang, rate * 100, rate < 0.1 ? 2 : 1);
      const sampled = s.trace.budgetBytes !== null && s.trace.budgetBytes !== undefined
        ? t('traceBudget', { share, budget: fmtBytes(lang, s.trace.budgetBytes), stored: fmtBytes(lang, s.trace.storedBytes ?? 0) })
        : rate < 1 ? t('traceSampled', { share }) : '';
      traceLine.textContent = [s.trace.lost > 0 ? t('traceLost', params) : t('trace', params), sampled].filter((x) => x.length > 0).join(' ');
      traceLine.dataset['sampleRate'] = String(rate);
    }
    // the prediction from the baseline's trace the plan asked for (the supervisor runs it when the baseline ends)
    const predicted = runPredictionText(lang, s.prediction);
    predictionLine.hidden = predicted === null;
    predictionLine.textContent = predicted ?? '';
    predictionLine.dataset['state'] = s.prediction?.state ?? '';

    // Timeline: widths in proportion to the plan, planned lengths, actual starts, the current step.
    const planned: Record<string, number> = { baseline: s.plan.baselineSeconds, warmup: s.plan.warmupSeconds, measure: s.plan.measureSeconds };
    const total = Math.max(1, s.plan.baselineSeconds + s.plan.warmupSeconds + s.plan.measureSeconds);
    // Each step at least as wide as its longest word (and 8.5rem, styles.css): no word is cut.
    timeline.style.gridTemplateColumns = PHASES.map((p) => (p === 'switch' ? 'minmax(min-content, auto)' : `minmax(min-content, ${((planned[p] ?? 0) / total) * 10}fr)`)).join(' ');
    const currentIdx = s.phase === 'done' ? PHASES.length : (PHASES as readonly string[]).indexOf(s.phase);
    PHASES.forEach((p, i) => {
      const step = steps.get(p);
      if (!step) return;
      const rec = phases.find((x) => x.name === p);
      step.planned.textContent = p === 'switch' ? switchDueText(lang, s.plan.switch) : t('timeline.planned', { duration: duration(planned[p] ?? 0) });
      if (p === 'switch') step.when.textContent = s.switchMs !== null ? t('timeline.switchAt', { time: fmtTime(lang, s.switchMs) }) : '';
      else step.when.textContent = rec ? t('timeline.started', { time: fmtTime(lang, rec.startMs) }) : '';
      step.li.className = i < currentIdx ? 'past' : i === currentIdx ? 'current' : 'future';
      if (i === currentIdx) step.li.setAttribute('aria-current', 'step');
      else step.li.removeAttribute('aria-current');
    });

    // Progress.
    const phaseName = s.phase === 'done' ? t('phase.done') : (PHASES as readonly string[]).includes(s.phase) ? t(`phase.${s.phase as (typeof PHASES)[number]}`) : s.phase;
    phaseBar.label.textContent = t('progress.phase', { phase: phaseName });
    setBar(phaseBar.bar, s.state === 'waiting-switch' ? null : s.phasePercent);
    phaseBar.text.textContent = s.state === 'waiting-switch' ? waitSwitchText(lang, s.plan.switch) : progressText(s, s.phasePercent, s.phaseEtaSeconds);
    setBar(totalBar.bar, s.totalPercent);
    totalBar.text.textContent = s.state === 'waiting-switch' && s.totalPercent !== null
      ? t('progress.afterSwitch', { percent: fmtPercent(lang, s.totalPercent, 1), duration: duration(s.plan.warmupSeconds + s.plan.measureSeconds) })
      : progressText(s, s.totalPercent, s.totalEtaSeconds);

    engine.update(s);

    // Manual switch (an adapter switches by itself: no call to action).
    const due = s.state === 'waiting-switch' && s.switchMs === null && s.plan.switch.kind === 'manual';
    switchCta.hidden = !due;
    switchBody.textContent = t('switch.body', { front: s.plan.front ?? backing, warmup: duration(s.plan.warmupSeconds), measure: duration(s.plan.measureSeconds) });
    confirmBtn.disabled = busy;
    switchRecorded.hidden = s.switchMs === null;
    if (s.switchMs !== null) switchRecorded.textContent = `${t('switch.recorded', { time: fmtTime(lang, s.switchMs) })}${s.state === 'waiting-switch' ? ` ${t('switch.pickedUp')}` : ''}`;

    // Done / problems.
    done.hidden = s.state !== 'done';
    doneBody.textContent = t('done.body', { samples: fmtNumber(lang, s.samples, 0) });
    const kind = s.state === 'probe-died' ? 'died' : s.state === 'failed' || s.state === 'stopped' ? s.state : null;
    problem.hidden = kind === null;
    if (kind !== null) {
      problemTitle.textContent = t(`${kind}.title`);
      problemBody.textContent = t(`${kind}.body`, { time: s.lastSampleMs === null ? '—' : fmtTime(lang, s.lastSampleMs), samples: fmtNumber(lang, s.samples, 0), file: s.captureFile });
      problemNext.textContent = t(`${kind}.next`);
      problemDetails.textContent = s.error ? t('details', { text: s.error }) : '';
      problemDetails.hidden = !s.error;
      problemCli.textContent = t('cli', { command: `cacheproof-probe record --resume ${s.captureFile}` });
    }
    resumeBtn.disabled = busy;
    setActive(ACTIVE.includes(s.state));

    // Warnings, as they arrive (the list is re-read only when it changed, so it is announced once).
    const key = `${s.warnings.length}:${s.warnings[s.warnings.length - 1]?.utcMs ?? 0}`;
    if (key !== warningsKey) {
      warningsKey = key;
      warnings.replaceChildren();
      if (s.warnings.length === 0) warnings.append(el('li', {}, t('warnings.none')));
      for (const w of s.warnings) {
        warnings.append(el('li', { 'data-code': w.code }, t('warningLine', { time: fmtTime(lang, w.utcMs), text: warningText({ code: w.code, message: w.message, ...(w.device === null ? {} : { device: w.device }) }, lang) })));
      }
    }
  };

  /** A status from the host (a poll or an action's reply): kept, drawn, and the series fetched with it. */
  const show = async (s: RunStatus): Promise<void> => {
    status = s;
    showError(null);
    render(s);
    await fetchSeries();
  };

  const tick = async (): Promise<void> => {
    timer = null;
    if (disposed) return;
    const r = await ctx.api.runStatus(runId);
    if (disposed) return;
    if (r.ok) await show(r.value);
    else {
      showError(r.error.code);
      if (status === null) {
        // Never known (a stale link, another installation's run): say which run, and offer only the way Home.
        setTitle(runId);
        setActive(false);
      }
    }
    if (disposed) return;
    timer = setTimeout(() => void tick(), status === null || !ACTIVE.includes(status.state) ? POLL_IDLE_MS : POLL_MS);
  };

  /** Runs one action with the buttons disabled, then applies the status it returns. */
  const act = async (fn: () => Promise<{ ok: true; value: RunStatus } | { ok: false; error: { code: string } }>): Promise<void> => {
    if (busy) return;
    busy = true;
    confirmBtn.disabled = resumeBtn.disabled = stopConfirm.disabled = true;
    try {
      const r = await fn();
      if (disposed) return;
      // The points recorded up to the action (a stop keeps the last ones): drawn now, not at the next poll.
      if (r.ok) await show(r.value);
      else showError(r.error.code);
    } finally {
      busy = false;
      confirmBtn.disabled = resumeBtn.disabled = stopConfirm.disabled = false;
    }
  };

  const openResults = async (btn: HTMLButtonElement): Promise<void> => {
    const label = btn.textContent ?? '';
    btn.disabled = true;
    btn.textContent = t('opening');
    const r = await ctx.api.openRun(runId);
    if (disposed) return;
    btn.disabled = false;
    btn.textContent = label;
    if (r.ok) {
      ctx.remember(r.value);
      ctx.go(`results/${encodeURIComponent(r.value.id)}`);
    } else showError(r.error.code);
  };

  confirmBtn.addEventListener('click', () => void act(() => ctx.api.confirmSwitch(runId)));
  resumeBtn.addEventListener('click', () => void act(() => ctx.api.resumeRun(runId)));
  openBtn.addEventListener('click', () => void openResults(openBtn));
  openPartialBtn.addEventListener('click', () => void openResults(openPartialBtn));
  detachBtn.addEventListener('click', () => ctx.go('home'));
  stopBtn.addEventListener('click', () => {
    dialog.showModal();
    stopCancel.focus();
  });
  stopCancel.addEventListener('click', () => dialog.close());
  stopConfirm.addEventListener('click', () => {
    void act(() => ctx.api.stopRun(runId)).then(() => {
      if (dialog.open) dialog.close();
      stopBtn.focus();
    });
  });
  earlierBtn.addEventListener('click', () => {
    const end = (viewEnd ?? Math.max(lastT(), status?.lastSampleMs ?? 0)) - WINDOW_MS;
    void showWindow(end);
  });
  laterBtn.addEventListener('click', () => {
    if (viewEnd === null) return;
    const end = viewEnd + WINDOW_MS;
    void showWindow(end >= (status?.lastSampleMs ?? 0) ? null : end);
  });
  liveBtn.addEventListener('click', () => void showWindow(null));

  // The canvases must be in the document for Chart.js to size them: start on the next frame.
  requestAnimationFrame(() => {
    if (disposed) return;
    chartsReady = true;
    void (async () => {
      await tick();
    })();
  });

  return {
    node,
    dispose: () => {
      disposed = true;
      if (timer !== null) clearTimeout(timer);
      if (dialog.open) dialog.close();
      for (const c of charts) c.destroy();
    },
  };
}
