/**
 * The Planner screen (issue 6): a TCO scenario prefilled from the open analysis (host channel
 * `plan.fromAnalysis`, the same scenario `cacheproof tco --from-capture` writes), every input
 * editable, and the comparison recomputed live in the renderer with the engine's pure planner
 * (`parseScenario`, `planScenario`, `sensitivity`): the same functions `cacheproof tco` runs, so
 * each figure has one implementation.
 *
 * Invalid input shows one sentence naming the field (its label and JSON path) and the results
 * keep the last valid scenario. Valid scenarios are saved in localStorage keyed by the analysis
 * id (and checked against the capture's SHA-256); "Export" downloads the scenario JSON.
 *
 * The host writes the prefilled scenario in the screen's language (its title and the template's
 * drive and configuration labels). When the language changes, or a scenario saved in another
 * language is reopened, the template's texts follow the language (`localizeTemplate`, by id);
 * a label that is not the template's text in any language (a person's own) stays as it is.
 */
import { Chart, type ChartDataset } from 'chart.js';
import {
  BYTES_PER_TB,
  IOPS_BASES,
  RAID_LEVELS,
  jsonPath,
  parseScenario,
  planScenario,
  raidGroupProblem,
  sensitivity,
  type ConfigResult,
  type LineId,
  type PlanError,
  type PlanResult,
  type RaidLevel,
  type Scenario,
} from '@cacheproof/engine/plan';
import type { CacheProofApi } from '../shared/api.ts';
import type { AnalysisView } from '../shared/contract.ts';
import { common, type CommonKey } from '../shared/i18n/common.ts';
import { configurationSentences, configWarningSentences, costPerSentence, driveLifeSentence, lineItemDetail, planErrorSentence, planner, planSummarySentences, type PlannerKey } from '../shared/i18n/planner.ts';
import { formatTcoNumber, tco, type TcoKey } from '../shared/i18n/tco.ts';
import { localizeTemplate } from '../shared/i18n/template.ts';
import { translate, type Lang } from '../shared/i18n/types.ts';
import { TID } from '../shared/testids.ts';

export interface PlannerContext {
  api: CacheProofApi;
  view: AnalysisView;
  lang: Lang;
  /** Colour-blind-safe palette (Okabe–Ito), shared with the results dashboard. */
  palette: readonly string[];
}

type Json = Record<string, unknown>;
type Path = readonly (string | number)[];

interface PlannerState {
  /** The scenario as the person edits it (may be invalid). */
  draft: Json | null;
  loading: boolean;
  loadError: string | null;
  last: { scenario: Scenario; result: PlanResult } | null;
  error: PlanError | null;
  /** The language of the screen last built for this analysis (a prefill answered later is put in it). */
  lang: Lang;
  /** Rebuilds the screen last built for this analysis, if it is still shown. */
  rebuild: () => void;
}

/** Per analysis id, for this page's lifetime (language switches re-render, the edits stay). */
const states = new Map<string, PlannerState>();
let charts: Chart[] = [];

const STORAGE_PREFIX = 'cacheproof.planner.';
/** Default energy forms when a person switches between them (the documented example's values). */
const DEFAULT_METERED = { usdPerKwh: 0.15, pue: 1.5 };
const DEFAULT_PER_DRIVE = { usdPerDrivePerYear: 20 };
/** Group size chosen when a new RAID level does not accept the current one. */
const DEFAULT_GROUP: Record<RaidLevel, number> = { '0': 4, '1': 2, '10': 4, '5': 5, '6': 6, custom: 4 };
/** IOPS targets of the spindle chart, as multiples of today's target. */
const SPINDLE_FACTORS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3];
/** Line dash per configuration so lines differ by more than colour. */
const DASHES = [[], [8, 4], [2, 3], [10, 3, 2, 3]];

/** Stack groups of the cost bars: a few readable categories, each a sum of line items. */
const STACKS: readonly [PlannerKey, readonly LineId[]][] = [
  ['stack.purchase', ['baseSystem', 'cacheLicense']],
  ['stack.drives', ['backingDrives', 'cacheDrives', 'cacheRam']],
  ['stack.enclosures', ['enclosures']],
  ['stack.power', ['powerCooling']],
  ['stack.failures', ['backingFailures', 'cacheFailures', 'cacheWearReplacements']],
  ['stack.support', ['support']],
];

interface Conv {
  toUi(v: number): number;
  fromUi(x: number): number;
}
const IDENT: Conv = { toUi: (v) => v, fromUi: (x) => x };
const PERCENT: Conv = { toUi: (v) => v * 100, fromUi: (x) => x / 100 };
const TB: Conv = { toUi: (v) => v / BYTES_PER_TB, fromUi: (x) => x * BYTES_PER_TB };
const KIB: Conv = { toUi: (v) => v / 1024, fromUi: (x) => x * 1024 };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function getAt(obj: unknown, path: Path): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  if (cur !== null && typeof cur === 'object' && 'value' in cur) return (cur as { value: unknown }).value;
  return cur;
}

/** Sets a value at a path, creating objects on the way; `undefined` deletes the field. */
function setAt(obj: Json, path: Path, value: unknown): void {
  let cur: Record<string | number, unknown> = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string | number;
    const next = cur[key];
    if (next === null || typeof next !== 'object') cur[key] = {};
    cur = cur[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (value === undefined) Reflect.deleteProperty(cur, last);
  else cur[last] = value;
}

/** A number as an input shows it: at most 6 significant digits (a measured 80.0230946 % reads 80.0231). */
function shown(x: number): string {
  return String(Number(x.toPrecision(6)));
}

function idFor(pathText: string): string {
  return `pl-${pathText.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

function storageKey(view: AnalysisView): string {
  return STORAGE_PREFIX + view.id;
}

function loadSaved(view: AnalysisView): Json | null {
  try {
    const raw = localStorage.getItem(storageKey(view));
    if (raw === null) return null;
    const saved = JSON.parse(raw) as { captureSha256?: unknown; scenario?: unknown };
    if (saved.captureSha256 !== view.captureSha256 || saved.scenario === null || typeof saved.scenario !== 'object') return null;
    return saved.scenario as Json;
  } catch {
    return null;
  }
}

function save(view: AnalysisView, scenario: Json): void {
  localStorage.setItem(storageKey(view), JSON.stringify({ captureSha256: view.captureSha256, scenario }));
}

/** Checks and plans the draft; keeps the last valid result when it fails. */
function evaluate(view: AnalysisView, st: PlannerState): void {
  if (st.draft === null) return;
  const parsed = parseScenario(st.draft);
  if (!parsed.ok) {
    st.error = parsed.error;
    return;
  }
  const plan = planScenario(parsed.value);
  if (!plan.ok) {
    st.error = plan.error;
    return;
  }
  st.error = null;
  st.last = { scenario: parsed.value, result: plan.value };
  save(view, st.draft);
}

/**
 * Puts the template's texts of the draft and of the last valid result in `lang` (a person's own
 * labels stay), then re-checks and saves the draft.
 */
function followLanguage(view: AnalysisView, st: PlannerState, lang: Lang): void {
  st.lang = lang;
  if (st.draft !== null) st.draft = localizeTemplate(st.draft, lang);
  if (st.last !== null) {
    const scenario = localizeTemplate(st.last.scenario, lang);
    const plan = planScenario(scenario);
    if (plan.ok) st.last = { scenario, result: plan.value };
  }
  evaluate(view, st);
}

/** Releases the planner's charts (called when another screen is shown). */
export function closePlanner(): void {
  for (const c of charts) c.destroy();
  charts = [];
}

/** Builds the Planner screen for the open analysis. */
export function plannerScreen(ctx: PlannerContext): HTMLElement {
  const root = el('section', { class: 'planner', 'data-testid': TID.planner, 'aria-labelledby': 'planner-title' });
  let st = states.get(ctx.view.id);
  if (st === undefined) {
    st = { draft: loadSaved(ctx.view), loading: false, loadError: null, last: null, error: null, lang: ctx.lang, rebuild: () => undefined };
    states.set(ctx.view.id, st);
  }
  const state = st;
  followLanguage(ctx.view, state, ctx.lang);
  state.rebuild = () => {
    if (root.isConnected) build();
  };
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);

  const load = async (): Promise<void> => {
    state.loading = true;
    state.loadError = null;
    const r = await ctx.api.planFromAnalysis(ctx.view.id, state.lang);
    state.loading = false;
    if (r.ok) {
      // The language may have changed while the host was answering.
      state.draft = localizeTemplate(r.value as Json, state.lang);
      state.last = null;
      evaluate(ctx.view, state);
    } else state.loadError = r.error.code;
    state.rebuild();
  };

  function build(): void {
    const focused = document.activeElement?.id ?? '';
    closePlanner();
    root.replaceChildren(el('h2', { id: 'planner-title' }, p('title')), el('p', { class: 'pl-intro' }, p('intro')));
    if (state.draft === null) {
      if (state.loadError !== null) {
        const key = `err.${state.loadError}` as CommonKey;
        root.append(el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError }, p('loadFailed'), ' ', key in common.en ? translate(common, ctx.lang, key) : ''));
      } else root.append(el('p', { role: 'status' }, p('loading')));
      if (!state.loading && state.loadError === null) void load();
      return;
    }
    const form = new PlannerForm(ctx, state, () => refresh(), () => build());
    const errorBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.plannerError });
    const results = el('div', { class: 'pl-results', 'aria-live': 'off' });
    const exportBtn = el('button', { type: 'button', 'data-testid': TID.plannerExport, 'aria-describedby': 'pl-export-help' }, p('export'));
    exportBtn.addEventListener('click', () => exportScenario(ctx.view, state));
    const resetBtn = el('button', { type: 'button', 'data-testid': TID.plannerReset }, p('reset'));
    resetBtn.addEventListener('click', () => {
      localStorage.removeItem(storageKey(ctx.view));
      state.draft = null;
      state.last = null;
      state.error = null;
      build();
    });
    const exportHelp = el('span', { id: 'pl-export-help', class: 'pl-help' }, p('exportHelp'));
    root.append(
      el('div', { class: 'pl-actions' }, exportBtn, resetBtn, exportHelp),
      el('p', { class: 'pl-help' }, p('savedNote')),
      el('div', { class: 'pl-layout' }, form.element(), el('div', { class: 'pl-right' }, errorBox, results)),
    );

    function refresh(): void {
      evaluate(ctx.view, state);
      showError();
      if (state.error === null || results.childElementCount === 0) drawResults();
    }
    function showError(): void {
      for (const bad of root.querySelectorAll('[aria-invalid="true"]')) bad.removeAttribute('aria-invalid');
      const err = state.error;
      exportBtn.disabled = err !== null;
      exportHelp.textContent = err === null ? p('exportHelp') : p('exportDisabled');
      if (err === null) {
        errorBox.replaceChildren();
        errorBox.hidden = true;
        return;
      }
      errorBox.hidden = false;
      errorBox.replaceChildren(
        el('span', { class: 'pl-error-sentence' }, planErrorSentence(err, ctx.lang, form.labelFor(err.path))),
        el('span', { class: 'pl-help' }, ' ', state.last === null ? p('noResultYet') : p('lastValid')),
      );
      document.getElementById(idFor(err.path))?.setAttribute('aria-invalid', 'true');
    }
    function drawResults(): void {
      closePlanner();
      results.replaceChildren();
      if (state.last !== null) results.append(...resultsView(ctx, state.last.scenario, state.last.result));
    }
    showError();
    drawResults();
    if (focused !== '') document.getElementById(focused)?.focus();
  }

  build();
  return root;
}

function exportScenario(view: AnalysisView, st: PlannerState): void {
  if (st.draft === null || st.error !== null) return;
  const blob = new Blob([`${JSON.stringify(st.draft, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const name = `${view.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'scenario'}.tco.json`;
  const a = el('a', { href: url, download: name, hidden: '' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The inputs: workload, energy, drive models, configurations. Labels are kept to name fields in errors. */
class PlannerForm {
  private readonly labels = new Map<string, string>();
  private readonly p: (key: PlannerKey, params?: Record<string, string | number>) => string;
  private readonly tc: (key: TcoKey, params?: Record<string, string | number>) => string;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly st: PlannerState,
    private readonly onInput: () => void,
    private readonly onStructure: () => void,
  ) {
    this.p = (key, params) => translate(planner, ctx.lang, key, params);
    this.tc = (key, params) => translate(tco, ctx.lang, key, params);
  }

  labelFor(pathText: string): string | null {
    return this.labels.get(pathText) ?? null;
  }

  private get draft(): Json {
    return this.st.draft ?? {};
  }

  private help(id: string, text: string): HTMLElement {
    return el('p', { class: 'pl-help', id: `${id}-help` }, text);
  }

  /** A number input bound to a JSON path; `conv` converts between the file's unit and the shown one. */
  numberField(path: Path, label: string, unit: string, help: string, conv: Conv = IDENT, opts: { optional?: boolean; step?: string; prefix?: string } = {}): HTMLElement {
    const pathText = jsonPath(path);
    const id = idFor(pathText);
    this.labels.set(pathText, opts.prefix === undefined ? label : `${opts.prefix} — ${label}`);
    const v = getAt(this.draft, path);
    const input = el('input', { id, type: 'number', step: opts.step ?? 'any', inputmode: 'decimal', 'aria-describedby': `${id}-help`, autocomplete: 'off' });
    input.value = typeof v === 'number' ? shown(conv.toUi(v)) : typeof v === 'string' ? v : '';
    input.addEventListener('input', () => {
      const raw = input.value.trim();
      const n = Number(raw);
      setAt(this.draft, path, raw === '' ? undefined : Number.isFinite(n) ? conv.fromUi(n) : raw);
      this.onInput();
    });
    return el('div', { class: 'pl-field' }, el('label', { for: id }, label, ' ', el('span', { class: 'pl-unit' }, `(${unit})`)), input, this.help(id, help));
  }

  /** A select bound to a JSON path; changing it rebuilds the form (other fields may appear). */
  selectField(path: Path, label: string, help: string, options: readonly (readonly [string, string])[], onChange?: (value: string) => void, prefix?: string): HTMLElement {
    const pathText = jsonPath(path);
    const id = idFor(pathText);
    this.labels.set(pathText, prefix === undefined ? label : `${prefix} — ${label}`);
    const current = String(getAt(this.draft, path) ?? '');
    const select = el('select', { id, 'aria-describedby': `${id}-help` });
    for (const [value, text] of options) {
      const o = el('option', { value }, text);
      if (value === current) o.selected = true;
      select.append(o);
    }
    select.addEventListener('change', () => {
      if (onChange) onChange(select.value);
      else setAt(this.draft, path, select.value);
      this.onStructure();
    });
    return el('div', { class: 'pl-field' }, el('label', { for: id }, label), select, this.help(id, help));
  }

  element(): HTMLElement {
    const p = this.p;
    const d = this.draft;
    const form = el('form', { class: 'pl-form', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());

    // Workload.
    const basis = String(getAt(d, ['workload', 'iops', 'basis']) ?? 'p95');
    const basisName = (b: string): string => this.tc(`basis.${b}` as TcoKey);
    const workload = el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.workload')),
      this.numberField(['years'], p('f.years'), p('unit.years'), p('h.years'), IDENT, { step: '1' }),
      this.selectField(['workload', 'iops', 'basis'], p('f.basis'), p('h.basis'), IOPS_BASES.map((b) => [b, basisName(b)] as const), (value) => {
        const iops = (getAt(d, ['workload', 'iops']) ?? {}) as Json;
        if (typeof iops[value] !== 'number') setAt(d, ['workload', 'iops', value], iops[basis]);
        setAt(d, ['workload', 'iops', 'basis'], value);
      }),
      this.numberField(['workload', 'iops', basis], p('f.iopsTarget', { basis: basisName(basis) }), p('unit.iops'), p('h.iopsTarget')),
      this.numberField(['workload', 'readShare'], p('f.readShare'), p('unit.percent'), p('h.readShare'), PERCENT),
      this.numberField(['workload', 'avgRequestBytes'], p('f.requestSize'), p('unit.kib'), p('h.requestSize'), KIB),
      this.numberField(['workload', 'capacityBytes'], p('f.capacity'), p('unit.tb'), p('h.capacity'), TB),
      this.numberField(['workload', 'growth', 'capacityPerYear'], p('f.capGrowth'), p('unit.percentPerYear'), p('h.capGrowth'), PERCENT),
      this.numberField(['workload', 'growth', 'iopsPerYear'], p('f.iopsGrowth'), p('unit.percentPerYear'), p('h.iopsGrowth'), PERCENT),
      this.selectField(['workload', 'sizeFor'], p('f.sizeFor'), p('h.sizeFor'), [['final-year', p('opt.finalYear')], ['first-year', p('opt.firstYear')]]),
    );

    // Energy and reference.
    const metered = getAt(d, ['energy', 'usdPerDrivePerYear']) === undefined;
    const configs = Array.isArray(d['configurations']) ? (d['configurations'] as Json[]) : [];
    const energy = el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.energy')),
      this.selectField(['energy', 'mode'], p('f.energyMode'), p('h.energyMode'), [['metered', p('opt.metered')], ['perDrive', p('opt.perDrive')]], (value) => {
        d['energy'] = value === 'metered' ? { ...DEFAULT_METERED } : { ...DEFAULT_PER_DRIVE };
      }),
      ...(metered
        ? [
            this.numberField(['energy', 'usdPerKwh'], p('f.usdPerKwh'), p('unit.usdPerKwh'), p('h.usdPerKwh')),
            this.numberField(['energy', 'pue'], p('f.pue'), p('unit.factor'), p('h.pue')),
          ]
        : [this.numberField(['energy', 'usdPerDrivePerYear'], p('f.usdPerDrive'), p('unit.usdPerDriveYear'), p('h.usdPerDrive'))]),
      this.selectField(['referenceId'], p('f.reference'), p('h.reference'), configs.map((c) => [String(c['id']), String(c['label'])] as const)),
    );
    // The energy form select reflects the form in use, not a field of the file.
    const modeSelect = energy.querySelector<HTMLSelectElement>(`#${idFor('energy.mode')}`);
    if (modeSelect) modeSelect.value = metered ? 'metered' : 'perDrive';
    const refSelect = energy.querySelector<HTMLSelectElement>(`#${idFor('referenceId')}`);
    if (refSelect && getAt(d, ['referenceId']) === undefined && configs[0]) refSelect.value = String(configs[0]['id']);

    form.append(workload, energy, this.drivesTable(), this.configurations(configs));
    return form;
  }

  private drivesTable(): HTMLElement {
    const p = this.p;
    const drives = Array.isArray(this.draft['drives']) ? (this.draft['drives'] as Json[]) : [];
    const cols: [string, PlannerKey, PlannerKey, Conv][] = [
      ['priceUsd', 'f.drivePrice', 'unit.usd', IDENT],
      ['iops', 'f.driveIops', 'unit.iops', IDENT],
      ['capacityBytes', 'f.driveCapacity', 'unit.tb', TB],
      ['watts', 'f.driveWatts', 'unit.watts', IDENT],
      ['afr', 'f.driveAfr', 'unit.percentPerYear', PERCENT],
    ];
    const head = el('tr', {}, el('th', { scope: 'col' }, p('col.drive')), ...cols.map(([, label, unit]) => el('th', { scope: 'col' }, `${p(label)} (${p(unit)})`)));
    const body = el('tbody', {});
    for (const [i, drive] of drives.entries()) {
      const row = el('tr', {}, el('th', { scope: 'row' }, String(drive['label'] ?? drive['id'] ?? '')));
      for (const [key, label, unit, conv] of cols) {
        const path = ['drives', i, key] as const;
        const pathText = jsonPath(path);
        const id = idFor(pathText);
        const name = `${String(drive['label'] ?? '')} — ${p(label)} (${p(unit)})`;
        this.labels.set(pathText, name);
        const v = getAt(this.draft, path);
        const input = el('input', { id, type: 'number', step: 'any', inputmode: 'decimal', 'aria-label': name, 'aria-describedby': 'pl-drives-help', autocomplete: 'off' });
        input.value = typeof v === 'number' ? shown(conv.toUi(v)) : '';
        input.addEventListener('input', () => {
          const raw = input.value.trim();
          const n = Number(raw);
          setAt(this.draft, path, raw === '' ? undefined : Number.isFinite(n) ? conv.fromUi(n) : raw);
          this.onInput();
        });
        row.append(el('td', {}, input));
      }
      body.append(row);
    }
    return el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.drives')),
      el('div', { class: 'pl-table-wrap' }, el('table', { class: 'pl-drives' }, el('thead', {}, head), body)),
      el('p', { class: 'pl-help', id: 'pl-drives-help' }, p('h.drives')));
  }

  private configurations(configs: Json[]): HTMLElement {
    const p = this.p;
    const d = this.draft;
    const drives = Array.isArray(d['drives']) ? (d['drives'] as Json[]) : [];
    const driveOptions = (filter: (x: Json) => boolean): (readonly [string, string])[] => drives.filter(filter).map((x) => [String(x['id']), String(x['label'])] as const);
    const raidOptions = RAID_LEVELS.map((l) => [l, l === 'custom' ? p('opt.raidCustom') : p('opt.raid', { level: l })] as const);
    const out = el('div', { class: 'pl-configs' }, el('h3', {}, p('sec.configs')));
    for (const [i, c] of configs.entries()) {
      const label = String(c['label'] ?? c['id'] ?? '');
      const at = ['configurations', i] as const;
      const raidPath = [...at, 'backing', 'raid'] as const;
      const level = String(getAt(d, [...raidPath, 'level']) ?? '');
      const setRaid = (raidAt: Path) => (value: string): void => {
        const raid = (getAt(d, raidAt) ?? {}) as Json;
        const lvl = value as RaidLevel;
        raid['level'] = lvl;
        if (lvl === 'custom') {
          raid['writePenalty'] ??= 2;
          raid['redundantDrivesPerGroup'] ??= 1;
        } else {
          delete raid['writePenalty'];
          delete raid['redundantDrivesPerGroup'];
        }
        const groupSize = typeof raid['groupSize'] === 'number' ? raid['groupSize'] : 0;
        if (raidGroupProblem({ level: lvl, groupSize, writePenalty: 2, redundantDrivesPerGroup: 1 }, '') !== null) raid['groupSize'] = DEFAULT_GROUP[lvl];
        setAt(d, raidAt, raid);
      };
      const fs = el('fieldset', { class: 'pl-group pl-config' }, el('legend', {}, label),
        this.selectField([...at, 'backing', 'driveId'], p('f.backingDrive'), p('h.backingDrive'), driveOptions(() => true), undefined, label),
        this.selectField([...raidPath, 'level'], p('f.raid'), p('h.raid'), raidOptions, setRaid(raidPath), label),
        this.numberField([...raidPath, 'groupSize'], p('f.groupSize'), p('unit.drives'), p('h.groupSize'), IDENT, { step: '1', prefix: label }),
      );
      if (level === 'custom')
        fs.append(
          this.numberField([...raidPath, 'writePenalty'], p('f.writePenalty'), p('unit.factor'), p('h.writePenalty'), IDENT, { prefix: label }),
          this.numberField([...raidPath, 'redundantDrivesPerGroup'], p('f.redundant'), p('unit.drives'), p('h.redundant'), IDENT, { step: '1', prefix: label }),
        );
      fs.append(
        this.numberField([...at, 'backing', 'count'], p('f.count'), p('unit.drives'), p('h.count'), IDENT, { step: '1', optional: true, prefix: label }),
        this.numberField([...at, 'system', 'baseCostUsd'], p('f.baseCost'), p('unit.usd'), p('h.baseCost'), IDENT, { prefix: label }),
        this.numberField([...at, 'supportUsdPerYear'], p('f.support'), p('unit.usdPerYear'), p('h.support'), IDENT, { prefix: label }),
      );
      const cache = c['cache'] as Json | undefined;
      if (cache !== undefined && cache !== null) {
        const cp = [...at, 'cache'] as const;
        const ssd = cache['kind'] === 'ssd';
        const box = el('fieldset', { class: 'pl-group pl-cache' }, el('legend', {}, ssd ? p('cacheSsdTitle') : p('cacheRamTitle')));
        if (ssd)
          box.append(
            this.selectField([...cp, 'driveId'], p('f.cacheDrive'), p('h.cacheDrive'), driveOptions((x) => x['class'] !== 'hdd'), undefined, label),
            this.numberField([...cp, 'count'], p('f.cacheCount'), p('unit.drives'), p('h.cacheCount'), IDENT, { step: '1', prefix: label }),
            this.selectField([...cp, 'raid', 'level'], p('f.raid'), p('h.raid'), raidOptions, setRaid([...cp, 'raid']), label),
          );
        const hitInput = (key: 'readHitShare' | 'writeHitShare', f: PlannerKey, h: PlannerKey): HTMLElement => {
          const field = this.numberField([...cp, key], p(f), p('unit.percent'), p(h), PERCENT, { prefix: label });
          // A typed hit share is no longer the measured one.
          field.querySelector('input')?.addEventListener('input', () => setAt(d, [...cp, 'hitShareSource'], 'assumed'), { capture: true });
          return field;
        };
        const source = String(getAt(d, [...cp, 'hitShareSource']) ?? 'assumed');
        box.append(
          this.selectField([...cp, 'mode'], p('f.cacheMode'), p('h.cacheMode'), [['write-back', this.tc('mode.write-back')], ['write-through', this.tc('mode.write-through')]], undefined, label),
          hitInput('readHitShare', 'f.readHit', 'h.readHit'),
          hitInput('writeHitShare', 'f.writeHit', 'h.writeHit'),
          el('p', { class: 'pl-help' }, p('hitSource', { source: this.tc(`source.${source}` as TcoKey) })),
          this.numberField([...cp, 'licenseUsd'], p('f.license'), p('unit.usd'), p('h.license'), IDENT, { prefix: label }),
        );
        fs.append(box);
      } else fs.append(el('p', { class: 'pl-help' }, p('noCache')));
      out.append(fs);
    }
    return out;
  }
}

/** Results: summary, comparison, charts, line items per configuration, drive life. */
function resultsView(ctx: PlannerContext, s: Scenario, r: PlanResult): HTMLElement[] {
  const lang = ctx.lang;
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, lang, key, params);
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  const n = (x: number, digits = 0): string => formatTcoNumber(lang, x, digits);
  const out: HTMLElement[] = [];

  const summary = planSummarySentences(r, s, lang).join(' ');
  out.push(el('h3', {}, p('sec.results')), el('p', { 'data-testid': TID.plannerSummary }, summary));

  // Comparison.
  const ref = r.configurations.find((c) => c.id === r.referenceId);
  const cmpHead = el('tr', {}, ...(['cmp.config', 'cmp.drives', 'cmp.total', 'cmp.savings', 'cmp.savingsPct', 'cmp.perIops', 'cmp.perTb', 'cmp.breakEven'] as const).map((k) => el('th', { scope: 'col' }, t(k))));
  const cmpBody = el('tbody', {});
  for (const cmp of r.comparisons) {
    const c = r.configurations.find((x) => x.id === cmp.id);
    if (c === undefined) continue;
    const isRef = c.id === r.referenceId;
    const be = isRef ? t('reference') : cmp.breakEvenYear === null ? t('breakEven.never') : cmp.breakEvenYear === 0 ? t('breakEven.fromStart') : t('breakEven.year', { year: n(cmp.breakEvenYear, 1) });
    cmpBody.append(
      el('tr', { 'data-config': c.id },
        el('th', { scope: 'row' }, c.label),
        el('td', { class: 'num' }, n(c.sizing.driveCount + c.cacheDriveCount)),
        el('td', { class: 'num', 'data-col': 'total' }, n(c.totalUsd)),
        el('td', { class: 'num' }, n(cmp.savingsUsd)),
        el('td', { class: 'num' }, n(cmp.savingsPct, 1)),
        el('td', { class: 'num' }, c.costPerDeliveredIopsUsd === null ? '—' : n(c.costPerDeliveredIopsUsd, 2)),
        el('td', { class: 'num' }, n(c.costPerUsableTbUsd, 2)),
        el('td', {}, be)),
    );
  }
  out.push(
    el('div', { class: 'pl-table-wrap' },
      el('table', { class: 'pl-table', 'data-testid': TID.plannerComparison },
        el('caption', {}, p('cmpCaption', { label: ref?.label ?? r.referenceId })), el('thead', {}, cmpHead), cmpBody)),
  );

  // Charts.
  const grid = el('div', { class: 'pl-charts' });
  grid.append(
    chartBox(TID.plannerChartCosts, p('chart.costs', { years: r.years }), (canvas) => costBars(ctx, canvas, r),
      r.configurations.map((c) => p('sum.total', { label: c.label, total: n(c.totalUsd) })).join('; '), p),
    chartBox(TID.plannerChartCumulative, p('chart.cumulative'), (canvas) => cumulativeLines(ctx, canvas, r),
      r.configurations.map((c) => p('sum.cumulative', { label: c.label, start: n(c.cumulativeUsd[0] ?? 0), end: n(c.cumulativeUsd[c.cumulativeUsd.length - 1] ?? 0), years: r.years })).join('; '), p),
  );
  const spindles = spindleSeries(s, r);
  grid.append(
    chartBox(TID.plannerChartSpindles, p('chart.spindles'), (canvas) => spindleLines(ctx, canvas, spindles),
      spindles.map((sp) => p('sum.spindles', {
        label: sp.label,
        points: [sp.points[0], sp.points[SPINDLE_FACTORS.indexOf(1)], sp.points[sp.points.length - 1]].filter((pt) => pt !== undefined).map((pt) => (pt.y === null ? p('sum.noFit', { iops: n(pt.x) }) : p('sum.spindlesPoint', { drives: n(pt.y), iops: n(pt.x) }))).join(', '),
      })).join('; '), p),
  );
  out.push(el('h3', {}, p('sec.charts')), grid);

  // Line items per configuration.
  out.push(el('h3', {}, p('sec.lines')));
  const lines = el('div', { class: 'pl-lines' });
  for (const [i, c] of r.configurations.entries()) {
    const conf = s.configurations[i];
    if (conf === undefined) continue;
    const sentences = configurationSentences(r, s, i, lang);
    const body = el('tbody', {});
    for (const line of c.lines) body.append(el('tr', { 'data-line': line.id }, el('th', { scope: 'row' }, t(`line.${line.id}`)), el('td', {}, lineItemDetail(line, lang)), el('td', { class: 'num' }, n(line.costUsd))));
    const foot = el('tfoot', {},
      el('tr', { 'data-line': 'upfront' }, el('th', { scope: 'row' }, t('upfront')), el('td', {}), el('td', { class: 'num' }, n(c.upfrontUsd))),
      el('tr', { 'data-line': 'total', class: 'pl-total' }, el('th', { scope: 'row' }, t('total', { years: r.years })), el('td', {}), el('td', { class: 'num' }, n(c.totalUsd))));
    const perIops = costPerSentence(c, lang);
    const warnings = configWarningSentences(c, lang).map((w) => el('p', { class: 'pl-warning' }, w));
    lines.append(
      el('section', { class: 'pl-config-result', 'aria-label': c.label },
        el('h4', {}, c.id === r.referenceId ? `${c.label} (${t('reference')})` : c.label),
        el('p', { class: 'pl-help' }, sentences.join(' ')),
        el('table', { class: 'pl-table', 'data-testid': `${TID.plannerLines}-${c.id}` },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('col.item')), el('th', { scope: 'col' }, t('col.detail')), el('th', { scope: 'col', class: 'num' }, t('col.amount')))),
          body, foot),
        el('p', { class: 'pl-help' }, perIops),
        ...warnings),
    );
  }
  out.push(lines);

  // Drive life.
  const lifeBody = el('tbody', {});
  for (const c of r.configurations) {
    const cache = driveLifeSentence(c, r.years, lang, true);
    lifeBody.append(el('tr', { 'data-config': c.id }, el('th', { scope: 'row' }, c.label), el('td', {}, driveLifeSentence(c, r.years, lang, false)), el('td', {}, cache === '' ? p('life.none') : cache)));
  }
  out.push(
    el('h3', {}, p('sec.life')),
    el('table', { class: 'pl-table', 'data-testid': TID.plannerLife },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, p('life.config')), el('th', { scope: 'col' }, p('life.backing')), el('th', { scope: 'col' }, p('life.cache')))),
      lifeBody),
  );
  return out;
}

function chartBox(testId: string, title: string, draw: (canvas: HTMLCanvasElement) => Chart, summaryText: string, p: (key: PlannerKey, params?: Record<string, string | number>) => string): HTMLElement {
  const canvas = el('canvas', { role: 'img', 'aria-label': title });
  const box = el('div', { class: 'chart-box pl-chart', 'data-testid': testId }, canvas);
  const summary = el('p', { class: 'sr-summary', 'data-testid': `${testId}-summary` }, p('summary', { text: summaryText }));
  const figure = el('figure', { class: 'pl-figure' }, box, summary);
  // Chart.js measures its parent: draw once the box is in the document.
  queueMicrotask(() => {
    if (canvas.isConnected) charts.push(draw(canvas));
  });
  return figure;
}

/** Titles of a chart and its USD formatter. */
function baseOptions(ctx: PlannerContext, title: string, xTitle: string, yTitle: string): { usd: (v: string | number) => string; title: string; xTitle: string; yTitle: string } {
  const usd = (v: string | number): string => formatTcoNumber(ctx.lang, Number(v));
  return { usd, title, xTitle, yTitle };
}

function costBars(ctx: PlannerContext, canvas: HTMLCanvasElement, r: PlanResult): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const o = baseOptions(ctx, p('chart.costs', { years: r.years }), p('axis.config'), p('axis.usd'));
  const datasets: ChartDataset<'bar', number[]>[] = STACKS.map(([key, ids], i) => ({
    label: p(key),
    data: r.configurations.map((c) => c.lines.filter((l) => ids.includes(l.id)).reduce((a, l) => a + l.costUsd, 0)),
    backgroundColor: ctx.palette[i % ctx.palette.length] ?? '#000',
    stack: 'cost',
  }));
  return new Chart(canvas, {
    type: 'bar',
    data: { labels: r.configurations.map((c) => c.label), datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { stacked: true, title: { display: true, text: o.xTitle } },
        y: { stacked: true, beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (v) => o.usd(v) } },
      },
      plugins: {
        title: { display: true, text: o.title },
        tooltip: { callbacks: { label: (item) => p('sum.total', { label: item.dataset.label ?? '', total: o.usd(Number(item.parsed.y)) }) } },
      },
    },
  });
}

function cumulativeLines(ctx: PlannerContext, canvas: HTMLCanvasElement, r: PlanResult): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const o = baseOptions(ctx, p('chart.cumulative'), p('axis.year'), p('axis.usd'));
  return new Chart(canvas, {
    type: 'line',
    data: {
      labels: Array.from({ length: r.years + 1 }, (_, k) => String(k)),
      datasets: r.configurations.map((c, i) => ({
        label: c.label,
        data: c.cumulativeUsd,
        borderColor: ctx.palette[i % ctx.palette.length] ?? '#000',
        backgroundColor: ctx.palette[i % ctx.palette.length] ?? '#000',
        borderDash: DASHES[i % DASHES.length] ?? [],
        borderWidth: 2,
        pointRadius: 3,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'category', title: { display: true, text: o.xTitle } },
        y: { beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (v) => o.usd(v) } },
      },
      plugins: {
        title: { display: true, text: o.title },
        tooltip: { callbacks: { label: (item) => p('sum.total', { label: item.dataset.label ?? '', total: o.usd(Number(item.parsed.y)) }) } },
      },
    },
  });
}

interface SpindleSeries {
  label: string;
  points: { x: number; y: number | null }[];
}

/** Backing drives of each configuration as today's IOPS target varies (engine `sensitivity`, axis `iopsTarget`). */
function spindleSeries(s: Scenario, r: PlanResult): SpindleSeries[] {
  const today = r.frontEndIopsToday;
  const values = SPINDLE_FACTORS.map((f) => Math.round(today * f));
  return r.configurations.map((c: ConfigResult, i) => ({
    label: c.label,
    points: sensitivity(s, i, 'iopsTarget', values).map((pt) => ({ x: pt.value, y: pt.driveCount })),
  }));
}

function spindleLines(ctx: PlannerContext, canvas: HTMLCanvasElement, series: SpindleSeries[]): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const num = (v: string | number): string => formatTcoNumber(ctx.lang, Number(v));
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: series.map((sp, i) => ({
        label: sp.label,
        data: sp.points,
        borderColor: ctx.palette[i % ctx.palette.length] ?? '#000',
        backgroundColor: ctx.palette[i % ctx.palette.length] ?? '#000',
        borderDash: DASHES[i % DASHES.length] ?? [],
        borderWidth: 2,
        pointRadius: 3,
        spanGaps: false,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', beginAtZero: true, title: { display: true, text: p('axis.iopsTarget') }, ticks: { callback: (v) => num(v) } },
        y: { type: 'linear', beginAtZero: true, title: { display: true, text: p('axis.drives') }, ticks: { precision: 0 } },
      },
      plugins: {
        title: { display: true, text: p('chart.spindles') },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${p('sum.spindlesPoint', { drives: num(Number(item.parsed.y)), iops: num(Number(item.parsed.x)) })}` } },
      },
    },
  });
}
