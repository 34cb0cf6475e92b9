/**
 * The fields of the cache to predict (the draft and its checks: choice.ts), shared by the
 * wizard's Plan step and the dashboard: the size and its unit, the device (a preset, with its
 * figure and where the figure comes from, or a typed read latency), each wrong field marked and
 * explained in a sentence tied to it.
 */
import { CACHE_BYTES_MAX, CACHE_BYTES_MIN, CACHE_DEVICE_IDS, CACHE_DEVICE_PRESETS, type PredictionChoice, type RunPrediction } from '../../shared/contract-predict.ts';
import { fmtBytes, fmtDecimal, fmtNumber, fmtPercent } from '../../shared/i18n/numbers.ts';
import { predictUi, type PredictUiKey } from '../../shared/i18n/predict-ui.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';
import { choiceOf, MAX_LATENCY_US, SIZE_UNITS, typed, type ChoiceDraft, type SizeUnit } from './choice.ts';

/** A read latency in µs as the screens and the report print it (`0.20 µs`, `85.0 µs`, `1,500.0 µs`). */
export function fmtLatencyUs(lang: Lang, us: number): string {
  return `${fmtNumber(lang, us, us < 10 ? 2 : 1)} µs`;
}

/** A choice's size, device name and hit latency, in words (the wizard's review, the Live line). */
export function choiceWords(lang: Lang, c: PredictionChoice): { size: string; device: string; latency: string } {
  const preset = 'preset' in c.cacheDevice ? CACHE_DEVICE_PRESETS.find((p) => p.id === (c.cacheDevice as { preset: string }).preset) : undefined;
  const us = preset !== undefined ? preset.readLatencyUs : 'latencyUs' in c.cacheDevice ? c.cacheDevice.latencyUs : 0;
  return {
    size: fmtBytes(lang, c.cacheBytes),
    device: preset !== undefined ? presetName(lang, preset.id) : translate(predictUi, lang, 'choice.typedName'),
    latency: fmtLatencyUs(lang, us),
  };
}

/** The name of a device preset in the language. */
export function presetName(lang: Lang, id: string): string {
  const key = `preset.${id}` as PredictUiKey;
  return key in predictUi.en ? translate(predictUi, lang, key) : id;
}

/**
 * The fieldset; `changed` after every edit. `testId` prefixes the inputs' test ids and `idPrefix`
 * their element ids. `paint()` marks the wrong fields (call it before a submit).
 */
export function choiceFields(lang: Lang, draft: ChoiceDraft, changed: () => void, idPrefix: string, testId: string): { node: HTMLElement; paint: () => void } {
  const t = (k: PredictUiKey, p?: Record<string, string | number>): string => translate(predictUi, lang, k, p);
  const sizeId = `${idPrefix}-size`;
  const size = el('input', { id: sizeId, type: 'text', inputmode: 'decimal', autocomplete: 'off', size: '8', value: draft.sizeText, 'aria-describedby': `${sizeId}-help ${sizeId}-error`, 'data-testid': `${testId}-size` });
  const unit = el('select', { id: `${sizeId}-unit`, 'aria-label': t('choice.unitFor', { what: t('choice.size') }), 'data-testid': `${testId}-unit` });
  for (const u of Object.keys(SIZE_UNITS) as SizeUnit[]) {
    const o = el('option', { value: u }, u);
    if (u === draft.unit) o.selected = true;
    unit.append(o);
  }
  const sizeErr = el('p', { class: 'field-error', id: `${sizeId}-error`, 'aria-live': 'polite' });

  const devId = `${idPrefix}-device`;
  const device = el('select', { id: devId, 'aria-describedby': `${devId}-help ${devId}-source`, 'data-testid': `${testId}-device` });
  for (const p of CACHE_DEVICE_PRESETS) device.append(el('option', { value: p.id }, t('choice.preset', { name: presetName(lang, p.id), latency: fmtLatencyUs(lang, p.readLatencyUs) })));
  device.append(el('option', { value: 'typed' }, t('choice.typed')));
  device.value = draft.device;
  const latId = `${idPrefix}-latency`;
  const latency = el('input', { id: latId, type: 'text', inputmode: 'decimal', autocomplete: 'off', size: '8', value: draft.latencyText, 'aria-describedby': `${latId}-error`, 'data-testid': `${testId}-latency` });
  const latErr = el('p', { class: 'field-error', id: `${latId}-error`, 'aria-live': 'polite' });
  const latField = el('div', { class: 'wiz-field' }, el('label', { for: latId }, t('choice.latency')), latency, latErr);
  const source = el('p', { class: 'help', id: `${devId}-source` });

  const paint = (): void => {
    const r = choiceOf(draft);
    const se = r.ok ? undefined : r.errors.size;
    const le = r.ok ? undefined : r.errors.latency;
    sizeErr.textContent = se === undefined ? '' : t(`choice.err.${se}`, { min: fmtBytes(lang, CACHE_BYTES_MIN), max: fmtBytes(lang, CACHE_BYTES_MAX) });
    size.setAttribute('aria-invalid', se === undefined ? 'false' : 'true');
    latErr.textContent = le === undefined ? '' : t(`choice.err.${le}`, { max: fmtNumber(lang, MAX_LATENCY_US) });
    latency.setAttribute('aria-invalid', le === undefined ? 'false' : 'true');
  };
  const showDevice = (): void => {
    latField.hidden = draft.device !== 'typed';
    const p = CACHE_DEVICE_PRESETS.find((x) => x.id === draft.device);
    source.textContent = p === undefined ? '' : [
      t('choice.source', { name: presetName(lang, p.id), latency: fmtLatencyUs(lang, p.readLatencyUs), source: p.source, date: p.date }),
      p.basis === null ? '' : t('choice.derived', { basis: p.basis }),
    ].filter((x) => x !== '').join(' ');
  };
  size.addEventListener('input', () => { typed(lang, draft, 'size', size.value); paint(); changed(); });
  unit.addEventListener('change', () => {
    if (Object.prototype.hasOwnProperty.call(SIZE_UNITS, unit.value)) draft.unit = unit.value as SizeUnit;
    paint();
    changed();
  });
  device.addEventListener('change', () => {
    const v = device.value;
    draft.device = v === 'typed' ? 'typed' : CACHE_DEVICE_IDS.find((x) => x === v) ?? draft.device;
    showDevice();
    paint();
    changed();
  });
  latency.addEventListener('input', () => { typed(lang, draft, 'latency', latency.value); paint(); changed(); });
  showDevice();
  // a field is marked once something was typed in it (an empty draft is not an error yet)
  if (draft.sizeText !== '') paint();

  const node = el('fieldset', { class: 'wiz-group predict-choice', 'data-testid': testId },
    el('legend', {}, t('choice.title')),
    el('div', { class: 'wiz-field' },
      el('label', { for: sizeId }, t('choice.size')),
      el('div', { class: 'wiz-dur' }, size, unit),
      el('p', { class: 'help', id: `${sizeId}-help` }, t('choice.sizeHelp')),
      sizeErr),
    el('div', { class: 'wiz-field' },
      el('label', { for: devId }, t('choice.device')),
      device,
      el('p', { class: 'help', id: `${devId}-help` }, t('choice.deviceHelp')),
      source),
    latField);
  return { node, paint };
}

/** The Live screen's line for a run's prediction (RunStatus.prediction: the probe's figures), or null when the plan asks for none. */
export function runPredictionText(lang: Lang, p: RunPrediction | null): string | null {
  if (p === null) return null;
  const words = choiceWords(lang, p.choice);
  const t = (k: PredictUiKey, x?: Record<string, string | number>): string => translate(predictUi, lang, k, x);
  if (p.state === 'waiting') return t('live.waiting', words);
  if (p.state === 'running') return t('live.running', words);
  if (p.state === 'failed') return t('live.failed', { error: p.error ?? '' });
  const na = '—';
  const us = (v: number | null): string => (v === null ? na : fmtLatencyUs(lang, v));
  return t('live.done', {
    ...words,
    saved: p.iosSavedPercent === null ? na : fmtPercent(lang, p.iosSavedPercent, 1),
    backing: p.backingPerSecond === null ? na : t('unit.perSecond', { value: fmtDecimal(lang, p.backingPerSecond, 1) }),
    resp: us(p.responseTimeUs),
    baseline: us(p.baselineResponseUs),
  });
}
