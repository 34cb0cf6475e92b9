/**
 * The CSV's four-digit stores (app/src/host/report/csv-digits.ts) write an integer as `String(x)`
 * does, at the position given, at every digit count, and write at most 3 bytes beyond the text
 * (the room the writers reserve; what follows overwrites them).
 */
import { describe, expect, it } from 'vitest';
import { upTo4, upTo8, viewOf, whole } from '../src/host/report/csv-digits.ts';
import { uniform as rng } from '../../test/support/rng.ts';

const SENTINEL = 0xee;

/** `write` at byte 5 of a buffer of sentinels: the text and how far the writes reached. */
function written(write: (dv: DataView, p: number) => number): { text: string; reach: number; end: number } {
  const buf = new Uint8Array(64).fill(SENTINEL);
  const end = write(viewOf(buf), 5);
  let reach = buf.length;
  while (reach > 0 && buf[reach - 1] === SENTINEL) reach--;
  expect(buf.subarray(0, 5).every((b) => b === SENTINEL)).toBe(true);
  return { text: Buffer.from(buf.subarray(5, end)).toString('latin1'), reach, end };
}

/** Every digit count's first and last value, and random ones, up to `max`. */
function integers(max: number): number[] {
  const out = [0, 1, 9];
  for (let p = 10; p <= max; p *= 10) out.push(p - 1, p, p + 1);
  const r = rng(38);
  for (let i = 0; i < 20_000; i++) out.push(Math.floor(r() * 10 ** Math.ceil(r() * Math.log10(max))));
  return out.filter((x) => x >= 0 && x <= max);
}

describe('csv-digits', () => {
  it('writes integers below 10^4, 10^8 and 2^53 as String(x), at most 3 bytes beyond', () => {
    for (const [write, max] of [[upTo4, 9999], [upTo8, 99_999_999], [whole, Number.MAX_SAFE_INTEGER]] as const) {
      for (const x of [...integers(max), max]) {
        const { text, reach, end } = written((dv, p) => write(dv, p, x));
        if (text !== String(x)) expect(`${write.name}(${x}) → ${text}`).toBe(`${write.name}(${x}) → ${String(x)}`);
        expect(reach).toBeLessThanOrEqual(end + 3);
      }
    }
  });

  it('keeps one view per buffer and makes a new one for another buffer or another part of one', () => {
    const a = new Uint8Array(16);
    const b = new Uint8Array(a.buffer, 8, 8);
    expect(viewOf(a)).toBe(viewOf(a));
    expect(viewOf(b)).not.toBe(viewOf(a));
    expect(viewOf(b).byteOffset).toBe(8);
  });
});
