/**
 * Savings sensitivity (the tornado chart): for each input of a scenario, the savings of one
 * configuration against the reference when that input alone is lowered and raised by a share
 * (default ±20 %). The input whose change moves the savings most is the first bar.
 *
 * One implementation: the Planner's chart, the report's TCO section and `cacheproof tco --json`
 * (`sensitivity`) all print this function's result.
 */
import { bestCacheConfig } from './best-cache.ts';
import { planScenario } from './plan.ts';
import { planError, type PlanResultOr, type Scenario } from './scenario.ts';

/** The inputs varied, in the order the docs list them (docs/metrics.md "Savings sensitivity"). */
export const TORNADO_INPUTS = ['energyPrice', 'backingDrivePrice', 'cacheDrivePrice', 'hitShare', 'capacityGrowth', 'iopsGrowth', 'iopsTarget', 'capacity'] as const;
export type TornadoInput = (typeof TORNADO_INPUTS)[number];

/** The share each input is moved by, both ways (0.2 = −20 % and +20 %). */
export const TORNADO_CHANGE = 0.2;

export interface TornadoBar {
  input: TornadoInput;
  /** The input's value in the scenario (USD per kWh or per drive-year, USD per drive, share 0…1, rate per year, IOPS, bytes). */
  baseValue: number;
  /** The value at −change and at +change (a hit share is capped at 1, so its high value may equal the base). */
  lowValue: number;
  highValue: number;
  /** Savings (reference total − this configuration's total, USD over the period) at the low and the high value; null when that point cannot be planned. */
  savingsLowUsd: number | null;
  savingsHighUsd: number | null;
  /** |savingsHighUsd − savingsLowUsd|, USD; null when a point failed. The bars are sorted by it, largest first. */
  swingUsd: number | null;
  /** The engine's error code of a point that could not be planned (e.g. `capacity-too-large`), else null. */
  errorCode: string | null;
}

export interface SavingsSensitivity {
  /** The configuration whose savings are varied and the reference they are measured against. */
  configId: string;
  referenceId: string;
  /** The share each input moved by (0.2). */
  change: number;
  years: number;
  /** Savings with every input as in the scenario, USD over the period. */
  baseSavingsUsd: number;
  /** One bar per input that applies to this configuration (no cache: no cache price or hit share), largest swing first. */
  bars: TornadoBar[];
}

/** Plain-data copy of a scenario (it is JSON by construction). */
function copyOf(s: Scenario): Scenario {
  return JSON.parse(JSON.stringify(s)) as Scenario;
}

/**
 * The scenario's value of an input for configuration `configIndex` against `refIndex`, or null
 * when the input does not apply (no cache for `cacheDrivePrice` and `hitShare`).
 */
export function tornadoInputValue(s: Scenario, input: TornadoInput, configIndex: number): number | null {
  const conf = s.configurations[configIndex];
  if (conf === undefined) return null;
  const driveOf = (id: string): number | null => s.drives.find((d) => d.id === id)?.priceUsd ?? null;
  switch (input) {
    case 'energyPrice':
      return 'usdPerKwh' in s.energy ? s.energy.usdPerKwh : s.energy.usdPerDrivePerYear;
    case 'backingDrivePrice':
      return driveOf(conf.backing.driveId);
    case 'cacheDrivePrice':
      if (conf.cache === undefined) return null;
      return conf.cache.kind === 'ssd' ? driveOf(conf.cache.driveId) : conf.cache.costUsd;
    case 'hitShare':
      return conf.cache === undefined ? null : conf.cache.readHitShare;
    case 'capacityGrowth':
      return s.workload.growth.capacityPerYear;
    case 'iopsGrowth':
      return s.workload.growth.iopsPerYear;
    case 'iopsTarget':
      return s.workload.iops[s.workload.iops.basis] ?? null;
    case 'capacity':
      return s.workload.capacityBytes;
  }
}

/**
 * A copy of the scenario with one input multiplied by `factor`.
 * Method, per input: `energyPrice` — USD per kWh (or per drive-year); `backingDrivePrice` — the
 * price of every drive model that is the backing drive of the configuration or of the reference;
 * `cacheDrivePrice` — the configuration's cache SSD model price (or its RAM cache cost);
 * `hitShare` — the configuration's read and write hit shares, capped at 1; `capacityGrowth` and
 * `iopsGrowth` — the yearly growth rate of the capacity, of the IOPS target; `iopsTarget` — the IOPS figure of the chosen basis; `capacity` —
 * the usable capacity needed today.
 * Example: `scaledScenario(s, 'energyPrice', 1.2, 1, 0)` with 0.15 USD/kWh → 0.18 USD/kWh.
 */
export function scaledScenario(s: Scenario, input: TornadoInput, factor: number, configIndex: number, refIndex: number): Scenario {
  const c = copyOf(s);
  const conf = c.configurations[configIndex];
  const ref = c.configurations[refIndex];
  if (conf === undefined || ref === undefined) return c;
  const scaleDrive = (id: string): void => {
    const d = c.drives.find((x) => x.id === id);
    if (d !== undefined) d.priceUsd *= factor;
  };
  switch (input) {
    case 'energyPrice':
      if ('usdPerKwh' in c.energy) c.energy.usdPerKwh *= factor;
      else c.energy.usdPerDrivePerYear *= factor;
      break;
    case 'backingDrivePrice':
      for (const id of new Set([conf.backing.driveId, ref.backing.driveId])) scaleDrive(id);
      break;
    case 'cacheDrivePrice':
      if (conf.cache?.kind === 'ssd') scaleDrive(conf.cache.driveId);
      else if (conf.cache?.kind === 'ram') conf.cache.costUsd *= factor;
      break;
    case 'hitShare':
      if (conf.cache !== undefined) {
        conf.cache.readHitShare = Math.min(1, conf.cache.readHitShare * factor);
        conf.cache.writeHitShare = Math.min(1, conf.cache.writeHitShare * factor);
      }
      break;
    case 'capacityGrowth':
      c.workload.growth = { ...c.workload.growth, capacityPerYear: c.workload.growth.capacityPerYear * factor };
      break;
    case 'iopsGrowth':
      c.workload.growth = { ...c.workload.growth, iopsPerYear: c.workload.growth.iopsPerYear * factor };
      break;
    case 'iopsTarget': {
      const b = c.workload.iops.basis;
      const v = c.workload.iops[b];
      if (v !== undefined) c.workload.iops[b] = v * factor;
      break;
    }
    case 'capacity':
      c.workload.capacityBytes *= factor;
      break;
  }
  return c;
}

function savingsOf(s: Scenario, configId: string): { savingsUsd: number } | { errorCode: string } {
  const r = planScenario(s);
  if (!r.ok) return { errorCode: r.error.code };
  const cmp = r.value.comparisons.find((x) => x.id === configId);
  return cmp === undefined ? { errorCode: 'unknown-config' } : { savingsUsd: cmp.savingsUsd };
}

/**
 * The tornado: savings of configuration `configId` (default: of the non-reference configurations
 * with a cache, else of all non-reference ones, the one with the largest savings) against the reference, with each input at −change and +change.
 * Method: for each input of {@link TORNADO_INPUTS} that applies, plan {@link scaledScenario} at
 * factor 1 − change and 1 + change and read the configuration's savingsUsd (reference total −
 * its total, USD over the period); swing = |high − low|; bars sorted by swing, largest first
 * (a failed point last). Fails with `no-comparison` when the scenario has one configuration.
 * Example: a cache design saving 96,600 USD whose savings go 90,100 → 103,100 USD as the HDD
 * price moves ±20 % has a backingDrivePrice bar with swing 13,000 USD.
 */
export function savingsSensitivity(s: Scenario, opts: { change?: number; configId?: string } = {}): PlanResultOr<SavingsSensitivity> {
  const change = opts.change ?? TORNADO_CHANGE;
  const base = planScenario(s);
  if (!base.ok) return base;
  const r = base.value;
  const others = r.comparisons.filter((c) => c.id !== r.referenceId);
  // the cache configuration of the plan (best-cache.ts, the dashboard's drive life too), else the non-reference one that saves most
  const cached = bestCacheConfig(s, r);
  const chosen = opts.configId !== undefined ? others.find((c) => c.id === opts.configId)
    : cached !== null && cached.id !== r.referenceId ? others.find((c) => c.id === cached.id) : [...others].sort((a, b) => b.savingsUsd - a.savingsUsd)[0];
  if (chosen === undefined)
    return { ok: false, error: planError('no-comparison', 'configurations', {}, 'configurations: savings sensitivity needs a configuration besides the reference.') };
  const configIndex = s.configurations.findIndex((c) => c.id === chosen.id);
  const refIndex = s.configurations.findIndex((c) => c.id === r.referenceId);
  const bars: TornadoBar[] = [];
  for (const input of TORNADO_INPUTS) {
    const baseValue = tornadoInputValue(s, input, configIndex);
    if (baseValue === null) continue;
    const lowS = scaledScenario(s, input, 1 - change, configIndex, refIndex);
    const highS = scaledScenario(s, input, 1 + change, configIndex, refIndex);
    const low = savingsOf(lowS, chosen.id);
    const high = savingsOf(highS, chosen.id);
    const savingsLowUsd = 'savingsUsd' in low ? low.savingsUsd : null;
    const savingsHighUsd = 'savingsUsd' in high ? high.savingsUsd : null;
    bars.push({
      input,
      baseValue,
      lowValue: tornadoInputValue(lowS, input, configIndex) ?? baseValue,
      highValue: tornadoInputValue(highS, input, configIndex) ?? baseValue,
      savingsLowUsd,
      savingsHighUsd,
      swingUsd: savingsLowUsd === null || savingsHighUsd === null ? null : Math.abs(savingsHighUsd - savingsLowUsd),
      errorCode: 'errorCode' in low ? low.errorCode : 'errorCode' in high ? high.errorCode : null,
    });
  }
  bars.sort((a, b) => (b.swingUsd ?? -1) - (a.swingUsd ?? -1));
  return { ok: true, value: { configId: chosen.id, referenceId: r.referenceId, change, years: r.years, baseSavingsUsd: chosen.savingsUsd, bars } };
}
