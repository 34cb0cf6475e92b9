/**
 * The recipe of the documented example scenario: the workload, energy and designs typed here,
 * the drives and RAM named by their ids in the drive catalog (samples/catalog/drives.json), never
 * copied. `scripts/gen-scenarios.mjs` builds engine/src/plan/template.ts,
 * samples/scenarios/example.tco.json and the example in docs/tco-scenario.md from it
 * ({@link buildExampleFiles}); app/test/scenarios-from-catalog.test.ts fails when they drift.
 *
 * Four designs for a 20 000-IOPS (p95), 20 TB workload growing 10 %/yr in capacity, over 4 years:
 * nearline 7,200 rpm HDDs alone (sized by IOPS), the same HDDs behind an NVMe SSD cache or a RAM
 * read cache, and all-flash NVMe. System, enclosure, licence and support prices are examples.
 */
import { ramCacheFromCatalog, type CatalogRecipe, type DriveCatalog, type RamCacheFromCatalog } from './catalog.ts';
import { planError, type PlanResultOr } from './scenario.ts';

const system = { baseCostUsd: 20000, watts: 200, builtInSlots: 24, maxEnclosures: 15 };
const enclosure = { slots: 24, priceUsd: 3000, watts: 100 };

export const EXAMPLE_RECIPE: CatalogRecipe = {
  scenario: {
    format: 'cacheproof-tco',
    version: 1,
    title: 'OLTP volume: cache versus spindles versus flash',
    years: 4,
    workload: {
      iops: { basis: 'p95', p95: 20000, peak: 30000, mean: 8000 },
      readShare: 0.7,
      avgRequestBytes: 8192,
      capacityBytes: 20e12,
      growth: { capacityPerYear: 0.1, iopsPerYear: 0 },
      sizeFor: 'final-year',
    },
    energy: { usdPerKwh: 0.15, pue: 1.5 },
    referenceId: 'all-hdd',
  },
  recipePrices: 'example',
  drives: ['toshiba-mg10aca20te', 'micron-7400-pro-m2-3.84tb'],
  configurations: [
    {
      id: 'all-hdd',
      label: 'All HDD, RAID 10',
      system,
      enclosure,
      backing: { driveId: 'toshiba-mg10aca20te', raid: { level: '10', groupSize: 4 } },
      supportUsdPerYear: 2000,
    },
    {
      id: 'hdd-ssd-cache',
      label: 'HDD RAID 5 + SSD cache',
      system,
      enclosure,
      backing: { driveId: 'toshiba-mg10aca20te', raid: { level: '5', groupSize: 5 } },
      cache: {
        kind: 'ssd',
        driveId: 'micron-7400-pro-m2-3.84tb',
        count: 2,
        raid: { level: '1', groupSize: 2 },
        mode: 'write-back',
        readHitShare: 0.8,
        writeHitShare: 0.8,
        // Assumed, not measured: the example's workload is not the bundled sample's (app/test/samples-together.test.ts).
        hitShareSource: 'assumed',
        licenseUsd: 5000,
        fillShare: 1,
        writeAmplification: 1,
      },
      supportUsdPerYear: 2000,
    },
    {
      id: 'hdd-ram-cache',
      label: 'HDD RAID 10 + RAM read cache',
      system,
      enclosure,
      backing: { driveId: 'toshiba-mg10aca20te', raid: { level: '10', groupSize: 4 } },
      cache: {
        kind: 'ram',
        moduleId: 'ddr4-rdimm-32gb',
        dimms: 16,
        mode: 'write-through',
        readHitShare: 0.6,
        writeHitShare: 0,
        hitShareSource: 'assumed',
        licenseUsd: 5000,
      },
      supportUsdPerYear: 2000,
    },
    {
      id: 'all-flash-nvme',
      label: 'All-flash NVMe, RAID 5',
      system: { baseCostUsd: 30000, watts: 200, builtInSlots: 24, maxEnclosures: 4 },
      enclosure: { slots: 24, priceUsd: 5000, watts: 150 },
      backing: { driveId: 'micron-7400-pro-m2-3.84tb', raid: { level: '5', groupSize: 5 } },
      supportUsdPerYear: 2000,
    },
  ],
};

/**
 * The RAM cache the Planner drafts when a person adds one: the example recipe's modules and DIMM
 * count (16 × `ddr4-rdimm-32gb`), sized from the catalog by {@link ramCacheFromCatalog} (capacity,
 * purchase, watts), never typed figures. Fails as ramCacheFromCatalog does.
 * Example: with the shipped catalog (32 GB, 5 W, 3 USD/GB) → 512 GiB, 1,536 USD, 80 W.
 */
export function ramCacheDraft(c: DriveCatalog): PlanResultOr<RamCacheFromCatalog> {
  for (const cfg of EXAMPLE_RECIPE.configurations) {
    if (cfg.cache?.kind === 'ram') return ramCacheFromCatalog(c, cfg.cache.moduleId, cfg.cache.dimms);
  }
  return { ok: false, error: planError('unknown-module', 'ramModules', { id: '' }, 'The example recipe has no RAM cache.') };
}

/** The catalog RAM module the example's RAM cache is priced from (`ddr4-rdimm-32gb`): a measured RAM cache is priced per GB from it. */
export function exampleRamModuleId(): string {
  for (const cfg of EXAMPLE_RECIPE.configurations) if (cfg.cache?.kind === 'ram') return cfg.cache.moduleId;
  throw new Error('the example recipe has no RAM cache');
}
