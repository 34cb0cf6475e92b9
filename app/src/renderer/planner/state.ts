/**
 * The Planner's state per analysis, for the page's lifetime: the scenario as the person edits it,
 * the last valid plan, and the first error. A language switch rebuilds the screen and keeps the
 * edits; valid scenarios are saved in localStorage keyed by the analysis id and checked against
 * the capture's SHA-256.
 */
import { parseScenario, planScenario, type PlanError, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import type { AnalysisView, ErrorCode } from '../../shared/contract.ts';
import { localizeTemplate } from '../../shared/i18n/template.ts';
import type { Lang } from '../../shared/i18n/types.ts';

export type Json = Record<string, unknown>;
export type Path = readonly (string | number)[];

export interface PlannerState {
  /** The scenario as the person edits it (may be invalid). */
  draft: Json | null;
  loading: boolean;
  loadError: ErrorCode | null;
  last: { scenario: Scenario; result: PlanResult } | null;
  error: PlanError | null;
  /** The language of the screen last built for this analysis (a prefill answered later is put in it). */
  lang: Lang;
  /** Rebuilds the screen last built for this analysis, if it is still shown. */
  rebuild: () => void;
}

/** Per analysis id, for this page's lifetime (language switches re-render, the edits stay). */
const states = new Map<string, PlannerState>();

/** The state of an analysis's Planner, made (from the saved scenario, if any) the first time. */
export function plannerState(view: AnalysisView, lang: Lang): PlannerState {
  let st = states.get(view.id);
  if (st === undefined) {
    st = { draft: loadSaved(view), loading: false, loadError: null, last: null, error: null, lang, rebuild: () => undefined };
    states.set(view.id, st);
  }
  return st;
}

const STORAGE_PREFIX = 'cacheproof.planner.';

/** The value at a JSON path of the draft (a `{ value }` wrapper unwrapped), or undefined. */
export function getAt(obj: unknown, path: Path): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  if (cur !== null && typeof cur === 'object' && 'value' in cur) return (cur as { value: unknown }).value;
  return cur;
}

/** Sets a value at a path, creating objects on the way; `undefined` deletes the field. */
export function setAt(obj: Json, path: Path, value: unknown): void {
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

export function storageKey(view: AnalysisView): string {
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
export function evaluate(view: AnalysisView, st: PlannerState): void {
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
export function followLanguage(view: AnalysisView, st: PlannerState, lang: Lang): void {
  st.lang = lang;
  if (st.draft !== null) st.draft = localizeTemplate(st.draft, lang);
  if (st.last !== null) {
    const scenario = localizeTemplate(st.last.scenario, lang);
    const plan = planScenario(scenario);
    if (plan.ok) st.last = { scenario, result: plan.value };
  }
  evaluate(view, st);
}
