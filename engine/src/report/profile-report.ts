/**
 * The workload-profile report model (issue 27): the report of a capture with no before/after (a
 * log imported with no switch, a run stopped before it, or any capture profiled on purpose),
 * drawn by the same exporters as the before/after report ({@link ReportModel}). It says what the
 * disks were asked to carry, for sizing the storage that would carry it:
 * - the verdict up front, one paragraph: IOPS to carry at the 95th percentile and at peak (and on
 *   average), throughput, read share, request size, and the response time against the targets;
 * - the figures table (mean, p95, peak, with units and the window), the per-device table;
 * - health against the latency targets (the profile's own grading: averages, intervals and runs
 *   breaking each target, the longest runs), PAL-style;
 * - the method, the caveats and the sources appendix (files, formats, time zones, hashes).
 *
 * Every figure is the profile's own number (`cacheproof analyze --profile --json`), shown at the
 * precision `analyze --profile` prints it: IOPS 1 decimal, MB/s 2, response times 3 (ms),
 * percents 1, request size 1 (KiB). Pure: no clock, no I/O, no language (text is keys).
 */
import { sliceBlocks } from './profile-slices.ts';
import { busiestDeviceMsg } from './profile-busy.ts';
import { upperLayerMsg, upperLayerTable } from './profile-layer.ts';
import type { WorkloadProfile } from '../benefit/profile.ts';
import type { BreakingSpan, HealthCheck } from '../benefit/health.ts';
import type { Distribution, WindowSummary } from '../metrics/summary.ts';
import type { ReportKey } from './keys.ts';
import type { ReportCapture, ReportTco } from './input.ts';
import { decisionBlock, decisionSection } from './decision.ts';
import { planSections } from './sizing-section.ts';
import { REPORT_FORMAT_VERSION, type Block, type CoverInput, type Msg, type ReportModel, type Section, type SummaryRow, type Table, type Unit, type Val } from './types.ts';
import { col, duration, empty, gradeVal, list, m, msgv, num, pct, presetVal, sig, str, targetsVal, time } from './values.ts';
import { importsTable } from './build.ts';
import { busiestMsg, capacityBlocks, capacityMsg, hoursTable } from './profile-hours.ts';
import { profileChartBlocks, profileCharts } from './profile-charts.ts';
import { profileDayBlocks } from './profile-days.ts';
import type { ProfileSeries } from './profile-series.ts';

/** What the profile report is built from (the host gathers it). */
export interface ProfileReportInput {
  profile: WorkloadProfile;
  capture: ReportCapture;
  /** The capture's `hostname` meta, or null. */
  hostname: string | null;
  cover: CoverInput;
  appVersion: string;
  /** Generation time, UTC epoch ms. */
  generatedMs: number;
  /** The time charts' lines (profile-series.ts `profileSeries` of the capture's columns); no time chart without them. */
  series?: ProfileSeries | null;
  /** The plan of the scenario prefilled from this capture (or given with --scenario): the sizing and TCO sections and the decision's verdict; null or absent: none. */
  tco?: ReportTco | null;
}

/** Decimals of each figure, as `cacheproof analyze --profile` prints them (app/src/cli/profile-text.ts). */
export const PROFILE_DECIMALS = { iops: 1, mbps: 2, ms: 3, percent: 1, kib: 1, queue: 2 } as const;

/** The longest breaking runs listed in the spans table. */
export const PROFILE_MAX_SPANS_SHOWN = 10;

const D = PROFILE_DECIMALS;
const iopsV = (v: number | null): Val => num(v, D.iops, 'iops');
const mbpsV = (v: number | null): Val => num(v, D.mbps, 'mbps');
const msV = (v: number | null): Val => num(v, D.ms, 'ms');
const kibV = (bytes: number | null): Val => num(bytes === null ? null : bytes / 1024, D.kib);

/** The application-facing devices of a profile. */
export function profileDevices(p: WorkloadProfile): string[] {
  return p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
}

function intervalVal(sampleIntervalMs: number | null): Val {
  return sampleIntervalMs === null ? msgv('unknown') : num(sampleIntervalMs / 1000, sampleIntervalMs % 1000 === 0 ? 0 : 3, 's');
}

/** The response-time sentence of the verdict: the average against the targets, by the profile's grade. */
function healthMsg(p: WorkloadProfile): Val {
  return msgv(`pr.health.${p.health.window.grade}` as ReportKey, { preset: presetVal(p), targets: targetsVal(p) });
}

/**
 * The verdict: what the disks need to carry this workload, in one paragraph (the p95 and peak
 * IOPS first, then the mean, the throughput, the read share, the request size and the response
 * time against the targets). The same figures as `analyze --profile --json`:
 * `appFacing.percentiles.iops.p95`, `.max`, `appFacing.means.iops`, `.mbps`, `percentiles.mbps.max`,
 * `.readSharePercent`, `.avgRequestBytes`, `.awaitMs`.
 */
export function profileVerdict(p: WorkloadProfile, sampleIntervalMs: number | null): Msg {
  const a = p.appFacing;
  return m('pr.verdict', {
    devices: list(profileDevices(p)),
    p95: iopsV(a.percentiles.iops?.p95 ?? null),
    peak: iopsV(a.percentiles.iops?.max ?? null),
    mean: iopsV(a.means.iops),
    interval: intervalVal(sampleIntervalMs),
    mbps: mbpsV(a.means.mbps),
    mbpsPeak: mbpsV(a.percentiles.mbps?.max ?? null),
    readShare: pct(a.means.readSharePercent, D.percent),
    size: kibV(a.means.avgRequestBytes),
    latency: msV(a.means.awaitMs),
    health: healthMsg(p),
  });
}

interface FigureRow {
  id: string;
  label: ReportKey;
  unit: Unit | null;
  /** Shown in the unit column (KiB and aqu-sz have no report unit). */
  unitText: Val;
  mean: number | null;
  dist: Distribution | null;
  d: number;
  path: string;
  kind?: 'pct';
}

function figureRows(s: WindowSummary): FigureRow[] {
  const u = (unit: Unit): Val => msgv(`unit.${unit}` as ReportKey);
  const p = s.percentiles;
  const mm = s.means;
  return [
    { id: 'iops', label: 'pr.f.iops', unit: 'iops', unitText: u('iops'), mean: mm.iops, dist: p.iops, d: D.iops, path: 'iops' },
    { id: 'readsPerSec', label: 'pr.f.readsPerSec', unit: 'iops', unitText: u('iops'), mean: mm.readsPerSec, dist: p.readsPerSec, d: D.iops, path: 'readsPerSec' },
    { id: 'writesPerSec', label: 'pr.f.writesPerSec', unit: 'iops', unitText: u('iops'), mean: mm.writesPerSec, dist: p.writesPerSec, d: D.iops, path: 'writesPerSec' },
    { id: 'mbps', label: 'pr.f.mbps', unit: 'mbps', unitText: u('mbps'), mean: mm.mbps, dist: p.mbps, d: D.mbps, path: 'mbps' },
    { id: 'awaitMs', label: 'pr.f.awaitMs', unit: 'ms', unitText: u('ms'), mean: mm.awaitMs, dist: p.awaitMs, d: D.ms, path: 'awaitMs' },
    { id: 'rAwaitMs', label: 'pr.f.rAwaitMs', unit: 'ms', unitText: u('ms'), mean: mm.rAwaitMs, dist: p.rAwaitMs, d: D.ms, path: 'rAwaitMs' },
    { id: 'wAwaitMs', label: 'pr.f.wAwaitMs', unit: 'ms', unitText: u('ms'), mean: mm.wAwaitMs, dist: p.wAwaitMs, d: D.ms, path: 'wAwaitMs' },
    { id: 'aquSz', label: 'pr.f.aquSz', unit: 'requests', unitText: u('requests'), mean: mm.aquSz, dist: p.aquSz, d: D.queue, path: 'aquSz' },
    { id: 'utilPercent', label: 'pr.f.utilPercent', unit: 'percent', unitText: u('percent'), mean: mm.utilPercent, dist: p.utilPercent, d: D.percent, path: 'utilPercent', kind: 'pct' },
    { id: 'requestSize', label: 'pr.f.requestSize', unit: null, unitText: msgv('pr.u.kib'), mean: mm.avgRequestBytes === null ? null : mm.avgRequestBytes / 1024, dist: null, d: D.kib, path: 'avgRequestBytes' },
    { id: 'readShare', label: 'pr.f.readShare', unit: 'percent', unitText: u('percent'), mean: mm.readSharePercent, dist: null, d: D.percent, path: 'readSharePercent', kind: 'pct' },
  ];
}

/** Mean, p95 and peak of every figure of the application-facing group over the window. */
function figuresTable(p: WorkloadProfile, sampleIntervalMs: number | null): Table {
  const a = p.appFacing;
  const cell = (r: FigureRow, v: number | null, isMean: boolean): Val => {
    if (!isMean && r.dist === null) return msgv('na');
    const why = isMean ? a.means.reasons[r.path] : a.percentiles.reasons[r.path];
    return r.kind === 'pct' ? pct(v, r.d, why) : num(v, r.d, undefined, why);
  };
  return {
    id: 'profile-figures', title: m('pr.t.figures', { devices: list(profileDevices(p)), duration: duration(p.window.seconds) }), sheet: true,
    columns: [col('c.figure', 'left'), col('pr.c.unit', 'left'), col('c.mean'), col('c.p95'), col('c.peak')],
    rows: figureRows(a).map((r) => ({ cells: [msgv(r.label), r.unitText, cell(r, r.mean, true), cell(r, r.dist?.p95 ?? null, false), cell(r, r.dist?.max ?? null, false)] })),
    caption: m('pr.t.figuresCaption', { intervals: num(a.okIntervals, 0), covered: duration(a.okSeconds), interval: intervalVal(sampleIntervalMs), start: time(p.window.startMs), end: time(p.window.endMs) }),
  };
}

function devicesTable(p: WorkloadProfile): Table {
  return {
    id: 'profile-devices', title: m('pr.t.devices'), sheet: true,
    columns: [col('c.device', 'left'), col('c.role', 'left'), col('pr.c.iopsMean', 'right', 'iops'), col('pr.c.iopsP95', 'right', 'iops'), col('pr.c.iopsPeak', 'right', 'iops'),
      col('pr.c.mbps', 'right', 'mbps'), col('pr.c.latency', 'right', 'ms'), col('pr.c.readShare', 'right', 'percent'), col('pr.c.busy', 'right', 'percent'), col('c.intervals')],
    rows: p.perDevice.map((d) => {
      const s = d.summary;
      return {
        cells: [str(d.device), msgv(`role.${d.role}` as ReportKey), num(s.means.iops, D.iops), num(s.percentiles.iops?.p95 ?? null, D.iops), num(s.percentiles.iops?.max ?? null, D.iops),
          num(s.means.mbps, D.mbps), num(s.means.awaitMs, D.ms), pct(s.means.readSharePercent, D.percent), pct(s.means.utilPercent, D.percent, s.means.reasons['utilPercent']), num(s.okIntervals, 0)],
      };
    }),
    caption: m('pr.t.devicesCaption'),
  };
}

/** The longest run of a check's listed breaking spans (by intervals, the earliest of equals), or null. */
function longest(c: HealthCheck): BreakingSpan | null {
  let best: BreakingSpan | null = null;
  for (const s of c.spans) if (best === null || s.intervals > best.intervals) best = s;
  return best;
}

function spanSeconds(s: BreakingSpan): number {
  return (Date.parse(s.end) - Date.parse(s.start)) / 1000;
}

function healthTable(p: WorkloadProfile): Table {
  const h = p.health.window;
  const rows: Table['rows'] = h.checks.map((c) => {
    const l = longest(c);
    return {
      cells: [
        msgv(`metric.${c.metric}` as ReportKey), sig(c.targetMs), num(c.averageMs, D.ms), c.meetsTarget === null ? msgv('na') : msgv(c.meetsTarget ? 'meets' : 'breaks'),
        msgv('pr.breakingOf', { n: num(c.intervalsBreaking, 0), of: num(c.intervalsChecked, 0), pct: pct(c.breakingPercent, D.percent) }), num(c.spansTotal, 0),
        l === null ? msgv('na') : duration(spanSeconds(l)), num(c.worstMs, D.ms), num(c.hoursBreaking.length, 0),
      ],
    };
  });
  // the grade under the verdicts (a left-aligned column: its words wrap)
  rows.push({ strong: true, cells: [msgv('c.grade'), empty, empty, gradeVal(h), empty, empty, empty, empty, empty] });
  return {
    id: 'profile-health', title: m('pr.t.health', { preset: presetVal(p) }), sheet: true,
    columns: [col('c.check', 'left'), col('c.target', 'right', 'ms'), col('pr.c.average', 'right', 'ms'), col('pr.c.verdict', 'left'), col('pr.c.breaking', 'left'), col('pr.c.spans'), col('pr.c.longest', 'left'), col('pr.c.worst', 'right', 'ms'), col('pr.c.hours')],
    rows,
    caption: m('pr.t.healthCaption', { devices: list(p.health.devices) }),
  };
}

/** The longest breaking runs of all checks, longest first (then earliest), at most {@link PROFILE_MAX_SPANS_SHOWN}. */
function spansTable(p: WorkloadProfile): Table | null {
  const all = p.health.window.checks.flatMap((c) => c.spans.map((s) => ({ c, s })));
  if (all.length === 0) return null;
  all.sort((x, y) => y.s.intervals - x.s.intervals || Date.parse(x.s.start) - Date.parse(y.s.start));
  return {
    id: 'profile-spans', title: m('pr.t.spans'), sheet: true,
    columns: [col('c.check', 'left'), col('pr.c.start', 'left'), col('pr.c.end', 'left'), col('c.intervals'), col('pr.c.longest', 'left'), col('pr.c.worst', 'right', 'ms')],
    rows: all.slice(0, PROFILE_MAX_SPANS_SHOWN).map(({ c, s }) => ({
      cells: [msgv(`metric.${c.metric}` as ReportKey), time(s.start), time(s.end), num(s.intervals, 0), duration(spanSeconds(s)), num(s.worstMs, D.ms)],
    })),
    caption: m('pr.t.spansCaption', { shown: num(Math.min(all.length, PROFILE_MAX_SPANS_SHOWN), 0) }),
  };
}

function notOkTotal(s: WindowSummary): number {
  const n = s.notOk;
  return n.reset + n.wrap + n.gap + n['clock-jump'] + n.incomplete;
}

function method(p: WorkloadProfile, c: ReportCapture): Section {
  const w = p.window;
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('pr.m.window'), value: [msgv('pr.m.windowValue', { start: time(w.startMs), end: time(w.endMs), duration: duration(w.seconds), source: msgv(`pr.src.${w.source}` as ReportKey) })] },
    { label: m('m.sampleInterval'), value: [intervalVal(c.sampleIntervalMs)] },
    { label: m('pr.m.devices'), value: [msgv('pr.devicesValue', { group: list(profileDevices(p)), appFacing: msgv(`role.${p.devices.appFacing}` as ReportKey), front: list(p.devices.front), backing: list(p.devices.backing) })] },
    { label: m('m.targets'), value: [msgv('m.targetsValue', { preset: presetVal(p), targets: targetsVal(p) })] },
  ];
  const defs: ReportKey[] = ['pr.def.mean', 'pr.def.p95', 'pr.def.peak', 'pr.def.health'];
  const labels: ReportKey[] = ['c.mean', 'c.p95', 'c.peak', 'fig.health'];
  return {
    id: 'method', title: m('sec.method'),
    blocks: [
      { type: 'paragraph', text: m('pr.m.intro') },
      { type: 'facts', rows: facts },
      { type: 'subheading', text: m('m.definitions') },
      { type: 'facts', rows: defs.map((k, i) => ({ label: m(labels[i] as ReportKey), value: [msgv(k)] })) },
    ],
  };
}

function caveats(p: WorkloadProfile): Section {
  const items: Val[] = p.warnings.map((w): Val => ({ k: 'warning', w }));
  const notOk = notOkTotal(p.appFacing);
  if (notOk > 0) items.push(msgv('cav.notOk', { n: num(notOk, 0) }));
  if (items.length === 0) items.push(msgv('cav.none'));
  return {
    id: 'caveats', title: m('sec.caveats'),
    blocks: [{ type: 'paragraph', text: m('pr.cav.intro') }, { type: 'notes', tone: 'warning', items }, { type: 'notes', tone: 'info', items: [msgv('pr.cav.profile'), msgv('cav.util'), msgv('cav.units')] }],
  };
}

/** The sources appendix: the capture file and its hash, the recorder, and every imported file (the before/after report's imports table). */
function appendix(input: ProfileReportInput): Section {
  const c = input.capture;
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('a.hostname'), value: [input.hostname === null ? msgv('unknown') : str(input.hostname)] },
    { label: m('a.captureFile'), value: [str(c.fileName)] },
    { label: m('a.sha256'), value: [str(c.sha256)] },
    { label: m('a.size'), value: [c.sizeBytes === null ? msgv('unknown') : num(c.sizeBytes / 1e6, 1, 'mb')] },
    { label: m('a.source'), value: [c.source === null ? msgv('unknown') : str(c.source)] },
    { label: m('a.schema'), value: [c.schemaVersion === null ? msgv('unknown') : num(c.schemaVersion, 0)] },
    { label: m('a.probe'), value: [c.probeVersion === null ? msgv('unknown') : str(c.probeVersion)] },
    { label: m('a.app'), value: [str(input.appVersion)] },
    { label: m('a.generated'), value: [time(input.generatedMs)] },
    { label: m('pr.a.format'), value: [msgv('pr.a.formatValue', { kind: str(input.profile.kind) })] },
  ];
  const imports = c.imports ?? [];
  const blocks: Block[] = [{ type: 'facts', rows: facts }];
  blocks.push(imports.length > 0 ? { type: 'table', table: importsTable(imports) } : { type: 'paragraph', text: m('pr.a.noImports') });
  return { id: 'appendix', title: m('sec.appendix'), blocks };
}

/** The raw figures with their JSON paths in `analyze --profile --json` (the XLSX/CSV summary): mean, p95 and peak of each. */
function summaryRows(p: WorkloadProfile): SummaryRow[] {
  const devices = profileDevices(p).join(', ');
  const out: SummaryRow[] = [];
  const row = (id: string, label: Msg, unit: Unit | null, path: string, value: number | null): SummaryRow => ({ id, label, unit, path, before: null, after: null, value, low: null, high: null, devices });
  for (const r of figureRows(p.appFacing)) {
    const rawMean = r.id === 'requestSize' ? p.appFacing.means.avgRequestBytes : r.mean;
    out.push(row(`${r.id}Mean`, m('pr.s.mean', { figure: msgv(r.label) }), r.id === 'requestSize' ? 'bytes' : r.unit, `appFacing.means.${r.path}`, rawMean));
    if (r.dist !== null) {
      out.push(row(`${r.id}P95`, m('pr.s.p95', { figure: msgv(r.label) }), r.unit, `appFacing.percentiles.${r.path}.p95`, r.dist.p95));
      out.push(row(`${r.id}Peak`, m('pr.s.peak', { figure: msgv(r.label) }), r.unit, `appFacing.percentiles.${r.path}.max`, r.dist.max));
    }
  }
  return out;
}

/** The workload-profile report model of one capture. */
export function buildProfileReportModel(input: ProfileReportInput): ReportModel {
  const p = input.profile;
  const c = input.capture;
  const cover = input.cover;
  const sampleMs = c.sampleIntervalMs;
  const spans = spansTable(p);
  const busiest = busiestMsg(p);
  const hours = hoursTable(p);
  const capacity = capacityMsg(p);
  const server = cover.server !== undefined && cover.server !== '' ? cover.server : (input.hostname ?? '—');
  const busy = busiestDeviceMsg(p);
  const upper = upperLayerMsg(p);
  const upperTable = upperLayerTable(p);
  const charts = profileCharts(p, input.series ?? null);
  const tco = input.tco ?? null;
  const plan = planSections(tco);
  // with a plan, the decision block first (decision.ts): the sizing verdict, what it assumes, drive life, the caveats
  const decision = tco === null ? undefined : decisionBlock({ kind: 'profile', windowSeconds: p.window.seconds, tco });
  const sections: Section[] = [
    ...(decision === undefined ? [] : [decisionSection(decision)]),
    { id: 'summary', title: m('sec.summary'), blocks: [
      { type: 'paragraph', text: profileVerdict(p, sampleMs) },
      ...(busiest === null ? [] : [{ type: 'paragraph' as const, text: busiest }]),
      ...(capacity === null ? [] : [{ type: 'paragraph' as const, text: capacity }]),
      { type: 'paragraph', text: m('pr.intro', { server: str(server), capture: str(c.fileName), duration: duration(p.window.seconds) }) },
      { type: 'table', table: figuresTable(p, sampleMs) },
      // busy % is the group's average: the busiest device is named beside it (profile-busy.ts)
      ...(busy === null ? [] : [{ type: 'paragraph' as const, text: busy }]),
      // the volumes above the counted disks: what the applications saw, beside the disks (profile-layer.ts)
      ...(upper === null ? [] : [{ type: 'paragraph' as const, text: upper }]),
    ] },
    { id: 'results', title: m('sec.results'), blocks: [
      { type: 'table', table: devicesTable(p) },
      ...(upperTable === null ? [] : [{ type: 'table' as const, table: upperTable }]),
      // over time and per day (issue 37: profile-charts.ts, profile-days.ts)
      ...profileChartBlocks(charts),
      ...profileDayBlocks(p),
      ...(hours === null ? [] : [{ type: 'table' as const, table: hours }]),
      { type: 'subheading', text: m('pr.capTitle') },
      ...capacityBlocks(p),
      { type: 'subheading', text: m('pr.healthTitle') },
      { type: 'paragraph', text: m('pr.healthIntro') },
      { type: 'table', table: healthTable(p) },
      ...(spans === null ? [] : [{ type: 'table' as const, table: spans }]),
      // PAL-style time slices and the alerts list (profile-slices.ts)
      ...sliceBlocks(p),
    ] },
    ...plan.sections,
    method(p, c),
    caveats(p),
    appendix(input),
  ];
  const preparedMs = cover.preparedMs ?? input.generatedMs;
  const title: Val = cover.title !== undefined && cover.title.trim() !== '' ? str(cover.title) : msgv('pr.defaultTitle');
  const rows: { label: Msg; value: Val[] }[] = [
    // a field left empty is left out (no "not given" on a cover)
    ...(cover.customer === undefined || cover.customer.trim() === '' ? [] : [{ label: m('cover.customer'), value: [str(cover.customer)] }]),
    { label: m('cover.server'), value: [str(server)] },
    ...(cover.author === undefined || cover.author.trim() === '' ? [] : [{ label: m('cover.author'), value: [str(cover.author)] }]),
    { label: m('cover.prepared'), value: [time(preparedMs, 'date')] },
    { label: m('pr.cover.window'), value: [msgv('cover.range', { start: time(p.window.startMs), end: time(p.window.endMs) })] },
    { label: m('cover.capture'), value: [str(c.fileName)] },
    { label: m('cover.version'), value: [msgv('cover.versionValue', { app: str(input.appVersion), probe: c.probeVersion === null ? msgv('unknown') : str(c.probeVersion) })] },
  ];
  const footerParts = [cover.customer, cover.title].filter((s): s is string => s !== undefined && s.trim() !== '');
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    form: 'full',
    generatedMs: input.generatedMs,
    cover: { title, subtitle: m('pr.subtitle'), rows },
    footer: footerParts.length > 0 ? str(footerParts.join(' · ')) : msgv('pr.defaultTitle'),
    sections,
    ...(decision === undefined ? {} : { decision }),
    summary: [...summaryRows(p), ...plan.summary],
    charts: [...charts, ...plan.charts],
    intervalDevices: p.perDevice.map((d) => ({ device: d.device, role: d.role as string })),
  };
}
