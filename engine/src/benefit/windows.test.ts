import { describe, expect, it } from 'vitest';
import type { Phase } from '../records/types.ts';
import { defaultWarmupMs, HOUR_MS, resolveWindows } from './windows.ts';

const H = HOUR_MS;
const phases = (warmupH = 0, measureH = 24): Phase[] => [
  { name: 'baseline', startMs: 0, endMs: 24 * H },
  { name: 'switch', startMs: 24 * H, endMs: 24 * H },
  ...(warmupH > 0 ? [{ name: 'warmup', startMs: 24 * H, endMs: (24 + warmupH) * H }] : []),
  { name: 'measure', startMs: (24 + warmupH) * H, endMs: (24 + warmupH + measureH) * H },
];

describe('defaultWarmupMs', () => {
  const table: [number, number][] = [[24 * H, H], [10 * H, H], [5 * H, 0.5 * H], [2 * H, 0.2 * H], [0, 0]];
  for (const [span, want] of table) it(`${span / H} h → ${want / H} h`, () => expect(defaultWarmupMs(span)).toBeCloseTo(want, 6));
});

describe('resolveWindows', () => {
  const table: { name: string; phases: Phase[]; opts: Parameters<typeof resolveWindows>[1]; want: { b: [number, number]; m: [number, number]; warmupH: number; src: string } }[] = [
    { name: 'phases, no warm-up recorded: default 1 h', phases: phases(), opts: {}, want: { b: [0, 24], m: [25, 48], warmupH: 1, src: 'default-1h' } },
    { name: 'recorded warm-up phase honoured', phases: phases(2), opts: {}, want: { b: [0, 24], m: [26, 50], warmupH: 2, src: 'recorded' } },
    { name: 'short measure: 10%', phases: phases(0, 5), opts: {}, want: { b: [0, 24], m: [24.5, 29], warmupH: 0.5, src: 'default-10pct' } },
    { name: 'warm-up option', phases: phases(), opts: { warmupMs: 3 * H }, want: { b: [0, 24], m: [27, 48], warmupH: 3, src: 'option' } },
    { name: 'trim both ends of both windows', phases: phases(), opts: { trim: { firstMs: 2 * H, lastMs: H } }, want: { b: [2, 23], m: [26, 47], warmupH: 1, src: 'default-1h' } },
    { name: 'explicit windows, no phases: switch = measure start', phases: [], opts: { baseline: { startMs: 0, endMs: 10 * H }, measure: { startMs: 20 * H, endMs: 40 * H }, warmupMs: 0 }, want: { b: [0, 10], m: [20, 40], warmupH: 0, src: 'option' } },
  ];
  for (const c of table) {
    it(c.name, () => {
      const r = resolveWindows(c.phases, c.opts, 100 * H);
      if ('ok' in r) throw new Error(r.error.message);
      expect([r.baseline.startMs / H, r.baseline.endMs / H]).toEqual(c.want.b);
      expect(r.measure.startMs / H).toBeCloseTo(c.want.m[0], 9);
      expect(r.measure.endMs / H).toBeCloseTo(c.want.m[1], 9);
      expect(r.warmupMs / H).toBeCloseTo(c.want.warmupH, 9);
      expect(r.warmupSource).toBe(c.want.src);
    });
  }
  const errors: [string, Phase[], Parameters<typeof resolveWindows>[1], string][] = [
    ['no baseline phase', phases().filter((p) => p.name !== 'baseline'), {}, 'no-baseline'],
    ['no measure phase', phases().filter((p) => p.name === 'baseline'), {}, 'no-measure'],
    ['overlap', phases(), { baseline: { startMs: 0, endMs: 30 * H } }, 'windows-overlap'],
    ['empty after warm-up', phases(0, 1), { warmupMs: 2 * H }, 'empty-window'],
    ['negative warm-up', phases(), { warmupMs: -1 }, 'invalid-option'],
  ];
  for (const [name, ph, opts, code] of errors) {
    it(`error: ${name}`, () => {
      const r = resolveWindows(ph, opts, 100 * H);
      expect('ok' in r && r.error.code).toBe(code);
      if ('ok' in r) expect(r.error.message).toMatch(/^[A-Z].*\.$/);
    });
  }
});
