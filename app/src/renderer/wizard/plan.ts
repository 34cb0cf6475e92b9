/**
 * Step 3, Plan: baseline, warm-up and measure durations (any length down to one second, for
 * trials), the sample interval, the latency targets preset, the block trace and, with it, the
 * cache to predict from the baseline's trace (renderer/predict/), and a live estimate of the
 * capture's disk use (shared/estimate.ts, method documented there). Each invalid duration is
 * marked on its field and explained in a sentence tied to it (aria-describedby).
 */
import { TARGET_PRESETS, totalSeconds, type LatencyTargets, type TargetPreset } from '@cacheproof/engine';
import { CAPTURE_BYTES_PER_DEVICE_SAMPLE, CAPTURE_BYTES_PER_SAMPLE, CAPTURE_FIXED_BYTES, CAPTURE_RECORDING_EXTRA_BYTES, estimateCaptureSize, TRACE_BUDGETS, TRACE_DEFAULT_BUDGET_BYTES } from '../../shared/estimate.ts';
import { traceSizeText } from './trace-size.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import type { WizardKey } from '../../shared/i18n/wizard.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber } from '../format.ts';
import { fmtDecimal } from '../../shared/i18n/numbers.ts';
import { customTargetsFieldset } from './targets.ts';
import { customTargetsOf } from './targets-model.ts';
import type { StepCtx, StepView } from './index.ts';
import { asksPrediction, chosenDevices, durationSeconds, INTERVALS_MS, PRESETS, UNITS, type Draft, type DurationDraft, type Unit } from './state.ts';
import { choiceFields } from '../predict/fields.ts';
import { choiceOf } from '../predict/choice.ts';
import { predictUi } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { fmtBytes, fmtDuration, fmtUnit, msToSeconds } from '../../shared/units.ts';

type DurationField = 'baseline' | 'warmup' | 'measure';
const FIELDS: { field: DurationField; min: 0 | 1; label: WizardKey; help: WizardKey }[] = [
  { field: 'baseline', min: 1, label: 'plan.baseline', help: 'plan.baselineHelp' },
  { field: 'warmup', min: 0, label: 'plan.warmup', help: 'plan.warmupHelp' },
  { field: 'measure', min: 1, label: 'plan.measure', help: 'plan.measureHelp' },
];
/** Windows shorter than this are trials: the step says so (a day covers a daily cycle). */
const SHORT_WINDOW_SECONDS = 3600;

/** "reads under 10 ms, writes under 5 ms" in the person's language. */
export function targetsText(w: StepCtx['w'], lang: Lang, t: LatencyTargets): string {
  const parts: string[] = [];
  if (t.readMs !== undefined) parts.push(w('target.read', { ms: fmtNumber(lang, t.readMs) }));
  if (t.writeMs !== undefined) parts.push(w('target.write', { ms: fmtNumber(lang, t.writeMs) }));
  if (t.transferMs !== undefined) parts.push(w('target.transfer', { ms: fmtNumber(lang, t.transferMs) }));
  if (t.warnMs !== undefined) parts.push(w('target.warn', { ms: fmtNumber(lang, t.warnMs) }));
  return parts.join(', ');
}

export function presetLabel(w: StepCtx['w'], lang: Lang, p: TargetPreset): string {
  return w('preset.option', { name: w(`preset.${p}`), targets: targetsText(w, lang, TARGET_PRESETS[p]) });
}

/** The draft's targets in words: its preset's, or the custom values typed (— while they are not valid). */
export function draftTargetsLabel(w: StepCtx['w'], lang: Lang, d: Draft): string {
  if (d.targets !== 'custom') return presetLabel(w, lang, d.targets);
  const c = customTargetsOf(d.custom);
  if (!c.ok) return w('preset.option', { name: w('preset.custom'), targets: '—' });
  const t = c.targets;
  const parts = [w('target.read', { ms: fmtDecimal(lang, t.readMs, 3) }), w('target.write', { ms: fmtDecimal(lang, t.writeMs, 3) })];
  if (t.warnMs !== undefined) parts.push(w('target.warnCustom', { ms: fmtDecimal(lang, t.warnMs, 3) }));
  return w('preset.option', { name: w('preset.custom'), targets: parts.join(', ') });
}

/** The capture size sentence for a draft (also used by the review step). */
export function estimateText(w: StepCtx['w'], lang: Lang, d: Draft): string | null {
  const b = durationSeconds(d.baseline, 1);
  const wu = durationSeconds(d.warmup, 0);
  const m = durationSeconds(d.measure, 1);
  const devices = chosenDevices(d).length;
  if (!b.ok || !wu.ok || !m.ok || devices === 0) return null;
  const e = estimateCaptureSize({ deviceCount: devices, baselineSeconds: b.seconds, warmupSeconds: wu.seconds, measureSeconds: m.seconds, intervalMs: d.intervalMs });
  return w('plan.estimate', { size: fmtBytes(lang, e.bytes), samples: fmtNumber(lang, e.samples), devices: fmtNumber(lang, devices), extra: fmtBytes(lang, e.peakBytes - e.bytes) });
}

/** The three durations (baseline, warm-up, measure), each typed with its unit, and their total. */
function durationsFieldset(s: StepCtx, check: () => void) {
  const { draft, w } = s;
  const errors = new Map<DurationField, HTMLElement>();
  const inputs = new Map<DurationField, HTMLInputElement>();
  const total = el('p', { class: 'help', 'data-testid': TID.wizTotal });
  const short = el('p', { class: 'wiz-note', hidden: '' });
  const node = el('fieldset', { class: 'wiz-group' }, el('legend', {}, w('plan.durations')));
  for (const f of FIELDS) {
    const d: DurationDraft = draft[f.field];
    const id = `wiz-${f.field}`;
    const input = el('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', size: '8', value: d.text, 'aria-describedby': `${id}-help ${id}-error`, 'data-testid': `${TID.wizDuration}-${f.field}` });
    const unit = el('select', { id: `${id}-unit`, 'aria-label': w('plan.unitFor', { what: w(f.label) }), 'data-testid': `${TID.wizDuration}-${f.field}-unit` });
    for (const u of Object.keys(UNITS) as Unit[]) {
      const opt = el('option', { value: u }, w(`unit.${u}`));
      if (u === d.unit) opt.selected = true;
      unit.append(opt);
    }
    input.addEventListener('input', () => {
      draft[f.field] = { text: input.value, unit: draft[f.field].unit };
      check();
    });
    unit.addEventListener('change', () => {
      const u = unit.value;
      if (Object.prototype.hasOwnProperty.call(UNITS, u)) draft[f.field] = { text: draft[f.field].text, unit: u as Unit };
      check();
    });
    const err = el('p', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' });
    inputs.set(f.field, input);
    errors.set(f.field, err);
    node.append(el('div', { class: 'wiz-field' },
      el('label', { for: id }, w(f.label)),
      el('div', { class: 'wiz-dur' }, input, unit),
      el('p', { class: 'help', id: `${id}-help` }, w(f.help)),
      err));
  }
  node.append(total, short);
  return { node, errors, inputs, total, short };
}

type Durations = ReturnType<typeof durationsFieldset>;

/** Marks each duration valid or says what is wrong; the total once all three are valid, and the note on a short window. */
function showDurations(s: StepCtx, v: Durations): void {
  const { draft, w } = s;
  const lang = s.ctx.lang;
  const secs: number[] = [];
  let shortest = Infinity;
  for (const f of FIELDS) {
    const r = durationSeconds(draft[f.field], f.min);
    const input = v.inputs.get(f.field);
    const err = v.errors.get(f.field);
    if (r.ok) {
      secs.push(r.seconds);
      if (f.min === 1 && r.seconds < shortest) shortest = r.seconds;
      input?.removeAttribute('aria-invalid');
      if (err) err.textContent = '';
    } else {
      input?.setAttribute('aria-invalid', 'true');
      if (err) err.textContent = w(`dur.${r.error}`, { max: fmtUnit(lang, 30, 'day', 'long') });
    }
  }
  v.total.textContent = secs.length === 3 ? w('plan.total', { total: fmtDuration(lang, totalSeconds(secs)) }) : '';
  v.short.hidden = !(shortest < SHORT_WINDOW_SECONDS);
  v.short.textContent = w('plan.short', { hour: fmtUnit(lang, 1, 'hour', 'long') });
}

/** The sampling interval and the latency targets (a preset or custom). */
function samplingFields(s: StepCtx, check: () => void) {
  const { draft, w } = s;
  const lang = s.ctx.lang;
  const interval = el('select', { id: 'wiz-interval', 'data-testid': TID.wizInterval, 'aria-describedby': 'wiz-interval-help' });
  for (const ms of INTERVALS_MS) {
    const label = fmtUnit(lang, msToSeconds(ms), 'second', 'long');
    const opt = el('option', { value: String(ms) }, ms === 5000 ? w('plan.default', { value: label }) : label);
    if (ms === draft.intervalMs) opt.selected = true;
    interval.append(opt);
  }
  interval.addEventListener('change', () => {
    const ms = Number(interval.value);
    if ((INTERVALS_MS as readonly number[]).includes(ms)) draft.intervalMs = ms;
    check();
  });
  const targets = el('select', { id: 'wiz-targets', 'data-testid': TID.wizTargets, 'aria-describedby': 'wiz-targets-help' });
  for (const p of PRESETS) {
    const opt = el('option', { value: p }, presetLabel(w, lang, p));
    if (p === draft.targets) opt.selected = true;
    targets.append(opt);
  }
  const customOpt = el('option', { value: 'custom' }, w('preset.custom'));
  if (draft.targets === 'custom') customOpt.selected = true;
  targets.append(customOpt);
  const custom = customTargetsFieldset(w, lang, draft.custom, () => check());
  custom.show(draft.targets === 'custom');
  targets.addEventListener('change', () => {
    const p = PRESETS.find((x) => x === targets.value);
    if (p !== undefined) draft.targets = p;
    else if (targets.value === 'custom') draft.targets = 'custom';
    custom.show(draft.targets === 'custom');
    check();
  });
  return el('fieldset', { class: 'wiz-group' }, el('legend', {}, w('plan.sampling')),
    el('div', { class: 'wiz-field' },
      el('label', { for: 'wiz-interval' }, w('plan.interval')),
      interval,
      el('p', { class: 'help', id: 'wiz-interval-help' }, w('plan.intervalHelp'))),
    el('div', { class: 'wiz-field' },
      el('label', { for: 'wiz-targets' }, w('plan.targets')),
      targets,
      el('p', { class: 'help', id: 'wiz-targets-help' }, w('plan.targetsHelp'))),
    custom.node);
}

/** The cache to predict from the baseline's trace (shown while the trace is on). */
function predictFields(s: StepCtx, check: () => void) {
  const { draft } = s;
  const lang = s.ctx.lang;
  const pt = (k: 'wiz.toggle' | 'wiz.help' | 'wiz.fix'): string => translate(predictUi, lang, k);
  const predictBox = el('input', { id: 'wiz-predict', type: 'checkbox', 'aria-describedby': 'wiz-predict-help', 'data-testid': TID.wizPredict });
  predictBox.checked = draft.predict;
  const fields = choiceFields(lang, draft.choice, () => check(), 'wiz-predict', TID.wizPredictChoice);
  const predictGroup = el('div', { class: 'wiz-predict' },
    el('div', { class: 'wiz-check' }, predictBox, el('label', { for: 'wiz-predict' }, pt('wiz.toggle'))),
    el('p', { class: 'help', id: 'wiz-predict-help' }, pt('wiz.help')),
    fields.node);
  const showPredict = (): void => {
    predictGroup.hidden = !draft.trace;
    fields.node.hidden = !asksPrediction(draft);
  };
  predictBox.addEventListener('change', () => {
    draft.predict = predictBox.checked;
    showPredict();
    check();
  });
  return { predictGroup, fields, showPredict, fix: () => pt('wiz.fix') };
}

/** The block trace: on or off, its size budget per 24 h (record --trace-budget) or every request, its size, and the prediction. */
function traceFields(s: StepCtx, check: () => void) {
  const { draft, w } = s;
  const lang = s.ctx.lang;
  const traceBox = el('input', { id: 'wiz-trace', type: 'checkbox', 'aria-describedby': 'wiz-trace-help wiz-trace-size', 'data-testid': TID.wizTrace });
  traceBox.checked = draft.trace;
  const traceSize = el('p', { class: 'help', id: 'wiz-trace-size', 'data-testid': TID.wizTraceSize, 'aria-live': 'polite' });
  const budget = el('select', { id: 'wiz-trace-budget', 'aria-describedby': 'wiz-trace-budget-help wiz-trace-size', 'data-testid': TID.wizTraceBudget });
  for (const b of TRACE_BUDGETS) budget.append(el('option', { value: String(b) }, w(b === TRACE_DEFAULT_BUDGET_BYTES ? 'plan.traceBudgetDefault' : 'plan.traceBudgetOption', { size: fmtBytes(lang, b) })));
  budget.append(el('option', { value: 'every' }, w('plan.traceBudgetEvery')));
  budget.value = draft.traceBudget === null ? 'every' : String(draft.traceBudget);
  budget.disabled = !draft.trace;
  budget.addEventListener('change', () => {
    draft.traceBudget = budget.value === 'every' ? null : Number(budget.value);
    check();
  });
  const predict = predictFields(s, check);
  traceBox.addEventListener('change', () => {
    draft.trace = traceBox.checked;
    budget.disabled = !draft.trace;
    predict.showPredict();
    check();
  });
  predict.showPredict();
  const node = el('fieldset', { class: 'wiz-group' }, el('legend', {}, w('plan.traceTitle')),
    el('div', { class: 'wiz-check' },
      traceBox,
      el('label', { for: 'wiz-trace' }, w('plan.trace'))),
    el('p', { class: 'help', id: 'wiz-trace-help' }, w('plan.traceHelp')),
    el('div', { class: 'wiz-field' },
      el('label', { for: 'wiz-trace-budget' }, w('plan.traceBudget')),
      budget,
      el('p', { class: 'help', id: 'wiz-trace-budget-help' }, w('plan.traceBudgetHelp'))),
    traceSize,
    predict.predictGroup);
  const showTraceSize = (): void => {
    traceSize.textContent = traceSizeText(w, lang, draft) ?? w('plan.estimateInvalid');
  };
  return { node, showTraceSize, predict };
}

/** The capture's size and how it is estimated. */
function sizeCard(s: StepCtx, estimate: HTMLElement): HTMLElement {
  const { w } = s;
  const lang = s.ctx.lang;
  const method = w('plan.estimateMethod', {
    perSample: fmtNumber(lang, CAPTURE_BYTES_PER_SAMPLE),
    perDevice: fmtNumber(lang, CAPTURE_BYTES_PER_DEVICE_SAMPLE),
    fixed: fmtBytes(lang, CAPTURE_FIXED_BYTES),
    extra: fmtBytes(lang, CAPTURE_RECORDING_EXTRA_BYTES),
  });
  return el('section', { class: 'card wiz-size', 'aria-labelledby': 'wiz-size-title' },
    el('h4', { id: 'wiz-size-title' }, w('plan.sizeTitle')),
    estimate,
    el('p', { class: 'help' }, method));
}

export function planStep(s: StepCtx): StepView {
  const { ctx, draft, w } = s;
  const lang = ctx.lang;
  const estimate = el('p', { class: 'wiz-estimate', 'data-testid': TID.wizEstimate, 'aria-live': 'polite' });
  const check = (): void => {
    showDurations(s, durations);
    const est = estimateText(w, lang, draft);
    estimate.textContent = est ?? (chosenDevices(draft).length === 0 ? w('plan.estimateNoDevices') : w('plan.estimateInvalid'));
    trace.showTraceSize();
    s.changed();
  };
  const durations = durationsFieldset(s, check);
  const sampling = samplingFields(s, check);
  const trace = traceFields(s, check);
  const node = el('div', { class: 'wiz-plan' },
    el('p', { class: 'intro' }, w('plan.intro')),
    durations.node,
    sampling,
    trace.node,
    sizeCard(s, estimate));
  check();
  const { fields, fix } = trace.predict;
  return {
    node,
    blocker: () => (FIELDS.some((f) => !durationSeconds(draft[f.field], f.min).ok) ? w('plan.fix')
      : draft.targets === 'custom' && !customTargetsOf(draft.custom).ok ? w('rev.badTargets')
      : asksPrediction(draft) && !choiceOf(draft.choice).ok ? (fields.paint(), fix()) : null),
  };
}
