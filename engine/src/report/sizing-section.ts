/**
 * The report's sizing section (issue 37): what a workload-profile or fleet report says about the
 * storage to buy, from `planScenario`'s result (nothing computed here). It states the sizing
 * basis (the scenario's, p95 when prefilled) with the peak beside it, and per configuration the
 * drives its IOPS need and the drives its capacity needs (grown to the sizing year), which of the
 * two decides and why, the drives to buy, and its cache (sized from the workload: the engine's
 * size, the block trace's working set, else the stated bytes-moved rule). The TCO bottom line, the
 * cost table and drive life follow in the TCO section (tco-section.ts), which this section does
 * not repeat.
 */
import type { ConfigResult } from '../plan/result.ts';
import type { ProvenanceRow } from '../plan/provenance.ts';
import type { ReportTco } from './input.ts';
import type { ReportKey } from './keys.ts';
import type { Block, ChartSpec, Msg, Section, SummaryRow, Table, Val } from './types.ts';
import { tcoSection } from './tco-section.ts';
import { col, m, msgv, num, pct, str } from './values.ts';

/** Text keys of the sizing section; part of REPORT_KEYS (keys.ts). */
export const SIZING_KEYS = [
  'sec.sizing', 'sz.basis', 'sz.basisNoPeak', 'sz.t.drives', 'sz.t.drivesCaption', 'sz.c.drive', 'sz.c.backEnd', 'sz.c.forIops', 'sz.c.forCapacity',
  'sz.c.toBuy', 'sz.c.decides', 'sz.driveRaid', 'sz.c.cache', 'sz.why.iops', 'sz.why.capacity', 'sz.why.raid-minimum', 'sz.why.typed',
  'sz.cache.none', 'sz.cache.ssd', 'sz.cache.ram', 'sz.cacheBasis.engine', 'sz.cacheBasis.prediction', 'sz.cacheBasis.footprint',
  'sz.cacheBasis.bytes-moved', 'sz.cacheBasis.typed', 'sz.cacheRule.engine', 'sz.cacheRule.prediction', 'sz.cacheRule.footprint',
  'sz.cacheRule.bytes-moved', 'sz.cacheRule.typed', 'sz.hits', 'sz.xl.sheet', 'sz.s.forIops', 'sz.s.forCapacity', 'sz.s.toBuy',
] as const;

/** How the cache of a configuration was sized: the prefill's basis (plan/cache-size.ts), or `typed` (the scenario's own). */
type CacheBasis = 'engine' | 'prediction' | 'footprint' | 'bytes-moved' | 'typed';

function cacheBasis(t: ReportTco, id: string): CacheBasis {
  const cache = t.scenario.configurations.find((c) => c.id === id)?.cache;
  return cache?.kind === 'ram' && cache.sizing !== undefined ? cache.sizing.basis : 'typed';
}

const driveLabel = (t: ReportTco, id: string): Val => str(t.scenario.drives.find((d) => d.id === id)?.label ?? id);

/** The cache of a configuration in a cell: none, n SSDs, or a RAM cache of a size with how it was sized. */
function cacheCell(t: ReportTco, c: ConfigResult): Val {
  const cache = t.scenario.configurations.find((x) => x.id === c.id)?.cache;
  if (cache === undefined) return msgv('sz.cache.none');
  if (cache.kind === 'ssd') return msgv('sz.cache.ssd', { count: num(c.cacheDriveCount, 0), drive: driveLabel(t, cache.driveId) });
  return msgv('sz.cache.ram', { size: { k: 'bytes', v: cache.capacityBytes }, basis: msgv(`sz.cacheBasis.${cacheBasis(t, c.id)}` as ReportKey) });
}

/** Why the deciding count decides: both counts, the back-end IOPS per drive, the capacity in the sizing year. */
function whyVal(t: ReportTco, c: ConfigResult): Val {
  const s = c.sizing;
  const drive = t.scenario.drives.find((d) => d.id === c.backingDriveId);
  return msgv(`sz.why.${s.binding}` as ReportKey, {
    config: str(c.label), forIops: num(s.countForIops, 0), forCapacity: num(s.countForCapacity, 0), minimum: num(s.minimumForRaid, 0), count: num(s.driveCount, 0),
    backEnd: num(c.backEnd.backEndIops, 0), driveIops: num(drive?.iops ?? null, 0, 'iops'), capacity: { k: 'bytes', v: c.capacityBytes },
    year: num(t.plan.sizedForYear, 0), raid: str(c.raidLevel), group: num(s.groupSize, 0),
  });
}

function drivesTable(t: ReportTco): Table {
  const p = t.plan;
  return {
    id: 'sizing-drives', title: m('sz.t.drives', { year: num(p.sizedForYear, 0) }), sheet: true,
    columns: [col('c.configuration', 'left'), col('sz.c.drive', 'left'), col('sz.c.backEnd', 'right', 'iops'), col('sz.c.forIops', 'right', 'count'), col('sz.c.forCapacity', 'right', 'count'),
      col('sz.c.toBuy', 'right', 'count'), col('sz.c.decides', 'left'), col('sz.c.cache', 'left')],
    rows: p.configurations.map((c) => ({
      cells: [str(c.label), msgv('sz.driveRaid', { drive: driveLabel(t, c.backingDriveId), raid: str(c.raidLevel) }), num(c.backEnd.backEndIops, 0), num(c.sizing.countForIops, 0), num(c.sizing.countForCapacity, 0),
        num(c.sizing.driveCount, 0), msgv(`binding.${c.sizing.binding}` as ReportKey), cacheCell(t, c)],
    })),
    caption: m('sz.t.drivesCaption', { basis: msgv(`basis.${p.iopsBasis}` as ReportKey), iops: num(p.frontEndIops, 0, 'iops'), capacity: { k: 'bytes', v: p.capacityBytes }, year: num(p.sizedForYear, 0) }),
  };
}

/** The sizing basis: the basis sized on, the peak beside it (and the mean), today and in the sizing year; capacity today and then. */
function basisMsg(t: ReportTco): Msg {
  const p = t.plan;
  const w = t.scenario.workload;
  const peak = w.iops.peak ?? null;
  return m(peak === null ? 'sz.basisNoPeak' : 'sz.basis', {
    basis: msgv(`basis.${p.iopsBasis}` as ReportKey), iops: num(p.frontEndIopsToday, 0, 'iops'), peak: num(peak, 0, 'iops'), mean: num(w.iops.mean ?? null, 0, 'iops'),
    iopsSized: num(p.frontEndIops, 0, 'iops'), year: num(p.sizedForYear, 0), years: num(p.years, 0),
    tb: { k: 'bytes', v: p.capacityBytesToday }, tbSized: { k: 'bytes', v: p.capacityBytes }, growth: pct(w.growth.capacityPerYear * 100, 1), iopsGrowth: pct(w.growth.iopsPerYear * 100, 1),
  });
}

/** Per cache configuration: how its cache was sized (the rule, stated) and where its hit shares come from. */
function cacheNotes(t: ReportTco): Val[] {
  const out: Val[] = [];
  const files = { capture: str(t.scenario.measuredFrom?.captureFile ?? '—'), file: str(t.scenarioFile) };
  for (const c of t.plan.configurations) {
    const cache = t.scenario.configurations.find((x) => x.id === c.id)?.cache;
    if (cache === undefined) continue;
    if (cache.kind === 'ram') out.push(msgv(`sz.cacheRule.${cacheBasis(t, c.id)}` as ReportKey, { config: str(c.label), size: { k: 'bytes', v: cache.capacityBytes } }));
    const source = (t.sources ?? []).find((r: ProvenanceRow) => r.input === 'readHit' && r.subject === c.label)?.source ?? cache.hitShareSource;
    out.push(msgv('sz.hits', { config: str(c.label), read: pct(cache.readHitShare * 100, 1), write: pct(cache.writeHitShare * 100, 1), source: msgv(`src.${source}` as ReportKey, files) }));
  }
  return out;
}

/** The sizing section and its raw figures (per configuration: drives for IOPS, for capacity, to buy) for the XLSX/CSV summary. */
export function sizingSection(t: ReportTco): { section: Section; summary: SummaryRow[] } {
  const p = t.plan;
  const blocks: Block[] = [
    { type: 'paragraph', text: basisMsg(t) },
    { type: 'table', table: drivesTable(t) },
    { type: 'notes', tone: 'info', items: p.configurations.map((c) => whyVal(t, c)) },
  ];
  const notes = cacheNotes(t);
  if (notes.length > 0) blocks.push({ type: 'notes', tone: 'info', items: notes });
  const summary: SummaryRow[] = p.configurations.flatMap((c) => {
    const row = (what: 'forIops' | 'forCapacity' | 'toBuy', field: string, value: number): SummaryRow => ({
      id: `sizing.${c.id}.${what}`, label: m(`sz.s.${what}` as ReportKey, { label: str(c.label) }), unit: 'count', path: `tco.configurations[${c.id}].sizing.${field}`,
      before: null, after: null, value, low: null, high: null, devices: '',
    });
    return [row('forIops', 'countForIops', c.sizing.countForIops), row('forCapacity', 'countForCapacity', c.sizing.countForCapacity), row('toBuy', 'driveCount', c.sizing.driveCount)];
  });
  return { section: { id: 'sizing', title: m('sec.sizing'), blocks }, summary };
}

/**
 * The sections a workload-profile or fleet report adds for a plan: sizing, then the TCO section
 * (tco-section.ts: the bottom line, the comparison, costs and drive life), with their charts and
 * summary rows; none without a plan.
 */
export function planSections(t: ReportTco | null): { sections: Section[]; charts: ChartSpec[]; summary: SummaryRow[] } {
  if (t === null) return { sections: [], charts: [], summary: [] };
  const sizing = sizingSection(t);
  const tco = tcoSection(t);
  return { sections: [sizing.section, tco.section], charts: tco.charts, summary: [...sizing.summary, ...tco.summary] };
}
