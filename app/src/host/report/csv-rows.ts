/**
 * The per-interval CSV's rows, formatted in chunks on two threads at once: a worker thread (the
 * host's worker bundle, host/analysis-worker.ts) is kept two chunks ahead and the calling thread
 * formats the chunks in between (the worker's through slots of shared memory, csv-slots.ts); the
 * chunks go to the file in order, each at its own offset, on the thread pool, and their buffers
 * are formatted into again. Both threads run the same {@link formatRows}, so the file is the
 * same, byte for byte, as one thread would write it.
 */
import { write } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { INTERVAL_COLUMNS, intervalRowInto } from '@cacheproof/engine/report';
import { INTERVAL_STATUSES, type DeviceColumns } from '@cacheproof/engine';
import { CsvBytes, csvField, NUMBER_ROOM, TIME_ROOM, writeNumber } from './csv-bytes.ts';
import { PAIR16, viewOf } from './csv-digits.ts';
import { BYTE_KEYS, FLOAT_KEYS, makeSlot, type Slot } from './csv-slots.ts';

/** Rows per chunk (about 6 MB of CSV). */
export const CSV_CHUNK_ROWS = 32_768;

/** The columns' order that {@link formatRows} writes: device, start, end, interval, status, then numbers only. */
const LAYOUT = INTERVAL_COLUMNS.map((c) => (c.kind === 'time' ? 't' : c.id === 'device' ? 'd' : c.id === 'status' ? 's' : c.kind === 'number' ? 'n' : '?')).join('');
if (LAYOUT !== `dttns${'n'.repeat(INTERVAL_COLUMNS.length - 5)}`) throw new Error(`the per-interval CSV writer expects device, start, end, interval, status, numbers; the columns are ${LAYOUT}`);
/** Each status code's cell, escaped (an unknown code is a `gap`, as the engine's `statusAt` reads it). */
const STATUS_CELLS = Array.from({ length: 256 }, (_, i) => Buffer.from(csvField(INTERVAL_STATUSES[i] ?? 'gap'), 'utf8'));
/** Length of a time in {@link CsvBytes.timeAt}'s usual form, `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
const TIME_LENGTH = 24;
const DAY_SECONDS = 86_400;

/** Copies a small cell's bytes to `p`; returns the end. */
function copyCell(buf: Uint8Array, p: number, cell: Uint8Array): number {
  for (let i = 0; i < cell.length; i++) buf[p++] = cell[i] as number;
  return p;
}

/**
 * The previous row's first five cells (device, start, end, interval, status, and the comma
 * after them) and where they are in the buffer: the next row of a regular capture has the same
 * cells with both times a step later, so it copies them and advances the seconds' digits.
 * `at` is -1 when they cannot be copied (a time not in the 24-character form, or not whole ms).
 */
class Prefix {
  start = NaN;
  end = NaN;
  intervalMs = NaN;
  status = -1;
  at = -1;
  length = 0;
}

/** Two digits at `q` as a number. */
const digits2 = (buf: Uint8Array, q: number): number => ((buf[q] as number) - 48) * 10 + (buf[q + 1] as number) - 48;

/**
 * Advances the time text at `q` (`YYYY-MM-DDTHH:MM:SS.mmmZ`) by `k` whole seconds (0 < k < a
 * day); false (the text left half-advanced) when that crosses midnight: the date changes.
 */
function advance(buf: Uint8Array, q: number, k: number): boolean {
  const dv = viewOf(buf);
  let sec = digits2(buf, q + 17) + k;
  if (sec < 60) {
    dv.setUint16(q + 17, PAIR16[sec] as number, true);
    return true;
  }
  let min = digits2(buf, q + 14) + ((sec / 60) | 0);
  sec %= 60;
  const hour = digits2(buf, q + 11) + ((min / 60) | 0);
  min %= 60;
  if (hour >= 24) return false;
  dv.setUint16(q + 11, PAIR16[hour] as number, true);
  dv.setUint16(q + 14, PAIR16[min] as number, true);
  dv.setUint16(q + 17, PAIR16[sec] as number, true);
  return true;
}

/**
 * Row `row`'s first five cells at `p` copied from the previous row's (`prev`) when they are the
 * same but for both times a whole number of seconds later, the times advanced in place; returns
 * the end, or -1 when they must be written ({@link writePrefix}). `deviceLength`: the device
 * cell's bytes.
 */
function copiedPrefix(buf: Uint8Array, p: number, row: Float64Array, status: number, prev: Prefix, deviceLength: number): number {
  const start = row[1] as number;
  const end = row[2] as number;
  // prev.at ≥ 0: its times are whole ms, so the step (k seconds) and both times are exact
  const k = (start - prev.start) / 1000;
  if (prev.at < 0 || start !== prev.end || end - start !== prev.end - prev.start || row[3] !== prev.intervalMs || status !== prev.status) return -1;
  if (!(k > 0 && k < DAY_SECONDS && Math.floor(k) === k)) return -1;
  buf.copyWithin(p, prev.at, prev.at + prev.length);
  if (!advance(buf, p + deviceLength + 1, k) || !advance(buf, p + deviceLength + TIME_LENGTH + 2, k)) return -1;
  prev.at = p;
  prev.start = start;
  prev.end = end;
  return p + prev.length;
}

/** Row `row`'s first five cells and the comma after them, written at `p` and remembered in `prev`; returns the end. */
function writePrefix(out: CsvBytes, buf: Uint8Array, p: number, row: Float64Array, status: number, prev: Prefix, device: Uint8Array): number {
  const at = p;
  const start = row[1] as number;
  const end = row[2] as number;
  p = copyCell(buf, p, device);
  buf[p++] = 44;
  p = out.timeAt(buf, p, start);
  const usual = p - at === device.length + 1 + TIME_LENGTH;
  buf[p++] = 44;
  const endAt = p;
  p = out.timeAt(buf, p, end);
  const copyable = usual && p - endAt === TIME_LENGTH && Number.isInteger(start) && Number.isInteger(end);
  buf[p++] = 44;
  p = writeNumber(buf, p, row[3] as number);
  buf[p++] = 44;
  p = copyCell(buf, p, STATUS_CELLS[status] as Buffer);
  buf[p++] = 44;
  prev.at = copyable ? at : -1;
  prev.length = p - at;
  prev.start = start;
  prev.end = end;
  prev.intervalMs = row[3] as number;
  prev.status = status;
  return p;
}

/**
 * Rows [lo, hi) of a device's columns as CSV lines: each row the engine's `intervalRowInto` (the
 * same values as `intervalRow(recordAt(c, i))`, without an object per row), written straight into
 * {@link CsvBytes}' buffer, one room check per row; the first five cells copied from the row
 * before when only the times moved on ({@link copiedPrefix}). `into`: a buffer written before, to
 * write into again (a new buffer is zeroed, and its pages are faulted in, 500 MB per export).
 */
export function formatRows(c: DeviceColumns, lo = 0, hi = c.n, into: ArrayBuffer | SharedArrayBuffer | null = null): Uint8Array {
  const out = new CsvBytes(Math.max(0, hi - lo) * 200 + 256, into);
  const row = new Float64Array(INTERVAL_COLUMNS.length);
  const device = Buffer.from(csvField(c.device), 'utf8');
  const most = device.length + INTERVAL_COLUMNS.length * (NUMBER_ROOM + TIME_ROOM) + 2;
  const prev = new Prefix();
  for (let i = lo; i < hi; i++) {
    intervalRowInto(c, i, row);
    const buf = out.reserve(most);
    const status = c.status[i] as number;
    let p = copiedPrefix(buf, out.at, row, status, prev, device.length);
    if (p < 0) p = writePrefix(out, buf, out.at, row, status, prev, device);
    p = writeNumber(buf, p, row[5] as number);
    for (let j = 6; j < row.length; j++) {
      buf[p++] = 44;
      p = writeNumber(buf, p, row[j] as number);
    }
    buf[p++] = 13;
    buf[p++] = 10;
    out.at = p;
  }
  return out.take(64);
}

const ARRAY_KEYS = [...FLOAT_KEYS, ...BYTE_KEYS] as const;
/** Bytes of a chunk's CSV that {@link formatRows} asks room for (a slot's buffer). */
const CHUNK_BYTES = CSV_CHUNK_ROWS * 200 + 256;

/**
 * Rows [lo, hi) of a device's columns, copied (a worker thread can take them; the source's buffer
 * is reused for the next device): into `into`'s arrays (a slot's, csv-slots.ts) when they hold that
 * many rows, else into new ones.
 */
export function chunkOf(c: DeviceColumns, lo: number, hi: number, into: DeviceColumns | null = null): DeviceColumns {
  if (into !== null && ARRAY_KEYS.every((k) => into[k].length >= hi - lo)) {
    for (const k of ARRAY_KEYS) into[k].set(c[k].subarray(lo, hi));
    into.device = c.device;
    into.n = hi - lo;
    return into;
  }
  const out = { device: c.device, n: hi - lo } as DeviceColumns;
  for (const k of ARRAY_KEYS) (out as unknown as Record<string, Float64Array | Uint8Array>)[k] = c[k].slice(lo, hi);
  return out;
}

/** What the CSV worker is sent (a slot's memory, once; then chunks in slots) and sends back (the length of a slot's bytes, or bytes of their own when they outgrew it). */
export type CsvWorkerRequest =
  | { type: 'slot'; index: number; input: SharedArrayBuffer; output: SharedArrayBuffer }
  | { type: 'rows'; id: number; slot: number; device: string; n: number };
export type CsvWorkerReply = { id: number; length: number } | { id: number; bytes: Uint8Array } | { id: number; error: string };

/** The worker's slots (csv-slots.ts), by number. */
const workerSlots: Slot[] = [];

/** The worker thread's side (host/analysis-worker.ts, `workerData.type === 'csv-rows'`): keeps each slot it is given, formats each chunk into its slot; null: nothing to answer. */
export function csvWorkerReply(m: CsvWorkerRequest): { reply: CsvWorkerReply; transfer: ArrayBuffer[] } | null {
  if (m.type === 'slot') {
    workerSlots[m.index] = makeSlot(m.index, 0, 0, m.input, m.output);
    return null;
  }
  try {
    const slot = workerSlots[m.slot] as Slot;
    slot.columns.device = m.device;
    slot.columns.n = m.n;
    const bytes = formatRows(slot.columns, 0, m.n, slot.output);
    // rows longer than the slot's buffer were formatted into a buffer of their own
    return bytes.buffer === slot.output ? { reply: { id: m.id, length: bytes.length }, transfer: [] } : { reply: { id: m.id, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
  } catch (err) {
    return { reply: { id: m.id, error: (err as Error).message }, transfer: [] };
  }
}

/** A chunk's bytes (when they are formatted) and what frees their buffer once they are written. */
interface Job {
  bytes: Promise<Uint8Array>;
  release: () => void;
}

/** Formats chunks on a worker thread, through slots of shared memory (csv-slots.ts). */
class CsvWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void; slot: Slot }>();
  private next = 0;
  private readonly slots: Slot[] = [];
  /** Slots whose bytes are written: the next chunks go into them. */
  private readonly free: Slot[] = [];

  constructor(file: string) {
    this.worker = new Worker(file, { workerData: { type: 'csv-rows' } });
    this.worker.on('message', (m: CsvWorkerReply) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (w === undefined) return;
      if ('length' in m) w.resolve(new Uint8Array(w.slot.output, 0, m.length));
      else if ('bytes' in m) w.resolve(m.bytes);
      else w.reject(new Error(`formatting CSV rows failed: ${m.error}`));
    });
    const fail = (err: Error): void => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the CSV worker stopped (exit ${code})`)));
  }

  /** Rows [lo, hi) of `c` (at most {@link CSV_CHUNK_ROWS}) copied into a free slot (a new one when none is) and formatted there. */
  format(c: DeviceColumns, lo: number, hi: number): Job {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = makeSlot(this.slots.length, CSV_CHUNK_ROWS, CHUNK_BYTES);
      this.slots.push(slot);
      this.worker.postMessage({ type: 'slot', index: slot.index, input: slot.input, output: slot.output } satisfies CsvWorkerRequest);
    }
    const s = slot;
    chunkOf(c, lo, hi, s.columns);
    const id = this.next++;
    const bytes = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(id, { resolve, reject, slot: s }));
    this.worker.postMessage({ type: 'rows', id, slot: s.index, device: c.device, n: hi - lo } satisfies CsvWorkerRequest);
    return { bytes, release: () => this.free.push(s) };
  }

  /** Chunks sent and not yet formatted. */
  get busy(): number {
    return this.waiting.size;
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** Rows [lo, hi) of `c` formatted on this thread into a buffer of `written` (a new one when none is), given back to it once written. */
function formatHere(c: DeviceColumns, lo: number, hi: number, written: ArrayBuffer[]): Job {
  const bytes = formatRows(c, lo, hi, written.pop() ?? null);
  return { bytes: Promise.resolve(bytes), release: () => written.push(bytes.buffer as ArrayBuffer) };
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
interface Pending extends Job {
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
  // buffers written to the file, formatted into again on this thread (the worker's are its slots)
  const written: ArrayBuffer[] = [];
  // the oldest chunk to the file (its write chained after the one before)
  const writeOldest = async (): Promise<void> => {
    const head = pending.shift() as Pending;
    const bytes = await head.bytes;
    const here = at;
    at += bytes.length;
    // at most one write in flight while the next chunks are formatted
    await writing;
    writing = writeAt(fd, bytes, here).then(head.release);
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
        const job = there ? worker.format(c, lo, hi) : formatHere(c, lo, hi, written);
        job.bytes.catch(() => undefined);
        pending.push({ ...job, rows: hi - lo });
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
