/**
 * The RAM cache's size field (issue #28): prefilled from the measurement (engine
 * `suggestedCacheSize`, kept in `cache.sizing`), editable; a new size re-prices the cache per GB
 * from the catalog module (engine `ramCacheOfSize`), and the existing recompute path replans.
 */
import { exampleRamModuleId, ramCacheOfSize, type DriveCatalog } from '@cacheproof/engine/plan';
import { fmtBytes, fmtDecimal, fmtNumber, parseLocaleNumber } from '../../shared/i18n/numbers.ts';
import type { PlannerKey } from '../../shared/i18n/planner.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';
import { getAt, setAt, type Json, type Path } from './state.ts';
import { bytesConv, unitToBytes } from '../../shared/units.ts';

/** The field's unit: GB (10^9 bytes), as the Planner's other sizes are decimal. */
export const BYTES_PER_GB = 1e9;
const BASES = ['engine', 'prediction', 'footprint', 'bytes-moved'] as const;

type P = (key: PlannerKey, params?: Record<string, string | number>) => string;

/** The module a RAM cache is priced from: the one its prefill named, else the example's. */
function moduleOf(cache: Json | undefined): string {
  const sizing = cache?.['sizing'] as Json | undefined;
  return typeof sizing?.['moduleId'] === 'string' ? sizing['moduleId'] : exampleRamModuleId();
}

/** The price line: the module's per-GiB figures and the cache's purchase and power now. */
function priceLine(lang: Lang, p: P, catalog: DriveCatalog, moduleId: string, bytes: number): string {
  const r = ramCacheOfSize(catalog, moduleId, bytes);
  if (!r.ok) return r.error.message;
  const label = catalog.ramModules.find((m) => m.id === moduleId)?.label ?? moduleId;
  return p('ramPrice', { module: label, usdPerGb: fmtDecimal(lang, r.value.usdPerGb, 2), wattsPerGb: fmtDecimal(lang, r.value.wattsPerGb, 3), cost: fmtNumber(lang, r.value.costUsd), watts: fmtDecimal(lang, r.value.watts, 1) });
}

/**
 * The size field and its two lines (the basis of the prefilled size, the price per GB) for the
 * RAM cache at `cachePath`; `numberField` is the form's own (bound to `capacityBytes` in GB).
 * Typing a size sets the cache's purchase and power before the form replans.
 */
export function ramSizeFields(
  lang: Lang, p: P, draft: Json, cachePath: Path, catalog: DriveCatalog | string | null,
  numberField: (path: Path, label: string, unit: string, help: string, conv: { toUi(v: number): number; fromUi(x: number): number }) => HTMLElement,
): HTMLElement[] {
  const cache = getAt(draft, cachePath) as Json | undefined;
  const moduleId = moduleOf(cache);
  const field = numberField([...cachePath, 'capacityBytes'], p('f.ramSize'), p('unit.gb'), p('h.ramSize'), bytesConv(BYTES_PER_GB));
  const sizing = cache?.['sizing'] as Json | undefined;
  const basis = BASES.find((b) => b === sizing?.['basis']);
  const suggested = sizing?.['suggestedBytes'];
  const basisLine = el('p', { class: 'pl-help', 'data-testid': 'planner-ram-basis' },
    basis !== undefined && typeof suggested === 'number' ? p(`ramBasis.${basis}`, { size: fmtBytes(lang, suggested) }) : p('ramBasis.none'));
  const cat = typeof catalog === 'object' && catalog !== null ? catalog : null;
  const bytesNow = getAt(draft, [...cachePath, 'capacityBytes']);
  const price = el('p', { class: 'pl-help', 'data-testid': 'planner-ram-price' },
    cat === null || typeof bytesNow !== 'number' ? '' : priceLine(lang, p, cat, moduleId, bytesNow));
  // before the form's own listener stores the size and replans (capture phase): price and power follow the size
  field.querySelector('input')?.addEventListener('input', (e) => {
    const n = parseLocaleNumber(lang, (e.target as HTMLInputElement).value.trim());
    if (cat === null || n === null) return;
    const r = ramCacheOfSize(cat, moduleId, unitToBytes(n, BYTES_PER_GB));
    if (!r.ok) return;
    setAt(draft, [...cachePath, 'costUsd'], r.value.costUsd);
    setAt(draft, [...cachePath, 'watts'], r.value.watts);
    price.textContent = priceLine(lang, p, cat, moduleId, r.value.capacityBytes);
  }, { capture: true });
  return [field, basisLine, price];
}

/**
 * A new RAM cache for a configuration: the size another configuration's RAM cache was prefilled
 * with from the measurement when there is one, else the example's; priced per GB from the catalog.
 */
export function newRamCache(catalog: DriveCatalog, configs: Json[], fallbackBytes: number): { ok: true; value: Json } | { ok: false; message: string } {
  const sized = configs.map((c) => (c['cache'] as Json | undefined)?.['sizing'] as Json | undefined).find((s) => typeof s?.['suggestedBytes'] === 'number');
  const bytes = typeof sized?.['suggestedBytes'] === 'number' ? sized['suggestedBytes'] : fallbackBytes;
  const moduleId = typeof sized?.['moduleId'] === 'string' ? sized['moduleId'] : exampleRamModuleId();
  const r = ramCacheOfSize(catalog, moduleId, bytes);
  if (!r.ok) return { ok: false, message: r.error.message };
  return { ok: true, value: { kind: 'ram', capacityBytes: r.value.capacityBytes, costUsd: r.value.costUsd, watts: r.value.watts, ...(sized === undefined ? {} : { sizing: { ...sized } }) } };
}
