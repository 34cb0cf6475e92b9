/**
 * The per-interval CSV's bytes, written straight into a buffer (the report's largest file: a
 * 2 × 24 h capture of 16 devices at 1 s is 2.8 million rows, ~500 MB). Building a string per row
 * and letting a stream encode it spent most of an export in string concatenation, UTF-8
 * encoding and garbage collection; here integers and times are written four digits per store
 * (csv-digits.ts), text cells are escaped once and copied. host/report/csv-rows.ts writes chunks
 * of rows with it, on this thread and on a worker thread at once. The text is the same, byte for
 * byte, as `String(number)`, `Date#toISOString` and `csvField` give.
 */

import { shortestDecimal } from './csv-double.ts';
import { PAIR16, QUAD, viewOf, whole } from './csv-digits.ts';

const DAY_MS = 86_400_000;

/**
 * Text that a spreadsheet program would run as a formula (OWASP "CSV injection"): a cell starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: quoted when it holds a comma, quote, CR or LF; null → empty. A text cell that a
 * spreadsheet would take for a formula (a device or host named `=cmd|…`, `-sda`, `@x`) gets a
 * leading `'`, which spreadsheet programs read as "this is text" and do not show; numbers are
 * never prefixed (a negative number stays a number).
 * Example: `csvField('=1+1')` → `'=1+1`; `csvField(-3)` → `-3`.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Bytes of the CSV, written into one growing buffer: {@link take} hands them over (a chunk of
 * rows, for the file writer) and starts again.
 */
export class CsvBytes {
  private buf: Buffer;
  private pos = 0;
  private dayStart = NaN;
  private dayPrefix: Buffer = Buffer.alloc(0);
  private readonly cells = new Map<string, Buffer>();

  /** `into`: a buffer to write into when it holds `capacity` bytes (one written before, reused), else a new one is made. */
  constructor(capacity = 1 << 16, into: ArrayBuffer | SharedArrayBuffer | null = null) {
    this.buf = Buffer.from(into !== null && into.byteLength >= capacity ? into : new ArrayBuffer(Math.max(64, capacity)));
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.from(new ArrayBuffer(Math.max(this.buf.length * 2, this.pos + n)));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Bytes written since the last {@link take}. */
  get length(): number {
    return this.pos;
  }

  /**
   * The bytes written so far, in a buffer of their own (its ArrayBuffer can be transferred to
   * another thread); the next bytes go into a new buffer of `capacity` bytes.
   */
  take(capacity = this.buf.length): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.from(new ArrayBuffer(Math.max(64, capacity)));
    this.pos = 0;
    return out;
  }

  /** Text that is already a CSV cell or separator (any characters; UTF-8). */
  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** A text cell escaped once by `escape` (the device, a status) and copied after that. */
  cell(v: string, escape: (v: string) => string): void {
    let b = this.cells.get(v);
    if (b === undefined) {
      b = Buffer.from(escape(v), 'utf8');
      this.cells.set(v, b);
    }
    this.room(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
  }

  /**
   * Room for `n` more bytes: the buffer to write them into from {@link at} on (then set
   * {@link at} to their end). A row of the per-interval CSV is written this way, one check per row.
   */
  reserve(n: number): Uint8Array {
    this.room(n);
    return this.buf;
  }

  /** Where the next byte goes (see {@link reserve}). */
  get at(): number {
    return this.pos;
  }

  set at(p: number) {
    this.pos = p;
  }

  /** A number as `String(v)` writes it (a non-finite one as an empty cell). */
  number(v: number): void {
    this.room(NUMBER_ROOM);
    this.pos = writeNumber(this.buf, this.pos, v);
  }

  /** A UTC time as `new Date(ms).toISOString()` writes it. */
  time(ms: number): void {
    this.room(TIME_ROOM);
    this.pos = this.timeAt(this.buf, this.pos, ms);
  }

  /**
   * A UTC time as `new Date(ms).toISOString()` writes it, at `p` of `buf` (room for
   * {@link TIME_ROOM} bytes); returns the end. The date part is made once per day.
   */
  timeAt(buf: Uint8Array, p: number, ms: number): number {
    if (!Number.isInteger(ms) || Math.abs(ms) > 8.64e15) return ascii(buf, p, new Date(ms).toISOString());
    let inDay = ms - this.dayStart;
    if (!(inDay >= 0 && inDay < DAY_MS)) {
      this.dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      const iso = new Date(this.dayStart).toISOString();
      // years outside 0000–9999 are written ±YYYYYY-…: let Date do those
      if (iso.length !== 24) {
        this.dayStart = NaN;
        return ascii(buf, p, new Date(ms).toISOString());
      }
      this.dayPrefix = Buffer.from(iso.slice(0, 11), 'latin1');
      inDay = ms - this.dayStart;
    }
    const prefix = this.dayPrefix;
    for (let i = 0; i < 11; i++) buf[p + i] = prefix[i] as number;
    p += 11;
    // 0 ≤ inDay < 86 400 000: int32 arithmetic
    const dv = viewOf(buf);
    const t = inDay | 0;
    const h = (t / 3_600_000) | 0;
    const m = ((t - h * 3_600_000) / 60_000) | 0;
    const secMs = t - h * 3_600_000 - m * 60_000;
    const sec = (secMs / 1000) | 0;
    dv.setUint16(p, PAIR16[h] as number, true);
    buf[p + 2] = 58;
    dv.setUint16(p + 3, PAIR16[m] as number, true);
    buf[p + 5] = 58;
    dv.setUint16(p + 6, PAIR16[sec] as number, true);
    // ".mmm": the thousands digit of QUAD[milli] is the 0 replaced by the point
    dv.setUint32(p + 8, ((QUAD[secMs - sec * 1000] as number) & ~0xff) | 46, true);
    p += 12;
    buf[p++] = 90;
    return p;
  }
}

/**
 * Room {@link writeNumber} needs: `String(v)` of a double is at most 24 characters, and the
 * four-digit stores (csv-digits.ts) may write 3 bytes beyond the text (overwritten by what follows).
 */
export const NUMBER_ROOM = 28;
/** Most bytes {@link CsvBytes.timeAt} writes (`toISOString` of a year beyond 9999 is 27 characters). */
export const TIME_ROOM = 30;

/** An ASCII string's characters at `p`; returns the end. */
function ascii(buf: Uint8Array, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
  return p;
}

/**
 * A number as `String(v)` writes it, at `p` of `buf` (room for {@link NUMBER_ROOM} bytes); a
 * non-finite one writes nothing (an empty cell). Returns the end. Safe integers are written digit
 * by digit, other doubles in 1e-6…1e15 by csv-double.ts (decimals of ≤ 6 decimals from their
 * micro-units, others as the shortest decimal that reads back), anything else by `String(v)`.
 */
export function writeNumber(buf: Uint8Array, p: number, v: number): number {
  const a = v < 0 ? -v : v;
  if (a < 9_007_199_254_740_992 && Math.floor(a) === a) {
    // -0 is "0"
    if (v < 0) buf[p++] = 45;
    return whole(viewOf(buf), p, a);
  }
  // NaN and ±Infinity: an empty cell
  if (!(a < Infinity)) return p;
  if (a >= 1e-6 && a < 1e15) {
    const at = v < 0 ? p + 1 : p;
    const end = shortestDecimal(a, buf, at);
    if (end >= 0) {
      if (v < 0) buf[p] = 45;
      return end;
    }
  }
  return ascii(buf, p, String(v));
}
