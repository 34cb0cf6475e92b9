/**
 * A double's shortest round-trip decimal, as `String(v)` writes it, straight into a byte buffer
 * (the per-interval CSV writes ~11 million ratios, ms per I/O and bytes per I/O, per 2 × 24 h
 * export; `String(v)` and copying its characters was most of the formatting).
 *
 * Method, for 1e-6 ≤ v < 1e15 and v not an integer (ECMA-262 Number::toString then writes it
 * in fixed notation): S = v × 10^k with k chosen so that 10^16 ≤ S < 10^17 is computed exactly as
 * hi + lo (Dekker's product; 10^k is exact for k ≤ 22). The candidates are S rounded to 15, 16 and
 * 17 significant digits; the first whose distance from S is below half an ulp of v (scaled by 10^k)
 * reads back as v, and it is the shortest such decimal and the nearest to v of its length, which is
 * the one Number::toString picks (a decimal of ≤ 15 digits that reads back as v is the 15-digit
 * rounding of v; 17 digits always read back). Where the answer depends on a tie or on a
 * distance within 1e-6 of the bound (v a power of two, whose lower neighbour is nearer; a tie of
 * the rounding), it says "don't know" (-1) and the caller writes `String(v)`: rare, and never a
 * different text. A decimal of ≤ 6 decimals (MB/s, %, queue sizes) is written from its micro-units
 * instead ({@link micros}). The last texts written are kept by value (a direct-mapped memo of
 * 16 384, looked up first): the MB/s of counts of 4 KiB and the ratios of small counts (ms and
 * bytes per I/O) repeat, and a repeat is a copy.
 */

import { eight, PAIR16, QUAD, viewOf, whole } from './csv-digits.ts';

const P10 = new Float64Array(23);
for (let i = 0, p = 1; i <= 22; i++, p *= 10) P10[i] = p;
/** 10^e for -21 ≤ e ≤ 16 at index e + 21 (the double nearest, as a literal reads it). */
const P10_ANY = new Float64Array(38);
for (let e = -21; e <= 16; e++) P10_ANY[e + 21] = Number(`1e${e}`);
/** Dekker's split constant, 2^27 + 1. */
const SPLIT = 134_217_729;
const P10_HI = P10.map((b) => {
  const t = SPLIT * b;
  return t - (t - b);
});
const P10_LO = P10.map((b, i) => b - (P10_HI[i] as number));
/** 2^(i − 120). */
const POW2 = new Float64Array(200);
for (let i = 0; i < 200; i++) POW2[i] = 2 ** (i - 120);
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);
/** Whether the high word of a double is WORDS[1] (little-endian); otherwise every value goes to String. */
const LITTLE_ENDIAN = ((): boolean => {
  BITS[0] = 1;
  return WORDS[1] === 0x3ff00000;
})();
/** Slack of the round-trip comparison: rounding errors of the distance are ~1e-14. */
const EPS = 1e-6;

/** Memo of the last texts written, by value (direct-mapped): ratios of small counts repeat. */
const MEMO_BITS = 14;
const MEMO_WIDTH = 24;
const MEMO_KEYS = new Float64Array(1 << MEMO_BITS).fill(NaN);
const MEMO_LENGTHS = new Uint8Array(1 << MEMO_BITS);
/** The texts, MEMO_WIDTH / 4 little-endian words each. */
const MEMO_WORDS = new Uint32Array((1 << MEMO_BITS) * (MEMO_WIDTH / 4));

/**
 * The low limb `low` (S's last 8 integer digits, 0 ≤ low < 10^8) rounded to a multiple of `m` (100:
 * 15 digits; 10: 16), `frac` being S's fraction beyond it (|frac| < 0.5) and `half` half an ulp
 * of v scaled by 10^k: the rounded limb when that decimal reads back as v (it may be 10^8: a
 * carry), -1 when it does not, -2 when unsure.
 */
function roundedLow(low: number, frac: number, m: number, half: number): number {
  const q = (low / m) | 0;
  const rem = low - q * m;
  const mid = m / 2 - rem;
  let d: number;
  let out: number;
  if (frac > mid) {
    d = m - rem - frac - half;
    out = (q + 1) * m;
  } else if (frac < mid) {
    d = rem + frac - half;
    out = q * m;
  } else {
    return -2;
  }
  if (d < -EPS) return out;
  return d > EPS ? -1 : -2;
}

/**
 * Writes the 17 digits lead, top (8), low (8) of v = lead.top low × 10^e at `pos` in fixed
 * notation, trailing zeros dropped (v is not an integer: a digit after the point stays); returns
 * the end. Needs 27 bytes of room.
 */
function writeFixed(buf: Uint8Array, pos: number, e: number, lead: number, top: number, low: number): number {
  const dv = viewOf(buf);
  let end: number;
  if (e >= 0) {
    // the digits one byte further, then the integer part moved back over it and the point after it
    buf[pos + 1] = 48 + lead;
    eight(dv, pos + 2, top);
    eight(dv, pos + 10, low);
    for (let i = 0; i <= e; i++) buf[pos + i] = buf[pos + i + 1] as number;
    buf[pos + e + 1] = 46;
    end = pos + 18;
  } else {
    buf[pos] = 48;
    buf[pos + 1] = 46;
    let q = pos + 2;
    for (let i = -1; i > e; i--) buf[q++] = 48;
    buf[q] = 48 + lead;
    eight(dv, q + 1, top);
    eight(dv, q + 9, low);
    end = q + 17;
  }
  while (buf[end - 1] === 48) end--;
  return end;
}

/**
 * Writes `a` (1e-6 ≤ a < 1e15, not an integer) as `String(a)` writes it into `buf` at `pos` (room
 * for 27 bytes: 24 and the 3 a four-digit store may write beyond); returns the end, or -1 (nothing
 * written) when the caller must write `String(a)`.
 *
 * @example
 * shortestDecimal(4.852941176470588, buf, 0) // buf = '4.852941176470588', returns 17
 */
export function shortestDecimal(a: number, buf: Uint8Array, pos: number): number {
  if (!LITTLE_ENDIAN) return -1;
  BITS[0] = a;
  const w = WORDS[1] as number;
  const slot = Math.imul((WORDS[0] as number) ^ Math.imul(w, 0x85ebca6b), 0x9e3779b1) >>> (32 - MEMO_BITS);
  if (MEMO_KEYS[slot] === a) {
    // all MEMO_WIDTH bytes, unrolled: what is beyond the text is overwritten by what follows
    const dv = viewOf(buf);
    const w = slot * (MEMO_WIDTH / 4);
    dv.setUint32(pos, MEMO_WORDS[w] as number, true);
    dv.setUint32(pos + 4, MEMO_WORDS[w + 1] as number, true);
    dv.setUint32(pos + 8, MEMO_WORDS[w + 2] as number, true);
    dv.setUint32(pos + 12, MEMO_WORDS[w + 3] as number, true);
    dv.setUint32(pos + 16, MEMO_WORDS[w + 4] as number, true);
    dv.setUint32(pos + 20, MEMO_WORDS[w + 5] as number, true);
    return pos + (MEMO_LENGTHS[slot] as number);
  }
  let end = micros(a, viewOf(buf), pos);
  if (end < 0) end = computeShortest(a, w, buf, pos);
  if (end >= 0) {
    MEMO_KEYS[slot] = a;
    MEMO_LENGTHS[slot] = end - pos;
    const dv = viewOf(buf);
    const w = slot * (MEMO_WIDTH / 4);
    for (let i = 0; i < MEMO_WIDTH / 4; i++) MEMO_WORDS[w + i] = dv.getUint32(pos + 4 * i, true);
  }
  return end;
}

function computeShortest(a: number, w: number, buf: Uint8Array, pos: number): number {
  // a power of two: its interval is not symmetric
  if ((w & 0xfffff) === 0 && WORDS[0] === 0) return -1;
  const exp2 = ((w >>> 20) & 0x7ff) - 1023;
  let e = Math.floor(exp2 * 0.3010299956639812);
  if (e < -21 || e > 15) return -1;
  if (a >= (P10_ANY[e + 22] as number)) e++;
  const k = 16 - e;
  if (k < 0 || k > 22) return -1;
  // S = a × 10^k = hi + lo exactly (Dekker)
  const t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  const bh = P10_HI[k] as number;
  const bl = P10_LO[k] as number;
  const hi = a * (P10[k] as number);
  const lo = ah * bh - hi + ah * bl + al * bh + al * bl;
  if (!(hi >= 1e16 && hi < 1e17)) return -1;
  const half = (P10[k] as number) * (POW2[exp2 + 67] as number);
  // S = top × 10^8 + low + frac, 0 ≤ low < 10^8, |frac| < 0.5 (top × 10^8 and low exact)
  let top = Math.floor(hi * 1e-8);
  let low = hi - top * 1e8;
  const r = Math.round(lo);
  const frac = lo - r;
  if (frac === 0.5 || frac === -0.5) return -1;
  low += r;
  while (low < 0) { top--; low += 1e8; }
  while (low >= 1e8) { top++; low -= 1e8; }
  let rounded = roundedLow(low, frac, 100, half);
  if (rounded === -1) rounded = roundedLow(low, frac, 10, half);
  if (rounded === -2) return -1;
  if (rounded >= 0) low = rounded;
  if (low >= 1e8) { top++; low -= 1e8; }
  if (!(top >= 1e8 && top < 1e9)) return -1;
  const lead = (top / 1e8) | 0;
  return writeFixed(buf, pos, e, lead, top - lead * 1e8, low);
}

/**
 * `a` written at `p` when it is a decimal of at most 6 decimals and 15 digits (MB/s, %, queue
 * sizes): a = n / 10^6 for an integer n < 10^15. No other decimal of ≤ 15 significant digits
 * names the same double, so `String(a)` is this one, trailing zeros dropped. Returns the end, or
 * -1 (nothing written) for any other number. `a` > 0, not an integer.
 */
function micros(a: number, dv: DataView, p: number): number {
  const t = a * 1e6;
  if (!(t < 1e15)) return -1;
  const n = Math.round(t);
  if (n / 1e6 !== a) return -1;
  let ip = Math.floor(n / 1e6);
  let f = n - ip * 1e6;
  if (f < 0) {
    ip--;
    f += 1e6;
  } else if (f >= 1e6) {
    ip++;
    f -= 1e6;
  }
  p = whole(dv, p, ip);
  dv.setUint8(p, 46);
  // f (1 ≤ f < 10^6) as 6 digits, then the trailing zeros dropped
  const hi = (f / 100) | 0;
  dv.setUint32(p + 1, QUAD[hi] as number, true);
  dv.setUint16(p + 5, PAIR16[f - hi * 100] as number, true);
  p += 7;
  while (dv.getUint8(p - 1) === 48) p--;
  return p;
}
