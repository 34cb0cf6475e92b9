/**
 * The Planner's "use the predicted read hit share" for a cache configuration: the analysis's
 * prediction from the block trace (engine `prediction.fromTrace.readHitRatio`, the probe's figure at
 * its cache size) prefills the configuration's read hit share, with `hitShareSource: "predicted"`
 * (the scenario schema's third source), so the report's TCO provenance says "predicted". The
 * simulated cache lets writes go around it, so the write hit share it implies is 0. Typing a share
 * afterwards makes it "assumed" again (form.ts).
 */
import { fmtBytes, fmtPercent } from '../../shared/i18n/numbers.ts';
import { predictUi, type PredictUiKey } from '../../shared/i18n/predict-ui.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { Json, PredictedShare } from './state.ts';
import { percentOf } from '../../shared/units.ts';

let seq = 0;

/** The button (and its help) for one cache configuration, or null without a prediction. */
export function predictedButton(lang: Lang, predicted: PredictedShare | null, cache: Json, applied: () => void): HTMLElement | null {
  if (predicted === null) return null;
  const helpId = `pl-predicted-help-${++seq}`;
  const policyKey = `policy.${predicted.policy}` as PredictUiKey;
  const policy = policyKey in predictUi.en ? translate(predictUi, lang, policyKey) : predicted.policy;
  const b = el('button', { type: 'button', 'data-testid': TID.plannerUsePredicted, 'aria-describedby': helpId }, translate(predictUi, lang, 'plan.use', {
    percent: fmtPercent(lang, percentOf(predicted.readHitRatio), 1), policy, size: fmtBytes(lang, predicted.cacheBytes),
  }));
  b.addEventListener('click', () => {
    cache['readHitShare'] = predicted.readHitRatio;
    cache['writeHitShare'] = 0;
    cache['hitShareSource'] = 'predicted';
    applied();
  });
  return el('div', { class: 'pl-predicted' }, b, el('p', { class: 'pl-help', id: helpId }, translate(predictUi, lang, 'plan.useHelp')));
}
