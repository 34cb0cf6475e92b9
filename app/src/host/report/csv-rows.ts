/**
 * The per-interval CSV's rows, formatted in chunks on two threads at once: the calling thread
 * formats every other chunk while a worker thread (the host's worker bundle,
 * host/analysis-worker.ts) formats the one before it; the chunks go to the file in order, each
 * at its own offset, on the thread pool. Both threads run the same {@link formatRows}, so the
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

/**
 * Appends the rows of `devices` (each loaded when its turn comes) to the file open as `fd`, from
 * byte `offset` on: chunks of {@link CSV_CHUNK_ROWS} rows in pairs, the first of each pair on the
 * worker thread (`workerFile`; none: every chunk on this thread), the second here at the same
 * time; a pair's writes run while the next pair is formatted. Returns the file's length.
 */
export async function appendRows(fd: number, offset: number, devices: readonly string[], load: (device: string) => DeviceColumns, workerFile: string | null, progress: (rows: number) => void = () => {}): Promise<number> {
  const worker = workerFile === null ? null : new CsvWorker(workerFile);
  let at = offset;
  let rows = 0;
  let writing: Promise<void> = Promise.resolve();
  const put = (bytes: Uint8Array): void => {
    const here = at;
    at += bytes.length;
    const prev = writing;
    writing = Promise.all([prev, writeAt(fd, bytes, here)]).then(() => undefined);
    writing.catch(() => undefined);
  };
  try {
    for (const device of devices) {
      const c = load(device);
      for (let lo = 0; lo < c.n; lo += 2 * CSV_CHUNK_ROWS) {
        const mid = Math.min(c.n, lo + CSV_CHUNK_ROWS);
        const hi = Math.min(c.n, mid + CSV_CHUNK_ROWS);
        const first = worker !== null && hi > mid ? worker.format(chunkOf(c, lo, mid)) : null;
        const firstHere = first === null ? formatRows(c, lo, mid) : null;
        const second = hi > mid ? formatRows(c, mid, hi) : null;
        const firstBytes = firstHere ?? (await (first as Promise<Uint8Array>));
        // at most one pair being written while the next is formatted
        await writing;
        put(firstBytes);
        if (second !== null) put(second);
        rows += hi - lo;
        progress(rows);
      }
    }
    await writing;
    return at;
  } finally {
    worker?.close();
  }
}
