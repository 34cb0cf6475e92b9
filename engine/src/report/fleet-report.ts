/**
 * The fleet report (issue 27): the hosts of a fleet with no switch — a fleet capture or a folder
 * of one capture per host — as one load and host by host. The verdict and the aggregate table
 * say the fleet's peak (the peak of the per-moment sum, {@link fleetAggregate}), when it happens,
 * its p95 and mean, and what sizing each host for its own peak would carry; a table names the
 * hosts that make the peak; a table gives each host's own figures (its workload profile:
 * {@link fleetFiguresOfProfile}). Every figure is the engine's, carried as a value; the app words it.
 */
import type { FleetAggregate } from '../benefit/fleet-aggregate.ts';
import type { FleetFigures } from '../benefit/fleet.ts';
import { fleetChart } from './fleet-chart.ts';
import type { ReportKey } from './keys.ts';
import { PROFILE_DECIMALS } from './profile-report.ts';
import type { ReportTco } from './input.ts';
import { planSections } from './sizing-section.ts';
import { decisionBlock, decisionSection } from './decision.ts';
import { REPORT_FORMAT_VERSION, type CoverInput, type ReportModel, type Section, type SummaryRow, type Table, type Val } from './types.ts';
import { col, duration, m, msgv, num, pct, str, time } from './values.ts';

/** Text keys of the fleet report; part of REPORT_KEYS (keys.ts). */
export const FLEET_REPORT_KEYS = [
  'fl.defaultTitle', 'fl.subtitle', 'fl.cover.hosts', 'fl.cover.source', 'fl.cover.window',
  'fl.verdict', 'fl.verdictTogether', 'fl.verdictNone', 'fl.t.aggregate', 'fl.t.aggregateCaption', 'fl.c.value',
  'fl.f.peak', 'fl.f.peakWhen', 'fl.f.p95', 'fl.f.mean', 'fl.f.sumOfPeaks',
  'fl.t.makers', 'fl.t.makersCaption', 'fl.c.host', 'fl.c.iops', 'fl.c.share',
  'fl.t.hosts', 'fl.t.hostsCaption', 'fl.c.devices', 'fl.c.latency', 'fl.c.mbps', 'fl.c.health', 'fl.c.window', 'fl.noFigures',
  'fl.m.sum', 'fl.m.hosts', 'fl.m.pushdown',
  'fl.ch.title', 'fl.ch.series', 'fl.ch.summary', 'fl.ch.p95Line', 'fl.ch.note', 'fl.t.moments', 'fl.c.moment', 'fl.xl.moments',
] as const;

/** One host of the fleet: its own figures (a workload profile), or why it has none. */
export interface FleetReportHost {
  host: string;
  devices: number;
  figures: FleetFigures | null;
  error: { code: string; message: string } | null;
}

/** What the fleet report is built from (the host gathers it: `fleet.open`'s table). */
export interface FleetReportInput {
  /** The fleet capture or the folder, as given. */
  path: string;
  /** `summary`: the figures were computed by the fleet's Prometheus (PromQL pushdown: benefit/fleet-summary.ts). */
  kind: 'capture' | 'folder' | 'summary';
  hosts: FleetReportHost[];
  aggregate: FleetAggregate;
  cover: CoverInput;
  appVersion: string;
  probeVersion: string | null;
  /** Generation time, UTC epoch ms. */
  generatedMs: number;
  /** The plan of the scenario prefilled from the fleet capture (as `tco --from-capture` writes it) or given with --scenario: the sizing and TCO sections; null or absent: none. */
  tco?: ReportTco | null;
}

/** Decimals of the fleet's IOPS (the fleet view prints whole IOPS). */
export const FLEET_IOPS_DECIMALS = 0;

const D = PROFILE_DECIMALS;
const iopsV = (v: number | null): Val => num(v, FLEET_IOPS_DECIMALS, 'iops');

function aggregateTable(a: FleetAggregate): Table {
  const p = a.peak;
  return {
    id: 'fleet-aggregate', title: m('fl.t.aggregate'), sheet: true,
    columns: [col('c.figure', 'left'), col('fl.c.value', 'right', 'iops')],
    rows: [
      { cells: [p === null ? msgv('fl.f.peak') : msgv('fl.f.peakWhen', { start: time(p.startMs), end: time(p.endMs, 'time') }), iopsV(p?.iops ?? null)], strong: true },
      { cells: [msgv('fl.f.p95'), iopsV(a.p95Iops)] },
      { cells: [msgv('fl.f.mean'), iopsV(a.meanIops)] },
      { cells: [msgv('fl.f.sumOfPeaks'), iopsV(a.sumOfHostPeaksIops)] },
    ],
    caption: m('fl.t.aggregateCaption', { moments: num(a.moments, 0), hosts: num(a.hosts, 0) }),
  };
}

function makersTable(a: FleetAggregate): Table | null {
  const p = a.peak;
  if (p === null) return null;
  return {
    id: 'fleet-peak-hosts', title: m('fl.t.makers'), sheet: true,
    columns: [col('fl.c.host', 'left'), col('fl.c.iops', 'right', 'iops'), col('fl.c.share', 'right', 'percent')],
    rows: p.hosts.map((h) => ({ cells: [str(h.host), iopsV(h.iops), pct(h.percent, D.percent)] })),
    caption: m('fl.t.makersCaption', { shown: num(p.hosts.length, 0) }),
  };
}

function hostsTable(hosts: readonly FleetReportHost[]): Table {
  return {
    id: 'fleet-hosts', title: m('fl.t.hosts', { n: num(hosts.length, 0) }), sheet: true,
    columns: [col('fl.c.host', 'left'), col('fl.c.devices'), col('fl.c.latency', 'right', 'ms'), col('fl.c.iops', 'right', 'iops'), col('fl.c.mbps', 'right', 'mbps'), col('fl.c.health', 'left'), col('fl.c.window')],
    rows: hosts.map((h) => {
      const f = h.figures;
      if (f === null) return { cells: [str(h.host), num(h.devices, 0), msgv('fl.noFigures', { why: str(h.error?.message ?? '') }), msgv('na'), msgv('na'), msgv('na'), msgv('na')] };
      return { cells: [str(h.host), num(h.devices, 0), num(f.latencyBeforeMs, D.ms), num(f.iopsBefore, D.iops), num(f.mbpsBefore, D.mbps), msgv(`grade.${f.healthBefore}` as ReportKey), duration(f.secondsBefore)] };
    }),
    caption: m('fl.t.hostsCaption'),
  };
}

/** The fleet's IOPS at each moment, every one (the chart's data, unbucketed): a sheet of the spreadsheet, not printed. */
function momentsTable(a: FleetAggregate): Table {
  const { startMs, iops } = a.series;
  return {
    id: 'fleet-moments', title: m('fl.t.moments'), sheet: true,
    columns: [col('fl.c.moment', 'left'), col('fl.c.iops', 'right', 'iops')],
    rows: startMs.map((t, i) => ({ cells: [time(t), iopsV(iops[i] ?? null)] })),
    caption: m('fl.t.aggregateCaption', { moments: num(a.moments, 0), hosts: num(a.hosts, 0) }),
  };
}

/** The raw figures of the aggregate with their paths in `fleet.open`'s `aggregate` (the XLSX/CSV summary). */
function summaryRows(a: FleetAggregate, devices: string): SummaryRow[] {
  const row = (id: string, label: ReportKey, path: string, value: number | null): SummaryRow => ({ id, label: m(label), unit: 'iops', path, before: null, after: null, value, low: null, high: null, devices });
  return [
    row('fleetPeak', 'fl.f.peak', 'aggregate.peak.iops', a.peak?.iops ?? null),
    row('fleetP95', 'fl.f.p95', 'aggregate.p95Iops', a.p95Iops),
    row('fleetMean', 'fl.f.mean', 'aggregate.meanIops', a.meanIops),
    row('fleetSumOfPeaks', 'fl.f.sumOfPeaks', 'aggregate.sumOfHostPeaksIops', a.sumOfHostPeaksIops),
  ];
}

/** The fleet report model. Pure. */
export function buildFleetReportModel(input: FleetReportInput): ReportModel {
  const a = input.aggregate;
  const p = a.peak;
  const makers = makersTable(a);
  const chart = fleetChart(a);
  const verdict = p === null
    ? m('fl.verdictNone')
    // the hosts' peaks summed are more than the fleet's when they do not all peak at its peak moment
    : m(a.sumOfHostPeaksIops !== null && a.sumOfHostPeaksIops > p.iops ? 'fl.verdict' : 'fl.verdictTogether', { hosts: num(a.hosts, 0), peak: iopsV(p.iops), start: time(p.startMs), end: time(p.endMs, 'time'), p95: iopsV(a.p95Iops), mean: iopsV(a.meanIops), sumOfPeaks: iopsV(a.sumOfHostPeaksIops) });
  const tco = input.tco ?? null;
  const plan = planSections(tco);
  // with a plan, the decision block first (decision.ts), its window the shortest host's
  const windows = input.hosts.flatMap((h) => (h.figures === null ? [] : [h.figures.secondsBefore]));
  const decision = tco === null ? undefined : decisionBlock({ kind: 'profile', windowSeconds: windows.length === 0 ? 0 : Math.min(...windows), tco, fleet: true });
  const sections: Section[] = [
    ...(decision === undefined ? [] : [decisionSection(decision)]),
    { id: 'summary', title: m('sec.summary'), blocks: [{ type: 'paragraph', text: verdict }, { type: 'table', table: aggregateTable(a) }, ...(chart === null ? [] : [{ type: 'chart' as const, chart }])] },
    { id: 'results', title: m('sec.results'), blocks: [...(makers === null ? [] : [{ type: 'table' as const, table: makers }]), { type: 'table', table: hostsTable(input.hosts) }] },
    ...plan.sections,
    { id: 'method', title: m('sec.method'), blocks: [{ type: 'paragraph', text: m('fl.m.sum') }, { type: 'paragraph', text: m('fl.m.hosts') }, ...(input.kind === 'summary' ? [{ type: 'paragraph' as const, text: m('fl.m.pushdown') }] : [])] },
  ];
  const cover = input.cover;
  const rows: { label: ReturnType<typeof m>; value: Val[] }[] = [
    ...(cover.customer === undefined || cover.customer.trim() === '' ? [] : [{ label: m('cover.customer'), value: [str(cover.customer)] }]),
    ...(cover.author === undefined || cover.author.trim() === '' ? [] : [{ label: m('cover.author'), value: [str(cover.author)] }]),
    { label: m('cover.prepared'), value: [time(cover.preparedMs ?? input.generatedMs, 'date')] },
    { label: m('fl.cover.hosts'), value: [num(input.hosts.length, 0)] },
    ...(p === null ? [] : [{ label: m('fl.cover.window'), value: [num(a.moments, 0)] }]),
    { label: m('fl.cover.source'), value: [str(input.path)] },
    { label: m('cover.version'), value: [msgv('cover.versionValue', { app: str(input.appVersion), probe: input.probeVersion === null ? msgv('unknown') : str(input.probeVersion) })] },
  ];
  const title: Val = cover.title !== undefined && cover.title.trim() !== '' ? str(cover.title) : msgv('fl.defaultTitle');
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    form: 'full',
    generatedMs: input.generatedMs,
    cover: { title, subtitle: m('fl.subtitle'), rows },
    footer: cover.customer !== undefined && cover.customer.trim() !== '' ? str(cover.customer) : msgv('fl.defaultTitle'),
    sections,
    ...(decision === undefined ? {} : { decision }),
    summary: [...summaryRows(a, input.hosts.map((h) => h.host).join(', ')), ...plan.summary],
    charts: [...(chart === null ? [] : [chart]), ...plan.charts],
    sheets: a.series.startMs.length === 0 ? [] : [momentsTable(a)],
    intervalDevices: [],
  };
}
