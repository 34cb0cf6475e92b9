/**
 * Sensitivity: how a configuration's total cost and drive count move with the cache hit
 * share, the IOPS target and the growth rate. Each point re-plans a modified copy of the
 * scenario; a point whose drives no longer fit the system is reported, not thrown.
 */
import { evaluateConfiguration } from './plan.ts';
import type { Scenario } from './scenario.ts';

export type SensitivityAxis = 'hitShare' | 'iopsTarget' | 'growthRate';

export interface SensitivityPoint {
  /** The value of the axis at this point (share 0…1, IOPS, or rate per year). */
  value: number;
  totalUsd: number | null;
  driveCount: number | null;
  /** Code of the failure when the point cannot be built (e.g. `capacity-too-large`). */
  errorCode: string | null;
}

/**
 * Copies a scenario with one axis set to a value.
 * Method: `hitShare` sets readHitShare and writeHitShare of the configuration's cache (no cache:
 * unchanged); `iopsTarget` switches the IOPS basis to `typed` with this number (today's target,
 * growth still applies); `growthRate` sets both the IOPS and the capacity growth per year.
 * Example: `withAxis(s, 'growthRate', 0.2, 0)` → a scenario growing 20 %/yr.
 */
export function withAxis(s: Scenario, axis: SensitivityAxis, value: number, configIndex: number): Scenario {
  const copy = JSON.parse(JSON.stringify(s)) as Scenario;
  if (axis === 'hitShare') {
    const cache = copy.configurations[configIndex]?.cache;
    if (cache !== undefined) {
      cache.readHitShare = value;
      cache.writeHitShare = value;
    }
  } else if (axis === 'iopsTarget') {
    copy.workload.iops.basis = 'typed';
    copy.workload.iops.typed = value;
  } else {
    copy.workload.growth = { capacityPerYear: value, iopsPerYear: value };
  }
  return copy;
}

/**
 * Total cost (USD over the period) and backing drive count of one configuration as one
 * input varies.
 * Method: for each value, {@link withAxis} then evaluateConfiguration.
 * Example: `sensitivity(s, 1, 'hitShare', [0, 0.5, 0.9])` → three points whose driveCount falls
 * as the hit share rises.
 */
export function sensitivity(s: Scenario, configIndex: number, axis: SensitivityAxis, values: readonly number[]): SensitivityPoint[] {
  return values.map((value) => {
    const r = evaluateConfiguration(withAxis(s, axis, value, configIndex), configIndex);
    return r.ok
      ? { value, totalUsd: r.value.totalUsd, driveCount: r.value.sizing.driveCount, errorCode: null }
      : { value, totalUsd: null, driveCount: null, errorCode: r.error.code };
  });
}
