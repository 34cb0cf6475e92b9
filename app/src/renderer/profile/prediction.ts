/**
 * The prediction on the workload profile (engine `profile.prediction`, docs/import.md § Block
 * traces): an imported block trace has no window with the cache on, so the probe's prediction
 * stands alone — the predicted I/Os saved at the chosen size, the cache device, the backing I/O
 * and response time the cache would leave, every policy at that size, the size answer for a share
 * the person types, the miss-ratio curve and the what-if slider whose size the curve's marker
 * follows (the answer to "and at 256 GB?" without a dashboard) — drawn by the dashboard's own
 * pieces (dashboard/prediction-body.ts), and "Predict another cache" (dashboard/prediction-run.ts:
 * the host runs the probe on the capture, then this screen opens the profile again). Every number
 * is the probe's, carried by the engine; nothing is computed here.
 */
import type { ProfileView } from '../../shared/contract.ts';
import { fmtCacheBytes } from '../../shared/i18n/numbers.ts';
import { prediction } from '../../shared/i18n/prediction.ts';
import { profilePredictionUi } from '../../shared/i18n/profile-prediction.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import type { ChartScheduler } from '../dashboard/frame.ts';
import { predictionBody } from '../dashboard/prediction-body.ts';
import { predictForm } from '../dashboard/prediction-run.ts';
import type { Ctx } from '../screen.ts';
import type { Words } from '../dashboard/text.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtPercent } from '../format.ts';

/**
 * The section, or null when the capture holds no prediction (no trace). `redraw`: opens the
 * profile's screen again once a prediction asked here is stored in the capture.
 */
export function profilePrediction(ctx: Ctx, v: ProfileView, w: Words, palette: readonly string[], scheduler: ChartScheduler, redraw: () => void): HTMLElement | null {
  const p = v.profile.prediction.fromTrace;
  if (p === null) return null;
  const t = (k: keyof typeof prediction.en, params?: Record<string, string | number>): string => translate(prediction, w.lang, k, params);
  const node = el('section', { class: 'dash-prediction', 'data-testid': TID.profilePrediction, 'aria-labelledby': 'profile-prediction-title' },
    el('h3', { class: 'dash-section', id: 'profile-prediction-title' }, t('title')),
    el('p', { class: 'dash-def' }, translate(profilePredictionUi, w.lang, 'def')),
    el('div', { class: 'cards prediction-compare', 'data-testid': TID.dashPredictionCompare, 'data-policy': p.policy },
      el('div', { class: 'card', 'data-kind': 'predicted', 'data-value': String(p.iosSavedPercent) },
        el('h4', {}, t('predicted')), el('div', { class: 'value' }, fmtPercent(w.lang, p.iosSavedPercent, 1)))),
    el('p', { class: 'dash-note' }, translate(profilePredictionUi, w.lang, 'compareLine', {
      size: fmtCacheBytes(w.lang, p.cacheBytes), devices: p.devices.join(', '), reads: fmtNumber(w.lang, p.reads, 0), writes: fmtNumber(w.lang, p.writesCount, 0),
    })));
  node.append(...predictionBody(p, w, palette, scheduler, 'form'));
  // nothing was measured with a cache: the dashboard's measured and difference cards would only say so
  for (const c of node.querySelectorAll('.prediction-compare [data-kind="measured"], .prediction-compare [data-kind="difference"]')) c.remove();
  node.append(predictForm(ctx, { id: v.id, prediction: p }, redraw));
  return node;
}
