/**
 * A capture's interval table read from its columnar blocks (capture schema v5, table
 * `interval_blocks`, docs/capture-schema.md): the probe writes them when a recording or an
 * import ends (and `cacheproof-probe index` for an older capture), so that opening a closed
 * capture copies each device's columns out of a few hundred blobs instead of reading every
 * interval row through SQLite. The engine gets one device at a time (`ColumnSource`), as from
 * the columnar files of host/capture/columnar.ts, with the same numbers: the blocks hold the
 * rows' values exactly (integers as offsets, anything else as 8-byte floats, NULL as absent).
 *
 * The blocks are used only when `meta.interval_blocks` says they hold every row: its `format`
 * is one this build reads and its `maxRowid` and `rows` match the table and the blocks. Anything
 * else (a capture being recorded, an older probe, a capture written to after its blocks) is read
 * from the rows.
 */
import type Database from 'better-sqlite3';
import { allocColumns, slotOk, sortColumns } from '@cacheproof/engine';
import type { ColumnSource, DeviceColumns, DeviceExtent, TimeWindow } from '@cacheproof/engine';

/** The block encoding this build reads (`meta.interval_blocks.format`, and the head of every block). */
export const BLOCK_FORMAT = 1;

/** The encoded columns, in block order (docs/capture-schema.md, `interval_blocks`). */
const BLOCK_COLUMNS = ['startMs', 'endMs', 'intervalMs', 'status', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const;
type BlockColumn = (typeof BLOCK_COLUMNS)[number];

const KIND_NULL = 0;
const KIND_CONST = 1;
const KIND_OFFSET = 2;
const KIND_F64 = 3;

interface BlockHead {
  deviceId: number;
  rows: number;
  minStart: number;
  maxEnd: number;
  sorted: number;
  firstStart: number;
  lastStart: number;
}

/** What `meta.interval_blocks` says, when it is one this build reads. */
function blocksMeta(meta: Record<string, string>): { rows: number; maxRowid: number } | null {
  const raw = meta['interval_blocks'];
  if (raw === undefined) return null;
  try {
    const m = JSON.parse(raw) as { format?: unknown; rows?: unknown; maxRowid?: unknown };
    if (m.format !== BLOCK_FORMAT || typeof m.rows !== 'number' || typeof m.maxRowid !== 'number') return null;
    return { rows: m.rows, maxRowid: m.maxRowid };
  } catch {
    return null;
  }
}

/** A block whose bytes do not add up: the capture is damaged (its rows may still be whole). */
export class BlockDamage extends Error {}

/** `base + src[i]` into `out` from `at`, the type's largest value as NaN (absent). */
function offsets8(out: Float64Array, src: Uint8Array, base: number, at: number): void {
  for (let i = 0; i < src.length; i++) {
    const u = src[i] as number;
    out[at + i] = u === 0xff ? NaN : base + u;
  }
}

/** {@link offsets8} for 2-byte offsets. */
function offsets16(out: Float64Array, src: Uint16Array, base: number, at: number): void {
  for (let i = 0; i < src.length; i++) {
    const u = src[i] as number;
    out[at + i] = u === 0xffff ? NaN : base + u;
  }
}

/** {@link offsets8} for 4-byte offsets. */
function offsets32(out: Float64Array, src: Uint32Array, base: number, at: number): void {
  for (let i = 0; i < src.length; i++) {
    const u = src[i] as number;
    out[at + i] = u === 0xffffffff ? NaN : base + u;
  }
}

/**
 * Writes one block's columns into `c` from slot `at` (the caller made room). Throws
 * {@link BlockDamage} when the block is not of {@link BLOCK_FORMAT} or its bytes do not add up.
 */
export function decodeBlock(blob: Uint8Array, rows: number, c: DeviceColumns, at: number): void {
  // Typed views need their element's alignment: copy a blob that does not start on 8 bytes.
  const b = blob.byteOffset % 8 === 0 ? blob : new Uint8Array(blob);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const bad = (what: string): Error => new BlockDamage(`an interval block is damaged: ${what}`);
  if (b.byteLength < 8 || view.getUint32(0, true) !== BLOCK_FORMAT) throw bad(`format ${b.byteLength < 4 ? '?' : view.getUint32(0, true)} where ${BLOCK_FORMAT} was expected`);
  const n = view.getUint32(4, true);
  if (n !== rows) throw bad(`${n} rows where its header row says ${rows}`);
  let off = 8;
  for (const name of BLOCK_COLUMNS) {
    if (off + 8 > b.byteLength) throw bad(`it ends before column ${name}`);
    const kind = view.getUint8(off);
    const width = view.getUint8(off + 1);
    off += 8;
    const out = c[name as BlockColumn];
    if (kind === KIND_NULL) {
      out.fill(name === 'status' ? 4 : NaN, at, at + n);
    } else if (kind === KIND_CONST) {
      out.fill(view.getFloat64(off, true), at, at + n);
      off += 8;
    } else if (kind === KIND_F64) {
      if (off + 8 * n > b.byteLength) throw bad(`column ${name} is cut short`);
      out.set(new Float64Array(b.buffer, b.byteOffset + off, n), at);
      off += 8 * n;
    } else if (kind === KIND_OFFSET && (width === 1 || width === 2 || width === 4)) {
      const base = view.getFloat64(off, true);
      off += 8;
      if (off + width * n > b.byteLength) throw bad(`column ${name} is cut short`);
      if (out instanceof Float64Array) {
        // one loop per element type: a loop that sees all three is several times slower
        if (width === 1) offsets8(out, new Uint8Array(b.buffer, b.byteOffset + off, n), base, at);
        else if (width === 2) offsets16(out, new Uint16Array(b.buffer, b.byteOffset + off, n), base, at);
        else offsets32(out, new Uint32Array(b.buffer, b.byteOffset + off, n), base, at);
      } else {
        const src = width === 1 ? new Uint8Array(b.buffer, b.byteOffset + off, n)
          : width === 2 ? new Uint16Array(b.buffer, b.byteOffset + off, n)
            : new Uint32Array(b.buffer, b.byteOffset + off, n);
        const nul = width === 1 ? 0xff : width === 2 ? 0xffff : 0xffffffff;
        for (let i = 0; i < n; i++) {
          const u = src[i] as number;
          out[at + i] = u === nul ? NaN : base + u;
        }
      }
      off += Math.ceil((width * n) / 8) * 8;
    } else {
      throw bad(`column ${name} has an unknown encoding ${kind}/${width}`);
    }
  }
  if (off !== b.byteLength) throw bad(`${b.byteLength - off} bytes after its last column`);
  for (let i = at; i < at + n; i++) c.ok[i] = slotOk(c.status[i] as number, c.intervalMs[i] as number, c.reads[i] as number, c.writes[i] as number) ? 1 : 0;
}

/** The blocks of a capture, when they hold every interval row: the engine's one-device-at-a-time source and the row count. */
export interface BlockSource {
  source: ColumnSource;
  rows: number;
}

/**
 * The capture's interval blocks as a `ColumnSource` reading `db` (kept open by the caller until
 * the analysis is done), or null when the capture has no blocks that hold every row (then read
 * the rows). `names`: devices.id → name. One buffer is reused for every device, so a pass over
 * the devices holds one device's intervals.
 */
export function openBlockSource(db: Database.Database, meta: Record<string, string>, names: Map<number, string>): BlockSource | null {
  const m = blocksMeta(meta);
  if (m === null) return null;
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'interval_blocks'").pluck().get();
  if (hasTable === undefined) return null;
  const maxRowid = (db.prepare('SELECT MAX(rowid) FROM intervals').pluck().get() as number | null) ?? 0;
  if (maxRowid !== m.maxRowid) return null;
  const heads = (db.prepare(`SELECT device_id AS deviceId, rows, min_start_utc_ms AS minStart, max_end_utc_ms AS maxEnd, sorted,
      first_start_utc_ms AS firstStart, last_start_utc_ms AS lastStart FROM interval_blocks ORDER BY device_id, seq`).all()) as BlockHead[];
  let rows = 0;
  const byDevice = new Map<number, BlockHead[]>();
  for (const h of heads) {
    rows += h.rows;
    let list = byDevice.get(h.deviceId);
    if (list === undefined) byDevice.set(h.deviceId, (list = []));
    list.push(h);
  }
  if (rows !== m.rows) return null;
  const devices: BlockDevice[] = [];
  for (const [id, list] of byDevice) {
    let sorted = true;
    for (let k = 0; k < list.length; k++) {
      const h = list[k] as BlockHead;
      if (h.sorted !== 1 || (k > 0 && h.firstStart < (list[k - 1] as BlockHead).lastStart)) sorted = false;
    }
    devices.push({
      id, device: names.get(id) ?? `device-${id}`, sorted, heads: list,
      n: list.reduce((s, h) => s + h.rows, 0),
      minStartMs: Math.min(...list.map((h) => h.minStart)), maxEndMs: Math.max(...list.map((h) => h.maxEnd)),
    });
  }
  return { source: blockColumnSource(db, devices), rows };
}

/** A device of the blocks: its extent, its blocks' heads in order, and whether its rows ascend in start. */
interface BlockDevice extends DeviceExtent {
  id: number;
  sorted: boolean;
  heads: BlockHead[];
}

/** A head that may hold an interval wholly inside the window (its rows start at or after minStart and end by maxEnd). */
const mayHold = (h: BlockHead, window: TimeWindow): boolean => h.maxEnd >= window.startMs && h.minStart <= window.endMs;

/**
 * The `ColumnSource` of {@link openBlockSource}: `load` decodes every block of a device into one
 * buffer shared by every device; `loadRange` decodes only the blocks whose heads say they may hold
 * an interval inside the window (a second buffer, as large as the largest such range), so that an
 * analysis that goes window by window holds one device's window.
 */
function blockColumnSource(db: Database.Database, devices: readonly BlockDevice[]): ColumnSource {
  const byName = new Map(devices.map((d) => [d.device, d]));
  const blobs = db.prepare('SELECT rows, data FROM interval_blocks WHERE device_id = ? ORDER BY seq');
  const ranged = db.prepare('SELECT rows, data FROM interval_blocks WHERE device_id = ? AND max_end_utc_ms >= ? AND min_start_utc_ms <= ? ORDER BY seq');
  let whole: DeviceColumns | undefined;
  let part = allocColumns('', 0);
  const decode = (d: BlockDevice, c: DeviceColumns, rows: Iterable<{ rows: number; data: Uint8Array }>, expected: number): DeviceColumns => {
    c.device = d.device;
    let at = 0;
    for (const r of rows) {
      decodeBlock(r.data, r.rows, c, at);
      at += r.rows;
    }
    if (at !== expected) throw new BlockDamage(`the interval blocks of ${d.device} hold ${at} rows where their heads say ${expected}`);
    c.n = at;
    return d.sorted ? c : sortColumns(c);
  };
  return {
    devices: devices.map(({ device, n, minStartMs, maxEndMs }) => ({ device, n, minStartMs, maxEndMs })),
    load: (device) => {
      const d = byName.get(device);
      if (d === undefined) return allocColumns(device, 0);
      whole ??= allocColumns('', Math.max(0, ...devices.map((x) => x.n)));
      return decode(d, whole, blobs.iterate(d.id) as Iterable<{ rows: number; data: Uint8Array }>, d.n);
    },
    loadRange: (device, window) => {
      const d = byName.get(device);
      if (d === undefined) return allocColumns(device, 0);
      const rows = d.heads.reduce((s, h) => s + (mayHold(h, window) ? h.rows : 0), 0);
      if (part.startMs.length < rows) part = allocColumns('', rows);
      return decode(d, part, ranged.iterate(d.id, window.startMs, window.endMs) as Iterable<{ rows: number; data: Uint8Array }>, rows);
    },
  };
}
