/**
 * Step 2, Cache engine: how the switch from "cache off" to "cache on" happens. Either the
 * manual switch (the person switches, CacheProof records the moment), or an adapter the probe
 * runs itself when the baseline ends (docs/adapters.md): the engines the probe detects on this
 * machine (`engine.detect`), the chosen adapter and device, and the dry run (`engine.plan`:
 * exactly what the probe will run, nothing changed) shown before Next is allowed. A refusal
 * of the probe (a shell string in a config, a missing program, a wrong device) is one sentence
 * in the person's language, with the probe's own sentence under it.
 */
import { ENGINE_ADAPTERS, type DetectedEngine, type EngineAdapter, type EngineChoice, type EnginePlan, type ErrorCode } from '../../shared/contract.ts';
import { engineUi, type EngineUiKey } from '../../shared/i18n/engine.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { StepCtx, StepView } from './index.ts';
import { chosenDevices, durationSeconds, switchOf } from './state.ts';
import { fmtDuration } from '../../shared/units.ts';

/** Adapters whose device is the kernel device itself, so the step can check it is one of the measured devices. */
const KERNEL_DEVICE_ADAPTERS: readonly EngineAdapter[] = ['loop-dio', 'bcache'];

/** A key for one choice, so that a dry run is only taken for the choice it was made for. */
function choiceKey(c: EngineChoice): string {
  return JSON.stringify([c.adapter, c.device, c.config]);
}

/** Where the dry run stands for the current choice. */
type PlanState =
  | { kind: 'none' }
  | { kind: 'loading'; key: string }
  | { kind: 'ok'; key: string; plan: EnginePlan }
  | { kind: 'error'; key: string; code: ErrorCode; message: string };

type Words = (key: EngineUiKey, params?: Record<string, string | number>) => string;

/** The manual way: the person switches, CacheProof records the moment. */
function manualView(s: StepCtx, manualRadio: HTMLInputElement): HTMLElement {
  const { w } = s;
  return el('section', { class: 'card wiz-method', 'aria-labelledby': 'wiz-manual-title' },
    el('h4', { id: 'wiz-manual-title' }, el('label', { for: 'wiz-engine-manual' }, manualRadio, ' ', w('eng.manual'))),
    el('p', {}, w('eng.manualWhat')),
    el('h5', {}, w('eng.dryRun')),
    el('ol', { class: 'wiz-dry-run' },
      el('li', {}, w('eng.dry1')),
      el('li', {}, w('eng.dry2')),
      el('li', {}, w('eng.dry3')),
      el('li', {}, w('eng.dry4'))),
    el('p', { class: 'help' }, w('eng.nothingExecuted')));
}

/** The adapter's fields: detected engines, or typed by hand, the schedule and the dry run. */
function adapterView(s: StepCtx, e: Words) {
  const { draft, w } = s;
  const eng = draft.engine;
  const manualRadio = el('input', { type: 'radio', name: 'wiz-engine-kind', id: 'wiz-engine-manual', value: 'manual', 'data-testid': TID.wizEngineManual });
  const adapterRadio = el('input', { type: 'radio', name: 'wiz-engine-kind', id: 'wiz-engine-adapter', value: 'adapter', 'data-testid': TID.wizEngineAdapter });
  manualRadio.checked = eng.kind === 'manual';
  adapterRadio.checked = eng.kind === 'adapter';
  const detected = el('div', { class: 'wiz-engines', 'data-testid': TID.wizEngines, 'aria-live': 'polite' }, e('wiz.detecting'));
  const adapterSelect = el('select', { id: 'wiz-engine-adapter-name', 'data-testid': TID.wizEngineAdapterName });
  for (const a of ENGINE_ADAPTERS) adapterSelect.append(el('option', { value: a }, `${a} — ${e(`adapter.${a}`)}`));
  adapterSelect.value = eng.adapter;
  const deviceInput = el('input', { id: 'wiz-engine-device', type: 'text', maxlength: '128', autocomplete: 'off', 'data-testid': TID.wizEngineDevice });
  deviceInput.value = eng.device;
  const configInput = el('input', { id: 'wiz-engine-config', type: 'text', maxlength: '4096', autocomplete: 'off', 'data-testid': TID.wizEngineConfig, placeholder: '/etc/cacheproof/engine.json' });
  configInput.value = eng.config;
  const configRow = el('div', { class: 'wiz-field' }, el('label', { for: 'wiz-engine-config' }, e('wiz.config')), configInput, el('p', { class: 'help' }, e('wiz.configHelp')));
  const restoreBox = el('input', { type: 'checkbox', id: 'wiz-engine-restore', 'data-testid': TID.wizEngineRestore });
  restoreBox.checked = eng.restore;
  const schedule = el('p', { class: 'wiz-note', 'data-testid': TID.wizEngineSchedule });
  const planBox = el('div', { class: 'wiz-engine-plan', 'data-testid': TID.wizEnginePlan, 'aria-live': 'polite' });
  const errorBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.wizEngineError, hidden: '' });
  const planBtn = el('button', { type: 'button', 'data-testid': TID.wizEnginePlanButton }, e('wiz.showPlan'));
  const adapterSection = el('section', { class: 'card wiz-method', 'aria-labelledby': 'wiz-adapter-title' },
    el('h4', { id: 'wiz-adapter-title' }, el('label', { for: 'wiz-engine-adapter' }, adapterRadio, ' ', e('wiz.adapterTitle'))),
    el('p', {}, e('wiz.adapterWhat')),
    el('h5', {}, e('wiz.detectedTitle')),
    detected,
    el('div', { class: 'wiz-field' }, el('label', { for: 'wiz-engine-adapter-name' }, e('wiz.adapter')), adapterSelect),
    el('div', { class: 'wiz-field' }, el('label', { for: 'wiz-engine-device' }, e('wiz.device')), deviceInput, el('p', { class: 'help' }, e('wiz.deviceHelp'))),
    configRow,
    el('p', {}, el('label', { for: 'wiz-engine-restore' }, restoreBox, ' ', e('wiz.restore'))),
    schedule,
    el('h5', {}, w('eng.dryRun')),
    planBtn,
    planBox,
    errorBox);
  return { manualRadio, adapterRadio, detected, adapterSelect, deviceInput, configInput, configRow, restoreBox, schedule, planBox, errorBox, planBtn, adapterSection };
}

type AdapterView = ReturnType<typeof adapterView>;

/** The step's state: the dry run for the current choice, the detected engines and their radio buttons. */
class EngineState {
  planState: PlanState = { kind: 'none' };
  engines: DetectedEngine[] = [];
  /** The detected engines' radio buttons, kept in step with the choice typed below them. */
  picks: { radio: HTMLInputElement; adapter: string; device: string }[] = [];
  disposed = false;
  constructor(private readonly s: StepCtx) {}

  choice(): EngineChoice | null {
    const sw = switchOf(this.s.draft.engine);
    return sw === null || sw.kind === 'manual' ? null : { adapter: sw.adapter, device: sw.device, config: sw.config };
  }

  /** A device the step can tell is outside the analysis (loop-dio, bcache: the engine's device is the measured kernel device). */
  outsideAnalysis(): boolean {
    const c = this.choice();
    if (c === null || !KERNEL_DEVICE_ADAPTERS.includes(c.adapter)) return false;
    const measured = chosenDevices(this.s.draft);
    return measured.length > 0 && !measured.includes(c.device);
  }
}

/** The dry run's steps: enable, record, restore when asked. */
function dryRunList(e: Words, p: EnginePlan, restore: boolean): HTMLOListElement {
  const ol = el('ol', { class: 'wiz-dry-run' });
  const enable = p.plans.find((x) => x.action === 'enable');
  const disable = p.plans.find((x) => x.action === 'disable');
  const stepsText = (steps: readonly string[]): string => (steps.length === 0 ? e('wiz.planNothing') : steps.join('; '));
  ol.append(el('li', {}, e('wiz.plan1')));
  if (enable !== undefined) ol.append(el('li', { 'data-action': 'enable' }, e('wiz.planEnable', { to: enable.to, steps: stepsText(enable.steps) })));
  ol.append(el('li', {}, e('wiz.plan3')));
  if (restore) ol.append(el('li', { 'data-action': 'restore' }, e('wiz.planRestore', { to: p.mode, steps: stepsText(disable?.to === p.mode ? disable.steps : []) })));
  return ol;
}

/** Draws the choice: the detected engine picked, the schedule, and the dry run or why there is none. */
function showPlan(s: StepCtx, e: Words, v: AdapterView, st: EngineState): void {
  const { draft } = s;
  const lang = s.ctx.lang;
  const adapterMode = draft.engine.kind === 'adapter';
  for (const p of st.picks) p.radio.checked = adapterMode && p.adapter === draft.engine.adapter && p.device === draft.engine.device.trim();
  v.adapterSection.classList.toggle('inactive', !adapterMode);
  v.configRow.hidden = draft.engine.adapter !== 'command';
  const b = durationSeconds(draft.baseline, 1);
  v.schedule.textContent = e('wiz.schedule', { baseline: b.ok ? fmtDuration(lang, b.seconds) : '—' }) + (draft.engine.restore ? ` ${e('wiz.scheduleRestore')}` : '');
  const c = st.choice();
  const current = c === null ? null : choiceKey(c);
  v.planBox.replaceChildren();
  v.errorBox.hidden = true;
  v.errorBox.replaceChildren();
  if (st.outsideAnalysis() && c !== null) {
    v.errorBox.append(el('p', { class: 'err-what' }, errorText(lang, 'engine-wrong-device')),
      el('p', { class: 'err-detail' }, e('wiz.notMeasured', { device: c.device, devices: chosenDevices(draft).join(', ') })));
    v.errorBox.hidden = false;
    s.changed();
    return;
  }
  const ps = st.planState;
  if (ps.kind === 'loading' && ps.key === current) v.planBox.append(el('p', {}, e('wiz.planLoading')));
  else if (ps.kind === 'error' && ps.key === current) {
    v.errorBox.append(el('p', { class: 'err-what' }, errorText(lang, ps.code)), el('p', { class: 'err-detail', translate: 'no' }, ps.message));
    v.errorBox.hidden = false;
  } else if (ps.kind === 'ok' && ps.key === current) {
    const p = ps.plan;
    v.planBox.append(el('p', { 'data-testid': TID.wizEnginePlanMode }, e('wiz.planMode', { adapter: p.adapter, device: p.device, mode: p.mode })));
    v.planBox.append(dryRunList(e, p, draft.engine.restore), el('p', { class: 'help' }, e('wiz.planNothingChanged')));
  } else if (adapterMode && c !== null) v.planBox.append(el('p', { class: 'help' }, e('wiz.planNeeded')));
  s.changed();
}

/** Asks the probe for the dry run of the current choice (`engine.plan`), drawing it as it goes. */
async function runPlan(s: StepCtx, e: Words, v: AdapterView, st: EngineState): Promise<void> {
  const c = st.choice();
  if (c === null || st.outsideAnalysis()) {
    showPlan(s, e, v, st);
    return;
  }
  const key = choiceKey(c);
  st.planState = { kind: 'loading', key };
  showPlan(s, e, v, st);
  const r = await s.ctx.api.planEngine(c);
  if (st.disposed || st.planState.kind !== 'loading' || st.planState.key !== key) return;
  st.planState = r.ok ? { kind: 'ok', key, plan: r.value } : { kind: 'error', key, code: r.error.code, message: r.error.message };
  showPlan(s, e, v, st);
}

/** The detected engines as a table, each with a radio button that picks it. */
function drawEngines(s: StepCtx, e: Words, v: AdapterView, st: EngineState): void {
  const { draft } = s;
  v.detected.replaceChildren();
  if (st.engines.length === 0) {
    v.detected.append(el('p', {}, e('wiz.noneDetected')));
    return;
  }
  const measured = new Set(chosenDevices(draft));
  const table = el('table', { class: 'dash-table' },
    el('caption', {}, e('wiz.detectedCaption')),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, e('wiz.col.choose')), el('th', { scope: 'col' }, e('wiz.adapter')), el('th', { scope: 'col' }, e('wiz.device')),
      el('th', { scope: 'col' }, e('wiz.col.mode')), el('th', { scope: 'col' }, e('wiz.col.measured')))));
  const tbody = el('tbody', {});
  st.picks = [];
  for (const x of st.engines) {
    const radio = el('input', { type: 'radio', name: 'wiz-engine-pick', 'aria-label': `${x.adapter} ${x.device}` });
    radio.checked = draft.engine.kind === 'adapter' && draft.engine.adapter === x.adapter && draft.engine.device === x.device;
    st.picks.push({ radio, adapter: x.adapter, device: x.device });
    radio.addEventListener('change', () => {
      Object.assign(draft.engine, { kind: 'adapter', adapter: x.adapter as EngineAdapter, device: x.device });
      v.adapterRadio.checked = true;
      v.adapterSelect.value = x.adapter;
      v.deviceInput.value = x.device;
      void runPlan(s, e, v, st);
    });
    tbody.append(el('tr', { 'data-testid': `${TID.wizEngineRow}-${x.adapter}-${x.device}` },
      el('td', {}, radio), el('td', { translate: 'no' }, x.adapter), el('td', { translate: 'no' }, x.device),
      // the probe's own words (English): data, shown as it is
      el('td', { title: x.description, translate: 'no' }, `${x.mode} — ${x.description}`),
      el('td', {}, measured.has(x.device) ? e('wiz.measuredYes') : e('wiz.measuredNo'))));
  }
  table.append(tbody);
  v.detected.append(table);
}

/** The fields' listeners: each change goes to the draft and redraws (the way, the adapter, device, config, restore). */
function wireEngineInputs(s: StepCtx, e: Words, v: AdapterView, st: EngineState): void {
  const { draft } = s;
  const redraw = (): void => showPlan(s, e, v, st);
  v.manualRadio.addEventListener('change', () => {
    draft.engine.kind = 'manual';
    redraw();
  });
  v.adapterRadio.addEventListener('change', () => {
    draft.engine.kind = 'adapter';
    // the engine on the front device, when the probe found one and none is chosen yet
    const front = st.engines.find((x) => x.device === draft.front && (ENGINE_ADAPTERS as readonly string[]).includes(x.adapter));
    if (draft.engine.device === '' && front !== undefined) {
      Object.assign(draft.engine, { adapter: front.adapter as EngineAdapter, device: front.device });
      v.adapterSelect.value = front.adapter;
      v.deviceInput.value = front.device;
      drawEngines(s, e, v, st);
    }
    void runPlan(s, e, v, st);
  });
  v.adapterSelect.addEventListener('change', () => {
    draft.engine.adapter = v.adapterSelect.value as EngineAdapter;
    draft.engine.kind = 'adapter';
    v.adapterRadio.checked = true;
    redraw();
  });
  v.deviceInput.addEventListener('input', () => {
    draft.engine.device = v.deviceInput.value;
    redraw();
  });
  v.configInput.addEventListener('input', () => {
    draft.engine.config = v.configInput.value;
    redraw();
  });
  v.restoreBox.addEventListener('change', () => {
    draft.engine.restore = v.restoreBox.checked;
    redraw();
  });
  v.planBtn.addEventListener('click', () => void runPlan(s, e, v, st));
}

/** Why Next waits on this step, or null. */
function engineBlocker(s: StepCtx, e: Words, st: EngineState): string | null {
  const { draft } = s;
  if (draft.engine.kind === 'manual') return null;
  const c = st.choice();
  if (c === null) return draft.engine.adapter === 'command' && draft.engine.config.trim() === '' ? e('why.config') : e('why.device');
  if (st.outsideAnalysis()) return errorText(s.ctx.lang, 'engine-wrong-device');
  if (st.planState.kind === 'error' && st.planState.key === choiceKey(c)) return errorText(s.ctx.lang, st.planState.code);
  if (st.planState.kind !== 'ok' || st.planState.key !== choiceKey(c)) return e('why.plan');
  return null;
}

export function engineStep(s: StepCtx): StepView {
  const { ctx, draft, w } = s;
  const lang = ctx.lang;
  const e: Words = (key, params) => translate(engineUi, lang, key, params);
  const v = adapterView(s, e);
  const manualSection = manualView(s, v.manualRadio);
  const st = new EngineState(s);
  wireEngineInputs(s, e, v, st);
  void ctx.api.detectEngines().then((r) => {
    if (st.disposed) return;
    if (!r.ok) {
      v.detected.replaceChildren(el('p', { class: 'err-what' }, errorText(lang, r.error.code)), el('p', { class: 'err-detail', translate: 'no' }, r.error.message));
      return;
    }
    st.engines = r.value;
    drawEngines(s, e, v, st);
  });
  if (draft.engine.kind === 'adapter') void runPlan(s, e, v, st);
  else showPlan(s, e, v, st);
  const node = el('div', { class: 'wiz-engine' },
    el('p', { class: 'intro' }, w('eng.intro')),
    manualSection,
    v.adapterSection);
  return {
    node,
    blocker: () => engineBlocker(s, e, st),
    dispose: () => {
      st.disposed = true;
    },
  };
}
