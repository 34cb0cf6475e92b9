/**
 * The shipped drive catalog (samples/catalog/drives.json), parsed once: what prices a RAM cache
 * sized from a measurement (engine `scenarioFromMeasurement` → `ramCacheOfSize`). Every prefill
 * (the Planner's, `tco --from-capture`'s, the report's) passes it, so they agree to the dollar.
 */
import type { RateLimit } from '@cacheproof/engine';
import { catalogRateLimit, parseCatalog, type DriveCatalog } from '@cacheproof/engine/plan';
import catalogJson from '../../../samples/catalog/drives.json';

let parsed: DriveCatalog | undefined;

/** The shipped catalog; throws if the shipped file does not parse (a build defect, caught by its tests). */
export function shippedCatalog(): DriveCatalog {
  if (parsed !== undefined) return parsed;
  const c = parseCatalog(catalogJson);
  if (!c.ok) throw new Error(`samples/catalog/drives.json: ${c.error.message}`);
  parsed = c.value;
  return parsed;
}

/** The rate no device reaches: 10 × the shipped catalog's fastest drive (engine `catalogRateLimit`), for the analyses' and profiles' `rateLimit`. */
export function shippedRateLimit(): RateLimit | undefined {
  return catalogRateLimit(shippedCatalog());
}
