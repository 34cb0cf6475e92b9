/**
 * The Planner's state per analysis, for the page's lifetime: the scenario as the person edits it,
 * the last valid plan, and every problem (one per field). A language switch rebuilds the screen
 * and keeps the edits; valid scenarios are saved with the analysis by the host (`plan.save`:
 * the app's data folder, per capture), so the report and a reopened app find them.
 */
import { parseScenario, planScenario, scenarioProblems, type PlanError, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import type { CacheProofApi } from '../../shared/api.ts';
import type { AnalysisView, ErrorCode } from '../../shared/contract.ts';

/**
 * What the Planner plans for: an open analysis (its prediction, when it holds one, can prefill a
 * hit share), or the workload profile of a capture with a baseline alone (a log imported with no
 * switch: capacity planning without a cache), by the id the host knows it by.
 */
export type PlannerSubject = Pick<AnalysisView, 'id' | 'name'> & { result?: Pick<AnalysisView['result'], 'prediction'> };
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
  /** Every problem of the draft, one per field (the first is `error`). */
  problems: PlanError[];
  /** The error code of the last failed save with the analysis, or null. */
  saveError: ErrorCode | null;
  /** The language of the screen last built for this analysis (a prefill answered later is put in it). */
  lang: Lang;
  /** Rebuilds the screen last built for this analysis, if it is still shown. */
  rebuild: () => void;
  /** The analysis's prediction from the block trace (its read hit share can prefill a cache: planner/predicted.ts), or null. */
  predicted: PredictedShare | null;
  /** The id of the configuration whose editor is shown (its tab chosen); the first when unset or removed. */
  editing?: string;
}

/** What a cache configuration can take from the prediction: the probe's read hit share at its cache size. */
export interface PredictedShare {
  readHitRatio: number;
  policy: string;
  cacheBytes: number;
}

/** Per analysis id, for this page's lifetime (language switches re-render, the edits stay). */
const states = new Map<string, PlannerState>();

/** The state of an analysis's Planner, made the first time (the screen then loads the saved scenario, else the prefill). */
export function plannerState(view: PlannerSubject, lang: Lang): PlannerState {
  let st = states.get(view.id);
  if (st === undefined) {
    st = { draft: null, loading: false, loadError: null, last: null, error: null, problems: [], saveError: null, lang, rebuild: () => undefined, predicted: null };
    states.set(view.id, st);
  }
  // the view's own prediction (a new one after "Predict another cache" replaces it)
  const p = view.result?.prediction.fromTrace ?? null;
  st.predicted = p === null ? null : { readHitRatio: p.readHitRatio, policy: p.policy, cacheBytes: p.cacheBytes };
  return st;
}

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

/** Where valid drafts are saved: the host (set by the screen). */
let saver: CacheProofApi | null = null;
/** Drafts waiting to be saved, per analysis id (only the newest is sent), and the save chain. */
const pending = new Map<string, { view: PlannerSubject; st: PlannerState; text: string | null }>();
let chain: Promise<void> = Promise.resolve();

/** Sets the host API the Planner saves through. */
export function usePlanSaver(api: CacheProofApi): void {
  saver = api;
}

/** Saves (null: forgets) an analysis's scenario with the host, after any save already queued; the newest draft wins. */
export function queueSave(view: PlannerSubject, st: PlannerState, draft: Json | null): Promise<void> {
  pending.set(view.id, { view, st, text: draft === null ? null : JSON.stringify(draft) });
  chain = chain.then(async () => {
    const job = pending.get(view.id);
    if (job === undefined || saver === null) return;
    pending.delete(view.id);
    const r = await saver.savePlan(job.view.id, job.text === null ? null : (JSON.parse(job.text) as { format: 'cacheproof-tco'; version: number }));
    const before = job.st.saveError;
    job.st.saveError = r.ok ? null : r.error.code;
    if (before !== job.st.saveError) job.st.rebuild();
  });
  return chain;
}

/** Resolves once every queued save has reached the host (the Export screen waits for it). */
export function plansSaved(): Promise<void> {
  return chain;
}

/** Checks and plans the draft; keeps the last valid result when it fails. `save`: a person changed it, so a valid draft is saved with the analysis. */
export function evaluate(view: PlannerSubject, st: PlannerState, save = true): void {
  if (st.draft === null) return;
  const parsed = parseScenario(st.draft);
  if (!parsed.ok) {
    st.error = parsed.error;
    st.problems = scenarioProblems(st.draft);
    return;
  }
  const plan = planScenario(parsed.value);
  if (!plan.ok) {
    st.error = plan.error;
    st.problems = [plan.error];
    return;
  }
  st.error = null;
  st.problems = [];
  st.last = { scenario: parsed.value, result: plan.value };
  // Only a person's change is saved: a scenario just loaded (the saved one, the prefill) or relabelled for the language is not "edited".
  if (save) void queueSave(view, st, st.draft);
}

/**
 * Puts the template's texts of the draft and of the last valid result in `lang` (a person's own
 * labels stay), then re-checks the draft (not saved: relabelling is not an edit).
 */
export function followLanguage(view: PlannerSubject, st: PlannerState, lang: Lang): void {
  st.lang = lang;
  if (st.draft !== null) st.draft = localizeTemplate(st.draft, lang);
  if (st.last !== null) {
    const scenario = localizeTemplate(st.last.scenario, lang);
    const plan = planScenario(scenario);
    if (plan.ok) st.last = { scenario, result: plan.value };
  }
  evaluate(view, st, false);
}
