/**
 * The trace's size budget in the wizard's plan (shared/estimate.ts, renderer/wizard): the sizes a
 * budgeted trace takes (worked by hand), the Plan step's sentence in English and French, the
 * draft → RunPlan conversion (checked with the contract's schema) and its parsing, and the
 * `record` flags the supervisor builds from the plan. The real probe taking those flags is
 * app/test/run-trace-budget.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RunPlan } from '../src/shared/contract.ts';
import { LATENCY_HISTOGRAM_BYTES_PER_ROW, latencyHistogramBytes, TRACE_BUDGETS, TRACE_BYTES_PER_REQUEST, TRACE_DEFAULT_BUDGET_BYTES, traceUnderBudget } from '../src/shared/estimate.ts';
import { translate, type Lang } from '../src/shared/i18n/types.ts';
import { wizard, type WizardKey } from '../src/shared/i18n/wizard.ts';
import { traceArgs } from '../src/host/probe-argv.ts';
import { traceSizeText } from '../src/renderer/wizard/trace-size.ts';
import { defaultDraft, parseDraft, toPlan, type Draft } from '../src/renderer/wizard/state.ts';

const words = (lang: Lang) => (key: WizardKey, params?: Record<string, string | number>): string => translate(wizard, lang, key, params);

describe('the trace under a budget (sizes worked by hand)', () => {
  it('stores at most the budget\'s share of the time, and keeps the share of block addresses that fits', () => {
    // 1,000 IOPS for 49 h: 176.4 million requests × 64 B = 11.29 GB in full; 300 MB per 24 h
    // allows 300 MB × 49 / 24 = 612.5 MB: a share of 612.5 / 11,289.6 = 5.43 %.
    const s = traceUnderBudget(1000, 49 * 3600, 300_000_000);
    expect(s.fullBytes).toBe(1000 * 49 * 3600 * TRACE_BYTES_PER_REQUEST);
    expect(s.storedBytes).toBeCloseTo(612_500_000, 3);
    expect(s.keptShare).toBeCloseTo(612.5 / 11_289.6, 6);
    // a trace smaller than its budget keeps everything
    expect(traceUnderBudget(10, 3600, 300_000_000)).toEqual({ fullBytes: 10 * 3600 * 64, storedBytes: 10 * 3600 * 64, keptShare: 1 });
    // no budget: every request
    expect(traceUnderBudget(1000, 3600, null).keptShare).toBe(1);
    expect(traceUnderBudget(0, 3600, 300_000_000).keptShare).toBe(1);
  });

  it('adds the latency histograms: a row per device, operation and interval', () => {
    // 2 devices × 2 operations × 17,280 intervals of 5 s in 24 h × 80 B
    expect(latencyHistogramBytes(2, 86_400, 5000)).toBe(2 * 2 * 17_280 * LATENCY_HISTOGRAM_BYTES_PER_ROW);
    expect(latencyHistogramBytes(1, 10, 0)).toBe(0);
  });

  it('offers the default budget the probe has', () => {
    expect(TRACE_BUDGETS).toContain(TRACE_DEFAULT_BUDGET_BYTES);
    expect(TRACE_DEFAULT_BUDGET_BYTES).toBe(300_000_000);
  });
});

describe('the Plan step\'s trace size with the budget', () => {
  const draft = (over: Partial<Draft>): Draft => ({ ...defaultDraft(), front: 'sdb', backing: ['sdc'], trace: true, ...over });

  it('states the most the trace takes, the histograms and the share kept at 1,000 and 10,000 IOPS', () => {
    // the default plan: 24 h + 1 h + 24 h at 5 s, 2 devices
    const en = traceSizeText(words('en'), 'en', draft({}));
    expect(en).toBe('With a budget of 300 MB per 24 h the trace takes at most 613 MB over this plan (about 64 bytes per I/O), plus about 11 MB of latency histograms. The full trace would take 11 GB at an average of 1,000 IOPS (about 5.43% of the block addresses kept) and 113 GB at 10,000 IOPS (0.54% kept).');
    const fr = traceSizeText(words('fr'), 'fr', draft({ traceBudget: 1_000_000_000 }))?.replace(/[\u00a0\u202f]/gu, ' ');
    expect(fr).toContain('Avec un budget de 1 Go par 24 h, la trace occupe au plus 2 Go sur ce plan');
    // every request: the full trace's sizes
    expect(traceSizeText(words('en'), 'en', draft({ traceBudget: null }))).toContain('The trace adds about 64 bytes per I/O: 11 GB at an average of 1,000 IOPS');
    // a duration being typed: nothing to say yet
    expect(traceSizeText(words('en'), 'en', draft({ baseline: { text: '', unit: 'h' } }))).toBeNull();
  });
});

describe('the budget in the plan, the stored draft and the record command', () => {
  it('goes into the RunPlan only with the trace, as the contract takes it', () => {
    // no prediction asked: the plan's prediction is another test's (wizard-plan.test.ts)
    const d: Draft = { ...defaultDraft(), front: 'loop7', backing: ['loop6'], baseline: { text: '20', unit: 's' }, warmup: { text: '5', unit: 's' }, measure: { text: '20', unit: 's' }, predict: false };
    expect(toPlan(d, 'plain')).not.toHaveProperty('traceBudgetBytes');
    const budgeted = toPlan({ ...d, trace: true, traceBudget: 100_000_000 }, 'budgeted');
    expect(budgeted?.traceBudgetBytes).toBe(100_000_000);
    expect(RunPlan.safeParse(budgeted).success).toBe(true);
    const every = toPlan({ ...d, trace: true, traceBudget: null }, 'every');
    expect(every?.traceBudgetBytes).toBeNull();
    expect(RunPlan.safeParse(every).success).toBe(true);
    expect(RunPlan.safeParse({ ...budgeted, traceBudgetBytes: 10 }).success, 'below one request').toBe(false);
  });

  it('parses a stored draft\'s budget: one the wizard offers, null, or the default', () => {
    expect(defaultDraft().traceBudget).toBe(TRACE_DEFAULT_BUDGET_BYTES);
    expect(parseDraft(JSON.stringify({ traceBudget: 1_000_000_000 })).traceBudget).toBe(1_000_000_000);
    expect(parseDraft(JSON.stringify({ traceBudget: null })).traceBudget).toBeNull();
    expect(parseDraft(JSON.stringify({ traceBudget: 12345 })).traceBudget).toBe(TRACE_DEFAULT_BUDGET_BYTES);
    expect(parseDraft(JSON.stringify({})).traceBudget).toBe(TRACE_DEFAULT_BUDGET_BYTES);
  });

  it('builds the probe\'s flags: the budget in bytes (the default when the plan has none), or every request', () => {
    expect(traceArgs(100_000_000)).toEqual(['--trace', '--trace-budget', '100000000B']);
    expect(traceArgs(undefined)).toEqual(['--trace', '--trace-budget', '300000000B']);
    expect(traceArgs(null)).toEqual(['--trace', '--trace-sample', '1']);
  });
});
