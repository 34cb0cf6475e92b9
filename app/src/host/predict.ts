/**
 * The dashboard's prediction (docs/ipc.md, `predict.*`): `cacheproof-probe predict CAPTURE --size
 * … --cache-device … --policy … --store --json` on an open analysis's traced capture, as a job
 * whose progress is the probe's own (`predict: 45 % (lru)` on stderr), then only the stored
 * prediction read back into the open analysis (host/prediction-readback.ts: the `meta` row, set
 * beside the view's measured benefit by the engine, and the session and cache moved to the changed
 * file), so that the dashboard, the report and `cacheproof analyze --json` all carry the new
 * prediction from `meta.prediction`; on a workload profile's capture (an imported block trace),
 * the profile is opened again instead and its screen redrawn (the job's view is then null). The
 * renderer never simulates; the figures are the probe's, carried by the engine.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { type PredictProgress, type PredictRequest } from '../shared/contract.ts';
import { HostError } from './errors.ts';
import type { HeldView } from './prediction-readback.ts';
import { predictCommand } from './probe-argv.ts';
import { PROBE_EXIT, probeError, probeErrorText, type ProbeOutput } from './runs/probe.ts';

/** The longest a prediction may take (a day's sampled trace, six policies at 41 sizes each, takes minutes). */
const PREDICT_TIMEOUT_MS = 60 * 60_000;
/** The share of the bar the probe's own progress fills; the rest is the new analysis. */
const PROBE_SHARE = 90;

/** A progress line of `predict` on stderr: `predict: 45 % (lru)`. */
const PROGRESS_LINE = /^predict: (\d+(?:\.\d+)?) % \((.*)\)$/u;

/**
 * Runs `cacheproof-probe predict …`, calling `onProgress(share 0–1, stage)` for each progress
 * line; resolves with the exit code, stdout and the error sentence (stderr without the progress
 * lines and notes). Never rejects for a non-zero exit.
 */
export function runPredict(probe: string, args: readonly string[], onProgress: (share: number, stage: string) => void, timeoutMs = PREDICT_TIMEOUT_MS): Promise<ProbeOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(probe, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let rest = '';
    const kept: string[] = [];
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new HostError('probe-missing', `The probe ${probe} cannot be run (${String(e.code)}). Build it with 'cargo build --release' in native/.`));
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const m = PROGRESS_LINE.exec(line.trim());
        if (m !== null) onProgress(Number(m[1]) / 100, m[2] ?? '');
        else if (!line.startsWith('predict: note: ')) kept.push(line);
      }
    });
    timer.unref();
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (rest.length > 0 && !PROGRESS_LINE.test(rest.trim())) kept.push(rest);
      if (signal !== null) return reject(new HostError('probe-failed', `cacheproof-probe predict stopped (${signal}) before it finished (time limit ${Math.round(timeoutMs / 60_000)} minutes).`));
      resolve({ code: code ?? 1, stdout, error: probeErrorText(kept.join('\n')) });
    });
  });
}

/** What the prediction jobs need from the host: the probe, the open analyses and how to read the stored prediction back into them. */
export interface PredictHost {
  probe: string | null;
  /** The capture and analysis options of an analysis (or, with `profile`, a workload profile) opened in this session, or null. */
  analysisOf(analysisId: string): { path: string; options: AnalyzeOptions; isSample: boolean; profile?: true } | null;
  /** A workload profile opened again from its changed capture (the session remembers it); resolves with the capture's new SHA-256. */
  reopenProfile(profileId: string): Promise<string>;
  /** An open analysis's view held before the probe writes its capture (its SHA-256 the session's), read back after (host/prediction-readback.ts). */
  holdView(analysisId: string): Promise<HeldView>;
  /** The capture's content changed from `beforeSha256` to `afterSha256` (the Planner's saved scenario follows it). */
  captureChanged(beforeSha256: string, afterSha256: string): Promise<void>;
  /** A workload profile's capture's SHA-256 before the probe writes it (the profile's). */
  shaOf(analysisId: string): Promise<string>;
}

interface Job {
  progress: PredictProgress;
  error: HostError | null;
}

export interface PredictJobs {
  'predict.start': (r: PredictRequest) => Promise<{ jobId: string }>;
  'predict.progress': (r: { jobId: string }) => Promise<PredictProgress>;
}

/** The `predict.*` handlers (one job per request; a finished or failed job is answered once, then forgotten). */
export function predictHandlers(host: PredictHost): PredictJobs {
  const jobs = new Map<string, Job>();
  return {
    'predict.start': async ({ analysisId, choice }) => {
      if (host.probe === null) throw new HostError('probe-missing', 'Predicting a cache needs cacheproof-probe: build it with cargo build --release in native/.');
      const probe = host.probe;
      const a = host.analysisOf(analysisId);
      if (a === null) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
      if (a.isSample) throw new HostError('not-supported', 'The bundled sample has no block trace to predict from, and it is not written to.');
      const held = a.profile === true ? null : await host.holdView(analysisId);
      const before = held === null ? await host.shaOf(analysisId) : held.sha256;
      const jobId = randomUUID();
      const job: Job = { progress: { jobId, percent: 0, stage: 'read', done: false, view: null }, error: null };
      jobs.set(jobId, job);
      const set = (percent: number, stage: PredictProgress['stage']): void => {
        job.progress = { ...job.progress, percent: Math.min(100, Math.max(job.progress.percent, percent)), stage };
      };
      void (async () => {
        const out = await runPredict(probe, predictCommand(a.path, choice, a.options.front), (share, stage) => set(share * PROBE_SHARE, stage === 'reading the trace' ? 'read' : 'simulate'));
        if (out.code !== 0) throw refused(out);
        set(PROBE_SHARE, 'analyze');
        if (held === null) {
          // a workload profile: its screen opens it again (analysis.openProfile), with the new prediction
          await host.captureChanged(before, await host.reopenProfile(analysisId));
          job.progress = { jobId, percent: 100, stage: 'done', done: true, view: null };
          return;
        }
        const view = await held.readBack();
        // (the read-back hashes the changed file: the saved scenario moves to its SHA-256)
        await host.captureChanged(before, view.captureSha256 as string);
        job.progress = { jobId, percent: 100, stage: 'done', done: true, view };
      })().catch((e: unknown) => {
        job.error = e instanceof HostError ? e : new HostError('probe-failed', `predict: ${e instanceof Error ? e.message : String(e)}`);
      });
      return { jobId };
    },
    'predict.progress': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (job === undefined) throw new HostError('predict-job-not-found', `No prediction job ${jobId} in this session.`);
      if (job.error !== null) {
        jobs.delete(jobId);
        throw job.error;
      }
      if (job.progress.done) jobs.delete(jobId);
      return job.progress;
    },
  };
}

/** A refusal the person can act on (no trace, a baseline not ended, a size the probe cannot use) is `predict-refused` with the probe's sentence. */
function refused(out: ProbeOutput): HostError {
  if (out.code === PROBE_EXIT.notImportable || out.code === PROBE_EXIT.usage) return new HostError('predict-refused', out.error || `predict: exit code ${out.code}`);
  return probeError('predict', out);
}
