/**
 * Analysis sessions: each capture (with its analysis options) is opened, hashed and analysed
 * once, on a worker thread, and the result is shared by everything that asks for it in this
 * process — the dashboard (analysis.openCapture, openSample, run.open), the Planner's prefill,
 * the report preview and exports ({@link analysisOfCapture}). The host's event loop never waits
 * on a capture: while a worker reads a multi-GB capture, the host keeps answering other calls.
 * A job reports its progress (reading the capture, then analysing device by device) and can be
 * cancelled (the worker is stopped and its columnar files removed). Finished views also go to
 * the on-disk cache of finished analyses (host/analysis.ts loadAnalysisView), so that a later
 * process re-opens an unchanged capture without reading it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalyzeOptions } from '@cacheproof/engine';
import type { AnalysisView, ErrorCode } from '../shared/contract.ts';
import { computeView, loadAnalysisView, publicView, type ComputeView, type HostView, type ViewMeta, type ViewProgress } from './analysis.ts';
import type { WorkerJob, WorkerMessage } from './analysis-worker.ts';
import { HostError } from './errors.ts';
import { analysisWorkerPath } from './worker-path.ts';

/** One computation on a worker thread. */
export interface WorkerComputation {
  result: Promise<{ view: HostView; recorderState: string | null }>;
  /** Stops the worker and removes its columnar files; the result rejects with `analysis-cancelled`. */
  cancel(): void;
}

/** Analysis workers kept idle for the next analysis, per worker bundle: their bundle loaded and their code already compiled by earlier analyses. */
const idleWorkers = new Map<string, Worker[]>();
/** Idle analysis workers kept per bundle. */
export const IDLE_ANALYSIS_WORKERS = 1;

function spawnAnalysisWorker(workerFile: string): Worker {
  const w = new Worker(workerFile, { workerData: { type: 'pool' } });
  // an idle worker that dies (it should not) is simply not reused
  w.on('exit', () => {
    const list = idleWorkers.get(workerFile);
    const i = list?.indexOf(w) ?? -1;
    if (list !== undefined && i >= 0) list.splice(i, 1);
  });
  w.on('error', () => undefined);
  return w;
}

function takeWorker(workerFile: string): Worker {
  const w = idleWorkers.get(workerFile)?.pop() ?? spawnAnalysisWorker(workerFile);
  w.ref();
  return w;
}

function keepIdle(workerFile: string, w: Worker): void {
  const list = idleWorkers.get(workerFile) ?? [];
  idleWorkers.set(workerFile, list);
  if (list.length >= IDLE_ANALYSIS_WORKERS) {
    void w.terminate();
    return;
  }
  // an idle worker never keeps the process alive (the CLI ends when its work is done)
  w.unref();
  list.push(w);
}

/**
 * Starts an analysis worker ahead of the first analysis (the host calls it at start), so that the
 * first capture opened does not wait for the worker's bundle to load.
 */
export function prewarmAnalysisWorker(workerFile: string | null = analysisWorkerPath()): void {
  if (workerFile === null || (idleWorkers.get(workerFile)?.length ?? 0) > 0) return;
  keepIdle(workerFile, spawnAnalysisWorker(workerFile));
}

/**
 * Runs {@link computeView} on an analysis worker thread (the bundle at `workerFile`): an idle one
 * kept from an earlier analysis, else a new one; it goes back to the idle pool when done. A
 * cancelled analysis stops its worker.
 */
export function computeViewInWorker(workerFile: string, path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, onProgress?: (p: ViewProgress) => void, hash = true): WorkerComputation {
  const tmpParent = mkdtempSync(join(tmpdir(), 'cacheproof-analysis-'));
  const job: WorkerJob = { path, meta, options, tmpParent, hash };
  const worker = takeWorker(workerFile);
  let settled = false;
  let cancelled = false;
  const result = new Promise<{ view: HostView; recorderState: string | null }>((resolve, reject) => {
    const finish = (reuse: boolean): void => {
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      rmSync(tmpParent, { recursive: true, force: true });
      if (reuse) keepIdle(workerFile, worker);
      else void worker.terminate();
    };
    const onMessage = (m: WorkerMessage): void => {
      if (m.type === 'progress') onProgress?.({ stage: m.stage, done: m.done, total: m.total });
      else if (m.type === 'done') { finish(true); resolve({ view: m.view as HostView, recorderState: m.recorderState }); }
      else {
        finish(true);
        reject(m.hostCode !== null ? new HostError(m.hostCode as ErrorCode, m.message) : Object.assign(new Error(m.message), { stack: m.stack }));
      }
    };
    const onError = (err: Error): void => { if (!settled) { finish(false); reject(err); } };
    const onExit = (code: number): void => {
      if (settled) return;
      finish(false);
      reject(cancelled
        ? new HostError('analysis-cancelled', `The analysis of ${path} was cancelled.`)
        : new Error(`The analysis worker for ${path} stopped (exit ${code}) before it finished`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
  return { result, cancel: () => { cancelled = true; void worker.terminate(); } };
}

/** A capture's analysis in this process: in progress or done. */
interface Session {
  /** The view with the file's SHA-256. */
  view: Promise<HostView>;
  /** The same view as soon as the analysis is done, maybe before the file is hashed (`captureSha256` '' then). */
  analysed: Promise<HostView>;
  /** The view is ready: a later open is served without reading the capture (`fromCache: true`). */
  done: boolean;
  progress: ViewProgress | null;
  cancel: () => void;
}

/** Sessions kept after they finish (the most recently opened first). */
export const KEPT_SESSIONS = 8;

/**
 * The sessions of one process. `open` returns the shared view of a capture with those options:
 * computed once (on a worker thread when the worker bundle is built, see
 * {@link analysisWorkerPath}), through the on-disk cache of finished analyses in `cacheDir`.
 * A capture that changed on disk (size or modification time) gets a new session.
 *
 * @example
 * const sessions = new AnalysisSessions(join(dataDir(), 'analysis-cache'));
 * const view = await sessions.open('/data/run.capture', { id, name: 'run', isSample: false });
 * sessions.progress('/data/run.capture') // { stage: 'read', done: 1_310_720, total: 19_411_200 } while it runs
 */
export class AnalysisSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly cacheDir: string | null;
  private readonly workerFile: string | null;

  constructor(cacheDir: string | null, workerFile: string | null = analysisWorkerPath()) {
    this.cacheDir = cacheDir;
    this.workerFile = workerFile;
    prewarmAnalysisWorker(workerFile);
  }

  private key(path: string, options: AnalyzeOptions, host?: string, stamp = stampOf(path)): string {
    return JSON.stringify({ path, options, stamp, ...(host === undefined ? {} : { host }) });
  }

  /**
   * The finished view of a capture that changed on disk since its session was opened under
   * `oldStamp` (a prediction the probe stored, read back into the view: host/prediction-readback.ts):
   * the old session is dropped and `view` kept as the session of the file as it is now, so that
   * every later open (the dashboard, the report, the Planner) gets it without reading the capture.
   */
  replaceView(path: string, options: AnalyzeOptions, host: string | undefined, oldStamp: string, view: HostView): void {
    this.sessions.delete(this.key(path, options, host, oldStamp));
    const ready = Promise.resolve(view);
    this.sessions.set(this.key(path, options, host), { view: ready, analysed: ready, done: true, progress: null, cancel: () => undefined });
    while (this.sessions.size > KEPT_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
  }

  /** The view of a capture with these options, with the file's SHA-256: the session's, or a new one. */
  async open(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions = {}): Promise<AnalysisView> {
    return publicView(await this.openHost(path, meta, options));
  }

  /**
   * {@link open} for a reply to the renderer: as soon as the analysis is done, without waiting for
   * the file's SHA-256 (computed after the analysis: hashing a large capture took about as long as a
   * third of its analysis, and beside it a core from it). `captureSha256` is null until the session
   * has it; every service that needs it (the Planner's saved scenario, the report) waits for it
   * through {@link open}.
   */
  async openAnalysed(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions = {}): Promise<AnalysisView> {
    return publicView(await this.session(path, meta, options, (s) => s.analysed));
  }

  /** {@link open} with the report's chart lines (for the report preview and exports). */
  openHost(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions = {}): Promise<HostView> {
    return this.session(path, meta, options, (s) => s.view);
  }

  private session(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, which: (s: Session) => Promise<HostView>): Promise<HostView> {
    const key = this.key(path, options, meta.host);
    const known = this.sessions.get(key);
    if (known !== undefined) {
      this.sessions.delete(key);
      this.sessions.set(key, known);
      const ready = known.done;
      return which(known).then((v) => ({ ...v, id: meta.id, name: meta.name, isSample: meta.isSample, fromCache: ready || v.fromCache === true }));
    }
    let cancel = (): void => {};
    let analysed = (_: HostView): void => {};
    const session: Session = {
      view: Promise.resolve(null as unknown as HostView), analysed: new Promise<HostView>((resolve) => { analysed = resolve; }),
      done: false, progress: null, cancel: () => cancel(),
    };
    const compute: ComputeView = this.workerFile === null
      ? computeView
      : (p, m, o, _progress, hash) => {
        const c = computeViewInWorker(this.workerFile as string, p, m, o, (pr) => { session.progress = pr; }, hash);
        cancel = c.cancel;
        return c.result;
      };
    session.view = loadAnalysisView(path, meta, options, this.cacheDir, compute, (v) => analysed(v));
    // a failed analysis fails both; one that fails only in its hash has already given the analysis
    session.view.then((v) => analysed(v), () => undefined);
    session.analysed = Promise.race([session.analysed, session.view]);
    session.analysed.catch(() => undefined); // its failure is the view's, reported to whoever opens it
    session.view.then(() => { session.done = true; session.progress = null; }, () => undefined);
    // a failed or cancelled analysis is not kept: the next open tries again
    session.view.catch(() => { if (this.sessions.get(key) === session) this.sessions.delete(key); });
    this.sessions.set(key, session);
    while (this.sessions.size > KEPT_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return which(session);
  }

  /** Where the analysis of a capture (of one host of a fleet capture) is while it runs (null when none runs or it is done). */
  progress(path: string, options: AnalyzeOptions = {}, host?: string): ViewProgress | null {
    return this.sessions.get(this.key(path, options, host))?.progress ?? null;
  }

  /** Cancels the analysis of a capture in progress; false when none runs. */
  cancel(path: string, options: AnalyzeOptions = {}, host?: string): boolean {
    const s = this.sessions.get(this.key(path, options, host));
    if (s === undefined || s.done) return false;
    s.cancel();
    return true;
  }
}

/**
 * Size and modification time of a capture and of its write-ahead log: a changed file gets a new
 * session. An empty write-ahead log counts as none: SQLite creates one (0 bytes) when a reader
 * opens a capture in WAL mode, and that changes nothing in the capture.
 */
export function stampOf(path: string): string {
  const one = (p: string, emptyIsNone: boolean): string => {
    try {
      const st = statSync(p);
      return emptyIsNone && st.size === 0 ? '-' : `${st.size}:${st.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return `${one(path, false)}|${one(`${path}-wal`, true)}`;
}

const shared = new Map<string | null, AnalysisSessions>();

/** The process's sessions over one cache folder (created on first use). */
export function sharedSessions(cacheDir: string | null): AnalysisSessions {
  let s = shared.get(cacheDir);
  if (s === undefined) {
    s = new AnalysisSessions(cacheDir);
    shared.set(cacheDir, s);
  }
  return s;
}

/**
 * For the report preview and exporters (host/report/*) and the Planner: the analysis of a
 * capture with these options from its session, without reading the capture again when the
 * dashboard has it open (or the on-disk cache has it). `view.result` is the engine's
 * AnalysisReport (the `cacheproof analyze --json` object), `view.captureSha256` the file's hash.
 *
 * @example
 * const view = await analysisOfCapture('/data/run.capture', opened.options, join(dataDir(), 'analysis-cache'));
 */
export function analysisOfCapture(path: string, options: AnalyzeOptions, cacheDir: string | null): Promise<HostView> {
  return sharedSessions(cacheDir).openHost(path, { id: 'analysis', name: basename(path), isSample: false }, options);
}

export { analysisWorkerPath };
