import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../benefit/prng.ts';
import { quantile, quantilesInPlace } from './quantile.ts';

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
});
