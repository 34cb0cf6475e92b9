/**
 * The short form of the report, for managers (issue 17): two pages at most, a selection of the
 * full model and nothing computed again. Page one: the verdict, the headline cards, the
 * before/after chart (the IOPS over time, the chart of the PowerPoint deck); page two: the TCO
 * bottom line (the executive summary's TCO sentence and the comparison table), when the report
 * has a TCO scenario, then the caveats' warnings and what the full report adds. Every text and value is the full
 * report's own block, so a figure reads the same in both.
 */
import type { Block, Msg, ReportModel, Section, Val } from './types.ts';
import { m } from './values.ts';

/** The chart the short form shows (the same as the deck's before/after slide). */
export const SHORT_FORM_CHART = 'iops-time';

/** The I/O time sentences (benefit-words.ts): the full report's, left out of the short form's cards. */
const ESTIMATE_KEYS: ReadonlySet<string> = new Set(['iotime.share', 'iotime.perHour', 'iotime.measured', 'iotime.measuredMore', 'iotime.none']);

/** A warning the short form leaves out when the stronger one beside it says more (a window under an hour is under 24 h too). */
const WEAKER: Readonly<Record<string, string>> = { 'short-window': 'very-short-window', 'short-log': 'very-short-log' };

/** A warnings block without the warnings a stronger one beside it covers (the full report keeps both). */
function withoutWeaker(b: Block): Block {
  if (b.type !== 'notes') return b;
  const codes = new Set(b.items.flatMap((v) => (v.k === 'warning' ? [v.w.code] : [])));
  const covered = (v: (typeof b.items)[number]): boolean => v.k === 'warning' && WEAKER[v.w.code] !== undefined && codes.has(WEAKER[v.w.code] as string);
  return b.items.some(covered) ? { ...b, items: b.items.filter((v) => !covered(v)) } : b;
}

/**
 * A card's sentence that a sentence of the decision block contains: the in-OS note of the response
 * time card (disk counters do not see what the cache serves from RAM) is the decision block's
 * "what would settle it" of an in-OS response time that cannot be told from no change.
 */
const RESTATED_BY: Readonly<Record<string, string>> = { 'lat.inOs': 'noise.settle.inOs' };

/** The warnings that a window or a log is shorter than a day or an hour. */
const SHORT_WINDOW_CODES: ReadonlySet<string> = new Set(['short-window', 'very-short-window', 'short-log', 'very-short-log']);

/** A warnings block without the warnings of `codes`. */
function withoutCodes(b: Block, codes: ReadonlySet<string>): Block {
  return b.type === 'notes' ? { ...b, items: b.items.filter((v) => !(v.k === 'warning' && codes.has(v.w.code))) } : b;
}

/** The sizing table's columns the short form keeps: configuration, drives for IOPS, for capacity, to buy, what decides. */
const SHORT_SIZING_COLUMNS = [0, 3, 4, 5, 6];

function narrowSizing(b: Block & { type: 'table' }): Block {
  const pick = <T,>(xs: readonly T[]): T[] => SHORT_SIZING_COLUMNS.flatMap((i) => (xs[i] === undefined ? [] : [xs[i] as T]));
  const { caption: _caption, ...t } = b.table;
  return { type: 'table', table: { ...t, columns: pick(t.columns), rows: t.rows.map((r) => ({ ...r, cells: pick(r.cells) })) } };
}

const blocksOf = (model: ReportModel, id: Section['id']): Block[] => model.sections.find((s) => s.id === id)?.blocks ?? [];

/** Every message a block holds, nested ones included, as JSON (key and values): what it says. */
function saidIn(blocks: readonly Block[]): Set<string> {
  const out = new Set<string>();
  const val = (v: Val): void => {
    if (v.k === 'msg') msg(v.m);
    else if (v.k === 'list') v.items.forEach(val);
  };
  const msg = (x: Msg): void => {
    out.add(JSON.stringify(x));
    Object.values(x.p ?? {}).forEach(val);
  };
  for (const b of blocks) if (b.type === 'paragraph') msg(b.text);
  return out;
}

export function shortForm(full: ReportModel): ReportModel {
  if (full.form === 'short') return full;
  const summary = blocksOf(full, 'summary');
  // the decision block first (decision.ts), as in the full report
  const decision = full.sections.find((s) => s.id === 'decision');
  const verdict = summary.find((b) => b.type === 'paragraph');
  const fullCards = summary.find((b) => b.type === 'cards');
  // the cards as in the full report, less the I/O time sentences (measured and estimated: the full
  // report's summary and cards give both), which the two pages cannot hold in every language beside
  // the decision block
  // nor a sentence the decision block says already (the noise sentence of a saving whose interval
  // includes zero is in its I/Os saved and response time lines): said once, the two pages hold
  const said = saidIn(decision?.blocks ?? []);
  const saidKeys = new Set<string>([...said].map((j) => (JSON.parse(j) as Msg).key));
  // (whole sentences only: a card's own figures, such as the response time's change, stay on the card)
  const restated = (x: Msg): boolean => (x.key.startsWith('noise.') && said.has(JSON.stringify(x))) || (RESTATED_BY[x.key] !== undefined && saidKeys.has(RESTATED_BY[x.key] as string));
  const cards: Block | undefined = fullCards?.type === 'cards'
    ? { type: 'cards', cards: fullCards.cards.map((c) => ({ ...c, subs: c.subs.filter((x) => !ESTIMATE_KEYS.has(x.key) && !restated(x)) })) }
    : fullCards;
  const chart = full.sections.flatMap((s) => s.blocks).find((b) => b.type === 'chart' && b.chart.id === SHORT_FORM_CHART);
  const planned = full.sections.some((s) => s.id === 'sizing') && decision !== undefined;
  // "no warnings" says nothing the decision block's caveats need beside them (a profile with a plan, where the page is short)
  const noWarnings = (b: Block): boolean => planned && b.type === 'notes' && b.items.every((v) => v.k === 'msg' && v.m.key === 'cav.none');
  // the windows' length is the decision block's first caveat when they are short of a day: the warnings that a
  // window or a log is short say it again in other words
  const windowsSaid = full.decision !== undefined && /Short$/u.test(full.decision.caveats[0].key);
  const warnings = blocksOf(full, 'caveats').filter((b) => b.type === 'notes' && b.tone === 'warning').map(withoutWeaker)
    .map((b) => (windowsSaid ? withoutCodes(b, SHORT_WINDOW_CODES) : b)).filter((b) => !noWarnings(b) && !(b.type === 'notes' && b.items.length === 0));
  // a workload profile (profile-report.ts): its busiest hour and capacity, its figures and its busiest-hours heatmap
  const busiest = summary.filter((b) => b.type === 'paragraph' && (b.text.key === 'pr.busiest' || b.text.key === 'pr.capSummary'));
  const sizingSection = full.sections.find((s) => s.id === 'sizing');
  // a profile with a plan (sizing-section.ts): its busiest-hours heatmap is left to the full report and the deck (the busiest
  // hour's sentence names the hour), so that the decision block and the sizing fit the two pages in every language
  const profileIds = sizingSection === undefined ? ['profile-figures', 'profile-hours'] : ['profile-figures'];
  const profileTables = full.sections.flatMap((s) => s.blocks).filter((b) => b.type === 'table' && profileIds.includes(b.table.id));
  // with a decision block, its sentences are the verdict (the summary's own verdict would say the same figures again),
  // except a workload profile's, which says what the workload needs (the decision block says what to buy)
  const lead = verdict !== undefined && (decision === undefined || profileTables.length > 0) ? [verdict] : [];
  const first: Block[] = [...lead, ...busiest, ...(cards === undefined ? [] : [cards]), ...(chart === undefined ? [] : [chart]), ...profileTables];
  const sections: Section[] = [...(decision === undefined ? [] : [decision]), { id: 'summary', title: m('sec.summary'), blocks: first }];
  const tco = full.sections.find((s) => s.id === 'tco');
  if (tco !== undefined) {
    const sentences = summary.find((b) => b.type === 'sentences');
    // the bottom line first: the engine's verdict with its sizing basis (the TCO section's own paragraph), then the summary's TCO sentence
    const verdictLine = decision === undefined ? tco.blocks.filter((b) => b.type === 'paragraph' && b.text.key === 'tco.verdict') : [];
    // with a decision block, its verdict and payback lines say it with their basis: the summary's TCO sentence is left to the full report
    const bottom = sentences?.type === 'sentences' && decision === undefined ? sentences.items.filter((x) => x.key === 'sum.tco' || x.key === 'sum.tcoRef') : [];
    // a workload profile's or a fleet's sizing (sizing-section.ts): per configuration the drives for IOPS, for capacity, to buy and what decides
    // (the drive, back-end IOPS and cache columns are the full report's); with a decision block, its payback line stands for the comparison table
    const sizing = sizingSection?.blocks.flatMap((b) => (b.type === 'table' ? [narrowSizing(b)] : [])) ?? [];
    const table = sizing.length > 0 && decision !== undefined ? undefined : tco.blocks.find((b) => b.type === 'table');
    // the example-prices warning (with a sizing table and a decision block, the block's prices caveat says it)
    const prices = sizing.length > 0 && decision !== undefined ? [] : tco.blocks.filter((b) => b.type === 'paragraph' && b.text.key === 'tco.examplePrices');
    // the example-prices warning before the table, as in the full report (it speaks of "the totals below")
    sections.push({ id: 'tco', title: tco.title, blocks: [...verdictLine, ...bottom.map((text): Block => ({ type: 'paragraph', text })), ...prices, ...sizing, ...(table === undefined ? [] : [table])] });
  }
  // The caveats' warnings are never left out; the last words say what the full report adds.
  const caveats = full.sections.find((s) => s.id === 'caveats');
  sections.push({ id: 'caveats', title: caveats?.title ?? m('sec.caveats'), blocks: [...warnings, { type: 'paragraph', text: m(profileTables.length > 0 ? 'pr.short.seeFull' : 'short.seeFull') }] });
  const charts = sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'chart' ? [b.chart] : []));
  return { ...full, form: 'short', cover: { ...full.cover, subtitle: m('short.subtitle') }, sections, charts };
}
