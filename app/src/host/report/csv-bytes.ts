/**
 * The per-interval CSV's bytes, written straight into a buffer (the report's largest file: a
 * 2 × 24 h capture of 16 devices at 1 s is 2.8 million rows, ~500 MB). Building a string per row
 * and letting a stream encode it spent most of an export in string concatenation, UTF-8
 * encoding and garbage collection; here integers and times are written digit by digit, text
 * cells are escaped once and copied. host/report/csv-rows.ts writes chunks of rows with it, on
 * this thread and on a worker thread at once. The text is the
 * same, byte for byte, as `String(number)`, `Date#toISOString` and `csvField` give.
 */

const DAY_MS = 86_400_000;
const ZERO = 48;
/** Most decimals of a number written by {@link CsvBytes.shortDecimal}. */
const MAX_DECIMALS = 6;
const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

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

  constructor(capacity = 1 << 16) {
    this.buf = Buffer.from(new ArrayBuffer(Math.max(64, capacity)));
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

  /** A number as `String(v)` writes it (a non-finite one as an empty cell). */
  number(v: number): void {
    if (Number.isInteger(v) && v > -9_007_199_254_740_992 && v < 9_007_199_254_740_992) this.integer(v);
    else if (Number.isFinite(v) && !this.shortDecimal(v)) this.ascii(String(v));
  }

  /**
   * A number that is a short decimal (at most {@link MAX_DECIMALS} decimals, at most 15
   * significant digits, 1e-6 ≤ |v| < 1e15: MB/s, utilization, queue sizes) written from its
   * digits: N = round(v × 10^k) with N / 10^k === v. Every decimal of at most 15 significant digits
   * names a different double, so no shorter decimal reads back as v and `String(v)` is this one.
   * False (nothing written) for any other number.
   */
  private shortDecimal(v: number): boolean {
    const a = v < 0 ? -v : v;
    if (!(a >= 1e-6 && a < 1e15)) return false;
    // a quick no for ratios (ms per I/O, bytes per I/O): a short decimal times 10^6 is an
    // integer to within the two roundings (relative 2.3e-16) of a and of the product
    const t = a * 1e6;
    if (Math.abs(t - Math.round(t)) > t * 1e-14) return false;
    for (let k = 1; k <= MAX_DECIMALS; k++) {
      const scale = POW10[k] as number;
      const n = Math.round(a * scale);
      if (n / scale !== a || n >= 1e15) continue;
      // n has at most 15 digits: write it with the point k digits from the right
      this.room(24);
      const buf = this.buf;
      if (v < 0) buf[this.pos++] = 45;
      let digits = 1;
      for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
      // n / 10^k === a with n not a multiple of 10 (else a smaller k matched first)
      const width = Math.max(digits, k + 1);
      let at = this.pos + width + 1;
      this.pos = at;
      let x = n;
      for (let i = 0; i < width; i++) {
        if (i === k) buf[--at] = 46;
        const q = Math.floor(x / 10);
        buf[--at] = ZERO + (x - q * 10);
        x = q;
      }
      return true;
    }
    return false;
  }

  private ascii(s: string): void {
    const len = s.length;
    this.room(len);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < len; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** A safe integer's digits (the same as String(v); -0 is "0"). */
  private integer(v: number): void {
    this.room(17);
    const buf = this.buf;
    if (v < 0) {
      buf[this.pos++] = 45;
      v = -v;
    }
    if (v < 10) {
      buf[this.pos++] = ZERO + v;
      return;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let at = this.pos + digits;
    this.pos = at;
    while (v >= 10) {
      const q = Math.floor(v / 10);
      buf[--at] = ZERO + (v - q * 10);
      v = q;
    }
    buf[--at] = ZERO + v;
  }

  private two(n: number): void {
    const q = (n / 10) | 0;
    this.buf[this.pos++] = ZERO + q;
    this.buf[this.pos++] = ZERO + (n - q * 10);
  }

  /** A UTC time as `new Date(ms).toISOString()` writes it (the date part made once per day). */
  time(ms: number): void {
    if (!Number.isInteger(ms) || Math.abs(ms) > 8.64e15) {
      this.ascii(new Date(ms).toISOString());
      return;
    }
    let inDay = ms - this.dayStart;
    if (!(inDay >= 0 && inDay < DAY_MS)) {
      this.dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      const iso = new Date(this.dayStart).toISOString();
      // years outside 0000–9999 are written ±YYYYYY-…: let Date do those
      if (iso.length !== 24) {
        this.dayStart = NaN;
        this.ascii(new Date(ms).toISOString());
        return;
      }
      this.dayPrefix = Buffer.from(iso.slice(0, 11), 'latin1');
      inDay = ms - this.dayStart;
    }
    this.room(24);
    this.dayPrefix.copy(this.buf, this.pos);
    this.pos += 11;
    const h = Math.floor(inDay / 3_600_000);
    const m = Math.floor((inDay % 3_600_000) / 60_000);
    const s = Math.floor((inDay % 60_000) / 1000);
    const milli = inDay % 1000;
    this.two(h);
    this.buf[this.pos++] = 58;
    this.two(m);
    this.buf[this.pos++] = 58;
    this.two(s);
    this.buf[this.pos++] = 46;
    this.buf[this.pos++] = ZERO + ((milli / 100) | 0);
    this.two(milli % 100);
    this.buf[this.pos++] = 90;
  }
}
