import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import { synthCapture } from '../benefit/testkit.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { scenarioFromMeasurement } from '../plan/measured.ts';
import { planScenario } from '../plan/plan.ts';
import { inputProvenance } from '../plan/provenance.ts';
import type { PlanResult } from '../plan/result.ts';
import { LAB_SAMPLE_WORKLOAD } from '../plan/sample-workload.fixture.ts';
import type { Scenario } from '../plan/scenario.ts';
import { decisionBlock, decisionLines, decisionSection, type DecisionBlock } from './decision.ts';
import type { ReportTco } from './input.ts';
import type { Msg, Val } from './types.ts';

function tcoOf(s: Scenario): ReportTco {
  const r = planScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return { scenarioFile: 'sample.tco.json', scenario: s, plan: r.value, sources: inputProvenance(s, LAB_SAMPLE_WORKLOAD, true) };
}

function analysis(hours: number, missRatio: number, noise: number): AnalysisReport {
  const data = synthCapture({ baselineS: hours * 3600, measureS: hours * 3600, warmupS: 600, stepMs: 10_000, front: 'md0', backing: ['sdb'], iopsBefore: 500, iopsAfter: 500, missRatio, latBeforeMs: 6, latAfterMs: 1, noise, seed: 7 });
  const a = analyze(data, { bootstrapReplicates: 200 });
  if (!a.ok) throw new Error(a.error.message);
  return a as AnalysisReport;
}

/** Every key of a message and its nested values. */
function keys(x: Msg | Val | null): string[] {
  if (x === null) return [];
  if ('key' in x) return [x.key, ...Object.values(x.p ?? {}).flatMap(keys)];
  if (x.k === 'msg') return keys(x.m);
  if (x.k === 'list') return x.items.flatMap(keys);
  return [];
}

describe('decisionBlock on the bundled sample\'s prefilled scenario', () => {
  const sample = scenarioFromMeasurement(LAB_SAMPLE_WORKLOAD);
  const tco = tcoOf(sample);
  const a = analysis(2, 0.2, 0.05);
  const d = decisionBlock({ kind: 'before-after', analysis: a, tco });

  it('states the verdict on p95 and the peak\'s reversal: does not pay back on p95, saves on the peak', () => {
    expect(sample.workload.iops.basis).toBe('p95');
    expect(d.verdict.key).toBe('tco.verdict');
    const v = d.verdict.p?.['text'];
    expect(v?.k).toBe('tcoVerdict');
    const verdict = (v as Extract<Val, { k: 'tcoVerdict' }>).verdict;
    expect(verdict.chosen.basis).toBe('p95');
    expect(verdict.chosen.outcome).toBe('does-not-pay-back');
    expect(verdict.others.map((o) => [o.basis, o.outcome])).toEqual([['peak', 'pays-back']]);
    expect(verdict.messages.map((x) => x.key)).toEqual(['noPayback', 'sizedWithAlt']);
    // the peak's outcome is named in the basis sentence (the other basis' saving)
    const alt = verdict.messages[1]?.params['alts'];
    expect(alt?.k === 'list' && alt.items[0]?.params['clause']?.k === 'msg' ? alt.items[0].params['clause'].m.key : null).toMatch(/^clause\.saves/u);
    // the same plan on the peak basis pays back: the block follows the basis the scenario sizes on
    const peak = decisionBlock({ kind: 'before-after', analysis: a, tco: tcoOf({ ...sample, workload: { ...sample.workload, iops: { ...sample.workload.iops, basis: 'peak' } } }) });
    expect(peak.payback?.key).toBe('dec.pays');
    // on the peak the cheapest other configuration is not the reference: the deciding line is against it
    expect(peak.payback?.p?.['alt']).not.toEqual(peak.payback?.p?.['reference']);
  });

  it('says it does not pay back on p95 and, against the cheapest other configuration, and names the line item that differs most', () => {
    const p: PlanResult = tco.plan;
    expect(d.payback?.key).toBe('dec.notPays');
    const cache = p.configurations.find((c) => c.id === p.verdict.chosen.configId);
    const cheapest = [...p.configurations].filter((c) => c.id !== cache?.id).sort((x, y) => x.totalUsd - y.totalUsd)[0];
    expect(d.payback?.p?.['alt']).toEqual({ k: 'str', s: cheapest?.label });
    expect(d.payback?.p?.['usd']).toMatchObject({ k: 'num', v: -(p.verdict.chosen.savingsUsd ?? 0) });
    expect(d.payback?.p?.['reference']).toEqual({ k: 'str', s: p.verdict.chosen.referenceLabel });
    const line = d.payback?.p?.['line'];
    expect(line?.k === 'msg' ? line.m.key : null).toBe('dec.lineMore');
    expect(line?.k === 'msg' ? line.m.p?.['line'] : null).toEqual({ k: 'tcoLine', id: 'cacheLicense' });
  });

  it('names every unmeasured input the verdict rests on (the example prices), I/Os saved with its interval, drive life and the three caveats', () => {
    expect(keys(d.assumptions)).toContain('src.example');
    expect(keys(d.assumptions)).toEqual(expect.arrayContaining(['tin.drivePrice', 'tin.systemPrice']));
    expect(keys(d.assumptions)).not.toContain('tin.readShare');
    expect(d.iosSaved?.key).toBe('dec.iosSaved');
    expect(d.iosSaved?.p?.['ci']).toMatchObject({ k: 'ci', of: 'pct', low: a.benefit.iosSavedPercent.ci95?.low, high: a.benefit.iosSavedPercent.ci95?.high });
    expect(keys(d.iosSaved)).toContain('dec.significant');
    expect(d.latency?.key).toBe('dec.latency');
    expect(d.life?.key).toBe('dec.life');
    expect(keys(d.life)).not.toContain('dec.lifeNone');
    expect(d.caveats.map((c) => c.key)).toEqual(['dec.cav.windowShort', 'dec.cav.examplePrices', 'dec.cav.counters']);
    // never the I/O time saved (its words are the benefit card's)
    expect(decisionLines(d).flatMap(keys).some((k) => k.startsWith('card.ioTime') || k.startsWith('sum.ioTime'))).toBe(false);
    expect(decisionSection(d).blocks.filter((b) => b.type === 'paragraph')).toHaveLength(decisionLines(d).length);
  });

  it('says when the I/Os saved cannot be told from no change, with the report\'s own noise sentence', () => {
    const noisy = decisionBlock({ kind: 'before-after', analysis: analysis(0.1, 0.95, 0.6), tco: null });
    const sig = noisy.iosSaved?.p?.['sig'];
    const sigKey = sig?.k === 'msg' ? sig.m.key : null;
    expect(sigKey).toMatch(/^(noise\.iosSaved|dec\.significant)$/u);
    // the noise sentence stands alone after a full stop (…Noise), the significance words after a semicolon
    expect(noisy.iosSaved?.key).toBe(sigKey === 'noise.iosSaved' ? 'dec.iosSavedNoise' : 'dec.iosSaved');
    expect(noisy.verdict.key).toBe('dec.noTco');
    expect(noisy.payback).toBeNull();
    expect(noisy.caveats[1].key).toBe('dec.cav.noPrices');
  });

  it('a day of each window: the window caveat says the daily figure is covered', () => {
    expect(decisionBlock({ kind: 'before-after', analysis: analysis(25, 0.2, 0.05), tco: null }).caveats[0].key).toBe('dec.cav.windowOk');
  });

  it('serves a workload profile: no I/Os saved, the sizing verdict instead', () => {
    const p: DecisionBlock = decisionBlock({ kind: 'profile', windowSeconds: 3600, tco });
    expect(p.kind).toBe('profile');
    expect(p.iosSaved).toBeNull();
    expect(p.latency).toBeNull();
    expect(p.sizing?.key).toBe('dec.sizing');
    expect(p.sizing?.p?.['iops']).toMatchObject({ v: LAB_SAMPLE_WORKLOAD.iopsP95 });
    expect(p.verdict).toEqual(d.verdict);
    // the drives of the configuration the verdict weighs: for IOPS, for capacity, to buy
    const chosen = tco.plan.configurations.find((c) => c.id === tco.plan.verdict.chosen.configId);
    const drives = p.sizing?.p?.['drives'];
    const dp = drives?.k === 'msg' ? drives.m.p : undefined;
    expect(dp?.['forIops']).toMatchObject({ v: chosen?.sizing.countForIops });
    expect(dp?.['forCapacity']).toMatchObject({ v: chosen?.sizing.countForCapacity });
    expect(dp?.['count']).toMatchObject({ v: chosen?.sizing.driveCount });
    // one window, the log's: its own caveat, never "before" and "after"
    expect(p.caveats[0].key).toBe('dec.cav.logShort');
    expect(decisionBlock({ kind: 'profile', windowSeconds: 2 * 86_400, tco: null }).caveats[0].key).toBe('dec.cav.logOk');
  });

  it('serves a fleet: the hosts\' logs, not one server\'s, in the assumptions and the window caveat', () => {
    const f = decisionBlock({ kind: 'profile', windowSeconds: 3600, tco, fleet: true });
    expect(f.caveats[0].key).toBe('dec.cav.fleetShort');
    expect(decisionBlock({ kind: 'profile', windowSeconds: 7 * 86_400, tco, fleet: true }).caveats[0].key).toBe('dec.cav.fleetOk');
    expect(f.assumptions?.key).toMatch(/^dec\.(assumptions|allMeasured)Fleet$/u);
    // the rest of the block is the profile's
    const p = decisionBlock({ kind: 'profile', windowSeconds: 3600, tco });
    expect(f.verdict).toEqual(p.verdict);
    expect(f.sizing).toEqual(p.sizing);
    expect(f.caveats.slice(1)).toEqual(p.caveats.slice(1));
  });
});
