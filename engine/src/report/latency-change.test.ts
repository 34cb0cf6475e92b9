/** The one wording of a response-time change: lower, higher, unchanged, and the report's figures table and card using it. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { synthCapture } from '../benefit/testkit.ts';
import { latencyChange, latencyChangeVal } from './latency-change.ts';
import { figuresTable } from './tables.ts';

function analysis(latBeforeMs: number, latAfterMs: number): AnalysisReport {
  const r = analyze(synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, missRatio: 0.2, latBeforeMs, latAfterMs }), { seed: 1 });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

describe('latencyChange', () => {
  it('lower: the reduction and the speed-up', () => {
    expect(latencyChange({ reductionPercent: 75, speedup: 4 })).toEqual({ key: 'lat.lower', percent: 75, factor: 4 });
    expect(latencyChangeVal({ reductionPercent: 75, speedup: 4 })).toEqual({ k: 'msg', m: { key: 'lat.lower', p: { percent: { k: 'pct', v: 75, d: 1 }, factor: { k: 'sig', v: 4 } } } });
  });

  it('higher: the increase and the slow-down, both positive (never −50 % lower, 0.67× faster)', () => {
    // 2 ms → 3 ms: reduction −50 %, speed-up 2/3
    const c = latencyChange({ reductionPercent: -50, speedup: 2 / 3 });
    expect(c?.key).toBe('lat.higher');
    expect(c?.percent).toBe(50);
    expect(c?.factor).toBeCloseTo(1.5, 12);
  });

  it('unchanged below what one decimal shows; null without figures', () => {
    expect(latencyChange({ reductionPercent: 0, speedup: 1 })).toEqual({ key: 'lat.same', percent: 0, factor: 1 });
    expect(latencyChange({ reductionPercent: -0.04, speedup: 0.9996 })?.key).toBe('lat.same');
    expect(latencyChange({ reductionPercent: 0.06, speedup: 1.0006 })?.key).toBe('lat.lower');
    expect(latencyChange({ reductionPercent: null, speedup: 2 })).toBeNull();
    expect(latencyChange({ reductionPercent: 50, speedup: null })).toBeNull();
    expect(latencyChangeVal({ reductionPercent: null, speedup: null })).toEqual({ k: 'empty' });
  });

  it('the figures table says a rise with the engine words, from an analysis whose latency rose', () => {
    const a = analysis(2, 3);
    expect(a.benefit.latencyMs.reductionPercent).toBeLessThan(0);
    const row = figuresTable(a).rows.find((r) => r.cells[0]?.k === 'msg' && r.cells[0].m.key === 'fig.latency');
    const change = row?.cells[3];
    expect(change?.k).toBe('msg');
    if (change?.k !== 'msg') return;
    expect(change.m.key).toBe('chg.latency');
    expect(change.m.p?.['change']).toEqual(latencyChangeVal(a.benefit.latencyMs));
    const inner = change.m.p?.['change'];
    expect(inner?.k === 'msg' ? inner.m.key : null).toBe('lat.higher');
  });
});
