/**
 * Step 4, Review and start: the plan in plain words, its details, a name, and Start. Start
 * calls `api.startRun(plan)` (the probe runs detached and outlives the window) and goes to the
 * run's Live screen. Whatever still stops the plan (no device chosen, a bad duration, a blank
 * name) is written out with a button back to the step that fixes it; a refused start says why
 * and keeps the draft.
 */
import { TARGET_PRESETS, traceBudgetMaxBytes } from '@cacheproof/engine';
import { LOCALE, translate } from '../../shared/i18n/types.ts';
import { common } from '../../shared/i18n/common.ts';
import { TID } from '../../shared/testids.ts';
import { TRACE_BYTES_PER_REQUEST } from '../../shared/estimate.ts';
import { fmtNumber } from '../format.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { StepCtx, StepView } from './index.ts';
import { draftTargetsLabel, estimateText, targetsText } from './plan.ts';
import { asksPrediction, chosenDevices, durationSeconds, problems, reviewSentence, toPlan, type Draft } from './state.ts';
import { choiceOf } from '../predict/choice.ts';
import { choiceWords } from '../predict/fields.ts';
import { predictUi } from '../../shared/i18n/predict-ui.ts';
import { clearDraft } from './store.ts';
import { engineUi } from '../../shared/i18n/engine.ts';
import { fmtBytes, fmtDuration, fmtList, fmtUnit, msToSeconds } from '../../shared/units.ts';

/** "loop7 (front) and loop6 (backing)". */
function devicesPhrase(s: StepCtx, d: Draft): string {
  const backing = d.backing.filter((b) => b !== d.front);
  const parts = [
    ...(d.front === null ? [] : [s.w('rev.frontDevice', { name: d.front })]),
    ...backing.map((name) => s.w('rev.backingDevice', { name })),
  ];
  return fmtList(s.ctx.lang, parts);
}

/** The plan in one paragraph, or null while a duration is invalid or nothing is chosen. */
export function summaryText(s: StepCtx, d: Draft): string | null {
  const lang = s.ctx.lang;
  const b = durationSeconds(d.baseline, 1);
  const wu = durationSeconds(d.warmup, 0);
  const m = durationSeconds(d.measure, 1);
  if (!b.ok || !wu.ok || !m.ok || chosenDevices(d).length === 0) return null;
  const params = {
    devices: devicesPhrase(s, d),
    interval: fmtUnit(lang, msToSeconds(d.intervalMs), 'second', 'long'),
    baseline: fmtDuration(lang, b.seconds),
    warmup: fmtDuration(lang, wu.seconds),
    measure: fmtDuration(lang, m.seconds),
  };
  const parts = [reviewSentence(d, wu.seconds, params, s.w)];
  if (d.front === null) parts.push(s.w('rev.noFront'));
  const est = estimateText(s.w, lang, d);
  if (est !== null) parts.push(est);
  const secs = b.seconds + wu.seconds + m.seconds;
  if (d.trace && d.traceBudget === null) parts.push(s.w('rev.trace', { perRequest: fmtNumber(lang, TRACE_BYTES_PER_REQUEST) }));
  else if (d.trace && d.traceBudget !== null) {
    parts.push(s.w('rev.traceBudget', { budget: fmtBytes(lang, d.traceBudget), max: fmtBytes(lang, traceBudgetMaxBytes(d.traceBudget, secs)), perRequest: fmtNumber(lang, TRACE_BYTES_PER_REQUEST) }));
  }
  const pc = asksPrediction(d) ? choiceOf(d.choice) : null;
  if (pc?.ok === true) parts.push(translate(predictUi, lang, 'wiz.review', choiceWords(lang, pc.choice)));
  parts.push(s.w('rev.targets', { targets: d.targets === 'custom' ? draftTargetsLabel(s.w, lang, d) : `${s.w(`preset.${d.targets}`)} (${targetsText(s.w, lang, TARGET_PRESETS[d.targets])})` }));
  parts.push(s.w('rev.detached'));
  return parts.join(' ');
}

/** The switch in words: manual, or "loop-dio on loop5, switched by the probe when the baseline ends, restored …". */
function switchPhrase(s: StepCtx, d: Draft): string {
  const e = d.engine;
  if (e.kind === 'manual') return s.w('eng.manual');
  const phrase = translate(engineUi, s.ctx.lang, 'rev.switchAdapter', { adapter: e.adapter, device: e.device.trim() || '—' });
  return e.restore ? `${phrase}; ${translate(engineUi, s.ctx.lang, 'rev.restoreYes')}` : phrase;
}

/** A name proposed from the devices and today's date: "loop7 → loop6, 20 Nov 2026". */
function proposedName(s: StepCtx, d: Draft): string {
  const date = new Intl.DateTimeFormat(LOCALE[s.ctx.lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
  return s.w('rev.defaultName', { devices: chosenDevices(d).join(' + ') || '—', date });
}

/** What is left to fix before the run can start, each with the way to its step (hidden when nothing is). */
function problemsBox(s: StepCtx): HTMLElement {
  const { ctx, draft, w } = s;
  const lang = ctx.lang;
  const todo = problems(draft);
  const todoBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.wizProblems });
  if (todo.length === 0) todoBox.hidden = true;
  else {
    todoBox.append(el('p', { class: 'err-what' }, w('rev.notReady')));
    const ul = el('ul', {});
    for (const p of todo) {
      const fix = el('button', { type: 'button' }, w(`rev.goto.${p.step}`));
      fix.addEventListener('click', () => ctx.go(`new/${p.step}`));
      const text = p.field === 'devices' ? translate(common, lang, 'err.no-devices-chosen')
        : p.field === 'engine' ? translate(engineUi, lang, draft.engine.adapter === 'command' && draft.engine.config.trim() === '' ? 'why.config' : 'why.device')
        : p.field === 'targets' ? w('rev.badTargets')
        : p.field === 'prediction' ? translate(predictUi, lang, 'wiz.fix')
        : w('rev.badDuration', { what: w(`plan.${p.field}`) });
      ul.append(el('li', {}, text, ' ', fix));
    }
    todoBox.append(ul);
  }
  return todoBox;
}

/** The plan's details, one term each (a dash where a duration is invalid). */
function detailsList(s: StepCtx): HTMLElement {
  const { ctx, draft, w } = s;
  const lang = ctx.lang;
  const b = durationSeconds(draft.baseline, 1);
  const wu = durationSeconds(draft.warmup, 0);
  const m = durationSeconds(draft.measure, 1);
  const dash = '—';
  const details: [string, string][] = [
    [w('rev.devices'), chosenDevices(draft).length > 0 ? devicesPhrase(s, draft) : dash],
    [w('rev.switch'), switchPhrase(s, draft)],
    [w('plan.baseline'), b.ok ? fmtDuration(lang, b.seconds) : dash],
    [w('plan.warmup'), wu.ok ? fmtDuration(lang, wu.seconds) : dash],
    [w('plan.measure'), m.ok ? fmtDuration(lang, m.seconds) : dash],
    [w('plan.interval'), fmtUnit(lang, msToSeconds(draft.intervalMs), 'second', 'long')],
    [w('plan.targets'), draftTargetsLabel(w, lang, draft)],
  ];
  const dl = el('dl', { class: 'wiz-details' });
  for (const [k, v] of details) dl.append(el('dt', {}, k), el('dd', {}, v));
  return dl;
}

export function reviewStep(s: StepCtx): StepView {
  const { ctx, draft, w } = s;
  const lang = ctx.lang;
  const summary = summaryText(s, draft);

  const nameInput = el('input', { id: 'wiz-name', type: 'text', maxlength: '200', autocomplete: 'off', 'aria-describedby': 'wiz-name-help wiz-name-error', 'data-testid': TID.wizName });
  nameInput.value = draft.name.length > 0 ? draft.name : proposedName(s, draft);
  const nameError = el('p', { class: 'field-error', id: 'wiz-name-error', 'aria-live': 'polite' });
  const checkName = (): void => {
    const blank = nameInput.value.trim().length === 0;
    if (blank) nameInput.setAttribute('aria-invalid', 'true');
    else nameInput.removeAttribute('aria-invalid');
    nameError.textContent = blank ? w('rev.nameEmpty') : '';
  };
  nameInput.addEventListener('input', () => {
    draft.name = nameInput.value;
    checkName();
    s.changed();
  });

  const startError = el('div', { class: 'error', role: 'alert', 'data-testid': TID.wizError, hidden: '' });
  const todoBox = problemsBox(s);
  const dl = detailsList(s);

  const node = el('div', { class: 'wiz-review' },
    todoBox,
    summary === null ? '' : el('p', { class: 'wiz-summary', 'data-testid': TID.wizSummary }, summary),
    dl,
    el('div', { class: 'wiz-field' },
      el('label', { for: 'wiz-name' }, w('rev.name')),
      nameInput,
      el('p', { class: 'help', id: 'wiz-name-help' }, w('rev.nameHelp')),
      nameError),
    startError);
  checkName();

  return {
    node,
    submitLabel: w('rev.start'),
    blocker: () => {
      if (problems(draft).length > 0) return w('rev.fixFirst');
      return nameInput.value.trim().length === 0 ? w('rev.nameEmpty') : null;
    },
    submit: async () => {
      const plan = toPlan(draft, nameInput.value);
      if (plan === null) return;
      startError.hidden = true;
      const r = await ctx.api.startRun(plan);
      if (r.ok) {
        clearDraft();
        ctx.go(`run/${encodeURIComponent(r.value.id)}`);
        return;
      }
      startError.replaceChildren(el('p', { class: 'err-what' }, w('rev.startFailed')), el('p', {}, errorText(lang, r.error.code)),
        // the probe's own sentence for a refused adapter setting (it names the file, field or device)
        ...(r.error.code.startsWith('engine-') ? [el('p', { class: 'err-detail', translate: 'no' }, r.error.message)] : []));
      startError.hidden = false;
    },
  };
}
