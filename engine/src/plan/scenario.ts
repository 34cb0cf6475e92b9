/**
 * The TCO scenario file (docs/tco-scenario.md): its runtime schema, its types, and the one
 * function that turns untrusted JSON into a checked {@link Scenario} or a {@link PlanError}
 * naming the field (a JSON path such as `configurations[1].backing.raid.level`).
 *
 * Money is in US dollars (`…Usd`), capacity in bytes (`…Bytes`, decimal TB = 1e12 bytes where
 * a TB is printed), power in watts, time in years, shares in 0…1.
 */
import { z } from 'zod';

/** Format tag and the newest scenario version this build reads. */
export const SCENARIO_FORMAT = 'cacheproof-tco';
export const SCENARIO_VERSION = 1;

/** A value of the drive catalog: a plain number, or `{ value, source }` as catalog files write it. */
function sourced<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v !== null && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v), schema);
}

/**
 * Ranges of every numeric field (docs/tco-scenario.md, "Ranges"). The upper limits are far above
 * any real storage system and keep every total finite: a price of 1e308 would otherwise print ∞.
 */
export const LIMITS = {
  /** Any amount of money, USD. */
  usd: 1e12,
  /** Power of one drive, system, enclosure or RAM cache, watts. */
  watts: 1e6,
  /** One drive's capacity, bytes (100 PB). */
  driveBytes: 1e17,
  /** Workload capacity and RAM cache size, bytes (100 EB). */
  bytes: 1e20,
  /** Front-end bytes read or written per year, bytes. */
  yearlyBytes: 1e24,
  /** One drive's IOPS. */
  driveIops: 1e8,
  /** A workload's IOPS. */
  iops: 1e10,
  /** Average request size, bytes (1 GB). */
  requestBytes: 1e9,
  /** Drive counts (typed backing and cache counts, built-in slots). */
  count: 1_000_000,
  /** Expansion enclosures of a system, and slots per enclosure. */
  enclosures: 100_000,
  /** Drives per RAID group, redundant drives per group. */
  groupSize: 1000,
  /** RAID write penalty, cache write amplification. */
  factor: 100,
  /** Compound yearly growth (10 = +1000 %/yr). */
  growth: 10,
  /** Energy price, USD per kWh. */
  usdPerKwh: 100,
  /** Power usage effectiveness. */
  pue: 10,
  /** HDD rotation speed, rpm. */
  rpm: 100_000,
  /** HDD rated workload, TB per year; SSD endurance, TB written. */
  tb: 1e9,
  /** SSD drive writes per day. */
  dwpd: 10_000,
  /** Warranty and period, years. */
  years: 30,
} as const;

const inRange = (min: number, max: number) => z.number().finite().min(min).max(max);
const positiveTo = (max: number) => z.number().finite().gt(0).max(max);
/** A whole number in min…max (the range is checked before "integer", so that 1e20 says "at most max"). */
const intIn = (min: number, max: number) => z.number().min(min).max(max).int();
const usd = inRange(0, LIMITS.usd);
const watts = inRange(0, LIMITS.watts);
const share = z.number().finite().min(0).max(1);

/** Drive classes the model knows. `hdd` drives have a workload rating, SSDs an endurance. */
export const DRIVE_CLASSES = ['hdd', 'ssd-sata', 'ssd-sas', 'ssd-nvme'] as const;
export type DriveClass = (typeof DRIVE_CLASSES)[number];

export const driveSchema = z.strictObject({
  id: z.string().min(1),
  label: z.string().min(1),
  class: z.enum(DRIVE_CLASSES),
  interface: z.enum(['sata', 'sas', 'nvme']),
  rpm: sourced(intIn(1, LIMITS.rpm)).optional(),
  /** Raw capacity of one drive, bytes (decimal, as vendors print it). */
  capacityBytes: sourced(positiveTo(LIMITS.driveBytes)),
  /** Sustained small random IOPS of one drive (the sizing figure). Zero is refused. */
  iops: sourced(positiveTo(LIMITS.driveIops)),
  /** Average operating power of one drive, watts. */
  watts: sourced(watts),
  /** Purchase price of one drive, USD. */
  priceUsd: sourced(usd),
  /** Annualized failure rate, 0…1 (0.0044 = 0.44 %/yr). */
  afr: sourced(share),
  /** HDD rated workload, TB (read + written) per year. */
  workloadTbPerYear: sourced(positiveTo(LIMITS.tb)).optional(),
  /** SSD endurance, TB written over the warranty. Either this or `dwpd` + `warrantyYears`. */
  enduranceTbw: sourced(positiveTo(LIMITS.tb)).optional(),
  /** SSD drive writes per day over the warranty. */
  dwpd: sourced(positiveTo(LIMITS.dwpd)).optional(),
  warrantyYears: sourced(positiveTo(LIMITS.years)).optional(),
  notes: z.string().optional(),
});
export type DriveModel = z.infer<typeof driveSchema>;

/** RAID levels: 0, 1, 10, 5, 6, or custom (penalty and redundancy typed in). */
export const RAID_LEVELS = ['0', '1', '10', '5', '6', 'custom'] as const;
export type RaidLevel = (typeof RAID_LEVELS)[number];

export const raidSchema = z.strictObject({
  level: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(RAID_LEVELS)),
  /** Drives per RAID group (a mirror pair, a RAID 5 set of 4+1 = 5, a RAID 10 span of 4, …). */
  groupSize: intIn(1, LIMITS.groupSize),
  /** Custom only: back-end I/Os per front-end write. */
  writePenalty: inRange(1, LIMITS.factor).optional(),
  /** Custom only: drives of each group that hold redundancy, not data. */
  redundantDrivesPerGroup: intIn(0, LIMITS.groupSize).optional(),
});
export type RaidSpec = z.infer<typeof raidSchema>;

const cacheCommon = {
  /** write-back: writes are acknowledged by the cache and destaged later (absorbs rewrites);
   * write-through: every write also goes to the backing drives at once. */
  mode: z.enum(['write-back', 'write-through']),
  /** Share of front-end reads served by the cache, 0…1. */
  readHitShare: share,
  /** Share of front-end writes the cache absorbs (never destaged separately), 0…1. Only write-back uses it. */
  writeHitShare: share.default(0),
  /** Where the hit shares come from. */
  hitShareSource: z.enum(['measured', 'predicted', 'assumed']).default('assumed'),
  /** Cache software licence, USD, paid once. */
  licenseUsd: usd.default(0),
};

export const cacheSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('ssd'),
    driveId: z.string().min(1),
    count: intIn(1, LIMITS.count),
    raid: raidSchema,
    /** Share of read misses written into the cache (fills), 0…1. */
    fillShare: share.default(1),
    /** NAND writes per host write on the cache SSD, ≥ 1. TBW ratings already include the vendor's own test WAF: keep 1 unless you know better. */
    writeAmplification: inRange(1, LIMITS.factor).default(1),
    ...cacheCommon,
  }),
  z.strictObject({
    kind: z.literal('ram'),
    capacityBytes: positiveTo(LIMITS.bytes),
    costUsd: usd,
    watts: watts.default(0),
    /** How a prefill sized it (engine/src/plan/cache-size.ts): the basis, the size it suggested and the catalog module priced per GB; absent when typed. */
    sizing: z.strictObject({ basis: z.enum(['engine', 'prediction', 'footprint', 'bytes-moved']), suggestedBytes: positiveTo(LIMITS.bytes), moduleId: z.string().min(1) }).optional(),
    ...cacheCommon,
  }),
]);
export type CacheSpec = z.infer<typeof cacheSchema>;

export const configurationSchema = z.strictObject({
  id: z.string().min(1),
  label: z.string().min(1),
  system: z.strictObject({
    /** Controller/head/chassis price, USD. */
    baseCostUsd: usd,
    /** Power of the base system, watts. */
    watts: watts.default(0),
    /** Drive slots in the base chassis. */
    builtInSlots: intIn(0, LIMITS.count).default(0),
    /** Most expansion enclosures the system accepts: the drive-count limit (see docs). */
    maxEnclosures: intIn(0, LIMITS.enclosures),
  }),
  enclosure: z.strictObject({ slots: intIn(1, LIMITS.enclosures), priceUsd: usd, watts: watts.default(0) }),
  backing: z.strictObject({
    driveId: z.string().min(1),
    raid: raidSchema,
    /** Typed drive count (whole RAID groups). Omit to let the model size it. */
    count: intIn(1, LIMITS.count).optional(),
  }),
  cache: cacheSchema.optional(),
  supportUsdPerYear: usd.default(0),
  notes: z.string().optional(),
});
export type Configuration = z.infer<typeof configurationSchema>;

export const IOPS_BASES = ['p95', 'peak', 'mean', 'typed'] as const;
export type IopsBasis = (typeof IOPS_BASES)[number];

/**
 * The capture a scenario's workload was measured from, as `tco --from-capture` and the Planner's
 * prefill write it: the file's name (shown in messages) and the SHA-256 of its bytes (64 hex
 * digits, compared by the report). Absent: a typed scenario, or one written before this field.
 */
export const measuredFromSchema = z.strictObject({
  captureFile: z.string().min(1),
  captureSha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected the 64 hexadecimal digits of a SHA-256')
    .transform((h) => h.toLowerCase()),
});
export type MeasuredFrom = z.infer<typeof measuredFromSchema>;

export const scenarioSchema = z.strictObject({
  format: z.literal(SCENARIO_FORMAT),
  version: intIn(1, SCENARIO_VERSION),
  title: z.string().default(''),
  /** The capture the workload was measured from (see {@link measuredFromSchema}). */
  measuredFrom: measuredFromSchema.optional(),
  /** Period of the comparison, whole years. */
  years: intIn(1, LIMITS.years),
  workload: z.strictObject({
    iops: z.strictObject({
      basis: z.enum(IOPS_BASES),
      p95: positiveTo(LIMITS.iops).optional(),
      peak: positiveTo(LIMITS.iops).optional(),
      mean: positiveTo(LIMITS.iops).optional(),
      typed: positiveTo(LIMITS.iops).optional(),
    }),
    /** Share of front-end I/Os that are reads, 0…1. */
    readShare: share,
    /** Average request size, bytes. */
    avgRequestBytes: positiveTo(LIMITS.requestBytes),
    /** Usable capacity needed today, bytes. */
    capacityBytes: positiveTo(LIMITS.bytes),
    growth: z.strictObject({ capacityPerYear: z.number().finite().gt(-1).max(LIMITS.growth).default(0), iopsPerYear: z.number().finite().gt(-1).max(LIMITS.growth).default(0) }).default({ capacityPerYear: 0, iopsPerYear: 0 }),
    /** Size for the last year of growth (recommended: buy once) or for year 1. */
    sizeFor: z.enum(['final-year', 'first-year']).default('final-year'),
    /** Front-end bytes read per year today; default: mean IOPS (or the target) × read share × request size × seconds per year. */
    yearlyReadBytes: inRange(0, LIMITS.yearlyBytes).optional(),
    /** Front-end bytes written per year today; default as above with the write share. */
    yearlyWrittenBytes: inRange(0, LIMITS.yearlyBytes).optional(),
  }),
  energy: z.union([
    z.strictObject({ usdPerKwh: inRange(0, LIMITS.usdPerKwh), pue: inRange(1, LIMITS.pue) }),
    z.strictObject({ usdPerDrivePerYear: usd }),
  ]),
  drives: z.array(driveSchema).min(1),
  configurations: z.array(configurationSchema).min(1),
  /** Id of the configuration savings are measured against; default the first. */
  referenceId: z.string().optional(),
  /** `example`: the prices in this file are examples (the catalog's), to be replaced before use; the plan says so. */
  priceKind: z.enum(['example', 'quoted']).optional(),
  notes: z.string().optional(),
});
export type Scenario = z.infer<typeof scenarioSchema>;
/** What a scenario file may omit (defaults filled by {@link parseScenario}). */
export type ScenarioInput = z.input<typeof scenarioSchema>;

/**
 * A scenario with `measuredFrom` set, placed right after `title` where a person reading the file
 * sees it (any previous `measuredFrom` is replaced). Example:
 * `withMeasuredFrom({ format, version, title, … }, { captureFile: 'db01.capture', captureSha256: '9f…' })`.
 */
export function withMeasuredFrom<S extends object>(s: S, from: MeasuredFrom): S & { measuredFrom: MeasuredFrom } {
  const out: Record<string, unknown> = {};
  let placed = false;
  const entries = Object.entries(s).filter(([k]) => k !== 'measuredFrom');
  const after = entries.some(([k]) => k === 'title') ? 'title' : entries.some(([k]) => k === 'version') ? 'version' : null;
  if (after === null) {
    out['measuredFrom'] = { ...from };
    placed = true;
  }
  for (const [k, v] of entries) {
    out[k] = v;
    if (!placed && k === after) {
      out['measuredFrom'] = { ...from };
      placed = true;
    }
  }
  return out as S & { measuredFrom: MeasuredFrom };
}

/** An expected failure: a code for translation, the JSON path of the field, parameters and an English sentence. */
export interface PlanError {
  code: string;
  /** JSON path of the field at fault, e.g. `drives[0].priceUsd`; '' for the whole file. */
  path: string;
  params: Record<string, string | number>;
  message: string;
}

export type PlanResultOr<T> = { ok: true; value: T } | { ok: false; error: PlanError };

/**
 * Formats a path array as a JSON path. Example: `['drives', 0, 'priceUsd']` → `drives[0].priceUsd`.
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out === '' ? '' : '.') + String(p);
  }
  return out;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return 'nothing';
  return JSON.stringify(v) ?? String(v);
}

/** Looks a JSON path up in raw input (to quote the offending value). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  if (cur !== null && typeof cur === 'object' && 'value' in cur) return (cur as { value: unknown }).value;
  return cur;
}

/** Builds a {@link PlanError}. */
export function planError(code: string, path: string, params: Record<string, string | number>, message: string): PlanError {
  return { code, path, params: { ...params, path }, message };
}

function fromZodIssue(issue: z.core.$ZodIssue, input: unknown): PlanError {
  // A union of objects (energy) fails as a whole; point at the deepest useful path.
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const first = issue.errors.map((branch) => branch[0]).find((i) => i !== undefined && i.code !== 'unrecognized_keys');
    if (first !== undefined) return fromZodIssue({ ...first, path: [...issue.path, ...first.path] } as z.core.$ZodIssue, input);
  }
  const path = jsonPath(issue.path);
  const got = describe(valueAt(input, issue.path));
  switch (issue.code) {
    case 'invalid_type':
      if (got === 'nothing') return planError('missing', path, {}, `${path}: this field is required.`);
      return planError('wrong-type', path, { expected: issue.expected, got }, `${path}: expected ${issue.expected}, got ${got}.`);
    case 'too_small':
      if (issue.origin === 'array') return planError('too-few', path, { minimum: Number(issue.minimum) }, `${path}: needs at least ${issue.minimum} entries.`);
      return planError(
        issue.inclusive === false ? 'not-above' : 'below-min',
        path,
        { minimum: Number(issue.minimum), got },
        issue.inclusive === false ? `${path}: must be greater than ${issue.minimum}, got ${got}.` : `${path}: must be at least ${issue.minimum}, got ${got}.`,
      );
    case 'too_big':
      return planError('above-max', path, { maximum: Number(issue.maximum), got }, `${path}: must be at most ${issue.maximum}, got ${got}.`);
    case 'invalid_value': {
      const allowed = issue.values.map((v) => String(v)).join(', ');
      return planError('not-one-of', path, { allowed, got }, `${path}: ${got} is not one of ${allowed}.`);
    }
    case 'invalid_union':
      return planError('not-one-of', path, { allowed: 'see docs/tco-scenario.md', got }, `${path}: ${got} matches none of the accepted forms (see docs/tco-scenario.md).`);
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const p = path === '' ? key : `${path}.${key}`;
      return planError('unknown-field', p, {}, `${p}: unknown field (a typo?).`);
    }
    default:
      return planError('invalid', path, { detail: issue.message }, `${path}: ${issue.message}.`);
  }
}

/**
 * Checks untrusted JSON against the scenario schema and the cross-field rules, and fills
 * defaults. The first problem found is returned, as one sentence naming its JSON path.
 *
 * Cross-field rules: the chosen IOPS basis has its number; drive ids are unique and every
 * `driveId` exists; backing drives are HDD or SSD, a cache `ssd` is an SSD with an endurance;
 * RAID group sizes fit their level (see raid.ts); `referenceId` names a configuration.
 *
 * Example: `parseScenario({ …, drives: [{ …, priceUsd: -250 }] })` →
 * `{ ok: false, error: { code: 'below-min', path: 'drives[0].priceUsd', message: 'drives[0].priceUsd: must be at least 0, got -250.' } }`.
 */
export function parseScenario(input: unknown): PlanResultOr<Scenario> {
  if (input !== null && typeof input === 'object' && 'version' in input && typeof input.version === 'number' && input.version > SCENARIO_VERSION) {
    return {
      ok: false,
      error: planError('too-new', 'version', { found: input.version, supported: SCENARIO_VERSION }, `version: this scenario is version ${input.version}; this build reads up to version ${SCENARIO_VERSION}.`),
    };
  }
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue === undefined) return { ok: false, error: planError('invalid', '', { detail: 'unknown' }, 'The scenario is not valid.') };
    return { ok: false, error: fromZodIssue(issue, input) };
  }
  const s = parsed.data;
  const cross = checkCrossFields(s);
  return cross === null ? { ok: true, value: s } : { ok: false, error: cross };
}

/**
 * Every problem of a scenario, one per field (the Planner marks each and says a sentence for
 * each): all schema problems, one per JSON path; when the schema holds, the first cross-field
 * problem (see {@link parseScenario}). Empty when the scenario is valid.
 * Example: a negative price and a read share of 2 → two errors, at `drives[0].priceUsd` and `workload.readShare`.
 */
export function scenarioProblems(input: unknown): PlanError[] {
  const first = parseScenario(input);
  if (first.ok) return [];
  if (first.error.code === 'too-new') return [first.error];
  const parsed = scenarioSchema.safeParse(input);
  if (parsed.success) return [first.error];
  const out: PlanError[] = [];
  const seen = new Set<string>();
  for (const issue of parsed.error.issues) {
    const e = fromZodIssue(issue, input);
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push(e);
  }
  return out;
}

/** Group-size rules per RAID level; null when fine. Exported for the RAID module's tests. */
export function raidGroupProblem(raid: RaidSpec, path: string): PlanError | null {
  const n = raid.groupSize;
  const bad = (rule: string): PlanError =>
    planError('raid-group', `${path}.groupSize`, { level: raid.level, rule, got: n }, `${path}.groupSize: RAID ${raid.level} needs ${rule}, got ${n}.`);
  switch (raid.level) {
    case '0':
      return null;
    case '1':
      return n === 2 ? null : bad('exactly 2 drives per group');
    case '10':
      return n >= 4 && n % 2 === 0 ? null : bad('an even number of at least 4 drives per group');
    case '5':
      return n >= 3 ? null : bad('at least 3 drives per group');
    case '6':
      return n >= 4 ? null : bad('at least 4 drives per group');
    case 'custom':
      if (raid.writePenalty === undefined)
        return planError('missing', `${path}.writePenalty`, {}, `${path}.writePenalty: this field is required for a custom RAID level.`);
      if (raid.redundantDrivesPerGroup === undefined)
        return planError('missing', `${path}.redundantDrivesPerGroup`, {}, `${path}.redundantDrivesPerGroup: this field is required for a custom RAID level.`);
      return raid.redundantDrivesPerGroup < n ? null : bad('more drives per group than redundant drives');
  }
}

function checkCrossFields(s: Scenario): PlanError | null {
  const basis = s.workload.iops.basis;
  if (s.workload.iops[basis] === undefined)
    return planError('missing', `workload.iops.${basis}`, {}, `workload.iops.${basis}: this field is required because workload.iops.basis is "${basis}".`);
  const ids = new Map<string, DriveModel>();
  for (const [i, d] of s.drives.entries()) {
    if (ids.has(d.id)) return planError('duplicate-id', `drives[${i}].id`, { id: d.id }, `drives[${i}].id: "${d.id}" is used by another drive.`);
    ids.set(d.id, d);
  }
  const configIds = new Set<string>();
  for (const [i, c] of s.configurations.entries()) {
    const at = `configurations[${i}]`;
    if (configIds.has(c.id)) return planError('duplicate-id', `${at}.id`, { id: c.id }, `${at}.id: "${c.id}" is used by another configuration.`);
    configIds.add(c.id);
    if (!ids.has(c.backing.driveId))
      return planError('unknown-drive', `${at}.backing.driveId`, { id: c.backing.driveId }, `${at}.backing.driveId: no drive "${c.backing.driveId}" in drives.`);
    const raidProblem = raidGroupProblem(c.backing.raid, `${at}.backing.raid`);
    if (raidProblem) return raidProblem;
    if (c.backing.count !== undefined && c.backing.count % c.backing.raid.groupSize !== 0)
      return planError(
        'whole-groups',
        `${at}.backing.count`,
        { groupSize: c.backing.raid.groupSize, got: c.backing.count },
        `${at}.backing.count: must be a whole number of RAID groups of ${c.backing.raid.groupSize}, got ${c.backing.count}.`,
      );
    if (c.cache?.kind === 'ssd') {
      const d = ids.get(c.cache.driveId);
      if (d === undefined) return planError('unknown-drive', `${at}.cache.driveId`, { id: c.cache.driveId }, `${at}.cache.driveId: no drive "${c.cache.driveId}" in drives.`);
      if (d.class === 'hdd') return planError('cache-not-ssd', `${at}.cache.driveId`, { id: d.id }, `${at}.cache.driveId: "${d.id}" is a hard disk; a cache drive must be an SSD.`);
      if (d.enduranceTbw === undefined && (d.dwpd === undefined || d.warrantyYears === undefined))
        return planError('no-endurance', `${at}.cache.driveId`, { id: d.id }, `${at}.cache.driveId: drive "${d.id}" has no enduranceTbw (or dwpd and warrantyYears), needed for a cache SSD.`);
      const cacheRaid = raidGroupProblem(c.cache.raid, `${at}.cache.raid`);
      if (cacheRaid) return cacheRaid;
      if (c.cache.count % c.cache.raid.groupSize !== 0)
        return planError(
          'whole-groups',
          `${at}.cache.count`,
          { groupSize: c.cache.raid.groupSize, got: c.cache.count },
          `${at}.cache.count: must be a whole number of RAID groups of ${c.cache.raid.groupSize}, got ${c.cache.count}.`,
        );
    }
  }
  if (s.referenceId !== undefined && !configIds.has(s.referenceId))
    return planError('unknown-config', 'referenceId', { id: s.referenceId }, `referenceId: no configuration "${s.referenceId}".`);
  return null;
}
