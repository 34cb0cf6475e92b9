/**
 * mulberry32: a 32-bit seeded pseudo-random generator (Tommy Ettinger, public domain). One
 * 32-bit state, period 2^32, passes gjrand/PractRand to a few GB — plenty for resampling a
 * few dozen blocks a few thousand times. Same seed ⇒ same sequence, on every platform
 * (integer arithmetic through Math.imul, no floating-point state).
 *
 * @param seed any number; its low 32 bits are the state.
 * @returns a function yielding uniform numbers in [0, 1), multiples of 2^-32.
 * @example
 * const rand = mulberry32(42);
 * rand(); // 0.6011037519201636, always, for seed 42
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
