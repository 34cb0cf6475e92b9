/**
 * The drive and RAM-module catalog (samples/catalog/drives.json, docs/tco-scenario.md "Drive
 * catalog"): real models, each figure with its source and date, or absent with the reason.
 * Pure: the caller reads the file and passes the parsed JSON.
 *
 * A figure is `{ value, source, url?, date, basis? }` or, when no source gave it,
 * `{ value: null, reason, date }` (the date of the search). Prices carry `priceKind: "example"`
 * until someone replaces them with a quote (`"quote"`, with its source and date).
 */
import { z } from 'zod';
import type { DriveModel, PlanResultOr, ScenarioInput } from './scenario.ts';
import { DRIVE_CLASSES, jsonPath, parseScenario, planError } from './scenario.ts';

export const CATALOG_FORMAT = 'cacheproof-drive-catalog';
export const CATALOG_VERSION = 2;

const text = z.string().trim().min(1);

/** A figure a source gave. */
const sourcedFigure = z.strictObject({
  value: z.number().finite(),
  source: text,
  url: text.optional(),
  date: text,
  /** How the figure relates to the source (e.g. "class rule of thumb", "derived from the vendor MTBF"). */
  basis: text.optional(),
  /** Prices only: `example` (must be replaced) or `quote` (a dated quote, with its source). */
  priceKind: z.enum(['example', 'quote']).optional(),
});
/** A figure no source gave: absent, with the reason. */
const absentFigure = z.strictObject({ value: z.null(), reason: text, date: text });
const figure = z.union([sourcedFigure, absentFigure]);
export type CatalogFigure = z.infer<typeof figure>;

const priceFigure = sourcedFigure.extend({ priceKind: z.enum(['example', 'quote']) });

/** Numeric figures of a catalog drive, in the order docs/tco-scenario.md lists them. */
export const DRIVE_FIGURES = [
  'rpm',
  'capacityBytes',
  'randomReadIops4k',
  'randomWriteIops4k',
  'iops',
  'seqReadMBps',
  'watts',
  'maxWatts',
  'idleWatts',
  'workloadTbPerYear',
  'enduranceTbw',
  'dwpd',
  'warrantyYears',
  'mtbfHours',
  'afr',
  'priceUsd',
] as const;
export type DriveFigure = (typeof DRIVE_FIGURES)[number];

export const SEGMENTS = ['hdd-7.2k-nearline', 'hdd-10k', 'ssd-sata-read-intensive', 'ssd-sata-mixed-use', 'ssd-nvme'] as const;

const catalogDriveSchema = z.strictObject({
  id: text,
  vendor: text,
  /** Model number, or the product name and capacity where no model number is sourced. */
  model: text,
  label: text,
  class: z.enum(DRIVE_CLASSES),
  interface: z.enum(['sata', 'sas', 'nvme']),
  segment: z.enum(SEGMENTS),
  rpm: figure.optional(),
  capacityBytes: figure,
  randomReadIops4k: figure,
  randomWriteIops4k: figure,
  /** The sizing figure the TCO model uses (see its `basis`). */
  iops: figure,
  /** Sequential read, MB/s (10^6 bytes per s), the data sheet's top figure: the fastest rate a drive streams (plausibility, plan/fastest.ts); optional. */
  seqReadMBps: figure.optional(),
  /** Average (active) power, watts. */
  watts: figure,
  /** Maximum (peak, TDP) power, watts: used by the model, and said so, only when no average is sourced. */
  maxWatts: figure.optional(),
  idleWatts: figure,
  workloadTbPerYear: figure.optional(),
  enduranceTbw: figure.optional(),
  dwpd: figure.optional(),
  warrantyYears: figure,
  mtbfHours: figure,
  afr: figure,
  priceUsd: priceFigure,
  notes: z.string().optional(),
});
export type CatalogDrive = z.infer<typeof catalogDriveSchema>;

const ramModuleSchema = z.strictObject({
  id: text,
  label: text,
  type: text,
  /** Capacity of one DIMM, bytes (DIMM GB are binary: 32 GB = 32 × 2^30 bytes). */
  capacityBytes: figure,
  wattsPerDimm: figure,
  /** Price per GB (2^30 bytes) of DIMM capacity. */
  usdPerGb: priceFigure,
});
export type CatalogRamModule = z.infer<typeof ramModuleSchema>;

export const catalogSchema = z.strictObject({
  format: z.literal(CATALOG_FORMAT),
  version: z.literal(CATALOG_VERSION),
  about: z.string().optional(),
  retrieved: text,
  drives: z.array(catalogDriveSchema).min(1),
  ramModules: z.array(ramModuleSchema).default([]),
});
export type DriveCatalog = z.infer<typeof catalogSchema>;

/**
 * Checks a catalog file: every figure sourced (`source`, `date`) or absent with a `reason`,
 * ids unique. The first problem is returned as one sentence naming its JSON path.
 * Example: a drive with `"iops": 140` → `drives[0].iops: a catalog figure is { "value", "source", "date" } or { "value": null, "reason", "date" }.`
 */
export function parseCatalog(input: unknown): PlanResultOr<DriveCatalog> {
  const parsed = catalogSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined ? '' : jsonPath(issue.path.filter((p) => typeof p !== 'symbol'));
    const isFigure = issue !== undefined && issue.code === 'invalid_union';
    const message = isFigure
      ? `${path}: a catalog figure is { "value", "source", "date" } or { "value": null, "reason", "date" }.`
      : `${path === '' ? 'catalog' : path}: ${issue?.message ?? 'not valid'}.`;
    return { ok: false, error: planError(isFigure ? 'unsourced' : 'invalid', path, {}, message) };
  }
  const c = parsed.data;
  for (const [list, items] of [['drives', c.drives], ['ramModules', c.ramModules]] as const) {
    const seen = new Set<string>();
    for (const [i, d] of items.entries()) {
      if (seen.has(d.id)) return { ok: false, error: planError('duplicate-id', `${list}[${i}].id`, { id: d.id }, `${list}[${i}].id: "${d.id}" is used by another entry.`) };
      seen.add(d.id);
    }
  }
  return { ok: true, value: c };
}

/** A catalog figure's value, or the error naming it and its reason when absent. */
export function need(f: CatalogFigure | undefined, path: string, use: string): PlanResultOr<number> {
  if (f === undefined) return { ok: false, error: planError('figure-absent', path, { use }, `${path}: absent; ${use} needs it.`) };
  if (f.value === null)
    return { ok: false, error: planError('figure-absent', path, { use, reason: f.reason }, `${path}: no sourced value (${f.reason}); ${use} needs it: add a sourced figure to the catalog.`) };
  return { ok: true, value: f.value };
}

/** Is this price an example that must be replaced before use? */
export function isExamplePrice(p: { priceKind?: 'example' | 'quote' | undefined }): boolean {
  return p.priceKind !== 'quote';
}

/**
 * A scenario drive model built from catalog drive `id` (plain numbers, label and id as in the
 * catalog). Fails, naming the catalog figure and its reason, when a figure the TCO model needs
 * is absent: capacity, sizing IOPS, watts (the average; else the sourced maximum, an upper
 * bound, said so in `notes`), AFR; for a cache SSD (`asCache`) also an endurance (TBW, or DWPD
 * and warranty years). `notes` says where the figures come from and how each non-datasheet one
 * was obtained (its `basis`).
 * Example: `catalogDrive(c, 'toshiba-mg10aca20te')` → `{ ok: true, value: { id: 'toshiba-mg10aca20te', iops: 75, watts: 9.3, … } }`.
 */
export function catalogDrive(c: DriveCatalog, id: string, asCache = false): PlanResultOr<DriveModel> {
  const i = c.drives.findIndex((d) => d.id === id);
  const d = c.drives[i];
  if (d === undefined) return { ok: false, error: planError('unknown-drive', 'drives', { id }, `No drive "${id}" in the catalog.`) };
  const at = `drives[${i}]`;
  const use = `the TCO model (drive "${id}")`;
  const notes: string[] = [];
  const basis = (k: string, f: CatalogFigure | undefined): void => {
    if (f !== undefined && f.value !== null && f.basis !== undefined) notes.push(`${k}: ${f.basis}`);
  };
  const get = (k: 'capacityBytes' | 'iops' | 'afr'): PlanResultOr<number> => {
    const v = need(d[k], `${at}.${k}`, use);
    if (v.ok) basis(k, d[k]);
    return v;
  };
  const capacityBytes = get('capacityBytes');
  if (!capacityBytes.ok) return capacityBytes;
  const iops = get('iops');
  if (!iops.ok) return iops;
  let watts: number;
  if (d.watts.value !== null) {
    watts = d.watts.value;
    basis('watts', d.watts);
  } else if (d.maxWatts?.value != null) {
    watts = d.maxWatts.value;
    notes.push(`watts: the sourced maximum (${d.maxWatts.value} W), an upper bound, because no average is sourced`);
  } else {
    const absent = need(d.watts, `${at}.watts`, use);
    if (!absent.ok) return absent;
    throw new Error('catalogDrive: watts is null yet need() accepted it');
  }
  const afr = get('afr');
  if (!afr.ok) return afr;
  const endurance =
    d.enduranceTbw?.value != null
      ? { enduranceTbw: d.enduranceTbw.value }
      : d.dwpd?.value != null && d.warrantyYears.value !== null
        ? { dwpd: d.dwpd.value, warrantyYears: d.warrantyYears.value }
        : {};
  const out: DriveModel = {
    id: d.id,
    label: d.label,
    class: d.class,
    interface: d.interface,
    ...(d.rpm?.value != null ? { rpm: d.rpm.value } : {}),
    capacityBytes: capacityBytes.value,
    iops: iops.value,
    watts,
    priceUsd: d.priceUsd.value,
    afr: afr.value,
    ...(d.workloadTbPerYear?.value != null ? { workloadTbPerYear: d.workloadTbPerYear.value } : {}),
    ...endurance,
  };
  if (asCache && out.enduranceTbw === undefined && out.dwpd === undefined)
    return {
      ok: false,
      error: planError('figure-absent', `${at}.enduranceTbw`, { use }, `${at}.enduranceTbw: no sourced endurance (TBW, or DWPD and warranty years); a cache SSD needs one.`),
    };
  const price = isExamplePrice(d.priceUsd) ? 'example price, replace before use' : `price quoted ${d.priceUsd.date}`;
  out.notes = [`From the drive catalog (samples/catalog/drives.json, "${d.id}"), where every figure has its source and date; ${price}`, ...notes].join('. ') + '.';
  return { ok: true, value: out };
}

/** A RAM cache built from catalog modules: what a scenario's `cache: { kind: 'ram' }` needs. */
export interface RamCacheFromCatalog {
  moduleId: string;
  dimms: number;
  /** dimms × module capacity, bytes. */
  capacityBytes: number;
  /** dimms × module GB (2^30 bytes) × USD per GB. */
  costUsd: number;
  /** dimms × watts per DIMM. */
  watts: number;
  /** True while the module's price per GB is an example. */
  examplePrice: boolean;
}

/**
 * Sizes a RAM cache of `dimms` catalog modules: capacity = dimms × DIMM bytes, purchase =
 * dimms × DIMM GB × USD/GB, power = dimms × watts per DIMM. RAM does not wear: no endurance,
 * no replacement line. Fails naming the absent figure.
 * Example: 8 × `ddr4-rdimm-32gb` (32 GB, 5 W, 3 USD/GB) → 256 GB, 768 USD, 40 W.
 */
export function ramCacheFromCatalog(c: DriveCatalog, moduleId: string, dimms: number): PlanResultOr<RamCacheFromCatalog> {
  const i = c.ramModules.findIndex((m) => m.id === moduleId);
  const m = c.ramModules[i];
  if (m === undefined) return { ok: false, error: planError('unknown-module', 'ramModules', { id: moduleId }, `No RAM module "${moduleId}" in the catalog.`) };
  if (!Number.isInteger(dimms) || dimms <= 0) return { ok: false, error: planError('below-min', 'dimms', { got: dimms }, `dimms: must be a whole number above 0, got ${dimms}.`) };
  const use = `a RAM cache of "${moduleId}"`;
  const cap = need(m.capacityBytes, `ramModules[${i}].capacityBytes`, use);
  if (!cap.ok) return cap;
  const w = need(m.wattsPerDimm, `ramModules[${i}].wattsPerDimm`, use);
  if (!w.ok) return w;
  const gb = cap.value / 2 ** 30;
  return {
    ok: true,
    value: { moduleId, dimms, capacityBytes: dimms * cap.value, costUsd: dimms * gb * m.usdPerGb.value, watts: dimms * w.value, examplePrice: isExamplePrice(m.usdPerGb) },
  };
}

type ConfigInput = ScenarioInput['configurations'][number];
type CacheInput = NonNullable<ConfigInput['cache']>;
/** A RAM cache in a recipe: catalog modules instead of typed totals. */
export type RecipeRamCache = Omit<Extract<CacheInput, { kind: 'ram' }>, 'capacityBytes' | 'costUsd' | 'watts'> & { moduleId: string; dimms: number };
export type RecipeConfiguration = Omit<ConfigInput, 'cache'> & { cache?: Exclude<CacheInput, { kind: 'ram' }> | RecipeRamCache };

/**
 * A scenario whose drives and RAM are catalog ids, not copied figures: the workload, energy
 * and configurations are typed; `drives` lists catalog drive ids; a RAM cache names a catalog
 * module and a DIMM count. {@link scenarioFromCatalog} turns it into a scenario file.
 */
export interface CatalogRecipe {
  scenario: Omit<ScenarioInput, 'drives' | 'configurations' | 'priceKind'>;
  /** Whether the prices typed in the recipe (system, enclosures, licence, support) are examples or quotes. */
  recipePrices: 'example' | 'quoted';
  drives: string[];
  configurations: RecipeConfiguration[];
}

/**
 * Builds a scenario from a recipe and the catalog: each drive id becomes the catalog's figures
 * ({@link catalogDrive}; a drive used as a cache SSD must have an endurance), each RAM cache
 * becomes capacity, cost and watts of its DIMMs ({@link ramCacheFromCatalog}) with a note naming
 * them. `priceKind` is `example` when any price used is (the typed system, enclosure, licence and
 * support prices of a recipe are examples too). The result is checked with {@link parseScenario}.
 * Example: `scenarioFromCatalog(catalog, EXAMPLE_RECIPE)` → the shipped example scenario.
 */
export function scenarioFromCatalog(c: DriveCatalog, recipe: CatalogRecipe): PlanResultOr<ScenarioInput> {
  const cacheIds = new Set(recipe.configurations.flatMap((cfg) => (cfg.cache?.kind === 'ssd' ? [cfg.cache.driveId] : [])));
  const drives: ScenarioInput['drives'] = [];
  let examplePrices = recipe.recipePrices === 'example';
  for (const id of recipe.drives) {
    const d = catalogDrive(c, id, cacheIds.has(id));
    if (!d.ok) return d;
    drives.push(d.value);
    const entry = c.drives.find((x) => x.id === id);
    if (entry !== undefined && isExamplePrice(entry.priceUsd)) examplePrices = true;
  }
  const configurations: ScenarioInput['configurations'] = [];
  for (const cfg of recipe.configurations) {
    const { cache, ...rest } = cfg;
    if (cache?.kind !== 'ram') {
      configurations.push(cache === undefined ? { ...rest } : { ...rest, cache });
      continue;
    }
    const { moduleId, dimms, kind: _kind, ...ramRest } = cache;
    const ram = ramCacheFromCatalog(c, moduleId, dimms);
    if (!ram.ok) return ram;
    if (ram.value.examplePrice) examplePrices = true;
    const m = c.ramModules.find((x) => x.id === moduleId);
    const gib = ram.value.capacityBytes / 2 ** 30;
    const gb = Math.round(ram.value.capacityBytes / 1e8) / 10;
    const note = `RAM cache: ${dimms} × ${m?.label ?? moduleId} (catalog "${moduleId}") = ${gib} GiB (${gb} GB), ${ram.value.watts} W${ram.value.examplePrice ? ', example price per GB: replace before use' : ''}.`;
    configurations.push({
      ...rest,
      cache: { kind: 'ram', capacityBytes: ram.value.capacityBytes, costUsd: ram.value.costUsd, watts: ram.value.watts, ...ramRest },
      notes: rest.notes === undefined ? note : `${rest.notes} ${note}`,
    });
  }
  const { format, version, title, measuredFrom, years, workload, energy, referenceId, notes } = recipe.scenario;
  // Key order is the file's reading order.
  const out: ScenarioInput = {
    format,
    version,
    ...(title === undefined ? {} : { title }),
    ...(measuredFrom === undefined ? {} : { measuredFrom }),
    priceKind: examplePrices ? 'example' : 'quoted',
    years,
    workload,
    energy,
    drives,
    configurations,
    ...(referenceId === undefined ? {} : { referenceId }),
    ...(notes === undefined ? {} : { notes }),
  };
  const check = parseScenario(out);
  return check.ok ? { ok: true, value: out } : check;
}

/**
 * A scenario drive draft from catalog drive `id` for a person to complete: every figure the
 * catalog sources, as {@link catalogDrive} takes it (watts: the average, else the sourced
 * maximum), and the names of the figures the TCO model needs that the catalog does not give
 * (`absent`), left out of the draft so that the scenario check names each field to type in.
 * Example: `catalogDriveDraft(c, 'samsung-mzqlb3t8hals')` → `{ drive: { id, label, class: 'ssd-nvme', capacityBytes: 3.84e12, … }, absent: ['watts'] }`.
 */
export function catalogDriveDraft(c: DriveCatalog, id: string): { drive: Record<string, unknown>; absent: string[] } | null {
  const d = c.drives.find((x) => x.id === id);
  if (d === undefined) return null;
  const full = catalogDrive(c, id, d.class !== 'hdd');
  if (full.ok) return { drive: { ...full.value }, absent: [] };
  const drive: Record<string, unknown> = { id: d.id, label: d.label, class: d.class, interface: d.interface };
  const absent: string[] = [];
  const take = (k: string, f: CatalogFigure | undefined, needed: boolean): void => {
    if (f !== undefined && f.value !== null) drive[k] = f.value;
    else if (needed) absent.push(k);
  };
  take('rpm', d.rpm, false);
  take('capacityBytes', d.capacityBytes, true);
  take('iops', d.iops, true);
  take('watts', d.watts.value !== null ? d.watts : d.maxWatts, true);
  take('priceUsd', d.priceUsd, true);
  take('afr', d.afr, true);
  take('workloadTbPerYear', d.workloadTbPerYear, false);
  if (d.enduranceTbw?.value != null) drive['enduranceTbw'] = d.enduranceTbw.value;
  else if (d.dwpd?.value != null && d.warrantyYears.value !== null) {
    drive['dwpd'] = d.dwpd.value;
    drive['warrantyYears'] = d.warrantyYears.value;
  } else if (d.class !== 'hdd') absent.push('enduranceTbw');
  drive['notes'] = `From the drive catalog (samples/catalog/drives.json, "${d.id}"), where every figure has its source and date; ${isExamplePrice(d.priceUsd) ? 'example price, replace before use' : `price quoted ${d.priceUsd.date}`}. Not in the catalog, to be typed in: ${absent.join(', ')}.`;
  return { drive, absent };
}
