import { describe, expect, it } from 'vitest';
import { scenarioFromMeasurement } from './measured.ts';
import { MODEL_FIXTURE } from './plan.fixture.ts';
import { planScenario } from './plan.ts';
import type { PlanResult } from './result.ts';
import { LAB_SAMPLE_WORKLOAD } from './sample-workload.fixture.ts';
import { parseScenario, type Scenario } from './scenario.ts';
import { BREAK_EVEN_HORIZON_PERIODS, paybackOf, type BasisVerdict } from './verdict.ts';

function plan(s: Scenario): PlanResult {
  const r = planScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function fixture(edit: (s: Scenario) => void = () => undefined): Scenario {
  const p = parseScenario(JSON.parse(JSON.stringify(MODEL_FIXTURE)));
  if (!p.ok) throw new Error(p.error.message);
  edit(p.value);
  return p.value;
}

describe('the verdict on the bundled sample (the scenario the Planner prefills)', () => {
  const sample = scenarioFromMeasurement(LAB_SAMPLE_WORKLOAD);

  it('sizes on p95 and says the cache does not pay back there, but pays on the peak: the result carries both', () => {
    expect(sample.workload.iops.basis).toBe('p95');
    const v = plan(sample).verdict;
    expect(v.basis).toBe('p95');
    expect(v.chosen.basis).toBe('p95');
    expect(v.chosen.iops).toBe(LAB_SAMPLE_WORKLOAD.iopsP95);
    expect(v.chosen.outcome).toBe('does-not-pay-back');
    expect(v.chosen.savingsUsd).toBeLessThan(0);
    expect(v.others.map((o) => o.basis)).toEqual(['peak']);
    const peak = v.others[0] as BasisVerdict;
    expect(peak.iops).toBe(LAB_SAMPLE_WORKLOAD.iopsPeak);
    expect(peak.outcome).toBe('pays-back');
    expect(peak.savingsUsd).toBeGreaterThan(0);
    expect(v.differs).toBe(true);
    expect(v.messages.map((m) => m.key)).toEqual(['noPayback', 'sizedWithAlt']);
  });

  it('names the line item that decides it: the one where the cache configuration costs most over the reference', () => {
    const r = plan(sample);
    const v = r.verdict.chosen;
    const cfg = r.configurations.find((c) => c.id === v.configId);
    const ref = r.configurations.find((c) => c.id === r.referenceId);
    if (cfg === undefined || ref === undefined || v.decidingLine === null) throw new Error('no configuration or deciding line');
    const extra = (id: string): number => (cfg.lines.find((l) => l.id === id)?.costUsd ?? 0) - (ref.lines.find((l) => l.id === id)?.costUsd ?? 0);
    const ids = [...new Set([...cfg.lines, ...ref.lines].map((l) => l.id))];
    const largest = Math.max(...ids.map(extra));
    expect(v.decidingLine.extraUsd).toBeCloseTo(largest, 6);
    expect(extra(v.decidingLine.id)).toBeCloseTo(largest, 6);
    // the cache configuration judged is the one that saves most (loses least) of those with a cache
    const cacheCmps = r.comparisons.filter((c) => c.id !== r.referenceId && r.configurations.find((x) => x.id === c.id)?.kind.includes('cache'));
    expect(v.savingsUsd).toBe(Math.max(...cacheCmps.map((c) => c.savingsUsd)));
  });

  it('planned on the peak, the verdict is the peak one above, and the p95 one is given as the other', () => {
    const onP95 = plan(sample).verdict;
    const onPeak = plan({ ...sample, workload: { ...sample.workload, iops: { ...sample.workload.iops, basis: 'peak' } } }).verdict;
    expect(onPeak.chosen).toEqual(onP95.others[0]);
    expect(onPeak.others).toEqual([onP95.chosen]);
    expect(onPeak.messages.map((m) => m.key)).toEqual(['savesDayOne', 'sizedWithAlt']);
  });
});

describe('verdict', () => {
  it('names no other basis when the verdict is the same on it', () => {
    // the fixture's 30 000-IOPS peak needs more HDDs than its systems hold; 22 000 fits
    const v = plan(fixture((s) => (s.workload.iops.peak = 22000))).verdict;
    expect(v.chosen.outcome).toBe('pays-back');
    expect(v.others.map((o) => [o.basis, o.outcome])).toEqual([['peak', 'pays-back']]);
    expect(v.differs).toBe(false);
    expect(v.messages.map((m) => m.key)).toEqual([v.chosen.payback?.kind === 'day-one' ? 'savesDayOne' : 'saves', 'sized']);
  });

  it('gives the payback in months when the cache configuration breaks even inside the period', () => {
    const r = plan(fixture());
    const cmp = r.comparisons.find((c) => c.id === r.verdict.chosen.configId);
    const p = r.verdict.chosen.payback;
    if (cmp === undefined || p === null) throw new Error('no comparison');
    if (cmp.breakEvenYear === 0) expect(p.kind).toBe('day-one');
    else expect(p).toEqual({ kind: 'year', year: cmp.breakEvenYear, months: Math.ceil((cmp.breakEvenYear ?? 0) * 12) });
  });

  it('has no other basis when the scenario has no peak figure, and says so when there is no cache configuration', () => {
    const noPeak = plan(fixture((s) => delete s.workload.iops.peak)).verdict;
    expect(noPeak.others).toEqual([]);
    expect(noPeak.messages[1]?.key).toBe('sized');
    const noCache = plan(fixture((s) => (s.configurations = s.configurations.filter((c) => c.cache === undefined)))).verdict;
    expect(noCache.chosen.outcome).toBe('no-cache-configuration');
    expect(noCache.messages[0]).toEqual({ key: 'noCache', params: { reference: { k: 'text', s: 'All HDD, RAID 10' } } });
  });

  it('reports a basis on which the configurations do not fit instead of failing the plan', () => {
    // 15 000 IOPS p95 fits in 10 enclosures of 1.2 TB drives; a 200 000-IOPS peak does not
    const v = plan(fixture((s) => (s.workload.iops = { basis: 'p95', p95: 15000, peak: 200000 }))).verdict;
    expect(v.others[0]?.outcome).toBe('does-not-fit');
    expect(v.others[0]?.errorCode).toBe('iops-too-high');
    expect(v.differs).toBe(true);
  });
});

describe('paybackOf', () => {
  it('words a break-even beyond the horizon as "not within the period", never as a far year', () => {
    expect(paybackOf({ breakEvenYear: null, breakEvenBeyondYear: 348.2 }, 4)).toEqual({ kind: 'not-within', years: 4 });
    expect(paybackOf({ breakEvenYear: null, breakEvenBeyondYear: BREAK_EVEN_HORIZON_PERIODS * 4 + 0.1 }, 4)).toEqual({ kind: 'not-within', years: 4 });
    expect(paybackOf({ breakEvenYear: null, breakEvenBeyondYear: 9.5 }, 4)).toEqual({ kind: 'beyond', year: 9.5 });
    expect(paybackOf({ breakEvenYear: null, breakEvenBeyondYear: null }, 4)).toEqual({ kind: 'not-within', years: 4 });
    expect(paybackOf({ breakEvenYear: 0, breakEvenBeyondYear: null }, 4)).toEqual({ kind: 'day-one' });
    expect(paybackOf({ breakEvenYear: 1.5, breakEvenBeyondYear: null }, 4)).toEqual({ kind: 'year', year: 1.5, months: 18 });
    expect(paybackOf({ breakEvenYear: 0.01, breakEvenBeyondYear: null }, 4)).toEqual({ kind: 'year', year: 0.01, months: 1 });
  });
});
