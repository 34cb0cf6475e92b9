/**
 * Which cache configuration a plan is told by, one rule for every place that picks one: the
 * dashboard's drive life, the savings tornado (tornado.ts) and the report. Pure.
 */
import { planScenario } from './plan.ts';
import type { ConfigResult, PlanResult } from './result.ts';
import { parseScenario, type PlanResultOr, type Scenario } from './scenario.ts';

/**
 * The cache configuration that saves most: of the configurations with a cache other than the
 * reference, the one with the largest savings against the reference (savingsUsd; the first in the
 * scenario on a tie); else the reference when it has a cache; null when none has a cache.
 * Example: reference "HDD only", "SSD cache" saving 96,600 USD, "RAM cache" saving 41,000 USD → "SSD cache".
 */
export function bestCacheConfig(s: Scenario, r: PlanResult): ConfigResult | null {
  const hasCache = (id: string): boolean => s.configurations.find((c) => c.id === id)?.cache !== undefined;
  const savings = (id: string): number => r.comparisons.find((x) => x.id === id)?.savingsUsd ?? -Infinity;
  let best: ConfigResult | null = null;
  for (const c of r.configurations) {
    if (c.id === r.referenceId || !hasCache(c.id)) continue;
    if (best === null || savings(c.id) > savings(best.id)) best = c;
  }
  if (best !== null) return best;
  return hasCache(r.referenceId) ? (r.configurations.find((c) => c.id === r.referenceId) ?? null) : null;
}

/** A scenario planned and the configuration its drive life is told by ({@link bestCacheConfig}). */
export interface CachePlan {
  scenario: Scenario;
  plan: PlanResult;
  /** Null when no configuration has a cache. */
  config: ConfigResult | null;
}

/**
 * Parses and plans a scenario file's object (parseScenario → planScenario) and picks the cache
 * configuration ({@link bestCacheConfig}): what the dashboard's drive-life section draws. Fails
 * with the parser's or the planner's error.
 */
export function planCacheLife(json: unknown): PlanResultOr<CachePlan> {
  const parsed = parseScenario(json);
  if (!parsed.ok) return parsed;
  const plan = planScenario(parsed.value);
  if (!plan.ok) return plan;
  return { ok: true, value: { scenario: parsed.value, plan: plan.value, config: bestCacheConfig(parsed.value, plan.value) } };
}
