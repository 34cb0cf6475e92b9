/** Where the I/O went: backing drives or the cache (front − backing), per window, from the groups' means. */
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import type { AnalysisReport } from './result.ts';
import { ioSplit } from './io-split.ts';
import { synthCapture } from './testkit.ts';

function analysis(front: string | null): AnalysisReport {
  const r = analyze(synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, front, iopsBefore: 1000, iopsAfter: 1000, readShare: 0.7, missRatio: 0.15 }), { seed: 1 });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

describe('ioSplit', () => {
  it('the cache served the front I/Os that did not reach the backing drives', () => {
    const a = analysis('cached0');
    const s = ioSplit(a);
    const f = a.groups.front?.measure.means, b = a.groups.backing?.measure.means;
    expect(s?.measure.readsBacking).toBe(b?.readsPerSec);
    expect(s?.measure.readsCache).toBeCloseTo((f?.readsPerSec ?? NaN) - (b?.readsPerSec ?? NaN), 9);
    // 15 % of the 700 r/s reach the drives after the switch: the cache served about 595 r/s
    expect(s?.measure.readsCache).toBeCloseTo(595, 0);
    // before the switch every front I/O reached the drives: nothing served (never a negative share)
    expect(s?.baseline.readsCache).toBe(0);
    expect(s?.baseline.writesCache).toBe(0);
  });

  it('backing only: the drives\' I/O, nothing said of a cache', () => {
    const s = ioSplit(analysis(null));
    expect(s?.measure.readsBacking).toBeGreaterThan(0);
    expect(s?.measure.readsCache).toBeNull();
    expect(s?.measure.writesCache).toBeNull();
  });
});
