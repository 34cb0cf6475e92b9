/**
 * "Predict another cache" on the dashboard of a traced capture: the cache to predict (size and
 * device, renderer/predict/), then `predict.start` — the host runs the probe, which replays the
 * baseline's trace and stores the prediction in the capture — with its progress, and, once done,
 * the analysis the host made again, which this window remembers and draws. A refusal says why in
 * the person's language, with the probe's own sentence under it. The renderer never simulates.
 */
import type { PredictionReport } from '@cacheproof/engine';
import type { AnalysisView } from '../../shared/contract.ts';
import { fmtPercent } from '../../shared/i18n/numbers.ts';
import { predictUi, type PredictUiKey } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import { choiceOf, defaultChoiceDraft, draftOfChoice, type ChoiceDraft } from '../predict/choice.ts';
import { choiceFields } from '../predict/fields.ts';
import type { Ctx } from '../screen.ts';

/** How often a running prediction is asked for its progress. */
const POLL_MS = 300;
/** The cache last asked for per analysis (kept across the redraw that shows its result). */
const drafts = new Map<string, ChoiceDraft>();
/** Analyses whose prediction this window just made (the redraw says so once). */
const justPredicted = new Set<string>();

/** Whether the dashboard offers a prediction: a traced capture (a prediction or the trace's latency stored), not the bundled sample. */
export function canPredict(v: AnalysisView): boolean {
  return !v.isSample && (v.result.prediction.fromTrace !== null || v.result.traceLatency.fromTrace !== null);
}

/** The dashboard's form: once done, this window remembers the new analysis and draws it. */
export function predictRunForm(ctx: Ctx, v: AnalysisView): HTMLElement {
  return predictForm(ctx, { id: v.id, prediction: v.result.prediction.fromTrace }, (view) => {
    if (view === null) return;
    ctx.remember(view);
    ctx.go(`results/${encodeURIComponent(view.id)}`);
  });
}

/**
 * What a prediction is asked on: an analysis's or a workload profile's id (both known to the host
 * in this session) and the prediction it holds (its cache is the form's first draft).
 */
export interface PredictTarget {
  id: string;
  prediction: PredictionReport | null;
}

/**
 * The form on `target`; `finished(view)` is called once the host is done while the form is still
 * shown — with the analysis analysed again, or null for a profile (its screen opens it again).
 */
export function predictForm(ctx: Ctx, v: PredictTarget, finished: (view: AnalysisView | null) => void): HTMLElement {
  const lang = ctx.lang;
  const t = (k: PredictUiKey, p?: Record<string, string | number>): string => translate(predictUi, lang, k, p);
  const p = v.prediction;
  const draft = drafts.get(v.id) ?? (p === null ? defaultChoiceDraft() : draftOfChoice(lang, p.cacheBytes, p.cacheDevice));
  drafts.set(v.id, draft);
  const fields = choiceFields(lang, draft, () => undefined, 'dash-predict', TID.dashPredictChoice);
  const button = el('button', { type: 'button', class: 'primary', 'data-testid': TID.dashPredictButton }, t('run.button'));
  const bar = el('progress', { max: '100', value: '0', 'aria-label': t('run.title') });
  const stage = el('span', { class: 'progress-text' });
  const progress = el('div', { class: 'dash-predict-progress', role: 'status', 'data-testid': TID.dashPredictProgress, hidden: '' }, bar, ' ', stage);
  const error = el('div', { class: 'error', role: 'alert', 'data-testid': TID.dashPredictError, hidden: '' });
  const done = el('p', { class: 'dash-note', role: 'status' }, justPredicted.has(v.id) ? t('run.done') : '');
  justPredicted.delete(v.id);
  const node = el('form', { class: 'dash-predict-run', 'data-testid': TID.dashPredictRun, 'aria-labelledby': 'dash-predict-run-title' },
    el('h4', { id: 'dash-predict-run-title' }, t('run.title')),
    el('p', { class: 'dash-def' }, t('run.help')),
    fields.node,
    el('div', { class: 'actions' }, button, progress),
    error, done);

  const fail = (text: string, detail: string | null): void => {
    error.replaceChildren(el('p', { class: 'err-what' }, text), ...(detail === null ? [] : [el('p', { class: 'err-detail', translate: 'no' }, detail)]));
    error.hidden = false;
    progress.hidden = true;
    button.disabled = false;
  };
  const show = (percent: number, s: 'read' | 'simulate' | 'analyze' | 'done'): void => {
    bar.value = percent;
    stage.textContent = t('run.progress', { percent: fmtPercent(lang, percent, 0), stage: t(`run.stage.${s}`) });
  };
  const run = async (): Promise<void> => {
    const c = choiceOf(draft);
    if (!c.ok) {
      fields.paint();
      fail(t('run.fix'), null);
      return;
    }
    error.hidden = true;
    done.textContent = '';
    button.disabled = true;
    progress.hidden = false;
    show(0, 'read');
    const started = await ctx.api.startPrediction(v.id, c.choice);
    if (!started.ok) {
      fail(t('run.failed', { error: errorText(lang, started.error.code) }), started.error.message);
      return;
    }
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const r = await ctx.api.predictionProgress(started.value);
      if (!r.ok) {
        fail(t('run.failed', { error: errorText(lang, r.error.code) }), r.error.message);
        return;
      }
      show(r.value.percent, r.value.stage);
      if (r.value.done) {
        // draw the new figures here, unless the person has left this screen meanwhile
        if (node.isConnected) {
          justPredicted.add(v.id);
          finished(r.value.view);
        } else if (r.value.view !== null) ctx.remember(r.value.view);
        return;
      }
    }
  };
  button.addEventListener('click', () => void run());
  node.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  return node;
}
