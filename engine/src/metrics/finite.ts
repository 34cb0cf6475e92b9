/**
 * Output hygiene: no figure leaves the engine as `-0` (ARCHITECTURE.md, data rules). A signed
 * zero is the same number as 0, but `JSON.stringify` prints it as `0` while the in-memory view
 * keeps `-0` (so the app's view and the CLI's JSON differ), and a formatter can print "-0 s".
 * {@link withoutNegativeZero} rewrites every `-0` in a result to `0`, in place, and returns it.
 *
 * `NaN` and `±Infinity` are not rewritten: they are bugs of the figure that produced them (an
 * absent figure is `null` with its reason), and the property test over random captures
 * (benefit/finite.test.ts) fails on any of them, naming its path.
 *
 * @example
 * withoutNegativeZero({ a: -0, b: [1, -0] }) // { a: 0, b: [1, 0] }
 */
export function withoutNegativeZero<T>(value: T): T {
  fix(value as unknown, new Set());
  return value;
}

function fix(v: unknown, seen: Set<object>): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  if (ArrayBuffer.isView(v)) {
    if (v instanceof Float64Array || v instanceof Float32Array) for (let i = 0; i < v.length; i++) if (Object.is(v[i], -0)) v[i] = 0;
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (Object.is(v[i], -0)) v[i] = 0;
      else fix(v[i], seen);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (Object.is(o[k], -0)) o[k] = 0;
    else fix(o[k], seen);
  }
}

/**
 * Every path in `value` whose number is `-0`, `NaN` or `±Infinity` (for tests and for the
 * CLI's self-check), as dotted paths (`benefit.ioTimeSaved.perHourSeconds`).
 */
export function nonFinitePaths(value: unknown, path = '', out: string[] = [], seen = new Set<object>()): string[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) out.push(`${path || '(root)'} = ${Object.is(value, -0) ? '-0' : String(value)}`);
    return out;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    if (value instanceof Float64Array || value instanceof Float32Array) value.forEach((x, i) => nonFinitePaths(x, `${path}[${i}]`, out, seen));
    return out;
  }
  if (Array.isArray(value)) value.forEach((x, i) => nonFinitePaths(x, `${path}[${i}]`, out, seen));
  else for (const [k, x] of Object.entries(value as Record<string, unknown>)) nonFinitePaths(x, path ? `${path}.${k}` : k, out, seen);
  return out;
}
