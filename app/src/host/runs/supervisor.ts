/**
 * The run supervisor: starts the probe detached for a wizard's plan, and re-attaches to every
 * run it knows (the registry in `<dataDir>/runs/`) by asking the probe for the capture's status.
 * The probe is a separate process that outlives the window (ARCHITECTURE.md): nothing here
 * holds a run alive, so closing the app, or restarting it, changes nothing for the recording.
 *
 * Probe states map to run states as follows (docs/probe.md, `status --json`):
 *   starting → starting · running → running, or waiting-switch while the phase is `switch`
 *   (the baseline is over and the manual switch is due) · done → done · stopped → stopped ·
 *   failed → failed · stale (state says running, no process holds the lock) → probe-died ·
 *   unknown (no recorder state in the capture) → failed.
 */
import { reportBug } from '../bugs.ts';
import { TARGET_PRESETS, type AnalysisReport, type AnalyzeOptions } from '@cacheproof/engine';
import type { AnalysisView, DetectedEngine, DeviceEntry, EngineChoice, EnginePlan, LiveSeries, RunEngine, RunPlan, RunPrediction, RunStatus } from '../../shared/contract.ts';
import { loadAnalysisView } from '../analysis.ts';
import { HostError } from '../errors.ts';
import { readBaselineEnd, readSwitchMark } from '../capture/window.ts';
import { runPredict } from '../predict.ts';
import { markSwitchArgs, predictCommand, recordArgs, resumeArgs, stopArgs } from '../probe-argv.ts';
import { StoredPredictionSchema } from '../../shared/prediction-schema.ts';
import { readCapture } from '../capture/reader.ts';
import { readLastEngineAction } from '../capture/engine.ts';
import { detectEngines, engineError, planEngine, ProbeEngineStatus } from './engine.ts';
import { readLive } from './live.ts';
import { PROBE_EXIT, probeDevices, probeError, probeStatus, runProbe, type ProbeDevice, type ProbeState, type ProbeStatus } from './probe.ts';
import { newRunId, RunRegistry, type RunRecord } from './registry.ts';

export interface RunSupervisorOptions {
  /** The probe binary, or null when this installation has none. */
  probe: string | null;
  /** Where runs live: `<dataDir>/runs/<runId>.{capture,json}`. */
  runsDir: string;
  /** Wall clock (UTC ms); tests may pin it. */
  now?: () => number;
  /**
   * Where finished analyses are cached (host/analysis.ts loadAnalysisView): the background
   * analysis of a finished run fills it, so opening the run's results is instant. Null: no cache.
   */
  analysisCacheDir?: string | null;
  /**
   * How a finished run's capture is analysed in the background: the host passes its analysis
   * sessions (host/session.ts: on a worker thread, shared with the dashboard); default
   * loadAnalysisView on this thread with `analysisCacheDir`.
   */
  openAnalysis?: (path: string, meta: { id: string; name: string; isSample: boolean }, options: AnalyzeOptions) => Promise<AnalysisView>;
}

export interface RunSupervisor {
  listDevices(): Promise<DeviceEntry[]>;
  /** Cache engines on this machine (the wizard's cache-engine step). */
  detectEngines(): Promise<DetectedEngine[]>;
  /** The dry run of an adapter on a device. */
  planEngine(choice: EngineChoice): Promise<EnginePlan>;
  start(plan: RunPlan): Promise<RunStatus>;
  list(): Promise<RunStatus[]>;
  status(runId: string): Promise<RunStatus>;
  series(runId: string, sinceMs: number, untilMs?: number): Promise<LiveSeries>;
  confirmSwitch(runId: string): Promise<RunStatus>;
  stop(runId: string): Promise<RunStatus>;
  resume(runId: string): Promise<RunStatus>;
  /** What run.open needs: the capture, the analysis options of the plan, the run's name. */
  forOpen(runId: string): { capture: string; name: string; options: AnalyzeOptions };
  /** Keeps the headline of a finished run for Home (called after run.open analysed it). */
  rememberHeadline(runId: string, iosSavedPercent: number | null): Promise<void>;
  /** Runs the plan's prediction now if it is due and not done yet, and waits for it (run.open calls it first). */
  settlePrediction(runId: string): Promise<void>;
}

/**
 * How long after the baseline's end the supervisor waits before predicting: the tracer hands its
 * requests to the writer in batches (every 200 ms) and a request in flight at the end completes
 * a moment later, so the baseline's last requests land in the capture shortly after the phase
 * changes (lab-predict saw them within 3 s on a loaded machine).
 */
export const PREDICT_GRACE_MS = 5000;

const ACTIVE: readonly RunStatus['state'][] = ['starting', 'running', 'waiting-switch'];
const PHASES = ['baseline', 'switch', 'warmup', 'measure'] as const;

/** Analysis options that honour what the person chose in the wizard (roles, latency targets). */
export function analyzeOptionsOf(plan: RunPlan): AnalyzeOptions {
  const options: AnalyzeOptions = {};
  if (plan.front !== null) options.front = plan.front;
  if (plan.backing.length > 0) options.backing = plan.backing;
  // `generic` is the engine's default: left out so the figures equal `cacheproof analyze` without --targets.
  if (plan.targets !== 'generic' && Object.prototype.hasOwnProperty.call(TARGET_PRESETS, plan.targets)) options.targets = plan.targets as keyof typeof TARGET_PRESETS;
  // the wizard's custom targets: graded as `cacheproof analyze --targets FILE` would
  else if (plan.targets === 'custom' && plan.customTargets !== undefined) {
    const t = plan.customTargets;
    options.targets = { readMs: t.readMs, writeMs: t.writeMs, ...(t.warnMs === undefined ? {} : { warnMs: t.warnMs }) };
  }
  return options;
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The headline I/Os saved (percent) of an analyze result, or null when it has none. */
export function headlineOf(result: AnalysisReport): number | null {
  const v = result.benefit.iosSavedPercent.value;
  return v !== null && Number.isFinite(v) ? v : null;
}

function kindOf(d: ProbeDevice): DeviceEntry['kind'] {
  if (d.name.startsWith('loop')) return 'loop';
  if (d.name.startsWith('nvme')) return 'nvme';
  if (d.rotational === true) return 'hdd';
  if (d.rotational === false) return 'ssd';
  return 'other';
}

/** A probe device as the wizard's Devices step shows it. */
export function deviceEntry(d: ProbeDevice): DeviceEntry {
  const role = d.role === 'front' || d.role === 'backing' || d.role === 'cache' ? d.role : 'other';
  return {
    name: d.name,
    majMin: `${d.major}:${d.minor}`,
    sizeBytes: d.sizeBytes,
    kind: kindOf(d),
    model: d.model,
    vendor: d.vendor,
    isPartition: d.isPartition,
    parent: d.parent,
    slaves: d.slaves,
    holders: d.holders,
    backingFile: d.backingFile,
    backingFileDevice: d.backingFileDevice,
    role,
    roleReason: d.roleReason,
  };
}

/** Phase and whole-run progress from the probe's plan percent (recorded time, gaps excluded). */
export function progressOf(plan: RunPlan, state: RunStatus['state'], phase: RunStatus['phase'], percent: number | null, etaS: number | null): Pick<RunStatus, 'phasePercent' | 'phaseEtaSeconds' | 'totalPercent' | 'totalEtaSeconds'> {
  if (state === 'done' || phase === 'done') return { phasePercent: 100, phaseEtaSeconds: 0, totalPercent: 100, totalEtaSeconds: 0 };
  const planned: Record<string, number> = { baseline: plan.baselineSeconds, switch: 0, warmup: plan.warmupSeconds, measure: plan.measureSeconds };
  const total = plan.baselineSeconds + plan.warmupSeconds + plan.measureSeconds;
  if (percent === null) return { phasePercent: null, phaseEtaSeconds: null, totalPercent: null, totalEtaSeconds: null };
  const idx = (PHASES as readonly string[]).indexOf(phase);
  if (idx < 0 || phase === 'switch') {
    return { phasePercent: null, phaseEtaSeconds: null, totalPercent: percent, totalEtaSeconds: etaS };
  }
  const before = PHASES.slice(0, idx).reduce((a, p) => a + (planned[p] ?? 0), 0);
  const length = planned[phase] ?? 0;
  const elapsed = Math.min(length, Math.max(0, (percent / 100) * total - before));
  return {
    phasePercent: length > 0 ? (elapsed / length) * 100 : 100,
    phaseEtaSeconds: Math.max(0, length - elapsed),
    totalPercent: percent,
    totalEtaSeconds: etaS,
  };
}

/** The run state of each probe state (see the header); exhaustive, so a new probe state is a type error until it is mapped. */
export const RUN_STATE_OF_PROBE = {
  starting: 'starting',
  running: 'running',
  done: 'done',
  stopped: 'stopped',
  failed: 'failed',
  stale: 'probe-died',
  unknown: 'failed',
} as const satisfies Record<ProbeState, RunStatus['state']>;

/** The run's engine: `status --json` `engine` and the capture's last adapter step; null without an adapter. */
function engineOf(st: ProbeStatus, capture: string): RunEngine | null {
  if (st.engine === null || st.engine === undefined) return null;
  const parsed = ProbeEngineStatus.safeParse(st.engine);
  if (!parsed.success) throw new HostError('probe-failed', `cacheproof-probe status ${capture} printed an unexpected engine: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}.`);
  const e = parsed.data;
  let lastAction: RunEngine['lastAction'] = null;
  try {
    lastAction = readCapture(capture, readLastEngineAction);
  } catch {
    lastAction = null; // the capture is being created or is damaged: the probe's status says so
  }
  return {
    adapter: e.adapter, device: e.device, mode: e.mode ?? null, originalMode: e.originalMode ?? null,
    switch: e.switch, restore: e.restore ?? null, error: e.error ?? null, lastAction,
  };
}

function stateOf(st: ProbeStatus): RunStatus['state'] {
  const state = RUN_STATE_OF_PROBE[st.state];
  return state === 'running' && st.phase === 'switch' ? 'waiting-switch' : state;
}

// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function createRunSupervisor(opts: RunSupervisorOptions): RunSupervisor {
  const registry = new RunRegistry(opts.runsDir);
  const now = opts.now ?? Date.now;
  /** Analyses of finished runs in progress (one at a time per run). */
  const analysing = new Map<string, Promise<void>>();

  const needProbe = (): string => {
    if (opts.probe === null) throw new HostError('probe-missing', 'The CacheProof probe (native/target/release/cacheproof-probe) is not built.');
    return opts.probe;
  };

  const recordOf = (runId: string): RunRecord => {
    const rec = registry.get(runId);
    if (rec === null) throw new HostError('run-not-found', `There is no run ${runId.slice(0, 64)} in ${registry.dir}.`);
    return rec;
  };

  const baseStatus = (rec: RunRecord): RunStatus => ({
    id: rec.id,
    name: rec.name,
    captureFile: rec.captureFile,
    state: 'failed',
    phase: 'baseline',
    phasePercent: null,
    phaseEtaSeconds: null,
    totalPercent: null,
    totalEtaSeconds: null,
    samples: 0,
    lastSampleMs: null,
    startedMs: rec.createdMs,
    plan: rec.plan,
    warnings: [],
    iosSavedPercent: rec.headline?.iosSavedPercent ?? null,
    error: null,
    hint: null,
    switchMs: null,
    trace: null,
    engine: null,
    prediction: predictionOf(rec),
  });

  /** Predictions running now, by run. */
  const predicting = new Map<string, Promise<void>>();

  /** The run's prediction as Live shows it: the stored outcome, else running or waiting; null when the plan asks for none. */
  const predictionOf = (rec: RunRecord): RunPrediction | null => {
    const choice = rec.plan.prediction;
    if (choice === undefined || rec.plan.trace !== true) return null;
    return rec.prediction ?? {
      state: predicting.has(rec.id) ? 'running' : 'waiting', choice,
      iosSavedPercent: null, backingPerSecond: null, responseTimeUs: null, baselineResponseUs: null, error: null, atMs: null,
    };
  };

  /**
   * Starts the plan's prediction once the baseline has ended (and {@link PREDICT_GRACE_MS} has
   * passed): `cacheproof-probe predict CAPTURE … --store`, its outcome kept in the run's record.
   * It reads only the baseline, so it is the same whenever it runs after that: at the switch
   * while the app is open, or when the app next looks at the run.
   */
  const predictOnce = (rec: RunRecord): void => {
    const choice = rec.plan.prediction;
    if (choice === undefined || rec.plan.trace !== true || rec.prediction !== undefined || predicting.has(rec.id) || opts.probe === null) return;
    let end: number | null;
    try {
      end = readBaselineEnd(rec.captureFile);
    } catch {
      return; // the capture is being created: the next look tries again
    }
    if (end === null || now() < end + PREDICT_GRACE_MS) return;
    const probe = opts.probe;
    const job = (async () => {
      await new Promise((r) => setImmediate(r));
      let outcome: RunPrediction;
      const base = { choice, iosSavedPercent: null, backingPerSecond: null, responseTimeUs: null, baselineResponseUs: null, error: null, atMs: now() };
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
      const latest = registry.get(rec.id);
      if (latest !== null) registry.save({ ...latest, prediction: outcome });
    })().finally(() => predicting.delete(rec.id));
    predicting.set(rec.id, job);
  };

  /** Analyses a finished run once, in the background, so Home can show its headline. */
  const analyseOnce = (rec: RunRecord): void => {
    if (rec.headline !== null || analysing.has(rec.id)) return;
    const job = (async () => {
      // Not inside the status reply that noticed the run is done: on the next turn of the loop.
      await new Promise((r) => setImmediate(r));
      let value: number | null = null;
      try {
        const meta = { id: rec.id, name: rec.name, isSample: false };
        const view = opts.openAnalysis !== undefined
          ? await opts.openAnalysis(rec.captureFile, meta, analyzeOptionsOf(rec.plan))
          : await loadAnalysisView(rec.captureFile, meta, analyzeOptionsOf(rec.plan), opts.analysisCacheDir ?? null);
        value = headlineOf(view.result);
      } catch (err) {
        // An expected failure (no measure phase, a damaged file) leaves no headline; a bug is reported.
        if (!(err instanceof HostError)) reportBug(`the background analysis of run ${rec.id}`, err);
        value = null;
      }
      await remember(rec.id, value);
    })().finally(() => analysing.delete(rec.id));
    analysing.set(rec.id, job);
  };

  const remember = async (runId: string, iosSavedPercent: number | null): Promise<void> => {
    const rec = registry.get(runId);
    if (rec === null) return;
    registry.save({ ...rec, headline: { iosSavedPercent, analysedMs: now() } });
  };

  const statusOf = async (rec: RunRecord): Promise<RunStatus> => {
    const probe = needProbe();
    const base = baseStatus(rec);
    let st: ProbeStatus;
    try {
      st = await probeStatus(probe, rec.captureFile);
    } catch (err) {
      if (err instanceof HostError && err.code === 'probe-failed') return { ...base, state: 'failed', error: err.message };
      throw err;
    }
    const state = stateOf(st);
    let switchMs: number | null = null;
    try {
      switchMs = readSwitchMark(rec.captureFile);
    } catch {
      switchMs = null;
    }
    if (state === 'done') analyseOnce(rec);
    if (st.phase !== 'baseline') predictOnce(rec);
    const engine = engineOf(st, rec.captureFile);
    return {
      ...base,
      state,
      phase: st.phase,
      ...progressOf(rec.plan, state, st.phase, st.percent, st.etaS),
      samples: st.samples,
      lastSampleMs: st.lastSampleUtcMs,
      warnings: [...st.warnings].sort((a, b) => a.utcMs - b.utcMs),
      error: st.error ?? (state === 'probe-died' ? `The recorder${st.pid ? ` (pid ${st.pid})` : ''} is no longer running; the ${st.samples} samples written are safe in the capture.` : null),
      hint: st.hint,
      switchMs,
      trace: st.trace === null || st.trace === undefined ? null : {
        requests: st.trace.requests, lost: st.trace.lost,
        sampleRate: st.trace.sampleRate ?? null, budgetBytes: st.trace.budgetBytes ?? null, storedBytes: st.trace.storedBytes ?? null,
      },
      engine,
    };
  };

  return {
    async detectEngines() {
      return detectEngines(needProbe());
    },

    async planEngine(choice) {
      return planEngine(needProbe(), choice);
    },

    async listDevices() {
      const devices = await probeDevices(needProbe());
      // Unattached loop devices (and other empty slots) have size 0: nothing to measure there.
      return devices.filter((d) => d.sizeBytes !== 0).map(deviceEntry);
    },

    async start(plan) {
      const probe = needProbe();
      const createdMs = now();
      const id = newRunId(createdMs);
      const captureFile = registry.capturePath(id);
      const args = recordArgs(plan, captureFile);
      registry.ensureDir();
      const out = await runProbe(probe, args, 30_000);
      if (out.code !== 0) throw plan.switch.kind === 'adapter' ? engineError('The recording could not start', out) : probeError('The recording could not start', out);
      const rec: RunRecord = { format: 'cacheproof-run', version: 1, id, name: plan.name, captureFile, plan, createdMs, headline: null };
      registry.save(rec);
      return statusOf(rec);
    },

    async list() {
      const recs = registry.all();
      const out = await Promise.all(recs.map((r) => statusOf(r)));
      const rank = (s: RunStatus): number => (ACTIVE.includes(s.state) ? 0 : 1);
      return out.sort((a, b) => rank(a) - rank(b) || (b.startedMs ?? 0) - (a.startedMs ?? 0));
    },

    async status(runId) {
      return statusOf(recordOf(runId));
    },

    async series(runId, sinceMs, untilMs) {
      const rec = recordOf(runId);
      const roles = new Map<string, string>();
      for (const b of rec.plan.backing) roles.set(b.replace(/^\/dev\//, ''), 'backing');
      if (rec.plan.front !== null) roles.set(rec.plan.front.replace(/^\/dev\//, ''), 'front');
      const live = readLive(rec.captureFile, { sinceMs, untilMs, roles });
      return { series: live.series, phases: live.phases };
    },

    async confirmSwitch(runId) {
      const rec = recordOf(runId);
      const probe = needProbe();
      const before = await statusOf(rec);
      if (before.state === 'done' || before.switchMs !== null) return before;
      const out = await runProbe(probe, markSwitchArgs(rec.captureFile));
      if (out.code !== 0) throw probeError('The switch could not be recorded', out);
      return statusOf(rec);
    },

    async stop(runId) {
      const rec = recordOf(runId);
      // the probe waits for the recorder to end, which writes the capture's interval blocks as it
      // stops (about 2 s per million rows beside its 15 s: a week of 16 devices takes under a minute)
      const out = await runProbe(needProbe(), stopArgs(rec.captureFile), 120_000);
      if (out.code !== 0 && out.code !== PROBE_EXIT.notRunning) throw probeError('The recording could not be stopped', out);
      return statusOf(rec);
    },

    async resume(runId) {
      const rec = recordOf(runId);
      const out = await runProbe(needProbe(), resumeArgs(rec.captureFile), 30_000);
      if (out.code !== 0) throw probeError('The recording could not be resumed', out);
      return statusOf(rec);
    },

    forOpen(runId) {
      const rec = recordOf(runId);
      return { capture: rec.captureFile, name: rec.name, options: analyzeOptionsOf(rec.plan) };
    },

    rememberHeadline: remember,

    async settlePrediction(runId) {
      const rec = recordOf(runId);
      predictOnce(rec);
      await predicting.get(runId);
    },
  };
}
