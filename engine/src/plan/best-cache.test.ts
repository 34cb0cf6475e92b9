/** One rule picks the cache configuration: the dashboard's drive life and the tornado agree. */
import { describe, expect, it } from 'vitest';
import exampleJson from '../../../samples/scenarios/example.tco.json';
import { bestCacheConfig, planCacheLife } from './best-cache.ts';
import { planScenario } from './plan.ts';
import { COST_STACKS, stackCostUsd } from './result.ts';
import { parseScenario, type Scenario } from './scenario.ts';
import { savingsSensitivity } from './tornado.ts';

function example(edit: (s: Scenario) => void = () => undefined): Scenario {
  const p = parseScenario(JSON.parse(JSON.stringify(exampleJson)));
  if (!p.ok) throw new Error(p.error.message);
  edit(p.value);
  return p.value;
}

function best(s: Scenario): string | null {
  const r = planScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return bestCacheConfig(s, r.value)?.id ?? null;
}

describe('bestCacheConfig', () => {
  it('the cache configuration saving most, the one the tornado varies', () => {
    const s = example();
    const r = planScenario(s);
    if (!r.ok) throw new Error(r.error.message);
    const savings = (id: string): number => r.value.comparisons.find((c) => c.id === id)?.savingsUsd ?? NaN;
    expect(savings('hdd-ssd-cache')).toBeGreaterThan(savings('hdd-ram-cache'));
    expect(best(s)).toBe('hdd-ssd-cache');
    const t = savingsSensitivity(s);
    expect(t.ok && t.value.configId).toBe(best(s));
    const life = planCacheLife(JSON.parse(JSON.stringify(exampleJson)));
    expect(life.ok && life.value.config?.id).toBe('hdd-ssd-cache');
  });

  it('follows the savings: a dearer SSD cache gives way to the RAM cache, for the drive life and the tornado alike', () => {
    const s = example((x) => {
      const c = x.configurations.find((c) => c.id === 'hdd-ssd-cache');
      if (c?.cache !== undefined) c.cache.licenseUsd = 10_000_000;
    });
    expect(best(s)).toBe('hdd-ram-cache');
    const t = savingsSensitivity(s);
    expect(t.ok && t.value.configId).toBe('hdd-ram-cache');
  });

  it('the reference when it alone has a cache; null when none has one', () => {
    const onlyRef = example((x) => {
      const ssd = x.configurations.find((c) => c.id === 'hdd-ssd-cache');
      x.configurations = x.configurations.filter((c) => c.cache === undefined || c.id === 'hdd-ssd-cache');
      x.referenceId = ssd?.id ?? x.referenceId;
    });
    expect(best(onlyRef)).toBe('hdd-ssd-cache');
    const none = example((x) => (x.configurations = x.configurations.filter((c) => c.cache === undefined)));
    expect(best(none)).toBeNull();
  });

  it('planCacheLife fails with the parser\'s words on a bad scenario', () => {
    const r = planCacheLife({ format: 'cacheproof-tco' });
    expect(r.ok).toBe(false);
  });
});

describe('stackCostUsd', () => {
  it('each stack is the sum of its line items; the stacks add up to the total', () => {
    const r = planScenario(example());
    if (!r.ok) throw new Error(r.error.message);
    for (const c of r.value.configurations) {
      const purchase = c.lines.filter((l) => ['baseSystem', 'cacheLicense', 'cacheDrives', 'cacheRam'].includes(l.id)).reduce((a, l) => a + l.costUsd, 0);
      expect(stackCostUsd(c, 'purchase')).toBeCloseTo(purchase, 6);
      expect(COST_STACKS.reduce((a, st) => a + stackCostUsd(c, st.id), 0)).toBeCloseTo(c.totalUsd, 6);
    }
  });
});
