/**
 * The per-device window summaries of an analysis on a second thread. In the engine's one pass over
 * the devices, the calling thread reads each device, joins it into its group's series and draws
 * its chart sums, while most devices' window summaries (their percentiles: about half the
 * analysis) are computed by a worker that reads the same devices again (engine
 * `AnalyzeHooks.summariesElsewhere`). On two cores a large capture is analysed in a little more
 * than half the time; the figures are the same, since both threads run the engine's one
 * `deviceWindowSummaries` on the same columns.
 *
 * The worker posts each device's summaries on a MessagePort and counts them in a shared word; the
 * engine asks for them after its pass, synchronously, so the calling thread takes them with
 * `receiveMessageOnPort` and waits on the word (`Atomics.wait`) when they are not there yet. A
 * worker that fails says so; one that stops answering for {@link STALL_MS} is given up. Either way
 * the devices it did not give are summarized on the calling thread: an analysis never fails
 * because of its helper. The worker is kept idle for the next analysis.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { sourceWindowSummaries, type AnalyzeHooks, type ColumnSource, type DeviceSummaries, type SummariesElsewhere, type TimeWindow } from '@cacheproof/engine';
import { openColumnSource, type ColumnarCapture, type ColumnsReopen } from './capture/columnar.ts';

/**
 * The share of the devices offered to the worker (the calling thread summarizes any of them it
 * reaches before the worker begins it: `claim`, so that a worker that starts late or runs slow
 * does not keep the calling thread waiting). Per device, the calling thread
 * reads, joins and draws (about half the cost of summarizing), the worker reads and summarizes:
 * the two threads end together when the worker takes about 80 % of the devices (measured with
 * bench/dashboard on a 16-device capture: 85 % left this thread waiting for the worker).
 */
export const WORKER_SHARE = 0.8;
/** Below this many interval rows the analysis stays on one thread (a second one costs more than it saves). */
export const SECOND_THREAD_MIN_ROWS = 200_000;
/**
 * The largest device (in interval rows) a second thread may hold beside this one's: 745,000 rows,
 * about 64 MB of columns (90 bytes a row). A week at 1 s is 1.2 million rows a device: such a
 * capture stays on one thread, so that its analysis's peak memory stays what it was.
 */
export const SECOND_THREAD_MAX_DEVICE_ROWS = 745_000;
/** A worker that posts nothing for this long is given up (its devices are summarized here). */
export const STALL_MS = 30_000;

/** What the calling thread posts to the worker. */
export interface SummariesJob {
  type: 'summaries';
  reopen: ColumnsReopen;
  devices: string[];
  windows: Record<'baseline' | 'measure', TimeWindow>;
  port: MessagePort;
  /** Int32 word 0: messages posted so far. */
  posted: SharedArrayBuffer;
  /** One Int32 per device of `devices`: 0 while neither thread has begun it, 1 once the worker has, 2 once the calling thread has (compare-and-swap from 0: each device is summarized once). */
  claims: SharedArrayBuffer;
}

/** A device's word in {@link SummariesJob.claims}: 0 unclaimed, then the worker's or the calling thread's. */
const CLAIM = { none: 0, worker: 1, caller: 2 } as const;

/** What the worker posts for each device, or once when it fails. */
export type SummariesMessage = { type: 'sums'; device: string; sums: DeviceSummaries } | { type: 'error'; message: string };

/** Runs a {@link SummariesJob} (on the worker): each device's summaries posted as soon as they are computed. */
export function runSummariesJob(job: SummariesJob): void {
  const word = new Int32Array(job.posted);
  const post = (m: SummariesMessage): void => {
    job.port.postMessage(m);
    Atomics.add(word, 0, 1);
    Atomics.notify(word, 0);
  };
  let opened: { source: ColumnSource; close(): void } | null = null;
  try {
    opened = openColumnSource(job.reopen);
    const claims = new Int32Array(job.claims);
    for (const [i, device] of job.devices.entries()) {
      // a device the calling thread reached first is summarized there
      if (Atomics.compareExchange(claims, i, CLAIM.none, CLAIM.worker) !== CLAIM.none) continue;
      post({ type: 'sums', device, sums: sourceWindowSummaries(opened.source, device, job.windows) });
    }
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  } finally {
    opened?.close();
    job.port.close();
  }
}

/** Summaries workers kept idle, per worker bundle (their bundle loaded, their code compiled). */
const idle = new Map<string, Worker>();

function takeWorker(workerFile: string): Worker {
  const w = idle.get(workerFile);
  if (w !== undefined) {
    idle.delete(workerFile);
    w.ref();
    return w;
  }
  const fresh = new Worker(workerFile, { workerData: { type: 'summaries' } });
  fresh.on('error', () => undefined); // its failure reaches the job as silence: the calling thread summarizes
  fresh.once('exit', () => {
    if (idle.get(workerFile) === fresh) idle.delete(workerFile);
  });
  return fresh;
}

function keepIdle(workerFile: string, w: Worker): void {
  const old = idle.get(workerFile);
  if (old !== undefined && old !== w) void old.terminate();
  w.unref(); // an idle worker never keeps the process alive
  idle.set(workerFile, w);
}

/** Starts a summaries worker ahead of the first analysis (an analysis worker calls it when it starts). */
export function prewarmSummariesWorker(workerFile: string | null): void {
  if (workerFile !== null && !idle.has(workerFile)) keepIdle(workerFile, takeWorker(workerFile));
}

/** The hook for the engine's pass and what the caller does after the analysis (`release`, in a finally). */
export interface SummariesHelper {
  hook: NonNullable<AnalyzeHooks['summariesElsewhere']>;
  /** Keeps the worker for the next analysis when it finished its job, stops it otherwise. */
  release(): void;
}

/**
 * The engine hook that hands most devices' window summaries of `cap` to a worker (the bundle at
 * `workerFile`), or a hook that keeps them all here when there is no bundle, the capture is small
 * (fewer than `minRows` interval rows) or a device is too large to hold twice
 * ({@link SECOND_THREAD_MAX_DEVICE_ROWS}). The worker reads a device window by window when the
 * source can (engine `sourceWindowSummaries`), holding one window of a device at a time.
 *
 * @example
 * const helper = summariesHelper(cap, analysisWorkerPath());
 * try { analyze(cap.data, options, { summariesElsewhere: helper.hook }); } finally { helper.release(); }
 */
export function summariesHelper(cap: ColumnarCapture, workerFile: string | null, minRows = SECOND_THREAD_MIN_ROWS): SummariesHelper {
  let worker: Worker | null = null;
  let finished = false;
  const hook = (windows: Record<'baseline' | 'measure', TimeWindow>, devices: readonly string[]): SummariesElsewhere | null => {
    const largest = Math.max(0, ...(cap.data.source?.devices ?? []).map((d) => d.n));
    if (workerFile === null || cap.intervalCount < minRows || largest > SECOND_THREAD_MAX_DEVICE_ROWS || devices.length < 2 || worker !== null) return null;
    const taken = devices.slice(0, Math.min(devices.length - 1, Math.round(devices.length * WORKER_SHARE)));
    const { port1, port2 } = new MessageChannel();
    const posted = new SharedArrayBuffer(4);
    const word = new Int32Array(posted);
    const w = takeWorker(workerFile);
    worker = w;
    const claims = new Int32Array(new SharedArrayBuffer(4 * taken.length));
    const job: SummariesJob = { type: 'summaries', reopen: cap.reopen, devices: taken, windows, port: port2, posted, claims: claims.buffer as SharedArrayBuffer };
    w.postMessage(job, [port2]);
    const got = new Map<string, DeviceSummaries>();
    let given = 0;
    let failed = false;
    const done = (): void => {
      if (++given < taken.length) return;
      finished = !failed;
      port1.close();
    };
    const summarizeHere = (device: string): DeviceSummaries => sourceWindowSummaries(cap.data.source as ColumnSource, device, windows);
    return {
      devices: new Set(taken),
      get: (device) => {
        let quietSince = performance.now();
        while (!failed && !got.has(device)) {
          const seen = Atomics.load(word, 0);
          const m = receiveMessageOnPort(port1)?.message as SummariesMessage | undefined;
          if (m !== undefined) {
            if (m.type === 'sums') got.set(m.device, m.sums);
            else failed = true;
            quietSince = performance.now();
          } else if (Atomics.wait(word, 0, seen, 1000) === 'timed-out' && performance.now() - quietSince > STALL_MS) {
            failed = true;
          }
        }
        const sums = got.get(device) ?? summarizeHere(device);
        got.delete(device);
        done();
        return sums;
      },
      // the engine's pass reached the device before the worker began it: summarized there
      claim: (device) => {
        const i = taken.indexOf(device);
        if (i < 0 || Atomics.compareExchange(claims, i, CLAIM.none, CLAIM.caller) !== CLAIM.none) return false;
        done();
        return true;
      },
    };
  };
  return {
    hook,
    release: () => {
      if (worker === null || workerFile === null) return;
      if (finished) keepIdle(workerFile, worker);
      else void worker.terminate(); // the pass stopped early or the worker failed: its job may still be running
      worker = null;
    },
  };
}
