/**
 * The body of a prediction from a block trace, the same on the dashboard (prediction.ts) and on
 * the workload profile (profile/prediction.ts): the note when the cache holds the whole
 * footprint, the cache device, the backing I/O and response time the cache would leave, every
 * policy at the chosen size, the size answer for a share the person types, the miss-ratio curve
 * and the what-if slider, whose size the curve's marker follows. Every number is the engine's.
 */
import type { PredictionReport } from '@cacheproof/engine';
import { fmtBytes, fmtCacheBytes } from '../../shared/i18n/numbers.ts';
import { prediction } from '../../shared/i18n/prediction.ts';
import { translate } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';
import type { ChartScheduler } from './frame.ts';
import { curveFigure } from './prediction-chart.ts';
import { backingBlock, deviceLine, policiesLine, responseBlock, savedAnswer } from './prediction-figures.ts';
import { whatIfSlider, type ExactWay } from './prediction-slider.ts';
import type { Words } from './text.ts';

/** The nodes, in order; `exact` says where the slider sends a person for a size outside the curve. */
export function predictionBody(p: PredictionReport, w: Words, palette: readonly string[], scheduler: ChartScheduler, exact: ExactWay): HTMLElement[] {
  const t = (key: 'note' | 'larger', params: Record<string, string>): string => translate(prediction, w.lang, key, params);
  const out: HTMLElement[] = [];
  if (p.cacheBytes > p.footprintBytes) {
    out.push(el('p', { class: 'dash-note', role: 'note' }, t('note', { text: t('larger', { size: fmtCacheBytes(w.lang, p.cacheBytes), footprint: fmtBytes(w.lang, p.footprintBytes) }) })));
  }
  const device = deviceLine(p, w);
  if (device !== null) out.push(device);
  out.push(...backingBlock(p, w), ...responseBlock(p, w));
  const policies = policiesLine(p, w);
  if (policies !== null) out.push(policies);
  const chart = curveFigure(p, w, palette, scheduler);
  out.push(savedAnswer(p, w), chart.node);
  const slider = whatIfSlider(p, w, exact, chart.mark);
  if (slider !== null) out.push(slider);
  return out;
}
