import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../benefit/prng.ts';
import { quantile, quantilesInPlace, RADIX_MIN_VALUES } from './quantile.ts';

/** Reference type-7 by sorting. */
function ref(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return (s[lo] as number) + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] as number) - (s[lo] as number));
}

describe('quantile (type 7, linear interpolation)', () => {
  const table: [number[], number, number][] = [
    // values, p, expected (R: quantile(x, p, type = 7))
    [[1, 2, 3, 4], 0.5, 2.5],
    [[1, 2, 3, 4], 0.95, 3.85],
    [[10, 20, 30, 40, 50], 0.99, 49.6],
    [[10, 20, 30, 40, 50], 0, 10],
    [[10, 20, 30, 40, 50], 1, 50],
    [[7], 0.99, 7],
    [[3, 1, 2], 0.5, 2],
  ];
  for (const [v, p, want] of table) {
    it(`q(${JSON.stringify(v)}, ${p}) = ${want}`, () => expect(quantile(v, p)).toBeCloseTo(want, 12));
  }
  it('empty → null', () => expect(quantile([], 0.5)).toBeNull());
  it('matches a sort-based reference on random data, with heavy duplicates', () => {
    const rand = mulberry32(3);
    for (const n of [2, 10, 101, 601, 5000, 90_000]) {
      for (const dup of [false, true]) {
        const v = Array.from({ length: n }, () => (dup ? Math.floor(rand() * 3) : rand() * 100));
        const got = quantilesInPlace(Float64Array.from(v), n, [0.99, 0.5, 0.95]);
        expect(got[0]).toBeCloseTo(ref(v, 0.99), 10);
        expect(got[1]).toBeCloseTo(ref(v, 0.5), 10);
        expect(got[2]).toBeCloseTo(ref(v, 0.95), 10);
      }
    }
  });
  it('by radix buckets (n ≥ RADIX_MIN_VALUES): exactly the numbers sorting gives, whatever the values', () => {
    const rand = mulberry32(11);
    const kinds: [string, () => number][] = [
      ['uniform', () => rand() * 1000],
      ['one bucket', () => 512 + rand() * 1e-9],
      ['integers with ties', () => Math.floor(rand() * 7)],
      ['negative and positive, zeros of both signs', () => [-0, 0, -rand() * 1e6, rand() * 1e-6, -rand()][Math.floor(rand() * 5)] as number],
      ['twelve decades', () => 10 ** (rand() * 24 - 12)],
      ['extremes', () => [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1][Math.floor(rand() * 4)] as number],
    ];
    const ps = [0, 0.025, 0.5, 0.95, 0.975, 0.99, 1];
    for (const [name, gen] of kinds) {
      for (const n of [RADIX_MIN_VALUES, 86_401]) {
        const v = Array.from({ length: n }, gen);
        const sorted = [...v].sort((a, b) => a - b);
        const want = ps.map((p) => {
          const h = (n - 1) * p, k = Math.floor(h);
          const xk = sorted[k] as number;
          return h > k ? xk + (h - k) * ((sorted[k + 1] as number) - xk) : xk;
        });
        const got = quantilesInPlace(Float64Array.from(v), n, ps);
        expect(got.map((x) => (Object.is(x, -0) ? 0 : x)), `${name}, n = ${n}`).toEqual(want.map((x) => (Object.is(x, -0) ? 0 : x)));
      }
    }
  });
  it('by radix buckets, only the first n values count (the array may be longer)', () => {
    const v = new Float64Array(RADIX_MIN_VALUES + 10);
    for (let i = 0; i < RADIX_MIN_VALUES; i++) v[i] = i;
    v.fill(1e9, RADIX_MIN_VALUES);
    expect(quantilesInPlace(v, RADIX_MIN_VALUES, [1, 0.5])).toEqual([RADIX_MIN_VALUES - 1, (RADIX_MIN_VALUES - 1) / 2]);
  });
});
