import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng.ts';

describe('mulberry32', () => {
  it('same seed, same sequence; different seed, different sequence', () => {
    const a = mulberry32(42), b = mulberry32(42), c = mulberry32(43);
    const sa = Array.from({ length: 5 }, a), sb = Array.from({ length: 5 }, b), sc = Array.from({ length: 5 }, c);
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });
  it('first value for seed 42 is fixed (documented example)', () => {
    expect(mulberry32(42)()).toBe(0.6011037519201636);
  });
  it('uniform on [0, 1): mean 0.5 ± 0.01 and decile counts within 5% over 100k draws', () => {
    const r = mulberry32(1);
    const bins = new Array<number>(10).fill(0);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      const k = Math.floor(x * 10);
      bins[k] = (bins[k] ?? 0) + 1;
    }
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.01);
    for (const b of bins) expect(Math.abs(b - 10_000)).toBeLessThan(500);
  });
});
