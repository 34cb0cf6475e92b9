/**
 * Unit conversions and sign formatting the screens need to show an engine figure in the unit a
 * person reads (a share as a percent, µs as ms, bytes as GB): no figure is computed here, each
 * function only changes the unit or the way a sign is written.
 */

/** A share 0…1 as a percent. Example: 0.254 → 25.4. */
export function percentOf(share: number): number {
  return share * 100;
}

/** A percent as a share 0…1. Example: 25 → 0.25. */
export function shareOf(percent: number): number {
  return percent / 100;
}

/** Microseconds as milliseconds. Example: 1500 → 1.5. */
export function usToMs(us: number): number {
  return us / 1000;
}

/** Milliseconds as seconds. Example: 60 000 → 60. */
export function msToSeconds(ms: number): number {
  return ms / 1000;
}

/** Bytes in a unit of `unitBytes` bytes (1e9 for GB, 1024 for KiB, 1e6 for MB). Example: `bytesIn(3e9, 1e9)` → 3. */
export function bytesIn(bytes: number, unitBytes: number): number {
  return bytes / unitBytes;
}

/** A count of `unitBytes`-byte units as bytes. Example: `bytesOf(3, 1e9)` → 3e9. */
export function bytesOf(count: number, unitBytes: number): number {
  return count * unitBytes;
}

/** A stored value and its value in the form's unit. */
export interface UnitConv {
  toUi(v: number): number;
  fromUi(x: number): number;
}

/** A share stored 0…1, typed as a percent. */
export const PERCENT_CONV: UnitConv = { toUi: percentOf, fromUi: shareOf };

/** Bytes stored, typed in units of `unitBytes` bytes. */
export function bytesConv(unitBytes: number): UnitConv {
  return { toUi: (v) => bytesIn(v, unitBytes), fromUi: (x) => bytesOf(x, unitBytes) };
}

/**
 * A signed figure written with its sign before the formatted magnitude: '+' above zero, '−'
 * (U+2212) below, and at zero '+' when `plusAtZero`, else nothing.
 * Example: `signedText(-1.5, (x) => x.toFixed(1), true)` → '−1.5'.
 */
export function signedText(v: number, fmt: (magnitude: number) => string, plusAtZero: boolean): string {
  const sign = v > 0 || (v === 0 && plusAtZero) ? '+' : v < 0 ? '−' : '';
  return `${sign}${fmt(Math.abs(v))}`;
}

/** The index `step` places from `at` in a ring of `count` (keyboard moves through tabs). Example: (0, −1, 3) → 2. */
export function ringIndex(at: number, step: number, count: number): number {
  return (((at + step) % count) + count) % count;
}
