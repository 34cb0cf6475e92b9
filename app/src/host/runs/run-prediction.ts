/**
 * A run's prediction (host/runs/supervisor.ts): `cacheproof-probe predict … --store` once the
 * baseline has ended, run in the background and kept in the run's record, and how Live shows it.
 */
import { reportBug } from '../bugs.ts';
import type { RunPlan, RunPrediction } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { readBaselineEnd } from '../capture/window.ts';
import { runPredict } from '../predict.ts';
import { predictCommand } from '../probe-argv.ts';
import { StoredPredictionSchema } from '../../shared/prediction-schema.ts';
import type { RunRegistry, RunRecord } from './registry.ts';
import type { RunSupervisorOptions } from './supervisor.ts';

/**
 * How long after the baseline's end the supervisor waits before predicting: the tracer hands its
 * requests to the writer in batches (every 200 ms) and a request in flight at the end completes
 * a moment later, so the baseline's last requests land in the capture shortly after the phase
 * changes (lab-predict saw them within 3 s on a loaded machine).
 */
export const PREDICT_GRACE_MS = 5000;

/** What the supervisor's parts share: its options, the run registry, the clock, and the background jobs in progress, by run. */
export interface SupervisorState {
  opts: RunSupervisorOptions;
  registry: RunRegistry;
  now: () => number;
  /** Analyses of finished runs in progress (one at a time per run). */
  analysing: Map<string, Promise<void>>;
  /** Predictions running now, by run. */
  predicting: Map<string, Promise<void>>;
}

/** The run's prediction as Live shows it: the stored outcome, else running or waiting; null when the plan asks for none. */
export function predictionOf(st: SupervisorState, rec: RunRecord): RunPrediction | null {
  const choice = rec.plan.prediction;
  if (choice === undefined || rec.plan.trace !== true) return null;
  return rec.prediction ?? {
    state: st.predicting.has(rec.id) ? 'running' : 'waiting', choice,
    iosSavedPercent: null, backingPerSecond: null, responseTimeUs: null, baselineResponseUs: null, error: null, atMs: null,
  };
}

/**
 * Starts the plan's prediction once the baseline has ended (and {@link PREDICT_GRACE_MS} has
 * passed): `cacheproof-probe predict CAPTURE … --store`, its outcome kept in the run's record.
 * It reads only the baseline, so it is the same whenever it runs after that: at the switch
 * while the app is open, or when the app next looks at the run.
 */
export function predictOnce(st: SupervisorState, rec: RunRecord): void {
  const choice = rec.plan.prediction;
  if (choice === undefined || rec.plan.trace !== true || rec.prediction !== undefined || st.predicting.has(rec.id) || st.opts.probe === null) return;
  let end: number | null;
  try {
    end = readBaselineEnd(rec.captureFile);
  } catch {
    return; // the capture is being created: the next look tries again
  }
  if (end === null || st.now() < end + PREDICT_GRACE_MS) return;
  const probe = st.opts.probe;
  const job = (async () => {
    await new Promise((r) => setImmediate(r));
    const outcome = await predictionOutcome(probe, rec, choice, st.now());
    const latest = st.registry.get(rec.id);
    if (latest !== null) st.registry.save({ ...latest, prediction: outcome });
  })().finally(() => st.predicting.delete(rec.id));
  st.predicting.set(rec.id, job);
}

/** Runs the probe's prediction of a run's capture: its outcome, done or failed (a bug is reported). */
async function predictionOutcome(probe: string, rec: RunRecord, choice: NonNullable<RunPlan['prediction']>, atMs: number): Promise<RunPrediction> {
  let outcome: RunPrediction;
  const base = { choice, iosSavedPercent: null, backingPerSecond: null, responseTimeUs: null, baselineResponseUs: null, error: null, atMs };
  try {
    const out = await runPredict(probe, predictCommand(rec.captureFile, choice, rec.plan.front ?? undefined, 1), () => undefined);
    const parsed = out.code === 0 ? StoredPredictionSchema.safeParse(jsonOrNull(out.stdout)) : null;
    if (parsed === null) outcome = { ...base, state: 'failed', error: out.error || `exit code ${out.code}` };
    else if (!parsed.success) outcome = { ...base, state: 'failed', error: `cacheproof-probe predict printed an unexpected report: ${parsed.error.issues[0]?.path.join('.') ?? ''}` };
    else {
      const p = parsed.data;
      outcome = {
        ...base, state: 'done', iosSavedPercent: p.iosSavedPercent, backingPerSecond: p.backingIos?.perSecond ?? null,
        responseTimeUs: p.responseTime?.predictedUs ?? null, baselineResponseUs: p.responseTime?.baselineUs ?? null,
      };
    }
  } catch (err) {
    if (!(err instanceof HostError)) reportBug(`the prediction of run ${rec.id}`, err);
    outcome = { ...base, state: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
  return outcome;
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
