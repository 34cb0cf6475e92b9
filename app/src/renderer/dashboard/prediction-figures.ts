/**
 * The prediction's figures beyond the I/Os saved (engine `prediction.fromTrace`, docs/metrics.md
 * § Prediction): the cache device and where its figure comes from, the predicted backing I/O and
 * response time beside the measured ones with each difference in its parts, the I/Os saved of
 * every policy at the chosen size, and the size answer for a share the person types (the engine's
 * `sizeForIosSaved` over the probe's size steps). Every number is the probe's or the engine's;
 * nothing is computed here but the formatting.
 */
import { sizeForIosSaved, type PredictionReport } from '@cacheproof/engine';
import { fmtBytes, fmtCacheBytes, fmtPercent, parseLocaleNumber } from '../../shared/i18n/numbers.ts';
import { predictUi, type PredictUiKey } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtLatencyUs, presetName } from '../predict/fields.ts';
import type { Params, Words } from './text.ts';
import { wholeUpTo } from '@cacheproof/engine';
import { signedText, usToMs } from '../../shared/units.ts';

type T = (k: PredictUiKey, p?: Params) => string;

function tOf(w: Words): T {
  return (k, p) => translate(predictUi, w.lang, k, p);
}

/** A signed difference: `+3.2 I/Os per second`, `−0.14 ms`. */
function signed(v: number | null, f: (x: number) => string, na: string): string {
  return v === null ? na : signedText(v, f, true);
}

/** Three cards (predicted, measured, difference), each with `data-value` (the engine's number, unformatted). */
function cards(testId: string, items: [kind: string, label: string, value: number | null, text: string][]): HTMLElement {
  return el('div', { class: 'cards prediction-compare', 'data-testid': testId },
    ...items.map(([kind, label, value, text]) => el('div', { class: 'card', 'data-kind': kind, 'data-value': value === null ? '' : String(value) }, el('h4', {}, label), el('div', { class: 'value' }, text))));
}

/** "Cache device: NVMe SSD …: 85 µs a read hit, from … (date)", or the typed latency; null when the prediction has none. */
export function deviceLine(p: PredictionReport, w: Words): HTMLElement | null {
  const c = p.cacheDevice;
  if (c === null) return null;
  const t = tOf(w);
  const text = c.source === null
    ? t('choice.typedSource', { latency: fmtLatencyUs(w.lang, c.readLatencyUs) })
    : [t('choice.source', { name: presetName(w.lang, c.preset), latency: fmtLatencyUs(w.lang, c.readLatencyUs), source: c.source, date: c.date ?? '' }),
      c.basis === null ? '' : t('choice.derived', { basis: c.basis })].filter((x) => x !== '').join(' ');
  return el('p', { class: 'dash-note', 'data-testid': TID.dashCacheDevice, 'data-preset': c.preset }, text);
}

/** "± 1.2 I/Os per second (95%, from the sampling)", or "exact replay". */
function bound(t: T, sampled: boolean, text: string): string {
  return sampled ? t('unc', { value: text }) : t('exact');
}

/** Predicted beside measured backing I/O, its counts and the difference in parts. */
export function backingBlock(p: PredictionReport, w: Words): HTMLElement[] {
  const b = p.backingIos;
  const f = p.frontIos;
  if (b === null || f === null) return [];
  const t = tOf(w);
  const c = p.backingComparison;
  const sampled = p.sampleRate < 1;
  const out: HTMLElement[] = [
    cards(TID.dashBackingCompare, [
      ['predicted', t('backing.predicted'), c.predictedPerSecond, w.perSec(c.predictedPerSecond)],
      ['measured', t('backing.measured'), c.measuredPerSecond, c.measuredPerSecond === null ? `${w.na} (${w.reason(c.reasons['measuredPerSecond'])})` : w.perSec(c.measuredPerSecond)],
      ['difference', t('backing.difference'), c.differencePerSecond, signed(c.differencePerSecond, (x) => w.perSec(x), w.na)],
    ]),
    el('p', { class: 'dash-note' }, t('backing.line', {
      backing: w.count(b.total), front: w.count(f.total), backingRate: w.perSec(b.perSecond), frontRate: w.perSec(f.perSecond),
      seconds: w.duration(f.seconds), misses: w.count(b.readMisses), writes: w.count(b.writes), bound: bound(t, sampled, w.perSec(b.perSecondUncertainty ?? 0)),
    })),
  ];
  if (c.workloadPartPerSecond !== null && c.hitSharePartPerSecond !== null) {
    out.push(el('p', { class: 'dash-note', 'data-testid': `${TID.dashBackingCompare}-explain` }, t('backing.explain', {
      diff: signed(c.differencePerSecond, (x) => w.perSec(x), w.na),
      workload: signed(c.workloadPartPerSecond, (x) => w.perSec(x), w.na),
      share: signed(c.hitSharePartPerSecond, (x) => w.perSec(x), w.na),
      predictedFront: w.perSec(c.predictedFrontPerSecond), measuredFront: w.perSec(c.measuredFrontPerSecond),
    })));
  }
  return out;
}

/** Predicted beside measured response time, how it was predicted and the difference in parts; or why there is none. */
export function responseBlock(p: PredictionReport, w: Words): HTMLElement[] {
  const t = tOf(w);
  const r = p.responseTime;
  // why there is none is the engine's (no device asked for, no completion times in the trace, an older probe)
  if (r === null) return [el('p', { class: 'dash-note', 'data-testid': TID.dashResponseCompare, 'data-missing': p.responseTimeMissing ?? 'not-reported' }, t(`resp.none.${p.responseTimeMissing ?? 'not-reported'}`))];
  const c = p.responseComparison;
  const out: HTMLElement[] = [
    cards(TID.dashResponseCompare, [
      ['predicted', t('resp.predicted'), c.predictedMs, w.ms(c.predictedMs)],
      ['measured', t('resp.measured'), c.measuredMs, c.measuredMs === null ? `${w.na} (${w.reason(c.reasons['measuredMs'])})` : w.ms(c.measuredMs)],
      ['difference', t('resp.difference'), c.differenceMs, signed(c.differenceMs, (x) => w.ms(x), w.na)],
    ]),
    el('p', { class: 'dash-note' }, t('resp.line', {
      hit: fmtLatencyUs(w.lang, r.hitUs), miss: r.missUs === null ? w.na : w.ms(usToMs(r.missUs)), predicted: w.ms(usToMs(r.predictedUs)),
      baseline: w.ms(usToMs(r.baselineUs)), requests: w.fixed(r.requests, 0), bound: bound(t, p.sampleRate < 1, w.ms(usToMs(r.uncertaintyUs))),
    })),
  ];
  if (c.hitSharePartMs !== null && c.otherPartMs !== null) {
    out.push(el('p', { class: 'dash-note', 'data-testid': `${TID.dashResponseCompare}-explain` }, t('resp.explain', {
      diff: signed(c.differenceMs, (x) => w.ms(x), w.na), share: signed(c.hitSharePartMs, (x) => w.ms(x), w.na), other: signed(c.otherPartMs, (x) => w.ms(x), w.na),
    })));
  }
  return out;
}

/** "At 1.05 MB, I/Os saved by policy: LRU 95.0%, FIFO 95.0%, …" (when more than one policy was simulated). */
export function policiesLine(p: PredictionReport, w: Words): HTMLElement | null {
  if (p.policies.length < 2) return null;
  const t = tOf(w);
  const name = (x: string): string => (`policy.${x}` in predictUi.en ? t(`policy.${x}` as PredictUiKey) : x);
  return el('p', { class: 'dash-note' }, t('policies.line', {
    size: fmtCacheBytes(w.lang, p.cacheBytes),
    list: p.policies.map((x) => t('policies.item', { policy: name(x.policy), percent: fmtPercent(w.lang, x.iosSavedPercent, 1) })).join(', '),
  }));
}

/** "What cache size do I need for X % of I/Os saved": a typed share, answered by the engine from the probe's size steps. */
export function savedAnswer(p: PredictionReport, w: Words): HTMLElement {
  const t = tOf(w);
  const id = `${TID.dashSavedAnswer}-input`;
  const input = el('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', size: '6', value: w.fixed(wholeUpTo(p.maxIosSavedPercent, 90), 0), 'aria-describedby': `${id}-help`, 'data-testid': id });
  const line = el('p', { class: 'size-answer', 'aria-live': 'polite', 'data-testid': `${TID.dashSavedAnswer}-line` });
  const show = (): void => {
    const want = parseLocaleNumber(w.lang, input.value.replace(/%/gu, ''));
    if (want === null || !(want > 0 && want <= 100)) {
      input.setAttribute('aria-invalid', 'true');
      line.textContent = t('answer.savedBad');
      line.dataset['bytes'] = '';
      return;
    }
    input.setAttribute('aria-invalid', 'false');
    const a = sizeForIosSaved(p, want);
    line.textContent = a === null
      ? t('answer.savedNone', { want: fmtPercent(w.lang, want, 1), max: fmtPercent(w.lang, p.maxIosSavedPercent, 1) })
      : t('answer.savedLine', { size: fmtBytes(w.lang, a.bytes), percent: fmtPercent(w.lang, a.iosSavedPercent, 1), want: fmtPercent(w.lang, want, 1) });
    line.dataset['bytes'] = a === null ? '' : String(a.bytes);
  };
  input.addEventListener('input', show);
  show();
  return el('div', { class: 'dash-size-answer', 'data-testid': TID.dashSavedAnswer },
    el('label', { for: id }, t('answer.savedLabel')), ' ', input,
    el('p', { class: 'dash-help', id: `${id}-help` }, t('answer.savedHelp')), line);
}
