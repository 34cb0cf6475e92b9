/**
 * The decision block (issue 36): what a manager decides on, computed once here and drawn first
 * in every format (PDF, HTML, short form, PPTX, XLSX, dashboard, `cacheproof analyze`). It is
 * a selection of figures computed elsewhere (the TCO verdict of plan/verdict.ts, the analysis'
 * I/Os saved and response time with their 95 % intervals, drive life of plan/life.ts), put as
 * message keys with values in a fixed order, so that every format prints the same words:
 * 1. the verdict with its sizing basis (p95 by default) and the other basis' outcome where it differs;
 * 2. the figures it rests on that were not measured (assumed hit shares, example prices…);
 * 3. pays back or not against the cheapest alternative, with the line item that differs most;
 * 4. before/after: I/Os saved and response time before → after, each with its 95 % interval and
 *    whether the data tells it from no change; a workload profile: the sizing instead;
 * 5. drive life of the recommended (cheapest) configuration;
 * 6. the three caveats that matter most: the windows' length, the prices, what counters cannot see.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { ConfigResult, LineId } from '../plan/result.ts';
import type { InputSource, ProvenanceRow } from '../plan/provenance.ts';
import type { ReportTco } from './input.ts';
import type { ReportKey } from './keys.ts';
import type { Block, Msg, Section, Val } from './types.ts';
import { m, msgv, num, pct, ms, ci, str, duration, list, appDevices, why } from './values.ts';
import { noChange } from './benefit-words.ts';
import { latencyChangeVal } from './latency-change.ts';
import { tcoVerdictText } from './tco-section.ts';

/** Text keys of the decision block; part of REPORT_KEYS (keys.ts). */
export const DECISION_KEYS = [
  'sec.decision', 'dec.assumeItem', 'dec.noTco', 'dec.profileNoTco', 'dec.assumptions', 'dec.allMeasured',
  'dec.pays', 'dec.notPays', 'dec.lineMore', 'dec.lineLess', 'dec.noLine',
  'dec.iosSaved', 'dec.iosSavedNoise', 'dec.iosSavedNoCi', 'dec.iosRose', 'dec.iosRoseNoise', 'dec.iosNa', 'dec.significant',
  'dec.latency', 'dec.latencyNoise', 'dec.latencyNa', 'dec.sizing', 'dec.life', 'dec.lifeNone', 'dec.caveats',
  'dec.cav.windowShort', 'dec.cav.windowOk', 'dec.cav.logShort', 'dec.cav.logOk', 'dec.cav.fleetShort', 'dec.cav.fleetOk', 'dec.assumptionsFleet', 'dec.allMeasuredFleet', 'dec.sizingDrives', 'dec.cav.examplePrices', 'dec.cav.scenarioPrices', 'dec.cav.noPrices', 'dec.cav.counters',
] as const;

/** The block: each line a message of the `report` catalog; null where it does not apply. */
export interface DecisionBlock {
  kind: 'before-after' | 'profile';
  /** The TCO verdict with its basis and the other basis' outcome when it differs; without a TCO scenario, says there is none. */
  verdict: Msg;
  /** The unmeasured figures the verdict rests on, named (null without a TCO scenario). */
  assumptions: Msg | null;
  /** Pays back or not against the cheapest other configuration, with the deciding line item. */
  payback: Msg | null;
  /** Before/after only: I/Os saved with its interval and significance. */
  iosSaved: Msg | null;
  /** Before/after only: response time before → after with its interval and significance. */
  latency: Msg | null;
  /** Workload profile: the sizing the verdict rests on (another engineer builds profile sizing on this field). */
  sizing: Msg | null;
  /** Drive life of the recommended (cheapest) configuration. */
  life: Msg | null;
  /** The three most important caveats, in order: windows, prices, what counters cannot see. */
  caveats: [Msg, Msg, Msg];
}

export type DecisionInput =
  | { kind: 'before-after'; analysis: AnalysisReport; tco: ReportTco | null }
  // fleet: the block of a fleet report, whose figures come from many hosts' logs, not one server's
  // (its window the shortest host's log)
  | { kind: 'profile'; windowSeconds: number; tco: ReportTco | null; fleet?: boolean };

/** Sources that are not a measurement of this server: what the verdict assumes. */
const ASSUMED: readonly InputSource[] = ['assumed', 'example', 'default', 'notRecorded', 'predicted'];

/** The unmeasured inputs of the plan, grouped by where they come from ("System price, Drive price: example price…"), each input named once. */
function assumptionsOf(t: ReportTco, fleet: boolean): Msg {
  const bySource = new Map<InputSource, Val[]>();
  const seen = new Set<string>();
  for (const r of t.sources ?? []) {
    if (!ASSUMED.includes(r.source) || seen.has(r.input)) continue;
    seen.add(r.input);
    bySource.set(r.source, [...(bySource.get(r.source) ?? []), inputName(r)]);
  }
  const files = { capture: str(t.scenario.measuredFrom?.captureFile ?? '—'), file: str(t.scenarioFile) };
  const items: Val[] = [...bySource].map(([source, inputs]) => msgv('dec.assumeItem', { input: { k: 'list', items: inputs }, source: msgv(`src.${source}` as ReportKey, files) }));
  if (items.length === 0) return m(fleet ? 'dec.allMeasuredFleet' : 'dec.allMeasured');
  return m(fleet ? 'dec.assumptionsFleet' : 'dec.assumptions', { items: { k: 'list', items, sep: '; ' } });
}

const inputName = (r: ProvenanceRow): Val => (r.input === 'iops' ? msgv('tin.iops', { basis: msgv(`basis.${r.basis ?? 'typed'}` as ReportKey) }) : msgv(`tin.${r.input}` as ReportKey));

/** Each line item's cost in a configuration (a line id the configuration lacks costs 0). */
function lineCosts(c: ConfigResult): Map<LineId, number> {
  const out = new Map<LineId, number>();
  for (const l of c.lines) out.set(l.id, (out.get(l.id) ?? 0) + l.costUsd);
  return out;
}

/**
 * Pays back or not: the verdict's outcome on the sizing basis (the cache configuration against the
 * reference, plan/verdict.ts), and the line item whose cost differs most (absolute) between that
 * configuration and the cheapest other configuration (the alternative a buyer would take instead).
 * Example (the lab sample, p95): RAM cache 736 USD dearer than "All HDD, RAID 10", the cheapest
 * other → "does not pay back … cache licence, 5 000 USD more with the cache".
 */
function paybackOf(t: ReportTco): Msg | null {
  const p = t.plan;
  const v = p.verdict.chosen;
  const cache = p.configurations.find((c) => c.id === v.configId);
  if (cache === undefined || v.savingsUsd === null || (v.outcome !== 'pays-back' && v.outcome !== 'does-not-pay-back')) return null;
  const alt = p.configurations.filter((c) => c.id !== cache.id).sort((a, b) => a.totalUsd - b.totalUsd)[0];
  if (alt === undefined) return null;
  let line: { id: LineId; diff: number } | null = null;
  const [mine, theirs] = [lineCosts(cache), lineCosts(alt)];
  for (const id of new Set<LineId>([...mine.keys(), ...theirs.keys()])) {
    const diff = (mine.get(id) ?? 0) - (theirs.get(id) ?? 0);
    if (diff !== 0 && (line === null || Math.abs(diff) > Math.abs(line.diff))) line = { id, diff };
  }
  const lineVal: Val = line === null ? msgv('dec.noLine')
    : msgv(line.diff > 0 ? 'dec.lineMore' : 'dec.lineLess', { line: { k: 'tcoLine', id: line.id }, usd: num(Math.abs(line.diff), 0, 'usd') });
  return m(v.outcome === 'pays-back' ? 'dec.pays' : 'dec.notPays', {
    config: str(cache.label), reference: str(v.referenceLabel), usd: num(Math.abs(v.savingsUsd), 0, 'usd'), years: num(p.years, 0), alt: str(alt.label), line: lineVal,
  });
}

/** I/Os saved with its 95 % interval, and whether it can be told from no change (the report's own noise sentence). */
function iosSavedOf(a: AnalysisReport): Msg {
  const s = a.benefit.iosSavedPercent;
  if (s.value === null) return m('dec.iosNa', { why: msgv(`why.${s.reasons['value'] ?? 'no-data'}` as ReportKey) });
  const noise = noChange(a).iosSaved;
  const sig: Val = noise === null ? msgv('dec.significant') : { k: 'msg', m: noise };
  const io = a.benefit.iosToBacking;
  const base = { before: num(io.before, 0), after: num(io.after, 0), devices: list(a.devices.backing), sig };
  // a noise sentence is a sentence of its own (…Noise: after a full stop, none added)
  if (s.value < 0) return m(noise === null ? 'dec.iosRose' : 'dec.iosRoseNoise', { ...base, value: pct(-s.value), ci: s.ci95 === null ? msgv('noCi') : ci(s.ci95, 'pct') });
  if (s.ci95 === null) return m('dec.iosSavedNoCi', { ...base, value: pct(s.value) });
  return m(noise === null ? 'dec.iosSaved' : 'dec.iosSavedNoise', { ...base, value: pct(s.value), ci: ci(s.ci95, 'pct') });
}

/** Response time before → after at the application-facing devices, the engine's change words, the reduction's interval. */
function latencyOf(a: AnalysisReport): Msg {
  const l = a.benefit.latencyMs;
  if (l.before === null || l.after === null) return m('dec.latencyNa', { before: ms(l.before, why(l.reasons, 'before')), after: ms(l.after, why(l.reasons, 'after')) });
  const noise = noChange(a).latency;
  return m(noise === null ? 'dec.latency' : 'dec.latencyNoise', {
    devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after), change: latencyChangeVal(l),
    ci: l.reductionPercentCi95 === null ? msgv('noCi') : ci(l.reductionPercentCi95, 'pct'),
    sig: noise === null ? (l.reductionPercentCi95 === null ? msgv('noCi') : msgv('dec.significant')) : { k: 'msg', m: noise },
  });
}

/** Drive life of the cheapest configuration: its backing drives, and its cache drives when it has some. */
function lifeOf(t: ReportTco): Msg {
  const p = t.plan;
  const best = [...p.configurations].sort((a, b) => a.totalUsd - b.totalUsd)[0];
  if (best === undefined) return m('dec.lifeNone');
  const items: Val[] = [];
  if (best.backingLife !== null) items.push({ k: 'tcoLife', config: best, years: p.years, cache: false });
  if (best.cacheLife !== null) items.push({ k: 'tcoLife', config: best, years: p.years, cache: true });
  if (items.length === 0) return m('dec.lifeNone');
  return m('dec.life', { config: str(best.label), life: { k: 'list', items, sep: ' ' } });
}

/**
 * A workload profile's sizing: the IOPS on the basis today and in the sizing year, then the drives of the
 * configuration the verdict weighs (its cache configuration): for IOPS, for capacity, which decides, to buy.
 */
function sizingOf(t: ReportTco): Msg {
  const p = t.plan;
  const c = p.configurations.find((x) => x.id === p.verdict.chosen.configId) ?? p.configurations.find((x) => x.id === p.referenceId);
  const drives: Val = c === undefined ? str('') : msgv('dec.sizingDrives', {
    config: str(c.label), count: num(c.sizing.driveCount, 0), forIops: num(c.sizing.countForIops, 0), forCapacity: num(c.sizing.countForCapacity, 0), binding: msgv(`binding.${c.sizing.binding}` as ReportKey),
  });
  return m('dec.sizing', { iops: num(p.frontEndIopsToday, 0, 'iops'), basis: msgv(`basis.${p.iopsBasis}` as ReportKey), iopsSized: num(p.frontEndIops, 0, 'iops'), year: num(p.sizedForYear, 0), drives });
}

/** The three caveats: the windows against the 24 h – 7 d a daily figure needs, the prices, what disk counters cannot see. */
function caveatsOf(windows: { baseline: number; measure: number } | { log: number; fleet: boolean }, t: ReportTco | null): [Msg, Msg, Msg] {
  const short = ('log' in windows ? windows.log : Math.min(windows.baseline, windows.measure)) < 24 * 3600;
  const prices = t === null ? m('dec.cav.noPrices') : t.plan.examplePrices ? m('dec.cav.examplePrices') : m('dec.cav.scenarioPrices', { file: str(t.scenarioFile) });
  // a workload profile has one window (the log's), a fleet the shortest host's, a before/after two
  const first = 'log' in windows ? m(windows.fleet ? (short ? 'dec.cav.fleetShort' : 'dec.cav.fleetOk') : short ? 'dec.cav.logShort' : 'dec.cav.logOk', { window: duration(windows.log) })
    : m(short ? 'dec.cav.windowShort' : 'dec.cav.windowOk', { baseline: duration(windows.baseline), measure: duration(windows.measure) });
  return [first, prices, m('dec.cav.counters')];
}

/**
 * The decision block of a before/after analysis or a workload profile, from figures already
 * computed (nothing is computed again). Example: the bundled lab sample with its prefilled
 * scenario → verdict "does not pay back" on p95 and "saves" on the peak (the basis sentence
 * names both), I/Os saved with its interval, drive life of "All HDD, RAID 10".
 */
export function decisionBlock(input: DecisionInput): DecisionBlock {
  const t = input.tco;
  const profile = input.kind === 'profile';
  const fleet = input.kind === 'profile' && input.fleet === true;
  const tcoPart = {
    verdict: t === null ? m(profile ? 'dec.profileNoTco' : 'dec.noTco') : tcoVerdictText(t.plan.verdict),
    assumptions: t === null ? null : assumptionsOf(t, fleet),
    payback: t === null ? null : paybackOf(t),
    life: t === null ? null : lifeOf(t),
  };
  if (input.kind === 'profile') {
    const sizing = t === null ? null : sizingOf(t);
    return { kind: 'profile', ...tcoPart, iosSaved: null, latency: null, sizing, caveats: caveatsOf({ log: input.windowSeconds, fleet }, t) };
  }
  const a = input.analysis;
  return {
    kind: 'before-after', ...tcoPart, iosSaved: iosSavedOf(a), latency: latencyOf(a), sizing: null,
    caveats: caveatsOf({ baseline: a.windows.baseline.seconds, measure: a.windows.measure.seconds }, t),
  };
}

/** The block's sentences in reading order (every format prints exactly these, then the caveats). */
export function decisionLines(d: DecisionBlock): Msg[] {
  return [d.verdict, d.assumptions, d.payback, d.iosSaved, d.latency, d.sizing, d.life].filter((x): x is Msg => x !== null);
}

/** The block as the report's first section: its sentences, then the caveats as warnings. */
export function decisionSection(d: DecisionBlock): Section {
  const blocks: Block[] = [
    ...decisionLines(d).map((text): Block => ({ type: 'paragraph', text })),
    { type: 'subheading', text: m('dec.caveats') },
    { type: 'notes', tone: 'warning', items: d.caveats.map((c): Val => ({ k: 'msg', m: c })) },
  ];
  return { id: 'decision', title: m('sec.decision'), blocks };
}

/** The decision block of a report model (its first section), or null (a model without one: fleet reports). */
export function decisionOf(model: { decision?: DecisionBlock }): DecisionBlock | null {
  return model.decision ?? null;
}
