/**
 * The RAM cache sized from what was measured, never a fixed catalog row (issue #28): the size
 * suggested for an analysis with its basis, and the price and power of a RAM cache of any size
 * from the drive catalog's per-GB figures. docs/tco.md § "How the cache is sized".
 */
import type { AnalysisReport } from '../benefit/result.ts';
import { isExamplePrice, need, type DriveCatalog } from './catalog.ts';
import { planError, type PlanResultOr } from './scenario.ts';

const GIB = 2 ** 30;
const MIB = 2 ** 20;

/**
 * Where the suggested size comes from, first that applies:
 * `engine`: the cache engine's own size (its `cache_total_bytes` counter, captures with an adapter);
 * `prediction`: the smallest size of the trace's prediction curve reaching the measured read hit share;
 * `footprint`: the trace's footprint (every block the baseline touched), when no hit share was measured or the curve does not reach it;
 * `bytes-moved`: no trace: the bytes read and written on the backing devices in the baseline window (an upper bound of the working set), at most their capacity.
 */
export type CacheSizeBasis = 'engine' | 'prediction' | 'footprint' | 'bytes-moved';

/** A suggested cache size: bytes (rounded up to whole MiB), its basis, and the sentence key and parameters the catalogs say it with (`cacheSize.<basis>`). */
export interface SuggestedCacheSize {
  bytes: number;
  basis: CacheSizeBasis;
  /** i18n key, `cacheSize.<basis>`; params are raw numbers (bytes, percent) for the caller to format. */
  key: `cacheSize.${CacheSizeBasis}`;
  params: Record<string, number | string>;
}

function suggestion(basis: CacheSizeBasis, bytes: number, params: Record<string, number | string> = {}): SuggestedCacheSize {
  const rounded = Math.max(MIB, Math.ceil(bytes / MIB) * MIB);
  return { bytes: rounded, basis, key: `cacheSize.${basis}`, params: { bytes: rounded, ...params } };
}

/** The baseline window's bytes on the backing devices (read + written) and their capacity, for the `bytes-moved` basis. */
export interface BytesMoved {
  bytes: number;
  capacityBytes: number | null;
}

/**
 * The cache size suggested for an analysis, with its basis ({@link CacheSizeBasis}), or null
 * when nothing measured gives one (no engine size, no trace, no byte counts).
 * Examples: a dm-cache of 8 GiB → `engine` 8 GiB; a trace whose curve first reaches the measured
 * 88.9 % read hits at 300 MiB → `prediction` 300 MiB; a baseline alone with a trace of footprint
 * 369 MB → `footprint` 352 MiB (369 MB rounded up to whole MiB).
 */
export function suggestedCacheSize(
  report: Pick<AnalysisReport, 'cacheEngine' | 'prediction' | 'mode' | 'benefit'> | null,
  moved: BytesMoved | null,
): SuggestedCacheSize | null {
  const engineRow = report?.cacheEngine.comparison?.counters.find((r) => r.name === 'cache_total_bytes' && r.value !== null && r.value > 0);
  if (engineRow?.value != null) return suggestion('engine', engineRow.value, { adapter: report?.cacheEngine.comparison?.adapter ?? '', counter: engineRow.name });
  const p = report?.prediction.fromTrace ?? null;
  if (p !== null && p.footprintBytes > 0) {
    const measured = report?.mode === 'front-and-backing' ? report.benefit.cacheServedPercent.reads : null;
    if (measured !== null && measured !== undefined) {
      const reached = [...p.curve].sort((a, b) => a.bytes - b.bytes).find((c) => c.readHitRatio * 100 >= measured && c.bytes > 0);
      if (reached !== undefined) return suggestion('prediction', reached.bytes, { hitPercent: measured, predictedPercent: reached.readHitRatio * 100 });
      return suggestion('footprint', p.footprintBytes, { reason: 'curve-below-measured', hitPercent: measured, maxPercent: p.maxReadHitPercent });
    }
    return suggestion('footprint', p.footprintBytes, { reason: 'no-measured-hit-share' });
  }
  if (moved !== null && moved.bytes > 0) {
    const capped = moved.capacityBytes !== null && moved.capacityBytes > 0 && moved.capacityBytes < moved.bytes;
    return suggestion('bytes-moved', capped ? (moved.capacityBytes ?? moved.bytes) : moved.bytes, { capped: capped ? 'capacity' : 'none' });
  }
  return null;
}

/** A RAM cache of a given size priced from one catalog module's per-GB figures. */
export interface RamCacheOfSize {
  moduleId: string;
  capacityBytes: number;
  /** capacity GiB × the module's USD per GB (DIMM GB are binary). */
  costUsd: number;
  /** capacity GiB × the module's watts per DIMM ÷ its GiB. */
  watts: number;
  usdPerGb: number;
  wattsPerGb: number;
  examplePrice: boolean;
}

/**
 * Price and power of a RAM cache of `bytes`, scaled linearly from catalog module `moduleId`:
 * purchase = GiB × USD/GB, power = GiB × (watts per DIMM ÷ DIMM GiB). The catalog gives no
 * minimum size for a RAM cache (the cache is a share of the server's memory, not whole DIMMs
 * bought for it), so none is applied. Fails naming an unknown module, a size not above 0 or an absent figure.
 * Example: 1 GiB of `ddr4-rdimm-32gb` (32 GB, 5 W, 3 USD/GB) → 3 USD, 0.15625 W.
 */
export function ramCacheOfSize(c: DriveCatalog, moduleId: string, bytes: number): PlanResultOr<RamCacheOfSize> {
  const i = c.ramModules.findIndex((m) => m.id === moduleId);
  const m = c.ramModules[i];
  if (m === undefined) return { ok: false, error: planError('unknown-module', 'ramModules', { id: moduleId }, `No RAM module "${moduleId}" in the catalog.`) };
  if (!Number.isFinite(bytes) || bytes <= 0) return { ok: false, error: planError('below-min', 'capacityBytes', { got: bytes }, `capacityBytes: must be above 0, got ${bytes}.`) };
  const use = `a RAM cache of "${moduleId}"`;
  const cap = need(m.capacityBytes, `ramModules[${i}].capacityBytes`, use);
  if (!cap.ok) return cap;
  const w = need(m.wattsPerDimm, `ramModules[${i}].wattsPerDimm`, use);
  if (!w.ok) return w;
  const usdPerGb = m.usdPerGb.value;
  const wattsPerGb = w.value / (cap.value / GIB);
  const gib = bytes / GIB;
  return {
    ok: true,
    value: { moduleId, capacityBytes: bytes, costUsd: gib * usdPerGb, watts: gib * wattsPerGb, usdPerGb, wattsPerGb, examplePrice: isExamplePrice(m.usdPerGb) },
  };
}
