/**
 * The Live run screen (`#/run/<runId>`): attaches to a run the probe records in the background,
 * whether this window started it or found it on disk. It polls `run.status` every second and
 * draws: the phase timeline, progress for the phase and the whole run (percent, time left and
 * the clock time it ends), live charts of the last hour (with scrolling back an hour at a time),
 * the recorder's warnings as they arrive, the manual-switch call to action, and what happened
 * and what to do next when the run stops, fails or its probe dies. Detach leaves the run going;
 * Stop asks first. Nothing here keeps the run alive: the probe does not depend on this window.
 *
 * Parts: view.ts (the skeleton), status-view.ts (a status drawn), series.ts (the points and the
 * hour shown), and here the screen's state, its poller and its actions.
 */
import { earlierWindowEndMs, laterWindowEndMs, LIVE_WINDOW_MS } from '@cacheproof/engine';
import type { RunStatus } from '../../shared/contract.ts';
import { common, type CommonKey } from '../../shared/i18n/common.ts';
import { translate } from '../../shared/i18n/types.ts';
import { msToSeconds } from '../../shared/units.ts';
import { el } from '../dom.ts';
import { fmtTime } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';
import { LiveSeriesState } from './series.ts';
import { ACTIVE, renderStatus, setActive, setTitle, type StatusDraw } from './status-view.ts';
import { liveView, type LiveView } from './view.ts';
import { durationText, liveWords } from './words.ts';

const POLL_MS = 1000;
/** Finished, stopped or dead runs change rarely (only a resume from a terminal): poll slower. */
const POLL_IDLE_MS = 3000;

type Reply = { ok: true; value: RunStatus } | { ok: false; error: { code: string } };

/** The screen's state: the last status, the series held, whether an action runs, whether the screen is gone. */
class LiveState {
  disposed = false;
  timer: ReturnType<typeof setTimeout> | null = null;
  status: RunStatus | null = null;
  chartsReady = false;
  readonly series = new LiveSeriesState();
  readonly draw: StatusDraw;
  constructor(ctx: Ctx) {
    this.draw = { lang: ctx.lang, phases: [], busy: false, warningsKey: '' };
  }
}

/** The error line: a code's sentence; with no measure window, the way to the baseline alone beside it. */
function showError(ctx: Ctx, v: LiveView, code: string | null): void {
  const tc = (key: CommonKey): string => translate(common, ctx.lang, key);
  const errText = (c: string): string => {
    const key = `err.${c}` as CommonKey;
    return key in common.en ? tc(key) : tc('err.internal');
  };
  v.error.hidden = code === null;
  if (code === 'analysis-no-measure') v.error.replaceChildren(el('p', {}, errText(code)), el('div', { class: 'actions' }, v.profileBtn));
  else v.error.textContent = code === null ? '' : errText(code);
}

/** Draws the charts over the hour shown, its label and the window buttons. */
function drawCharts(ctx: Ctx, v: LiveView, st: LiveState): void {
  if (!st.chartsReady) return;
  const t = liveWords(ctx.lang);
  const { series, status } = st;
  const { fromMs, toMs, hasEarlier } = series.range(status?.lastSampleMs ?? null, status?.startedMs ?? null);
  const interval = status ? durationText(ctx.lang, msToSeconds(status.plan.intervalMs)) : '';
  for (const c of v.charts) c.update(series.buffers, series.phases, fromMs, toMs, interval);
  const recording = status !== null && ACTIVE.includes(status.state);
  v.windowLabel.textContent = `${t('window.label', { from: fmtTime(ctx.lang, fromMs), to: fmtTime(ctx.lang, toMs) })}${series.viewEnd === null && recording ? ` (${t('window.liveNote')})` : ''}`;
  v.earlierBtn.disabled = !hasEarlier;
  v.laterBtn.disabled = series.viewEnd === null;
  v.liveBtn.disabled = series.viewEnd === null;
}

/** The poller and the series requests: a status every second (every 3 s once the run rests), the new points with it. */
function livePoller(ctx: Ctx, runId: string, v: LiveView, st: LiveState) {
  const fetchSeries = async (): Promise<void> => {
    if (st.series.viewEnd !== null) return;
    const r = await ctx.api.runSeries(runId, st.series.lastT());
    if (st.disposed || st.series.viewEnd !== null) return;
    if (r.ok) {
      st.series.merge(r.value);
      st.draw.phases = st.series.phases;
      drawCharts(ctx, v, st);
    }
  };
  const showWindow = async (end: number | null): Promise<void> => {
    st.series.viewEnd = end;
    const r = end === null ? await ctx.api.runSeries(runId, 0) : await ctx.api.runSeries(runId, end - LIVE_WINDOW_MS, end);
    if (st.disposed || st.series.viewEnd !== end) return;
    if (r.ok) {
      st.series.replace(r.value);
      st.draw.phases = st.series.phases;
      showError(ctx, v, null);
    } else showError(ctx, v, r.error.code);
    drawCharts(ctx, v, st);
  };
  /** A status from the host (a poll or an action's reply): kept, drawn, and the series fetched with it. */
  const show = async (s: RunStatus): Promise<void> => {
    st.status = s;
    showError(ctx, v, null);
    renderStatus(v, st.draw, s);
    await fetchSeries();
  };
  const tick = async (): Promise<void> => {
    st.timer = null;
    if (st.disposed) return;
    const r = await ctx.api.runStatus(runId);
    if (st.disposed) return;
    if (r.ok) await show(r.value);
    else {
      showError(ctx, v, r.error.code);
      if (st.status === null) {
        // Never known (a stale link, another installation's run): say which run, and offer only the way Home.
        setTitle(v, ctx.lang, runId);
        setActive(v, ctx.lang, false);
      }
    }
    if (st.disposed) return;
    st.timer = setTimeout(() => void tick(), st.status === null || !ACTIVE.includes(st.status.state) ? POLL_IDLE_MS : POLL_MS);
  };
  return { show, showWindow, tick };
}

/** The buttons: switch, resume, open, detach, stop (asked first), and the window's hours. */
function liveActions(ctx: Ctx, runId: string, v: LiveView, st: LiveState, poll: ReturnType<typeof livePoller>): void {
  const setButtons = (disabled: boolean): void => {
    v.confirmBtn.disabled = v.resumeBtn.disabled = v.stopConfirm.disabled = disabled;
  };
  /** Runs one action with the buttons disabled, then applies the status it returns. */
  const act = async (fn: () => Promise<Reply>): Promise<void> => {
    if (st.draw.busy) return;
    st.draw.busy = true;
    setButtons(true);
    try {
      const r = await fn();
      if (st.disposed) return;
      // The points recorded up to the action (a stop keeps the last ones): drawn now, not at the next poll.
      if (r.ok) await poll.show(r.value);
      else showError(ctx, v, r.error.code);
    } finally {
      st.draw.busy = false;
      setButtons(false);
    }
  };
  const openResults = async (btn: HTMLButtonElement): Promise<void> => {
    const label = btn.textContent ?? '';
    btn.disabled = true;
    btn.textContent = liveWords(ctx.lang)('opening');
    const r = await ctx.api.openRun(runId);
    if (st.disposed) return;
    btn.disabled = false;
    btn.textContent = label;
    if (r.ok) {
      ctx.remember(r.value);
      ctx.go(`results/${encodeURIComponent(r.value.id)}`);
    } else showError(ctx, v, r.error.code);
  };
  v.profileBtn.addEventListener('click', () => ctx.go(`profile/${encodeURIComponent(runId)}`));
  v.confirmBtn.addEventListener('click', () => void act(() => ctx.api.confirmSwitch(runId)));
  v.resumeBtn.addEventListener('click', () => void act(() => ctx.api.resumeRun(runId)));
  v.openBtn.addEventListener('click', () => void openResults(v.openBtn));
  v.openPartialBtn.addEventListener('click', () => void openResults(v.openPartialBtn));
  v.detachBtn.addEventListener('click', () => ctx.go('home'));
  v.stopBtn.addEventListener('click', () => {
    v.dialog.showModal();
    v.stopCancel.focus();
  });
  v.stopCancel.addEventListener('click', () => v.dialog.close());
  v.stopConfirm.addEventListener('click', () => {
    void act(() => ctx.api.stopRun(runId)).then(() => {
      if (v.dialog.open) v.dialog.close();
      v.stopBtn.focus();
    });
  });
  v.earlierBtn.addEventListener('click', () => void poll.showWindow(earlierWindowEndMs(st.series.viewEnd, st.series.lastT(), st.status?.lastSampleMs ?? null)));
  v.laterBtn.addEventListener('click', () => {
    if (st.series.viewEnd === null) return;
    void poll.showWindow(laterWindowEndMs(st.series.viewEnd, st.status?.lastSampleMs ?? null));
  });
  v.liveBtn.addEventListener('click', () => void poll.showWindow(null));
}

export function liveScreen(ctx: Ctx, runId: string): Screen {
  const v = liveView(ctx.lang, runId, ctx.palette);
  const st = new LiveState(ctx);
  const poll = livePoller(ctx, runId, v, st);
  liveActions(ctx, runId, v, st, poll);
  // The canvases must be in the document for Chart.js to size them: start on the next frame.
  requestAnimationFrame(() => {
    if (st.disposed) return;
    st.chartsReady = true;
    void poll.tick();
  });
  return {
    node: v.node,
    dispose: () => {
      st.disposed = true;
      if (st.timer !== null) clearTimeout(st.timer);
      if (v.dialog.open) v.dialog.close();
      for (const c of v.charts) c.destroy();
    },
  };
}
