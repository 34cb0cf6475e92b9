/**
 * The CSV's double writer (app/src/host/report/csv-double.ts) writes exactly what `String(v)`
 * gives, or declines (-1) so that the caller writes `String(v)`: over ratios of counts (ms per
 * I/O, bytes per I/O), random bit patterns across 1e-6…1e15, short decimals and their
 * neighbours, neighbours of powers of ten and of two; and a value written again (its memo) is
 * the same text.
 */
import { describe, expect, it } from 'vitest';
import { shortestDecimal } from '../src/host/report/csv-double.ts';
import { xorshift32 as rng } from '../../test/support/rng.ts';

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** The double `steps` ulps from v. */
const next = (v: number, steps: number): number => {
  bits[0] = v;
  const lo = (words[0] as number) + steps;
  words[0] = lo >>> 0;
  if (lo < 0) words[1] = (words[1] as number) - 1;
  else if (lo > 0xffffffff) words[1] = (words[1] as number) + 1;
  return bits[0] as number;
};

function corpus(): number[] {
  const r = rng(2026);
  const out: number[] = [1 / 3, 2 / 3, 0.1 + 0.2, 4.852941176470588, 4895.810650887574, 1e-6 + 1e-22, 999999999999999.9, 0.5 + 2 ** -40];
  for (let i = 0; i < 150_000; i++) {
    const a = r() % 100_000, b = 1 + (r() % 5000);
    out.push(a / b, a / b / 1000, (a * 4096) / b, (a * 512 + 4096) / (b * 7));
    // any double from 2^-20 to 2^50
    words[0] = r();
    words[1] = (r() & 0xfffff) | ((1003 + (r() % 70)) << 20);
    out.push(bits[0] as number);
    const d = (r() % 10_000_000) / 10 ** (r() % 9);
    out.push(d, next(d, 1), next(d, -1));
  }
  for (let e = -6; e <= 14; e++) for (let j = -300; j <= 300; j++) out.push(next(10 ** e, j));
  for (let e = -19; e <= 49; e++) for (let j = -3; j <= 3; j++) out.push(next(2 ** e, j));
  return out.filter((v) => v >= 1e-6 && v < 1e15 && !Number.isInteger(v));
}

describe('shortestDecimal', () => {
  it('writes String(v), or declines, for a million doubles; declines rarely', () => {
    const values = corpus();
    const buf = new Uint8Array(64);
    let declined = 0;
    for (const v of values) {
      // 3 bytes in: the writer writes at the position it is given
      const end = shortestDecimal(v, buf, 3);
      if (end < 0) {
        declined++;
        continue;
      }
      const got = Buffer.from(buf.subarray(3, end)).toString('latin1');
      if (got !== String(v)) expect(`${v} → ${got}`).toBe(`${v} → ${String(v)}`);
    }
    expect(values.length).toBeGreaterThan(1_000_000);
    expect(declined / values.length).toBeLessThan(0.01);
  });

  it('declines a power of two of more than 6 decimals (its lower neighbour is nearer) and writes its neighbours; writes one of ≤ 6 from its micro-units', () => {
    const buf = new Uint8Array(64);
    const text = (v: number): string => Buffer.from(buf.subarray(0, shortestDecimal(v, buf, 0))).toString('latin1');
    expect(shortestDecimal(2 ** -10, buf, 0)).toBe(-1);
    for (const v of [next(2 ** -10, 1), next(2 ** -10, -1), next(0.5, 1)]) expect(text(v)).toBe(String(v));
    expect(text(0.5)).toBe('0.5');
    expect(text(2 ** -6)).toBe('0.015625');
  });

  it('writes a value again (from its memo) as the first time, after other values took its slot', () => {
    const buf = new Uint8Array(64);
    const r = rng(5);
    const values = Array.from({ length: 20_000 }, () => (r() % 100_000) / (1 + (r() % 997)) + 1 / 1024);
    for (let pass = 0; pass < 3; pass++) {
      for (const v of values) {
        const end = shortestDecimal(v, buf, 0);
        if (end >= 0 && Buffer.from(buf.subarray(0, end)).toString('latin1') !== String(v)) expect(`${v} → ${Buffer.from(buf.subarray(0, end)).toString('latin1')}`).toBe(String(v));
      }
    }
  });
});
