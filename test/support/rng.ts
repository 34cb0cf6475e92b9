/**
 * A deterministic generator for tests (xorshift32), so a failure names a value that can be
 * replayed from its seed. One implementation for every test that draws random values.
 */

/** Successive 32-bit unsigned integers from `seed` (0 is taken as 1: xorshift never leaves 0). */
export function xorshift32(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

/** Successive values in [0, 1) from `seed`: the integers of `xorshift32` over 2^32. */
export function uniform(seed: number): () => number {
  const next = xorshift32(seed);
  return () => next() / 4294967296;
}
