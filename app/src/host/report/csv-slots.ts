/**
 * Shared memory between the per-interval CSV's two threads (host/report/csv-rows.ts): a slot is a
 * chunk's columns and the buffer its rows are formatted into, made once and reused for chunk after
 * chunk. The calling thread copies a chunk's rows into a slot's columns, the worker formats them
 * into the slot's buffer, the calling thread writes that buffer to the file and frees the slot;
 * the messages carry only the slot's number. Transferring buffers instead (two per chunk, there and
 * back) registered their memory again on the receiving thread each time, and that external memory
 * set off scavenges and mark-compacts on both threads.
 */
import type { DeviceColumns } from '@cacheproof/engine';

/** The columns a chunk carries: the doubles first (8-byte aligned), then the bytes. */
export const FLOAT_KEYS = ['startMs', 'endMs', 'intervalMs', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;
export const BYTE_KEYS = ['status', 'ok'] as const;

export interface Slot {
  index: number;
  /** The columns' memory and the CSV buffer (shared with the worker). */
  input: SharedArrayBuffer;
  output: SharedArrayBuffer;
  /** Views of `input`: up to {@link slotRows} rows; `n` says how many hold the chunk. */
  columns: DeviceColumns;
}

/** Rows a slot of `input` holds. */
export const slotRows = (input: SharedArrayBuffer): number => input.byteLength / (8 * FLOAT_KEYS.length + BYTE_KEYS.length);

/**
 * A slot for chunks of `rows` rows formatted into `outputBytes` bytes; on the worker, the same
 * slot over the memory the calling thread made (`input`, `output`).
 */
export function makeSlot(index: number, rows: number, outputBytes: number, input?: SharedArrayBuffer, output?: SharedArrayBuffer): Slot {
  const mem = input ?? new SharedArrayBuffer(rows * (8 * FLOAT_KEYS.length + BYTE_KEYS.length));
  const n = slotRows(mem);
  const columns = { device: '', n: 0 } as DeviceColumns;
  const views = columns as unknown as Record<string, Float64Array | Uint8Array>;
  let at = 0;
  for (const k of FLOAT_KEYS) {
    views[k] = new Float64Array(mem, at, n);
    at += 8 * n;
  }
  for (const k of BYTE_KEYS) {
    views[k] = new Uint8Array(mem, at, n);
    at += n;
  }
  return { index, input: mem, output: output ?? new SharedArrayBuffer(outputBytes), columns };
}
