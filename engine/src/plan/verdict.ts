/**
 * The TCO bottom line (issue 28): one verdict a manager can sign, stated with the IOPS basis the
 * spindles were sized on, and the verdict on the other basis when it differs.
 *
 * Basis. Prefilled scenarios size on the 95th percentile of the measured interval IOPS
 * (`workload.iops.basis = "p95"`, measured.ts), the basis Dell Live Optics sizes on: it covers
 * every interval but the busiest 5 %, so a few seconds of burst (a flush, a backup's first
 * minute) do not buy spindles for the whole period, while the mean would under-size for the
 * busy hours. The peak is the upper bound: sized on it, nothing ever queues. Because the
 * verdict can flip between the two (a cache saves spindles only where IOPS, not capacity,
 * decides their number), the result carries the verdict on p95 and on the peak and the message
 * names the other one whenever it differs.
 *
 * The engine returns message keys and typed values ({@link VerdictMessage}); the app's `verdict`
 * catalog (app/src/shared/i18n/verdict.ts) holds the words in every language, so the Planner,
 * `cacheproof tco` and the report print the same sentence.
 */
import type { IopsBasis, PlanResultOr, Scenario } from './scenario.ts';
import type { Comparison, ConfigResult, LineId, PlanFigures } from './result.ts';

/**
 * A break-even further than this many periods away is not printed as a year: "does not pay back
 * within N years", never "year 348.2" (a year that far assumes the last year's costs go on for
 * centuries).
 */
export const BREAK_EVEN_HORIZON_PERIODS = 3;

/** How a comparison's break-even reads: day one, a year (and month) inside the period, a year beyond it (up to the horizon), or not within the period. */
export type Payback =
  | { kind: 'day-one' }
  | { kind: 'year'; year: number; months: number }
  | { kind: 'beyond'; year: number }
  | { kind: 'not-within'; years: number };

/**
 * The break-even of a comparison as it is printed (the tables of the Planner, `cacheproof tco`
 * and the report, and the verdict).
 * Method: breakEvenYear 0 → day one; a year k inside the period → k and ceil(k × 12) months;
 * else breakEvenBeyondYear up to {@link BREAK_EVEN_HORIZON_PERIODS} × years → that year;
 * else (never, or further) → not within the period.
 * Example: years 4, breakEvenYear null, breakEvenBeyondYear 348.2 → `{ kind: 'not-within', years: 4 }`;
 * breakEvenYear 1.5 → `{ kind: 'year', year: 1.5, months: 18 }`.
 */
export function paybackOf(cmp: Pick<Comparison, 'breakEvenYear' | 'breakEvenBeyondYear'>, years: number): Payback {
  if (cmp.breakEvenYear === 0) return { kind: 'day-one' };
  if (cmp.breakEvenYear !== null) return { kind: 'year', year: cmp.breakEvenYear, months: Math.max(1, Math.ceil(cmp.breakEvenYear * 12 - 1e-9)) };
  const beyond = cmp.breakEvenBeyondYear ?? null;
  if (beyond !== null && beyond <= BREAK_EVEN_HORIZON_PERIODS * years) return { kind: 'beyond', year: beyond };
  return { kind: 'not-within', years };
}

/** A value of a verdict message, typed so that each language formats it: whole USD, a percent, a count, verbatim text or a line item's name. */
export type VerdictValue =
  | { k: 'usd'; v: number }
  | { k: 'pct'; v: number }
  | { k: 'count'; v: number }
  | { k: 'text'; s: string }
  | { k: 'line'; id: LineId }
  | { k: 'basis'; basis: IopsBasis }
  | { k: 'msg'; m: VerdictMessage }
  | { k: 'list'; items: VerdictMessage[] };

/** A sentence (or clause) of the verdict: a key of the `verdict` catalog and its values. */
export interface VerdictMessage {
  key: VerdictKey;
  params: Record<string, VerdictValue>;
}

export const VERDICT_KEYS = [
  'saves', 'savesDayOne', 'noPayback', 'noPaybackNoLine', 'noCache',
  'clause.saves', 'clause.savesDayOne', 'clause.noPayback', 'clause.noCache', 'clause.noFit',
  'sized', 'sizedWithAlt', 'alt', 'why.p95', 'why.peak', 'why.mean', 'why.typed',
  'basis.p95', 'basis.peak', 'basis.mean', 'basis.typed',
] as const;
export type VerdictKey = (typeof VERDICT_KEYS)[number];

export type VerdictOutcome = 'pays-back' | 'does-not-pay-back' | 'no-cache-configuration' | 'does-not-fit';

/** The verdict on one IOPS basis. */
export interface BasisVerdict {
  basis: IopsBasis;
  /** The basis figure today (front-end IOPS, before growth). */
  iops: number;
  outcome: VerdictOutcome;
  /** The cache configuration judged (the one that saves most against the reference); null without one, or when the plan fails. */
  configId: string | null;
  configLabel: string | null;
  referenceId: string;
  referenceLabel: string;
  /** Reference total − configuration total over the period (positive: the cache configuration is cheaper). */
  savingsUsd: number | null;
  savingsPct: number | null;
  payback: Payback | null;
  /** Does not pay back: the line item where the configuration costs most over the reference (the one that decides it) and by how much. */
  decidingLine: { id: LineId; extraUsd: number } | null;
  /** The failure code when the configurations cannot be planned on this basis (e.g. `iops-too-high` on the peak). */
  errorCode: string | null;
}

export interface PlanVerdict {
  /** The basis the plan was sized on (the scenario's `workload.iops.basis`). */
  basis: IopsBasis;
  chosen: BasisVerdict;
  /** The verdict on the other measured bases (p95 and peak, the scenario's own excluded) present in the scenario. */
  others: BasisVerdict[];
  /** True when a basis in `others` reaches another outcome or judges another configuration. */
  differs: boolean;
  /** The bottom line, in order: the verdict sentence, then the basis sentence (naming the differing bases). */
  messages: VerdictMessage[];
}

const isCache = (c: ConfigResult): boolean => c.kind === 'hdd-cache' || c.kind === 'flash-cache';

/**
 * The verdict on one basis from a plan: the cache configuration (not the reference) that saves
 * most; it pays back when it costs less than the reference over the period; otherwise the line
 * item where it costs most over the reference decides it.
 * Example: reference 96 000 USD, "HDD + SSD cache" 104 000 USD, its licence 5 000 USD and cache
 * drives 1 100 USD against none → does not pay back, deciding line `cacheLicense` (+5 000 USD).
 */
export function basisVerdict(r: PlanFigures, basis: IopsBasis, iops: number): BasisVerdict {
  const ref = r.configurations.find((c) => c.id === r.referenceId);
  const base: BasisVerdict = {
    basis, iops, outcome: 'no-cache-configuration', configId: null, configLabel: null, referenceId: r.referenceId, referenceLabel: ref?.label ?? r.referenceId,
    savingsUsd: null, savingsPct: null, payback: null, decidingLine: null, errorCode: null,
  };
  const candidates = r.comparisons
    .map((cmp) => ({ cmp, c: r.configurations.find((x) => x.id === cmp.id) }))
    .filter((x): x is { cmp: Comparison; c: ConfigResult } => x.c !== undefined && x.c.id !== r.referenceId && isCache(x.c))
    .sort((a, b) => b.cmp.savingsUsd - a.cmp.savingsUsd);
  const best = candidates[0];
  if (best === undefined || ref === undefined) return base;
  const { cmp, c } = best;
  const out: BasisVerdict = { ...base, configId: c.id, configLabel: c.label, savingsUsd: cmp.savingsUsd, savingsPct: cmp.savingsPct, payback: paybackOf(cmp, r.years) };
  if (cmp.savingsUsd > 0) return { ...out, outcome: 'pays-back' };
  let deciding: { id: LineId; extraUsd: number } | null = null;
  const ids = new Set<LineId>([...c.lines.map((l) => l.id), ...ref.lines.map((l) => l.id)]);
  for (const id of ids) {
    const cost = (x: ConfigResult): number => x.lines.filter((l) => l.id === id).reduce((a, l) => a + l.costUsd, 0);
    const extra = cost(c) - cost(ref);
    if (extra > 0 && (deciding === null || extra > deciding.extraUsd)) deciding = { id, extraUsd: extra };
  }
  return { ...out, outcome: 'does-not-pay-back', decidingLine: deciding };
}

/** The verdict on a basis whose plan failed (the configurations do not fit): no figures, the failure's code and configuration. */
function failedVerdict(r: PlanFigures, basis: IopsBasis, iops: number, code: string, config: string | null): BasisVerdict {
  const ref = r.configurations.find((c) => c.id === r.referenceId);
  return {
    basis, iops, outcome: 'does-not-fit', configId: null, configLabel: config, referenceId: r.referenceId, referenceLabel: ref?.label ?? r.referenceId,
    savingsUsd: null, savingsPct: null, payback: null, decidingLine: null, errorCode: code,
  };
}

const usd = (v: number): VerdictValue => ({ k: 'usd', v });
const pct = (v: number): VerdictValue => ({ k: 'pct', v });
const count = (v: number): VerdictValue => ({ k: 'count', v });
const text = (s: string): VerdictValue => ({ k: 'text', s });

/** The full sentence of a verdict (`saves`, `savesDayOne`, `noPayback`, `noPaybackNoLine`, `noCache`). */
function sentence(v: BasisVerdict, years: number): VerdictMessage {
  const reference = text(v.referenceLabel);
  if (v.configLabel === null || v.savingsUsd === null || v.savingsPct === null) return { key: 'noCache', params: { reference } };
  const common = { config: text(v.configLabel), years: count(years), reference };
  if (v.outcome === 'pays-back') {
    const p = v.payback;
    if (p?.kind === 'year') return { key: 'saves', params: { ...common, usd: usd(v.savingsUsd), pct: pct(v.savingsPct), months: count(p.months) } };
    return { key: 'savesDayOne', params: { ...common, usd: usd(v.savingsUsd), pct: pct(v.savingsPct) } };
  }
  const more = { ...common, usd: usd(-v.savingsUsd), pct: pct(-v.savingsPct) };
  if (v.decidingLine === null) return { key: 'noPaybackNoLine', params: more };
  return { key: 'noPayback', params: { ...more, line: { k: 'line', id: v.decidingLine.id }, lineUsd: usd(v.decidingLine.extraUsd) } };
}

/** The short clause of a verdict on another basis (after "sized on the peak (N IOPS), …"). */
function clause(v: BasisVerdict, years: number): VerdictMessage {
  if (v.outcome === 'does-not-fit') return { key: 'clause.noFit', params: { config: text(v.configLabel ?? '') } };
  if (v.configLabel === null || v.savingsUsd === null || v.savingsPct === null) return { key: 'clause.noCache', params: {} };
  const config = text(v.configLabel);
  if (v.outcome === 'pays-back') {
    const p = v.payback;
    if (p?.kind === 'year') return { key: 'clause.saves', params: { config, usd: usd(v.savingsUsd), pct: pct(v.savingsPct), months: count(p.months) } };
    return { key: 'clause.savesDayOne', params: { config, usd: usd(v.savingsUsd), pct: pct(v.savingsPct) } };
  }
  return { key: 'clause.noPayback', params: { config, years: count(years), usd: usd(-v.savingsUsd) } };
}

/** Whether a verdict on another basis says something else: another outcome, another configuration, or a different payback (pays back vs day one). */
function differsFrom(a: BasisVerdict, b: BasisVerdict): boolean {
  return a.outcome !== b.outcome || a.configId !== b.configId || (a.payback?.kind === 'day-one') !== (b.payback?.kind === 'day-one');
}

/** The bases the verdict is also given on: p95 and peak, without the chosen one. */
export const VERDICT_BASES: readonly IopsBasis[] = ['p95', 'peak'];

/**
 * The bottom line of a plan: the verdict on the scenario's basis, the verdicts on the other
 * measured bases (p95, peak) the scenario has, and the messages (verdict sentence, basis
 * sentence naming every basis whose verdict differs). `planOn` plans a scenario without a
 * verdict (plan.ts), so that this module does not import the planner.
 * Example: the lab sample's prefilled scenario: on p95 "does not pay back within 4 years … most
 * of it cache licence"; on the peak the cache configuration saves → `differs` true, and the basis
 * sentence reads "Sized on the 95th percentile of the measured IOPS (…); sized on the peak (…), … saves …".
 */
export function planVerdict(s: Scenario, r: PlanFigures, planOn: (s: Scenario) => PlanResultOr<PlanFigures>): PlanVerdict {
  const basis = s.workload.iops.basis;
  const chosen = basisVerdict(r, basis, r.frontEndIopsToday);
  const others: BasisVerdict[] = [];
  for (const b of VERDICT_BASES) {
    const iops = s.workload.iops[b];
    if (b === basis || iops === undefined) continue;
    const other = planOn({ ...s, workload: { ...s.workload, iops: { ...s.workload.iops, basis: b } } });
    if (other.ok) others.push(basisVerdict(other.value, b, iops));
    else others.push(failedVerdict(r, b, iops, other.error.code, typeof other.error.params['config'] === 'string' ? other.error.params['config'] : null));
  }
  const differing = others.filter((o) => differsFrom(chosen, o));
  const sized = { basis: { k: 'basis', basis } as VerdictValue, iops: count(chosen.iops), why: { k: 'msg', m: { key: `why.${basis}`, params: {} } } as VerdictValue };
  const basisSentence: VerdictMessage = differing.length === 0
    ? { key: 'sized', params: sized }
    : { key: 'sizedWithAlt', params: { ...sized, alts: { k: 'list', items: differing.map((o) => ({ key: 'alt', params: { basis: { k: 'basis', basis: o.basis }, iops: count(o.iops), clause: { k: 'msg', m: clause(o, r.years) } } })) } } };
  return { basis, chosen, others, differs: differing.length > 0, messages: [sentence(chosen, r.years), basisSentence] };
}
