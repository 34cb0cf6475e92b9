/**
 * The report's TCO section: the plan's configurations, stacked costs, cumulative costs and the
 * summary rows, from `planScenario`'s result (no cost computed here).
 */
import { COST_STACKS, stackCostUsd, type ConfigResult, type PlanResult } from '../plan/result.ts';
import { savingsSensitivity, type SavingsSensitivity, type TornadoBar, type TornadoInput } from '../plan/tornado.ts';
import { tcoComparisonTable, type TcoCell, type TcoColumnId } from '../plan/tco-table.ts';
import type { Payback, PlanVerdict } from '../plan/verdict.ts';
import type { ReportKey } from './keys.ts';
import type { Block, ChartSpec, Msg, Section, SummaryRow, Table, Val } from './types.ts';
import type { ReportTco } from './input.ts';
import type { ProvenanceRow } from '../plan/provenance.ts';
import { m, str, msgv, empty, num, pct, col } from './values.ts';
import { COLOR, COST_COLOR, configColor, configDashed } from './colors.ts';

/** A provenance row's value in its unit (shares as percents, sizes in the unit that fits). */
function sourceValue(r: ProvenanceRow): Val {
  switch (r.input) {
    case 'years': return num(r.value, 0);
    case 'iops': return num(r.value, 0, 'iops');
    case 'readShare': case 'readHit': case 'writeHit': case 'capacityGrowth': case 'iopsGrowth': return pct(r.value === null ? null : r.value * 100, 1);
    case 'requestSize': case 'capacity': case 'ramSize': return { k: 'bytes', v: r.value };
    case 'yearlyBytes': return r.value === null ? msgv('src.fromIops') : { k: 'bytes', v: r.value };
    case 'energyKwh': return num(r.value, 3);
    case 'energyPerDrive': case 'systemPrice': case 'ramPrice': case 'drivePrice': return num(r.value, 0, 'usd');
  }
}

/**
 * "Where the inputs come from": every input of the plan with its origin (engine inputProvenance).
 * `diskIosAvoided`: the capture is the in-OS cache case (benefit/layers.ts), where a read hit share
 * taken from the counters is the disk I/Os avoided, never "reads served by the cache".
 */
function sourcesTable(t: ReportTco, diskIosAvoided: boolean): Table {
  const capture = str(t.scenario.measuredFrom?.captureFile ?? '—');
  const rows: Table['rows'] = (t.sources ?? []).map((r) => ({
    cells: [
      r.input === 'iops' ? msgv('tin.iops', { basis: msgv(`basis.${r.basis ?? 'typed'}` as ReportKey) })
        : r.input === 'readHit' && diskIosAvoided && r.source === 'measured' ? msgv('tin.readHitDiskAvoided') : msgv(`tin.${r.input}` as ReportKey),
      r.subject === null ? empty : str(r.subject),
      sourceValue(r),
      msgv(`src.${r.source}` as ReportKey, { capture, file: str(t.scenarioFile) }),
    ],
  }));
  return { id: 'tco-sources', title: m('t.tcoSources'), sheet: true, columns: [col('c.input', 'left'), col('c.appliesTo', 'left'), col('c.valueUsed', 'right'), col('c.source', 'left')], rows, caption: m('tco.sourcesCaption') };
}

/** The TCO bottom line as a report message: the same sentence as `cacheproof tco` and the Planner print. */
export function tcoVerdictText(v: PlanVerdict): Msg {
  return m('tco.verdict', { text: { k: 'tcoVerdict', verdict: v } });
}

/** A break-even as the engine words it (paybackOf): never a year past 3× the period. */
function breakEvenVal(pb: Payback, years: number): Val {
  switch (pb.kind) {
    case 'day-one': return msgv('tco.dayOne');
    case 'year': return msgv('tco.year', { year: num(pb.year, 1) });
    case 'beyond': return msgv('tco.beyond', { years: num(years, 0), year: num(pb.year, 1) });
    case 'not-within': return msgv('tco.never', { years: num(years, 0) });
  }
}

/** The report's head of each comparison column (the table model is the engine's: tcoComparisonTable). */
const COMPARISON_HEADS: Record<TcoColumnId, ReportKey> = {
  configuration: 'c.configuration', drives: 'c.drives', totalUsd: 'c.totalUsd', savingsUsd: 'c.savingsUsd',
  savingsPct: 'c.savingsPct', usdPerIops: 'c.usdPerIops', usdPerTb: 'c.usdPerTb', breakEven: 'c.breakEven',
};

/** A comparison cell as a report value. */
function comparisonVal(cell: TcoCell, years: number): Val {
  switch (cell.kind) {
    case 'text': return str(cell.text);
    case 'number': return cell.column === 'savingsPct' ? pct(cell.value, cell.digits) : num(cell.value, cell.digits);
    case 'reference': return msgv('tco.reference');
    case 'payback': return breakEvenVal(cell.payback, years);
  }
}

/** The comparison against the reference: the engine's table model, the one the Planner and `cacheproof tco` draw. */
function comparisonTable(p: PlanResult): Table {
  const model = tcoComparisonTable(p);
  return {
    id: 'tco-comparison', title: m('t.tcoComparison', { years: num(p.years, 0) }), sheet: true,
    columns: model.columns.map((c) => col(COMPARISON_HEADS[c.id], c.align, c.unit ?? undefined)),
    rows: model.rows.map((row) => ({ cells: row.cells.map((cell) => comparisonVal(cell, model.years)) })),
  };
}

/** The section's opening paragraphs: what was planned, where the plan comes from, example prices, the bottom line. */
function introBlocks(t: ReportTco): Block[] {
  const p = t.plan;
  const ref = p.configurations.find((c) => c.id === p.referenceId);
  const blocks: Block[] = [];
  blocks.push({ type: 'paragraph', text: m('tco.intro', {
    title: str(p.title === '' ? t.scenarioFile : p.title), file: str(t.scenarioFile), years: num(p.years, 0), year: num(p.sizedForYear, 0),
    iops: num(p.frontEndIopsToday, 0), iopsSized: num(p.frontEndIops, 0), basis: msgv(`basis.${p.iopsBasis}` as ReportKey),
    tb: { k: 'bytes', v: p.capacityBytesToday }, tbSized: { k: 'bytes', v: p.capacityBytes }, reference: str(ref?.label ?? p.referenceId),
  }) });
  if (t.origin !== undefined) blocks.push({ type: 'paragraph', text: m(t.origin === 'planner' ? 'tco.originPlanner' : 'tco.originPrefilled') });
  if (p.examplePrices) blocks.push({ type: 'paragraph', text: m('tco.examplePrices') });
  // the bottom line (engine verdict: the basis it was sized on, and the other basis when the verdict differs there)
  blocks.push({ type: 'paragraph', text: tcoVerdictText(p.verdict) });
  return blocks;
}

/** The stacked costs per configuration and the cumulative costs per year. */
function costCharts(p: PlanResult): [ChartSpec, ChartSpec] {
  const costChart: ChartSpec = {
    id: 'tco-costs', kind: 'stacked-bar', title: m('ch.tcoCostsTitle', { years: num(p.years, 0) }),
    x: { kind: 'category', label: m('ax.configuration'), categories: p.configurations.map((c) => str(c.label)) },
    y: { label: m('ax.usd'), unit: 'usd', min: 0 },
    // each cost item in its own colour of the cost ramp (colors.ts), the same in the Planner
    series: COST_STACKS.map((s) => ({ name: msgv(`stack.${s.id}`), color: COST_COLOR[s.id], points: p.configurations.map((c, j) => [j, stackCostUsd(c, s.id)] as [number, number | null]) })),
    summary: m('ch.tcoCostsSummary', { text: { k: 'list', items: p.configurations.map((c) => msgv('ch.configTotal', { label: str(c.label), total: num(c.totalUsd, 0) })), sep: '; ' } }),
  };
  const cumChart: ChartSpec = {
    id: 'tco-cumulative', kind: 'line', title: m('ch.tcoCumulativeTitle'),
    x: { kind: 'year', label: m('ax.year') },
    y: { label: m('ax.usd'), unit: 'usd', min: 0 },
    // each configuration its own colour by its place in the scenario (colors.ts configColor), as in the Planner
    series: p.configurations.map((c, i) => ({
      name: str(c.label), color: configColor(i), points: c.cumulativeUsd.map((v, y) => [y, v] as [number, number | null]),
      ...(configDashed(i) ? { dashed: true } : {}),
    })),
    summary: m('ch.tcoCumulativeSummary', { years: num(p.years, 0) }),
  };
  return [costChart, cumChart];
}

/** A tornado input's value in its unit. */
function tornadoVal(input: TornadoInput, v: number): Val {
  return input === 'hitShare' || input === 'capacityGrowth' || input === 'iopsGrowth' ? pct(v * 100, 1)
    : input === 'capacity' ? { k: 'bytes', v }
      : input === 'energyPrice' ? num(v, 3)
        : num(v, 0);
}

/** Savings sensitivity as a table sorted by swing (engine savingsSensitivity, the Planner's chart, `tco --json` sensitivity). */
function sensitivityTable(sv: SavingsSensitivity, label: (id: string) => Val, pctText: Val): Table {
  const failed = (b: TornadoBar): Val => msgv('tco.sensFailed', { code: str(b.errorCode ?? '') });
  const rows: Table['rows'] = sv.bars.map((b) => ({
    cells: [msgv(`tsens.${b.input}` as ReportKey), tornadoVal(b.input, b.lowValue), tornadoVal(b.input, b.highValue),
      b.savingsLowUsd === null ? failed(b) : num(b.savingsLowUsd, 0),
      b.savingsHighUsd === null ? failed(b) : num(b.savingsHighUsd, 0),
      num(b.swingUsd, 0)],
  }));
  return {
    id: 'tco-sensitivity', title: m('t.tcoSensitivity', { label: label(sv.configId), reference: label(sv.referenceId), pct: pctText }), sheet: true,
    columns: [col('c.input', 'left'), { head: m('c.lowValue', { pct: pctText }), align: 'right' }, { head: m('c.highValue', { pct: pctText }), align: 'right' },
      { head: m('c.savingsLow', { pct: pctText }), align: 'right', unit: 'usd' }, { head: m('c.savingsHigh', { pct: pctText }), align: 'right', unit: 'usd' }, col('c.swingUsd', 'right', 'usd')],
    rows,
  };
}

/** The sensitivity table, its vertical tornado chart and the sentence on the largest swing. */
function sensitivityBlocks(p: PlanResult, sv: SavingsSensitivity): { blocks: Block[]; chart: ChartSpec } {
  const pctText = num(sv.change * 100, 0);
  const label = (id: string): Val => str(p.configurations.find((c) => c.id === id)?.label ?? id);
  const blocks: Block[] = [{ type: 'table', table: sensitivityTable(sv, label, pctText) }];
  const top = sv.bars[0];
  // A vertical tornado: per input (largest swing first), the change in savings at −change and at +change.
  const delta = (v: number | null): number | null => (v === null ? null : v - sv.baseSavingsUsd);
  const chart: ChartSpec = {
    id: 'tco-sensitivity', kind: 'bar', title: m('ch.tcoSensTitle', { label: label(sv.configId), pct: pctText }),
    x: { kind: 'category', label: m('c.input'), categories: sv.bars.map((b) => msgv(`tsens.${b.input}` as ReportKey)) },
    y: { label: m('ax.savingsChange'), unit: 'usd' },
    series: [
      { name: msgv('ser.sensLow', { pct: pctText }), color: COLOR.category1, points: sv.bars.map((b, i) => [i, delta(b.savingsLowUsd)] as [number, number | null]) },
      { name: msgv('ser.sensHigh', { pct: pctText }), color: COLOR.category2, points: sv.bars.map((b, i) => [i, delta(b.savingsHighUsd)] as [number, number | null]) },
    ],
    summary: m('ch.tcoSensSummary', { savings: num(sv.baseSavingsUsd, 0), input: top === undefined ? empty : msgv(`tsens.${top.input}` as ReportKey), swing: num(top?.swingUsd ?? null, 0) }),
  };
  blocks.push({ type: 'chart', chart });
  if (top !== undefined && top.swingUsd !== null)
    blocks.push({ type: 'paragraph', text: m('tco.sensLargest', { input: msgv(`tsens.${top.input}` as ReportKey), swing: num(top.swingUsd, 0), years: num(p.years, 0), savings: num(sv.baseSavingsUsd, 0), pct: pctText }) });
  return { blocks, chart };
}

/** Per configuration: its sizing, its line items with upfront and total, its drive life and warnings. */
function configBlocks(t: ReportTco, c: ConfigResult): Block[] {
  const p = t.plan;
  const blocks: Block[] = [];
  blocks.push({ type: 'subheading', text: m('tco.config'), sub: str(c.label) });
  blocks.push({ type: 'paragraph', text: m('tco.sizing', {
    count: num(c.sizing.driveCount, 0), drive: str(t.scenario.drives.find((d) => d.id === c.backingDriveId)?.label ?? c.backingDriveId), raid: str(c.raidLevel),
    binding: msgv(`binding.${c.sizing.binding}` as ReportKey), backEnd: num(c.backEnd.backEndIops, 0), cacheDrives: num(c.cacheDriveCount, 0), enclosures: num(c.enclosures, 0), watts: num(c.watts, 0),
  }) });
  const rows: Table['rows'] = c.lines.map((l) => ({ cells: [{ k: 'tcoLine', id: l.id }, { k: 'tcoDetail', line: l }, num(l.costUsd, 0)] as Val[] }));
  rows.push({ strong: true, cells: [msgv('tco.upfront'), empty, num(c.upfrontUsd, 0)] });
  rows.push({ strong: true, cells: [msgv('tco.total', { years: num(p.years, 0) }), empty, num(c.totalUsd, 0)] });
  blocks.push({ type: 'table', table: { id: `tco-lines-${c.id}`, title: m('t.tcoLines', { label: str(c.label) }), sheet: true, columns: [col('c.lineItem', 'left'), col('c.detail', 'left'), col('c.amountUsd', 'right', 'usd')], rows } });
  const life: Val[] = [{ k: 'tcoLife', config: c, years: p.years, cache: false }];
  if (c.cacheLife !== null) life.push({ k: 'tcoLife', config: c, years: p.years, cache: true });
  for (const w of c.warnings) life.push({ k: 'tcoWarn', code: w.code, params: w.params });
  blocks.push({ type: 'notes', tone: 'info', items: life });
  return blocks;
}

export function tcoSection(t: ReportTco, diskIosAvoided = false): { section: Section; charts: ChartSpec[]; summary: SummaryRow[] } {
  const p = t.plan;
  const blocks: Block[] = introBlocks(t);
  blocks.push({ type: 'table', table: comparisonTable(p) });
  if (t.sources !== undefined && t.sources.length > 0) blocks.push({ type: 'table', table: sourcesTable(t, diskIosAvoided) });
  const [costChart, cumChart] = costCharts(p);
  blocks.push({ type: 'chart', chart: costChart }, { type: 'chart', chart: cumChart });
  const charts: ChartSpec[] = [costChart, cumChart];
  const sens = savingsSensitivity(t.scenario);
  if (sens.ok) {
    const s = sensitivityBlocks(p, sens.value);
    blocks.push(...s.blocks);
    charts.push(s.chart);
  }
  for (const c of p.configurations) blocks.push(...configBlocks(t, c));
  const summary: SummaryRow[] = p.comparisons.map((cmp) => {
    const c = p.configurations.find((x) => x.id === cmp.id) as ConfigResult;
    return { id: `tco.${c.id}`, label: m('sumrow.tcoTotal', { label: str(c.label), years: num(p.years, 0) }), unit: 'usd', path: `tco.configurations[${c.id}].totalUsd`, before: null, after: null, value: c.totalUsd, low: null, high: null, devices: '' };
  });
  return { section: { id: 'tco', title: m('sec.tco'), blocks }, charts, summary };
}
