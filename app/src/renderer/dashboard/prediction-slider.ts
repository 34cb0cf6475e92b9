/**
 * "And at 256 GB?": a cache-size slider over the sizes the stored miss-ratio curve covers
 * (engine `whatIfSizes`), and the predicted I/Os saved, read hits, backing I/O and response time
 * at the chosen size, each with its error bound and the method in words (engine
 * `predictionAtSize`: read from the curve, interpolated between the two simulated sizes on either
 * side). Every input event redraws the figures synchronously from the stored curves: no probe
 * round trip, and `onSize` (the miss-ratio chart's marker) is told the size. A size outside the
 * curve, or an exact figure, is "Predict another cache" (the probe; on the workload profile, which
 * has no such form, `cacheproof-probe predict --size`). Used by the dashboard and the workload
 * profile alike (prediction-body.ts). Nothing is computed here but the formatting.
 */
import { predictionAtSize, whatIfSizes, type PredictionReport, type WhatIf } from '@cacheproof/engine';
import { fmtCacheBytes, fmtPercent } from '../../shared/i18n/numbers.ts';
import { prediction, type PredictionKey } from '../../shared/i18n/prediction.ts';
import { predictUi } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtLatencyUs } from '../predict/fields.ts';
import { policyName } from './prediction-chart.ts';
import type { Params, Words } from './text.ts';
import { nearestSizeIndex } from '@cacheproof/engine';
import { percentOf, usToMs } from '../../shared/units.ts';


/** How the slider's last line points to an exact figure: the screen's "Predict another cache" form, or the probe's command line. */
export type ExactWay = 'form' | 'cli';

/** The slider and its figures, or null when the curve has fewer than two sizes; `onSize` hears every size shown, the first included. */
export function whatIfSlider(p: PredictionReport, w: Words, exact: ExactWay, onSize: (bytes: number) => void): HTMLElement | null {
  const sizes = whatIfSizes(p);
  if (sizes.length < 2) return null;
  const t = (key: PredictionKey, params?: Params): string => translate(prediction, w.lang, key, params);
  // sizes typed in a binary unit (the chosen cache, the curve's end at it) read in it: '1 GiB', not '1.07 GB'
  const size = (b: number): string => fmtCacheBytes(w.lang, b);
  const pp = (x: number): string => t('unit.pp', { value: w.fixed(x, 1) });
  const min = size(sizes[0] ?? 0);
  const max = size(sizes[sizes.length - 1] ?? 0);
  const id = `${TID.dashWhatIf}-size`;
  const input = el('input', {
    id, type: 'range', min: '0', max: String(sizes.length - 1), step: '1', value: String(nearestSizeIndex(sizes, p.cacheBytes)),
    'aria-describedby': `${id}-help`, 'data-testid': id,
  });
  const output = el('output', { for: id, class: 'what-if-size', 'data-testid': `${TID.dashWhatIf}-value` });
  const card = (kind: string, label: string): { node: HTMLElement; value: HTMLElement } => {
    const value = el('div', { class: 'value' });
    return { node: el('div', { class: 'card', 'data-kind': kind }, el('h4', {}, label), value), value };
  };
  const cards = {
    saved: card('saved', t('whatIf.saved')),
    readHit: card('readHit', t('whatIf.readHit')),
    backing: card('backing', t('whatIf.backing')),
    resp: card('resp', t('whatIf.resp')),
  };
  const method = el('p', { class: 'dash-note', 'data-testid': `${TID.dashWhatIf}-method` });
  const resp = el('p', { class: 'dash-note' });
  const policies = el('p', { class: 'dash-note' });

  const put = (c: Card, value: number | null, error: number | null, full: (x: number) => string, bare: (x: number) => string, bound: (x: number) => string): void => putFigure(c, value, error, { w, t, full, bare, bound });
  const show = (): void => {
    const bytes = sizes[Number(input.value)] ?? sizes[0] ?? 0;
    const text = size(bytes);
    input.setAttribute('aria-valuetext', text);
    output.textContent = text;
    output.dataset['bytes'] = String(bytes);
    onSize(bytes);
    const f = predictionAtSize(p, bytes);
    if (f === null) return;
    // a share: `29.1% ± 1.2 points`; a rate or a time: `94.5 ± 1.65 I/Os per second`
    put(cards.saved, f.iosSavedPercent, f.iosSavedErrorPp, w.pct, w.pct, pp);
    put(cards.readHit, f.readHitRatio, f.readHitError, (x) => w.pct(percentOf(x)), (x) => w.pct(percentOf(x)), (x) => pp(percentOf(x)));
    put(cards.backing, f.backingPerSecond, f.backingErrorPerSecond, (x) => w.perSec(x), (x) => w.num(x), (x) => w.perSec(x));
    put(cards.resp, f.responseUs, f.responseErrorUs, (x) => w.ms(usToMs(x)), (x) => w.num(usToMs(x)), (x) => w.ms(usToMs(x)));
    method.textContent = methodText(f, p, w, t);
    const rt = p.responseTime;
    resp.hidden = rt === null;
    resp.textContent = rt === null ? '' : t('whatIf.respMethod', { hit: fmtLatencyUs(w.lang, rt.hitUs), miss: rt.missUs === null ? w.na : w.ms(usToMs(rt.missUs)) });
    policies.hidden = f.policies.length < 2;
    policies.textContent = f.policies.length < 2 ? '' : policiesLine(f, text, w, t);
  };
  input.addEventListener('input', show);
  show();
  return el('div', { class: 'dash-what-if', 'data-testid': TID.dashWhatIf, role: 'group', 'aria-labelledby': `${TID.dashWhatIf}-title` },
    el('h4', { id: `${TID.dashWhatIf}-title` }, t('whatIf.title')),
    el('p', { class: 'dash-def' }, t('whatIf.def')),
    el('div', { class: 'what-if-control' }, el('label', { for: id }, t('whatIf.size')), input, output),
    el('p', { class: 'dash-help', id: `${id}-help` }, t('whatIf.range', { min, max })),
    el('div', { class: 'cards prediction-compare', 'aria-live': 'polite' }, cards.saved.node, cards.readHit.node, cards.backing.node, cards.resp.node),
    method, resp, policies,
    el('p', { class: 'dash-note' }, t(exact === 'form' ? 'whatIf.exact' : 'whatIf.exactCli', { min, max })));
}

type Card = { node: HTMLElement; value: HTMLElement };
type PredictionWords = (key: PredictionKey, params?: Params) => string;

/**
 * Writes a figure: its engine number and bound as data, and its text — `full(value)`, or with a
 * bound other than 0 `bare(value) ± bound(error)` (the unit said once: `94.5 ± 1.65 I/Os per second`).
 */
function putFigure(c: Card, value: number | null, error: number | null, o: { w: Words; t: PredictionWords; full: (x: number) => string; bare: (x: number) => string; bound: (x: number) => string }): void {
  c.node.dataset['value'] = value === null ? '' : String(value);
  c.node.dataset['error'] = error === null ? '' : String(error);
  c.value.textContent = value === null ? o.w.na : error === null || error === 0 ? o.full(value) : o.t('whatIf.pm', { value: o.bare(value), error: o.bound(error) });
}

/** How the figure at a size was read from the curve (a point, between two, all fit) and the sampling's share of its bound. */
function methodText(f: WhatIf, p: PredictionReport, w: Words, t: PredictionWords): string {
  const size = (b: number): string => fmtCacheBytes(w.lang, b);
  const policy = policyName(w, f.policy);
  const read = f.method === 'point' ? t('whatIf.point', { policy, size: size(f.bytes) })
    : f.method === 'between' ? t('whatIf.between', { policy, lower: size(f.lowerBytes), upper: size(f.upperBytes), pp: w.fixed(f.interpolationPp, 1) })
      : t('whatIf.allFit', { footprint: size(p.footprintBytes), upper: size(f.upperBytes) });
  return f.samplingPp > 0
    ? `${read} ${t('whatIf.sampling', { pp: w.fixed(f.samplingPp, 1), rate: fmtPercent(w.lang, percentOf(p.sampleRate), 1), size: size(p.cacheBytes) })}`
    : read;
}

/** Every policy's I/Os saved at the size shown. */
function policiesLine(f: WhatIf, text: string, w: Words, t: PredictionWords): string {
  const pp = (x: number): string => t('unit.pp', { value: w.fixed(x, 1) });
  return translate(predictUi, w.lang, 'policies.line', {
    size: text,
    list: f.policies.map((x) => translate(predictUi, w.lang, 'policies.item', {
      policy: policyName(w, x.policy),
      percent: x.iosSavedErrorPp > 0 ? t('whatIf.pm', { value: w.pct(x.iosSavedPercent), error: pp(x.iosSavedErrorPp) }) : w.pct(x.iosSavedPercent),
    })).join(', '),
  });
}
