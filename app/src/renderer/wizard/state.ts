/**
 * The new-analysis wizard's draft (what the person chose on each step) and the checks that
 * turn it into a `RunPlan`. Pure; store.ts keeps the draft across steps and reloads.
 */
import { TARGET_PRESETS, type TargetPreset } from '@cacheproof/engine';
import { wholeSeconds } from '../../shared/units.ts';
import type { WizardKey } from '../../shared/i18n/wizard.ts';
import { ENGINE_ADAPTERS, type EngineAdapter, type RunPlan, type RunSwitch } from '../../shared/contract.ts';
import { customTargetsDraft, customTargetsOf, defaultCustomTargets, type CustomTargetsDraft } from './targets-model.ts';
import { TRACE_BUDGETS, TRACE_DEFAULT_BUDGET_BYTES } from '../../shared/estimate.ts';
import { choiceDraft, choiceOf, defaultChoiceDraft, type ChoiceDraft } from '../predict/choice.ts';

export const STEPS = ['devices', 'engine', 'plan', 'review'] as const;
export type Step = (typeof STEPS)[number];
export function isStep(s: string | undefined): s is Step {
  return (STEPS as readonly (string | undefined)[]).includes(s);
}

export const UNITS = { s: 1, min: 60, h: 3600 } as const;
export type Unit = keyof typeof UNITS;
export const INTERVALS_MS = [1000, 5000, 10_000, 30_000, 60_000] as const;
export const PRESETS = Object.keys(TARGET_PRESETS) as TargetPreset[];
/** The contract's bound on every duration (RunPlan): 30 days. */
export const MAX_SECONDS = 2_592_000;

export interface DurationDraft {
  /** As typed (a decimal comma or point). */
  text: string;
  unit: Unit;
}

export interface Draft {
  front: string | null;
  backing: string[];
  baseline: DurationDraft;
  warmup: DurationDraft;
  measure: DurationDraft;
  intervalMs: number;
  /** A published preset, or `custom`: the values typed in `custom` (wizard/targets.ts). */
  targets: TargetPreset | 'custom';
  custom: CustomTargetsDraft;
  /** Record a block trace beside the counters (off by default: it needs root and grows with the I/O rate). */
  trace: boolean;
  /** With `trace`: the trace's size budget per 24 h (one of `TRACE_BUDGETS`), or null to keep every request. */
  traceBudget: number | null;
  /** With the trace: predict a cache from the baseline's trace when it ends (on by default), and which (renderer/predict/choice.ts). */
  predict: boolean;
  choice: ChoiceDraft;
  /** Empty until the person types one; the review step proposes a name. */
  name: string;
  /** How the cache is switched: by hand, or by an adapter the probe runs at the end of the baseline (wizard/engine.ts). */
  engine: EngineDraft;
}

/** The cache-engine step's choice. `device` and `config` as typed; `restore` on by default. */
export interface EngineDraft {
  kind: 'manual' | 'adapter';
  adapter: EngineAdapter;
  device: string;
  /** The `command` adapter's config file (absolute path), as typed. */
  config: string;
  restore: boolean;
}

export function defaultEngine(): EngineDraft {
  return { kind: 'manual', adapter: 'loop-dio', device: '', config: '', restore: true };
}

function engineDraft(v: unknown): EngineDraft {
  const d = defaultEngine();
  if (v === null || typeof v !== 'object') return d;
  const o = v as Record<string, unknown>;
  return {
    kind: o.kind === 'adapter' ? 'adapter' : 'manual',
    adapter: (ENGINE_ADAPTERS as readonly unknown[]).includes(o.adapter) ? (o.adapter as EngineAdapter) : d.adapter,
    device: typeof o.device === 'string' ? o.device.slice(0, 128) : '',
    config: typeof o.config === 'string' ? o.config.slice(0, 4096) : '',
    restore: o.restore !== false,
  };
}

/** The run's switch from the draft: manual, or the adapter with its device (and config for `command`); null while the adapter choice is incomplete. */
export function switchOf(e: EngineDraft): RunSwitch | null {
  if (e.kind === 'manual') return { kind: 'manual' };
  const device = e.device.trim().replace(/^\/dev\//, '');
  const config = e.config.trim();
  if (device.length === 0 || (e.adapter === 'command' && config.length === 0)) return null;
  return { kind: 'adapter', adapter: e.adapter, device, config: e.adapter === 'command' ? config : null, restore: e.restore };
}

export function defaultDraft(): Draft {
  return {
    front: null,
    backing: [],
    baseline: { text: '24', unit: 'h' },
    warmup: { text: '1', unit: 'h' },
    measure: { text: '24', unit: 'h' },
    intervalMs: 5000,
    targets: 'generic',
    custom: defaultCustomTargets(),
    trace: false,
    traceBudget: TRACE_DEFAULT_BUDGET_BYTES,
    predict: true,
    choice: defaultChoiceDraft(),
    name: '',
    engine: defaultEngine(),
  };
}

function isUnit(u: unknown): u is Unit {
  return typeof u === 'string' && Object.prototype.hasOwnProperty.call(UNITS, u);
}

function duration(v: unknown, fallback: DurationDraft): DurationDraft {
  if (v === null || typeof v !== 'object') return fallback;
  const o = v as Record<string, unknown>;
  return typeof o.text === 'string' && isUnit(o.unit) ? { text: o.text.slice(0, 32), unit: o.unit } : fallback;
}

/** Reads the stored draft; anything malformed falls back to the defaults field by field. */
export function parseDraft(text: string | null): Draft {
  const d = defaultDraft();
  if (text === null) return d;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return d;
  }
  if (raw === null || typeof raw !== 'object') return d;
  const o = raw as Record<string, unknown>;
  return {
    front: typeof o.front === 'string' ? o.front : null,
    backing: Array.isArray(o.backing) ? o.backing.filter((b): b is string => typeof b === 'string').slice(0, 64) : [],
    baseline: duration(o.baseline, d.baseline),
    warmup: duration(o.warmup, d.warmup),
    measure: duration(o.measure, d.measure),
    intervalMs: (INTERVALS_MS as readonly unknown[]).includes(o.intervalMs) ? (o.intervalMs as number) : d.intervalMs,
    targets: typeof o.targets === 'string' && (o.targets === 'custom' || (PRESETS as string[]).includes(o.targets)) ? (o.targets as TargetPreset | 'custom') : d.targets,
    custom: customTargetsDraft(o.custom),
    trace: o.trace === true,
    traceBudget: o.traceBudget === null || (TRACE_BUDGETS as readonly unknown[]).includes(o.traceBudget) ? (o.traceBudget as number | null) : d.traceBudget,
    predict: o.predict !== false,
    choice: choiceDraft(o.choice),
    name: typeof o.name === 'string' ? o.name.slice(0, 200) : '',
    engine: engineDraft(o.engine),
  };
}

export type DurationError = 'empty' | 'not-a-number' | 'negative' | 'too-short' | 'too-long' | 'not-whole-seconds';

/**
 * A typed duration in whole seconds. Accepts a decimal comma or point ("0,5" h = 1800 s).
 * `min` is 1 for the baseline and measure windows, 0 for the warm-up.
 */
export function durationSeconds(d: DurationDraft, min: 0 | 1): { ok: true; seconds: number } | { ok: false; error: DurationError } {
  const text = d.text.trim().replace(/\s/g, '').replace(',', '.');
  if (text.length === 0) return { ok: false, error: 'empty' };
  if (!/^\d*\.?\d*$/.test(text) || text === '.') return { ok: false, error: /^-/.test(text) ? 'negative' : 'not-a-number' };
  const seconds = wholeSeconds(Number(text), UNITS[d.unit]);
  if (seconds === null) return { ok: false, error: 'not-whole-seconds' };
  if (seconds < min) return { ok: false, error: 'too-short' };
  if (seconds > MAX_SECONDS) return { ok: false, error: 'too-long' };
  return { ok: true, seconds };
}

/** The devices the draft measures, front first. */
export function chosenDevices(d: Draft): string[] {
  return [...(d.front === null ? [] : [d.front]), ...d.backing.filter((b) => b !== d.front)];
}

export type PlanProblem = { step: Step; field: 'devices' | 'baseline' | 'warmup' | 'measure' | 'targets' | 'prediction' | 'engine' };

/** Whether the draft asks for a prediction: the trace is on and the box is ticked. */
export function asksPrediction(d: Draft): boolean {
  return d.trace && d.predict;
}

/** What still stops the draft from becoming a plan, in step order. */
export function problems(d: Draft): PlanProblem[] {
  const out: PlanProblem[] = [];
  if (chosenDevices(d).length === 0) out.push({ step: 'devices', field: 'devices' });
  if (!durationSeconds(d.baseline, 1).ok) out.push({ step: 'plan', field: 'baseline' });
  if (!durationSeconds(d.warmup, 0).ok) out.push({ step: 'plan', field: 'warmup' });
  if (!durationSeconds(d.measure, 1).ok) out.push({ step: 'plan', field: 'measure' });
  if (d.targets === 'custom' && !customTargetsOf(d.custom).ok) out.push({ step: 'plan', field: 'targets' });
  if (asksPrediction(d) && !choiceOf(d.choice).ok) out.push({ step: 'plan', field: 'prediction' });
  if (switchOf(d.engine) === null) out.push({ step: 'engine', field: 'engine' });
  return out;
}

/** The plan the probe is started with, or null while `problems(d)` is not empty or the name is blank. */
export function toPlan(d: Draft, name: string): RunPlan | null {
  const b = durationSeconds(d.baseline, 1);
  const w = durationSeconds(d.warmup, 0);
  const m = durationSeconds(d.measure, 1);
  const trimmed = name.trim();
  const sw = switchOf(d.engine);
  const custom = d.targets === 'custom' ? customTargetsOf(d.custom) : null;
  const prediction = asksPrediction(d) ? choiceOf(d.choice) : null;
  if (!b.ok || !w.ok || !m.ok || sw === null || chosenDevices(d).length === 0 || trimmed.length === 0 || trimmed.length > 200 || (custom !== null && !custom.ok) || (prediction !== null && !prediction.ok)) return null;
  return {
    name: trimmed,
    front: d.front,
    backing: d.backing.filter((x) => x !== d.front),
    baselineSeconds: b.seconds,
    warmupSeconds: w.seconds,
    measureSeconds: m.seconds,
    intervalMs: d.intervalMs,
    switch: sw,
    targets: d.targets,
    ...(custom?.ok === true ? { customTargets: custom.targets } : {}),
    trace: d.trace,
    ...(d.trace ? { traceBudgetBytes: d.traceBudget } : {}),
    ...(prediction?.ok === true ? { prediction: prediction.choice } : {}),
  };
}

/**
 * The review's plan sentence: who switches the cache on (the person, asked when the baseline
 * ends, or the engine adapter the draft names) and whether there is a warm-up. `params` are the
 * sentence's devices, interval and durations; the adapter's name is added when it switches.
 */
export function reviewSentence(d: Draft, warmupSeconds: number, params: Record<string, string>, w: (key: WizardKey, p?: Record<string, string>) => string): string {
  if (d.engine.kind === 'adapter') return w(warmupSeconds > 0 ? 'rev.sentenceAdapter' : 'rev.sentenceAdapterNoWarmup', { ...params, adapter: d.engine.adapter });
  return w(warmupSeconds > 0 ? 'rev.sentence' : 'rev.sentenceNoWarmup', params);
}
