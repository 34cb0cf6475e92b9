/**
 * Decimal digits written four at a time (the per-interval CSV's integers, times and decimals;
 * host/report/csv-bytes.ts and csv-double.ts): a 32-bit little-endian store through a DataView of
 * the output buffer writes four digits at once, where byte stores took one per digit and a table
 * read per digit. A number of fewer than four digits is still one store: the bytes beyond its
 * end are written too and overwritten by what follows, so every writer here needs 3 bytes of
 * room beyond the text it writes.
 */

/** '0000'…'9999' as little-endian words: the first digit in the low byte. */
export const QUAD = new Uint32Array(10_000);
for (let i = 0; i < 10_000; i++) {
  const d = [Math.floor(i / 1000), Math.floor(i / 100) % 10, Math.floor(i / 10) % 10, i % 10];
  QUAD[i] = (48 + (d[0] as number)) | ((48 + (d[1] as number)) << 8) | ((48 + (d[2] as number)) << 16) | ((48 + (d[3] as number)) << 24);
}

let viewed: Uint8Array | null = null;
let view: DataView = new DataView(new ArrayBuffer(0));

/** A DataView of `buf` (the last one made is kept: the writers see the same buffer for a whole chunk). */
export function viewOf(buf: Uint8Array): DataView {
  if (buf !== viewed) {
    viewed = buf;
    view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return view;
}

/** x (an integer, 0 ≤ x < 10^4) in as few digits as it has at `p` (one store); returns the end. */
export function upTo4(dv: DataView, p: number, x: number): number {
  const n = x < 100 ? (x < 10 ? 1 : 2) : x < 1000 ? 3 : 4;
  dv.setUint32(p, (QUAD[x] as number) >>> (32 - 8 * n), true);
  return p + n;
}

/** x (an integer, 0 ≤ x < 10^8) as exactly 8 digits at `p` (leading zeros kept). */
export function eight(dv: DataView, p: number, x: number): void {
  const hi = (x / 10_000) | 0;
  dv.setUint32(p, QUAD[hi] as number, true);
  dv.setUint32(p + 4, QUAD[x - hi * 10_000] as number, true);
}

/** x (an integer, 0 ≤ x < 10^8) in as few digits as it has, at `p`; returns the end. */
export function upTo8(dv: DataView, p: number, x: number): number {
  if (x < 10_000) return upTo4(dv, p, x);
  const hi = (x / 10_000) | 0;
  p = upTo4(dv, p, hi);
  dv.setUint32(p, QUAD[x - hi * 10_000] as number, true);
  return p + 4;
}

/** x (a safe integer ≥ 0) in as few digits as it has, at `p`; returns the end. */
export function whole(dv: DataView, p: number, x: number): number {
  if (x < 1e8) return upTo8(dv, p, x);
  const top = Math.floor(x / 1e8);
  // top < 2^53 / 10^8 < 10^8
  p = upTo8(dv, p, top);
  eight(dv, p, x - top * 1e8);
  return p + 8;
}

/** '00'…'99' as little-endian 16-bit words. */
export const PAIR16 = new Uint16Array(100);
for (let i = 0; i < 100; i++) PAIR16[i] = (QUAD[i] as number) >>> 16;
