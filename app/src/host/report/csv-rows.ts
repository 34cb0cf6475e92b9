/**
 * The per-interval CSV's rows, formatted in chunks on two threads at once: a worker thread (the
 * host's worker bundle, host/analysis-worker.ts) is kept two chunks ahead and the calling thread
 * formats the chunks in between; the chunks go to the file in order, each at its own offset, on
 * the thread pool. Both threads run the same {@link formatRows}, so the
 * file is the same, byte for byte, as one thread would write it.
 */
import { write } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { INTERVAL_COLUMNS, intervalRowInto } from '@cacheproof/engine/report';
import { INTERVAL_STATUSES, type DeviceColumns } from '@cacheproof/engine';
import { CsvBytes, csvField, NUMBER_ROOM, TIME_ROOM, writeNumber } from './csv-bytes.ts';

/** Rows per chunk (about 6 MB of CSV). */
export const CSV_CHUNK_ROWS = 32_768;

/** Column kinds: 0 a number, 1 a time, 2 the device, 3 the status. */
const KINDS = Uint8Array.from(INTERVAL_COLUMNS, (c) => (c.kind === 'time' ? 1 : c.id === 'device' ? 2 : c.id === 'status' ? 3 : 0));
/** Each status code's cell, escaped (an unknown code is a `gap`, as the engine's `statusAt` reads it). */
const STATUS_CELLS = Array.from({ length: 256 }, (_, i) => Buffer.from(csvField(INTERVAL_STATUSES[i] ?? 'gap'), 'utf8'));

/** Copies a small cell's bytes to `p`; returns the end. */
function copyCell(buf: Uint8Array, p: number, cell: Uint8Array): number {
  for (let i = 0; i < cell.length; i++) buf[p++] = cell[i] as number;
  return p;
}

/**
 * Rows [lo, hi) of a device's columns as CSV lines: each row the engine's `intervalRowInto` (the
 * same values as `intervalRow(recordAt(c, i))`, without an object per row), written straight into
 * {@link CsvBytes}' buffer, one room check per row.
 */
export function formatRows(c: DeviceColumns, lo = 0, hi = c.n): Uint8Array {
  const out = new CsvBytes(Math.max(0, hi - lo) * 200 + 256);
  const row = new Float64Array(KINDS.length);
  const device = Buffer.from(csvField(c.device), 'utf8');
  const most = device.length + KINDS.length * (NUMBER_ROOM + TIME_ROOM) + 2;
  for (let i = lo; i < hi; i++) {
    intervalRowInto(c, i, row);
    const buf = out.reserve(most);
    let p = out.at;
    for (let j = 0; j < KINDS.length; j++) {
      if (j > 0) buf[p++] = 44;
      const kind = KINDS[j];
      if (kind === 0) p = writeNumber(buf, p, row[j] as number);
      else if (kind === 1) p = out.timeAt(buf, p, row[j] as number);
      else p = copyCell(buf, p, kind === 2 ? device : (STATUS_CELLS[c.status[i] as number] as Buffer));
    }
    buf[p++] = 13;
    buf[p++] = 10;
    out.at = p;
  }
  return out.take(64);
}

const ARRAY_KEYS = ['startMs', 'endMs', 'intervalMs', 'status', 'ok', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;

/** Rows [lo, hi) of a device's columns, copied (a worker thread can take them; the source's buffer is reused for the next device). */
export function chunkOf(c: DeviceColumns, lo: number, hi: number): DeviceColumns {
  const out = { device: c.device, n: hi - lo } as DeviceColumns;
  for (const k of ARRAY_KEYS) (out as unknown as Record<string, Float64Array | Uint8Array>)[k] = c[k].slice(lo, hi);
  return out;
}

/** What the CSV worker is sent and sends back. */
export type CsvWorkerRequest = { id: number; chunk: DeviceColumns };
export type CsvWorkerReply = { id: number; bytes: Uint8Array } | { id: number; error: string };

/** The worker thread's side: formats each chunk it is sent (host/analysis-worker.ts, `workerData.type === 'csv-rows'`). */
export function csvWorkerReply(m: CsvWorkerRequest): { reply: CsvWorkerReply; transfer: ArrayBuffer[] } {
  try {
    const bytes = formatRows(m.chunk);
    return { reply: { id: m.id, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
  } catch (err) {
    return { reply: { id: m.id, error: (err as Error).message }, transfer: [] };
  }
}

/** Formats chunks on a worker thread. */
class CsvWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(file: string) {
    this.worker = new Worker(file, { workerData: { type: 'csv-rows' } });
    this.worker.on('message', (m: CsvWorkerReply) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if ('bytes' in m) w?.resolve(m.bytes);
      else w?.reject(new Error(`formatting CSV rows failed: ${m.error}`));
    });
    const fail = (err: Error): void => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the CSV worker stopped (exit ${code})`)));
  }

  format(chunk: DeviceColumns): Promise<Uint8Array> {
    const id = this.next++;
    const p = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const transfer = ARRAY_KEYS.map((k) => chunk[k].buffer as ArrayBuffer);
    this.worker.postMessage({ id, chunk } satisfies CsvWorkerRequest, transfer);
    return p;
  }

  /** Chunks sent and not yet formatted. */
  get busy(): number {
    return this.waiting.size;
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** Writes `bytes` at `position` of the file (all of them, on the thread pool). */
function writeAt(fd: number, bytes: Uint8Array, position: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const step = (off: number): void => {
      if (off >= bytes.length) resolve();
      else write(fd, bytes, off, bytes.length - off, position + off, (err, n) => (err !== null ? reject(err) : step(off + n)));
    };
    step(0);
  });
}

/** Chunks the worker thread holds at most (one formatting, the next waiting: it never idles while this thread formats one). */
const WORKER_DEPTH = 2;
/** Formatted chunks held at most before the oldest is written (about 6 MB each). */
const AHEAD = 4;

/** A chunk being formatted (here: already done; on the worker: when it answers) and its rows. */
interface Pending {
  bytes: Promise<Uint8Array>;
  rows: number;
}

/**
 * Appends the rows of `devices` (each loaded when its turn comes) to the file open as `fd`, from
 * byte `offset` on: chunks of {@link CSV_CHUNK_ROWS} rows, each sent to the worker thread
 * (`workerFile`; none: every chunk on this thread) while it holds fewer than
 * {@link WORKER_DEPTH}, else formatted here, so both threads stay busy whatever else this one
 * does (loading a device, the writes' callbacks); the chunks are written in order, each at its
 * offset, on the thread pool, while the next are formatted. Returns the file's length.
 */
export async function appendRows(fd: number, offset: number, devices: readonly string[], load: (device: string) => DeviceColumns, workerFile: string | null, progress: (rows: number) => void = () => {}): Promise<number> {
  const worker = workerFile === null ? null : new CsvWorker(workerFile);
  const pending: Pending[] = [];
  let at = offset;
  let rows = 0;
  let writing: Promise<void> = Promise.resolve();
  // the oldest chunk to the file (its write chained after the one before)
  const writeOldest = async (): Promise<void> => {
    const head = pending.shift() as Pending;
    const bytes = await head.bytes;
    const here = at;
    at += bytes.length;
    // at most one write in flight while the next chunks are formatted
    await writing;
    writing = writeAt(fd, bytes, here);
    writing.catch(() => undefined);
    rows += head.rows;
    progress(rows);
  };
  try {
    for (const device of devices) {
      const c = load(device);
      for (let lo = 0; lo < c.n; lo += CSV_CHUNK_ROWS) {
        const hi = Math.min(c.n, lo + CSV_CHUNK_ROWS);
        const there = worker !== null && worker.busy < WORKER_DEPTH;
        const bytes = there ? worker.format(chunkOf(c, lo, hi)) : Promise.resolve(formatRows(c, lo, hi));
        bytes.catch(() => undefined);
        pending.push({ bytes, rows: hi - lo });
        // after a chunk formatted here, the worker's answers are taken (and it is sent more)
        if (!there) await new Promise<void>((resolve) => setImmediate(resolve));
        while (pending.length > AHEAD) await writeOldest();
      }
    }
    while (pending.length > 0) await writeOldest();
    await writing;
    return at;
  } finally {
    worker?.close();
  }
}
