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
import type { AnalysisView, DetectedEngine, DeviceEntry, EngineChoice, EnginePlan, LiveSeries, RunEngine, RunPlan, RunStatus } from '../../shared/contract.ts';
import { loadAnalysisView } from '../analysis.ts';
import { HostError } from '../errors.ts';
import { readSwitchMark } from '../capture/window.ts';
import { markSwitchArgs, recordArgs, resumeArgs, stopArgs } from '../probe-argv.ts';
import { readCapture } from '../capture/reader.ts';
import { readLastEngineAction } from '../capture/engine.ts';
import { detectEngines, engineError, planEngine, ProbeEngineStatus } from './engine.ts';
import { readLive } from './live.ts';
import { PROBE_EXIT, probeDevices, probeError, probeStatus, runProbe, type ProbeDevice, type ProbeState, type ProbeStatus } from './probe.ts';
import { newRunId, RunRegistry, type RunRecord } from './registry.ts';
import { predictionOf, predictOnce, type SupervisorState } from './run-prediction.ts';
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

export { PREDICT_GRACE_MS } from './run-prediction.ts';

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

function needProbe(st: SupervisorState): string {
  if (st.opts.probe === null) throw new HostError('probe-missing', 'The CacheProof probe (native/target/release/cacheproof-probe) is not built.');
  return st.opts.probe;
}

function recordOf(st: SupervisorState, runId: string): RunRecord {
  const rec = st.registry.get(runId);
  if (rec === null) throw new HostError('run-not-found', `There is no run ${runId.slice(0, 64)} in ${st.registry.dir}.`);
  return rec;
}

function baseStatus(st: SupervisorState, rec: RunRecord): RunStatus {
  return {
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
    prediction: predictionOf(st, rec),
  };
}

/** Analyses a finished run once, in the background, so Home can show its headline. */
function analyseOnce(st: SupervisorState, rec: RunRecord): void {
  if (rec.headline !== null || st.analysing.has(rec.id)) return;
  const { opts } = st;
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
    await remember(st, rec.id, value);
  })().finally(() => st.analysing.delete(rec.id));
  st.analysing.set(rec.id, job);
}

async function remember(st: SupervisorState, runId: string, iosSavedPercent: number | null): Promise<void> {
  const rec = st.registry.get(runId);
  if (rec === null) return;
  st.registry.save({ ...rec, headline: { iosSavedPercent, analysedMs: st.now() } });
}

/** A run's status from the probe's, starting its background analysis or prediction when due. */
async function statusOf(st: SupervisorState, rec: RunRecord): Promise<RunStatus> {
  const probe = needProbe(st);
  const base = baseStatus(st, rec);
  let ps: ProbeStatus;
  try {
    ps = await probeStatus(probe, rec.captureFile);
  } catch (err) {
    if (err instanceof HostError && err.code === 'probe-failed') return { ...base, state: 'failed', error: err.message };
    throw err;
  }
  const state = stateOf(ps);
  let switchMs: number | null = null;
  try {
    switchMs = readSwitchMark(rec.captureFile);
  } catch {
    switchMs = null;
  }
  if (state === 'done') analyseOnce(st, rec);
  if (ps.phase !== 'baseline') predictOnce(st, rec);
  const engine = engineOf(ps, rec.captureFile);
  return {
    ...base,
    state,
    phase: ps.phase,
    ...progressOf(rec.plan, state, ps.phase, ps.percent, ps.etaS),
    samples: ps.samples,
    lastSampleMs: ps.lastSampleUtcMs,
    warnings: [...ps.warnings].sort((a, b) => a.utcMs - b.utcMs),
    error: ps.error ?? (state === 'probe-died' ? `The recorder${ps.pid ? ` (pid ${ps.pid})` : ''} is no longer running; the ${ps.samples} samples written are safe in the capture.` : null),
    hint: ps.hint,
    switchMs,
    trace: ps.trace === null || ps.trace === undefined ? null : {
      requests: ps.trace.requests, lost: ps.trace.lost,
      sampleRate: ps.trace.sampleRate ?? null, budgetBytes: ps.trace.budgetBytes ?? null, storedBytes: ps.trace.storedBytes ?? null,
    },
    engine,
  };
}

/**
 * The probe supervisor: starts recordings (detached probes that outlive the app), re-attaches to
 * every run in `runsDir`, reports their status and live series, and marks, stops and resumes them.
 */
export function createRunSupervisor(opts: RunSupervisorOptions): RunSupervisor {
  const st: SupervisorState = { opts, registry: new RunRegistry(opts.runsDir), now: opts.now ?? Date.now, analysing: new Map(), predicting: new Map() };
  return { ...recordingMethods(st), ...runMethods(st) };
}

/** The supervisor's look at the machine and its runs: devices, engines, start, list, status, live series. */
function recordingMethods(st: SupervisorState): Pick<RunSupervisor, 'detectEngines' | 'planEngine' | 'listDevices' | 'start' | 'list' | 'status' | 'series'> {
  return {
    async detectEngines() {
      return detectEngines(needProbe(st));
    },

    async planEngine(choice) {
      return planEngine(needProbe(st), choice);
    },

    async listDevices() {
      const devices = await probeDevices(needProbe(st));
      // Unattached loop devices (and other empty slots) have size 0: nothing to measure there.
      return devices.filter((d) => d.sizeBytes !== 0).map(deviceEntry);
    },

    async start(plan) {
      const probe = needProbe(st);
      const createdMs = st.now();
      const id = newRunId(createdMs);
      const captureFile = st.registry.capturePath(id);
      const args = recordArgs(plan, captureFile);
      st.registry.ensureDir();
      const out = await runProbe(probe, args, 30_000);
      if (out.code !== 0) throw plan.switch.kind === 'adapter' ? engineError('The recording could not start', out) : probeError('The recording could not start', out);
      const rec: RunRecord = { format: 'cacheproof-run', version: 1, id, name: plan.name, captureFile, plan, createdMs, headline: null };
      st.registry.save(rec);
      return statusOf(st, rec);
    },

    async list() {
      const recs = st.registry.all();
      const out = await Promise.all(recs.map((r) => statusOf(st, r)));
      const rank = (s: RunStatus): number => (ACTIVE.includes(s.state) ? 0 : 1);
      return out.sort((a, b) => rank(a) - rank(b) || (b.startedMs ?? 0) - (a.startedMs ?? 0));
    },

    async status(runId) {
      return statusOf(st, recordOf(st, runId));
    },

    async series(runId, sinceMs, untilMs) {
      const rec = recordOf(st, runId);
      const roles = new Map<string, string>();
      for (const b of rec.plan.backing) roles.set(b.replace(/^\/dev\//, ''), 'backing');
      if (rec.plan.front !== null) roles.set(rec.plan.front.replace(/^\/dev\//, ''), 'front');
      const live = readLive(rec.captureFile, { sinceMs, untilMs, roles });
      return { series: live.series, phases: live.phases };
    },
  };
}

/** The supervisor's actions on one run: the switch, stop, resume, and what opening its results needs. */
function runMethods(st: SupervisorState): Pick<RunSupervisor, 'confirmSwitch' | 'stop' | 'resume' | 'forOpen' | 'rememberHeadline' | 'settlePrediction'> {
  return {
    async confirmSwitch(runId) {
      const rec = recordOf(st, runId);
      const probe = needProbe(st);
      const before = await statusOf(st, rec);
      if (before.state === 'done' || before.switchMs !== null) return before;
      const out = await runProbe(probe, markSwitchArgs(rec.captureFile));
      if (out.code !== 0) throw probeError('The switch could not be recorded', out);
      return statusOf(st, rec);
    },

    async stop(runId) {
      const rec = recordOf(st, runId);
      // the probe waits for the recorder to end, which writes the capture's interval blocks as it
      // stops (about 2 s per million rows beside its 15 s: a week of 16 devices takes under a minute)
      const out = await runProbe(needProbe(st), stopArgs(rec.captureFile), 120_000);
      if (out.code !== 0 && out.code !== PROBE_EXIT.notRunning) throw probeError('The recording could not be stopped', out);
      return statusOf(st, rec);
    },

    async resume(runId) {
      const rec = recordOf(st, runId);
      const out = await runProbe(needProbe(st), resumeArgs(rec.captureFile), 30_000);
      if (out.code !== 0) throw probeError('The recording could not be resumed', out);
      return statusOf(st, rec);
    },

    forOpen(runId) {
      const rec = recordOf(st, runId);
      return { capture: rec.captureFile, name: rec.name, options: analyzeOptionsOf(rec.plan) };
    },

    rememberHeadline: (runId, iosSavedPercent) => remember(st, runId, iosSavedPercent),

    async settlePrediction(runId) {
      const rec = recordOf(st, runId);
      predictOnce(st, rec);
      await st.predicting.get(runId);
    },
  };
}
