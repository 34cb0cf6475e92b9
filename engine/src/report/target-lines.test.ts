import { describe, expect, it } from 'vitest';
import { targetLines } from './charts.ts';

describe('targetLines: one line per target value, only near the data', () => {
  it('equal read and write targets are one line, labelled with both (never two labels over each other)', () => {
    expect(targetLines({ readMs: 20, writeMs: 20 }, 12)).toEqual([{ y: 20, label: { key: 'target.readWrite', p: { ms: { k: 'num', v: 20, d: 0 } } } }]);
  });
  it('different targets keep a line each', () => {
    expect(targetLines({ readMs: 15, writeMs: 25 }, 12).map((r) => [r.y, r.label.key])).toEqual([[15, 'target.read'], [25, 'target.write']]);
  });
  it('a target over 3× the data is not drawn', () => {
    expect(targetLines({ readMs: 20, writeMs: 20 }, 0.2)).toEqual([]);
    expect(targetLines({ readMs: 5, writeMs: 50 }, 10).map((r) => r.label.key)).toEqual(['target.read']);
  });
});
