/**
 * The analysis worker's program (bundled as app/dist/analysis-worker.cjs, started by
 * host/session.ts on a worker thread, `workerData.type === 'pool'`): computes capture views
 * (host/analysis.ts computeView), one per job message, posting the progress, then the view or the
 * error; it stays alive between jobs. Also the upper half of a
 * parallel read of a capture (`workerData.type === 'spill'`, host/capture/columnar.ts), the
 * formatter of per-interval CSV chunks (`workerData.type === 'csv-rows'`, host/report/csv-rows.ts),
 * and the summaries of most devices of an analysis beside it (`workerData.type === 'summaries'`,
 * host/summaries-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { computeView, type ViewMeta } from './analysis.ts';
import { HostError } from './errors.ts';
import { runSpillJob, type SpillJob } from './capture/columnar.ts';
import { csvWorkerReply, type CsvWorkerRequest } from './report/csv-rows.ts';
import { prewarmSummariesWorker, runSummariesJob, type SummariesJob } from './summaries-thread.ts';
import { analysisWorkerPath } from './worker-path.ts';

/** What the session sends: the capture, the view's names, the options, and where the columnar files go. */
export interface WorkerJob {
  path: string;
  meta: Omit<ViewMeta, 'sha256'>;
  options: AnalyzeOptions;
  tmpParent: string;
  /** Whether the worker hashes the file too (false: the session hashes it beside the worker). */
  hash: boolean;
}

/** What the worker posts back. */
export type WorkerMessage =
  | { type: 'progress'; stage: 'read' | 'analyze'; done: number; total: number }
  | { type: 'done'; view: unknown; recorderState: string | null }
  | { type: 'error'; hostCode: string | null; message: string; stack: string | undefined };

const port = parentPort;
const errorOf = (err: unknown): WorkerMessage => {
  const e = err instanceof Error ? err : new Error(String(err));
  return { type: 'error', hostCode: err instanceof HostError ? err.code : null, message: e.message, stack: e.stack };
};
if (port !== null && (workerData as { type?: string }).type === 'csv-rows') {
  // formats chunks of the per-interval CSV (host/report/csv-rows.ts appendRows)
  port.on('message', (m: CsvWorkerRequest) => {
    const answer = csvWorkerReply(m);
    if (answer !== null) port.postMessage(answer.reply, answer.transfer);
  });
} else if (port !== null && (workerData as { type?: string }).type === 'summaries') {
  // the window summaries of most devices of an analysis, beside it (host/summaries-thread.ts)
  port.on('message', (job: SummariesJob) => runSummariesJob(job));
} else if (port !== null && (workerData as SpillJob).type === 'spill') {
  // one half of a parallel read of a capture (host/capture/columnar.ts openCaptureColumnarParallel)
  try {
    const { parts, rows } = runSpillJob(workerData as SpillJob);
    port.postMessage({ type: 'spilled', parts, rows });
  } catch (err) {
    port.postMessage(errorOf(err));
  }
} else if (port !== null) {
  // an analysis worker of the pool (host/session.ts): one job per message, one at a time, kept
  // alive between jobs so that the next analysis starts with the bundle loaded and compiled, and
  // with the worker that summarizes devices beside it (host/summaries-thread.ts) already started
  prewarmSummariesWorker(analysisWorkerPath());
  port.on('message', (job: WorkerJob) => {
    computeView(job.path, job.meta, job.options, (p) => port.postMessage({ type: 'progress', ...p } satisfies WorkerMessage), job.hash, job.tmpParent).then(
      ({ view, recorderState }) => port.postMessage({ type: 'done', view, recorderState } satisfies WorkerMessage),
      (err: unknown) => port.postMessage(errorOf(err)),
    );
  });
}
