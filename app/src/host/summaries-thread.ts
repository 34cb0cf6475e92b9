/**
 * The per-device window summaries of an analysis on a second thread. In the engine's one pass over
 * the devices, the calling thread reads each device, joins it into its group's series and draws
 * its chart sums, while a worker that reads the same devices again computes window summaries
 * (their percentiles: about half the analysis) for as many devices as it can (engine
 * `AnalyzeHooks.summariesElsewhere`). The two threads share the devices without a fixed split:
 * the worker claims them from the last one; after its pass, the calling thread claims those left
 * from the first one (reading each again) as the engine asks for their summaries; one
 * compare-and-swap per device on a shared word each. They meet wherever their speeds put them, so
 * both end together whatever the capture and whatever each step costs. The figures are the same,
 * since both threads run the engine's one `deviceWindowSummaries` on the same columns.
 *
 * The worker posts each device's summaries on a MessagePort and counts them in a shared word; the
 * engine asks for them after its pass, synchronously, so the calling thread takes them with
 * `receiveMessageOnPort` and waits on the word (`Atomics.wait`) when they are not there yet. A
 * worker that fails says so; one that stops answering for {@link STALL_MS} is given up. Either way
 * the devices it did not give are summarized on the calling thread: an analysis never fails
 * because of its helper. The worker is kept idle for the next analysis.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { deviceWindowSummaries, type AnalyzeHooks, type ColumnSource, type DeviceSummaries, type SummariesElsewhere, type TimeWindow } from '@cacheproof/engine';
import { openColumnSource, type ColumnarCapture, type ColumnsReopen } from './capture/columnar.ts';

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
  /** The devices in the order of the engine's pass (the worker claims them from the last). */
  devices: string[];
  windows: Record<'baseline' | 'measure', TimeWindow>;
  port: MessagePort;
  /** Int32 word 0: messages posted so far. */
  posted: SharedArrayBuffer;
  /** One Int32 word per device of `devices`: {@link FREE}, or claimed by {@link BY_WORKER} or {@link BY_CALLER}. */
  claims: SharedArrayBuffer;
}

/** A device nobody has claimed yet. */
export const FREE = 0;
/** A device whose summaries the worker computes. */
export const BY_WORKER = 1;
/** A device whose summaries the calling thread computes. */
export const BY_CALLER = 2;

/** What the worker posts for each device, or once when it fails. */
export type SummariesMessage = { type: 'sums'; device: string; sums: DeviceSummaries } | { type: 'error'; message: string };

/**
 * Runs a {@link SummariesJob} (on the worker): claims the devices from the last, each device's
 * summaries posted as soon as they are computed, until the calling thread has claimed the next one.
 */
export function runSummariesJob(job: SummariesJob): void {
  const word = new Int32Array(job.posted);
  const claims = new Int32Array(job.claims);
  const post = (m: SummariesMessage): void => {
    job.port.postMessage(m);
    Atomics.add(word, 0, 1);
    Atomics.notify(word, 0);
  };
  let opened: { source: ColumnSource; close(): void } | null = null;
  try {
    opened = openColumnSource(job.reopen);
    // the calling thread claims in pass order: once it has one, it has every one before it (or will)
    for (let i = job.devices.length - 1; i >= 0 && Atomics.compareExchange(claims, i, FREE, BY_WORKER) === FREE; i--) {
      const device = job.devices[i] as string;
      post({ type: 'sums', device, sums: deviceWindowSummaries(opened.source.load(device), job.windows) });
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

/** One job's end on the calling thread: the worker's messages taken as the engine asks for each device's summaries. */
interface JobEnd {
  port: MessagePort;
  word: Int32Array;
  claims: Int32Array;
  got: Map<string, DeviceSummaries>;
  given: number;
  failed: boolean;
}

/** Takes the worker's messages until `device`'s summaries are there (or the worker failed or stalled). */
function awaitSums(job: JobEnd, device: string): void {
  let quietSince = performance.now();
  while (!job.failed && !job.got.has(device)) {
    const seen = Atomics.load(job.word, 0);
    const m = receiveMessageOnPort(job.port)?.message as SummariesMessage | undefined;
    if (m !== undefined) {
      if (m.type === 'sums') job.got.set(m.device, m.sums);
      else job.failed = true;
      quietSince = performance.now();
    } else if (Atomics.wait(job.word, 0, seen, 1000) === 'timed-out' && performance.now() - quietSince > STALL_MS) {
      job.failed = true;
    }
  }
}

/**
 * Whether the worker is done with its job and can be kept: the pass claimed every device, the
 * worker failed at nothing and gave every device it claimed (then it has stopped claiming).
 */
function jobFinished(job: JobEnd): boolean {
  for (let m = receiveMessageOnPort(job.port); m !== undefined; m = receiveMessageOnPort(job.port)) {
    if ((m.message as SummariesMessage).type === 'error') job.failed = true;
  }
  const byWorker = job.claims.filter((c) => c === BY_WORKER).length;
  return !job.failed && !job.claims.includes(FREE) && job.given === byWorker;
}

/**
 * The engine hook that hands the window summaries of as many devices of `cap` as it can to a
 * worker (the bundle at `workerFile`), or a hook that keeps them all here when there is no bundle,
 * the capture is small (fewer than `minRows` interval rows) or a device is too large to hold twice
 * ({@link SECOND_THREAD_MAX_DEVICE_ROWS}).
 *
 * @example
 * const helper = summariesHelper(cap, analysisWorkerPath());
 * try { analyze(cap.data, options, { summariesElsewhere: helper.hook }); } finally { helper.release(); }
 */
export function summariesHelper(cap: ColumnarCapture, workerFile: string | null, minRows = SECOND_THREAD_MIN_ROWS): SummariesHelper {
  let worker: Worker | null = null;
  let job: JobEnd | null = null;
  const hook = (windows: Record<'baseline' | 'measure', TimeWindow>, devices: readonly string[]): SummariesElsewhere | null => {
    const largest = Math.max(0, ...(cap.data.source?.devices ?? []).map((d) => d.n));
    if (workerFile === null || cap.intervalCount < minRows || largest > SECOND_THREAD_MAX_DEVICE_ROWS || devices.length < 2 || worker !== null) return null;
    const { port1, port2 } = new MessageChannel();
    const posted = new SharedArrayBuffer(4);
    const claims = new SharedArrayBuffer(4 * devices.length);
    const end: JobEnd = { port: port1, word: new Int32Array(posted), claims: new Int32Array(claims), got: new Map(), given: 0, failed: false };
    job = end;
    worker = takeWorker(workerFile);
    const sent: SummariesJob = { type: 'summaries', reopen: cap.reopen, devices: [...devices], windows, port: port2, posted, claims };
    worker.postMessage(sent, [port2]);
    const summarizeHere = (device: string): DeviceSummaries => deviceWindowSummaries((cap.data.source as ColumnSource).load(device), windows);
    const index = new Map(devices.map((d, i) => [d, i]));
    return {
      // every device is summarized after the pass: by the worker, or here when the worker has not claimed it yet
      devices: new Set(devices),
      get: (device) => {
        const i = index.get(device);
        if (i !== undefined && Atomics.compareExchange(end.claims, i, FREE, BY_CALLER) === FREE) return summarizeHere(device);
        awaitSums(end, device);
        const sums = end.got.get(device) ?? summarizeHere(device);
        end.got.delete(device);
        end.given++;
        return sums;
      },
    };
  };
  return {
    hook,
    release: () => {
      if (worker === null || workerFile === null || job === null) return;
      if (jobFinished(job)) keepIdle(workerFile, worker);
      else void worker.terminate(); // the pass stopped early or the worker failed: its job may still be running
      job.port.close();
      worker = null;
      job = null;
    },
  };
}
