/**
 * The analysis worker's program (bundled as app/dist/analysis-worker.cjs, started by
 * host/session.ts on a worker thread): computes one capture's view (host/analysis.ts
 * computeView) and posts its progress, then the view or the error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { computeView, type ViewMeta } from './analysis.ts';
import { HostError } from './errors.ts';

/** What the session sends: the capture, the view's names, the options, and where the columnar files go. */
export interface WorkerJob {
  path: string;
  meta: Omit<ViewMeta, 'sha256'>;
  options: AnalyzeOptions;
  tmpParent: string;
}

/** What the worker posts back. */
export type WorkerMessage =
  | { type: 'progress'; stage: 'read' | 'analyze'; done: number; total: number }
  | { type: 'done'; view: unknown; recorderState: string | null }
  | { type: 'error'; hostCode: string | null; message: string; stack: string | undefined };

const port = parentPort;
if (port !== null) {
  const job = workerData as WorkerJob;
  computeView(job.path, job.meta, job.options, (p) => port.postMessage({ type: 'progress', ...p } satisfies WorkerMessage), job.tmpParent).then(
    ({ view, recorderState }) => port.postMessage({ type: 'done', view, recorderState } satisfies WorkerMessage),
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ type: 'error', hostCode: err instanceof HostError ? err.code : null, message: e.message, stack: e.stack } satisfies WorkerMessage);
    },
  );
}
