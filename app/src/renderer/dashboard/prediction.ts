/**
 * The prediction from the block trace (engine `prediction.fromTrace`, docs/analyze-json.md): the
 * predicted I/Os saved, backing I/O and response time beside the measured ones (each difference
 * explained: prediction-figures.ts), the cache device and its source, the size answer for a share
 * the person types, the miss-ratio curve of every policy with the slider's size marked
 * (prediction-chart.ts), the figures at another size read from those curves as a slider moves
 * (prediction-slider.ts; these shared with the workload profile: prediction-body.ts), and on a traced capture "Predict another cache" (prediction-run.ts: the
 * host runs the probe). Every number is the probe's, carried by the engine; nothing is computed
 * here.
 */
import type { AnalysisReport } from '@cacheproof/engine';
import type { AnalysisView } from '../../shared/contract.ts';
import { fmtBytes, fmtCacheBytes } from '../../shared/i18n/numbers.ts';
import { prediction, type PredictionKey } from '../../shared/i18n/prediction.ts';
import { predictUi } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtPercent } from '../format.ts';
import type { Ctx } from '../screen.ts';
import type { ChartScheduler } from './frame.ts';
import { predictionBody } from './prediction-body.ts';
import { policyName } from './prediction-chart.ts';
import { canPredict, predictRunForm } from './prediction-run.ts';
import type { Params, Words } from './text.ts';
import { percentOf, signedText } from '../../shared/units.ts';

/** The section, or null when the analysis holds no prediction and its capture cannot make one. */
export function predictionSection(ctx: Ctx, v: AnalysisView, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement | null {
  const r: AnalysisReport = v.result;
  const p = r.prediction.fromTrace;
  const runnable = canPredict(v);
  if (p === null && !runnable) return null;
  const t = (key: PredictionKey, params?: Params): string => translate(prediction, w.lang, key, params);
  const size = (b: number): string => fmtBytes(w.lang, b);
  const pct = (x: number): string => fmtPercent(w.lang, x, 1);
  const node = el('section', { class: 'dash-prediction', 'data-testid': TID.dashPrediction, 'aria-labelledby': 'dash-prediction-title' },
    el('h3', { class: 'dash-section', id: 'dash-prediction-title' }, t('title')),
    el('p', { class: 'dash-def' }, t('def')));
  if (p === null) {
    node.append(el('p', { class: 'dash-note' }, translate(predictUi, w.lang, 'run.none')), predictRunForm(ctx, v));
    return node;
  }

  // predicted beside measured
  const cell = (label: string, value: number | null, text: string, kind: string): HTMLElement =>
    el('div', { class: 'card', 'data-kind': kind, 'data-value': value === null ? '' : String(value) },
      el('h4', {}, label), el('div', { class: 'value' }, text));
  const diff = p.differencePp === null ? w.na : t('unit.pp', { value: signedText(p.differencePp, (x) => fmtNumber(w.lang, x, 1), true) });
  node.append(
    el('div', { class: 'cards prediction-compare', 'data-testid': TID.dashPredictionCompare, 'data-policy': p.policy },
      cell(t('predicted'), p.iosSavedPercent, pct(p.iosSavedPercent), 'predicted'),
      cell(t('measured'), p.measuredIosSavedPercent, p.measuredIosSavedPercent === null ? `${w.na} (${w.reason(p.reasons['measuredIosSavedPercent'])})` : pct(p.measuredIosSavedPercent), 'measured'),
      cell(t('difference'), p.differencePp, diff, 'difference')),
    el('p', { class: 'dash-note' }, t('compareLine', {
      size: fmtCacheBytes(w.lang, p.cacheBytes), devices: p.devices.join(', '), reads: fmtNumber(w.lang, p.reads, 0), writes: fmtNumber(w.lang, p.writesCount, 0), warmup: w.duration(p.warmupS),
    })),
    el('p', { class: 'dash-note' }, t('method', {
      policy: policyName(w, p.policy), block: size(p.blockBytes), writesPolicy: p.writes, start: w.utc(Date.parse(p.windowStart)), end: w.utc(Date.parse(p.windowEnd)),
    })));
  if (p.sampleRate < 1) node.append(el('p', { class: 'dash-note' }, t('sampled', { rate: pct(percentOf(p.sampleRate)), pp: fmtNumber(w.lang, p.iosSavedUncertaintyPp, 1) })));
  node.append(...predictionBody(p, w, palette, scheduler, 'form'));
  if (runnable) node.append(predictRunForm(ctx, v));
  return node;
}
