/**
 * The report's read/write split, queue depth and request sizes (results section): reads/s and
 * writes/s and the average queue size over both windows (the groups' lines of
 * {@link ReportSeries}), their mean, p95 and peak per window (`readWriteQueue`), and the
 * request-size distribution (`requestSizes`) as charts and tables. Every value is the analysis'
 * or the series' own; the bucket labels and the choice of method are here once, for the
 * dashboard too.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { PeakStat, ReadWriteQueueGroup, RequestSizesGroup, RequestSizesWindow, TraceSizeDistribution } from '../benefit/workload-shape.ts';
import type { OpSizes, SizeBucket, SizeDistribution } from '../metrics/request-size.ts';
import type { ReportKey } from './keys.ts';
import type { ReportSeries, ReportSeriesGroup } from './series.ts';
import type { Block, ChartSeries, ChartSpec, Table, Val } from './types.ts';
import { bands } from './charts.ts';
import { COLOR, UNDER_WIDTH } from './colors.ts';
import { col, duration, empty, m, msgv, num, pct, sig, str } from './values.ts';
import { mostCommonBucket } from '../metrics/series-summary.ts';

type Role = 'front' | 'backing';
type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

/** A size in bytes in the binary unit that fits (512 B, 4 KiB, 1.5 MiB), 3 significant digits. */
export function sizeVal(bytes: number): Val {
  if (bytes < 1024) return msgv('sz.b', { n: sig(bytes) });
  if (bytes < 1024 * 1024) return msgv('sz.kib', { n: sig(bytes / 1024) });
  return msgv('sz.mib', { n: sig(bytes / (1024 * 1024)) });
}

const unitOf = (bytes: number): 'b' | 'kib' | 'mib' => (bytes < 1024 ? 'b' : bytes < 1024 * 1024 ? 'kib' : 'mib');
const inUnit = (bytes: number): number => (bytes < 1024 ? bytes : bytes < 1024 * 1024 ? bytes / 1024 : bytes / (1024 * 1024));

/** A bucket's label: `< 512 B`, `512 B–1 KiB`, `4–8 KiB`, `≥ 4 MiB`. */
export function sizeBucketLabel(b: SizeBucket): Val {
  if (b.highBytes === undefined) return msgv('sz.from', { low: sizeVal(b.lowBytes) });
  if (b.lowBytes === 0) return msgv('sz.under', { high: sizeVal(b.highBytes) });
  if (unitOf(b.lowBytes) === unitOf(b.highBytes)) return msgv('sz.rangeSame', { low: sig(inUnit(b.lowBytes)), high: sizeVal(b.highBytes) });
  return msgv('sz.range', { low: sizeVal(b.lowBytes), high: sizeVal(b.highBytes) });
}

/** The distribution a person is shown for a window: the block trace's when there is one (exact sizes), else the interval counters'. */
export function shownSizes(w: RequestSizesWindow): SizeDistribution | TraceSizeDistribution {
  return w.fromTrace ?? w.fromCounters;
}

/** The buckets worth showing: from the first to the last that holds any I/O in these distributions (null when none holds any). */
export function sizeRange(ops: readonly (OpSizes | null)[]): { from: number; to: number } | null {
  let from = Infinity, to = -Infinity;
  for (const o of ops) {
    if (o === null) continue;
    o.counts.forEach((c, k) => {
      if (c > 0) {
        from = Math.min(from, k);
        to = Math.max(to, k);
      }
    });
  }
  return Number.isFinite(from) ? { from, to } : null;
}

/** The method of a distribution in words (the sampled share of a sampled trace). */
export function sizeMethodVal(d: SizeDistribution | TraceSizeDistribution): Val {
  if (d.method === 'block-trace' && 'sampleRate' in d && d.sampleRate < 1) return msgv('sz.method.block-trace-sampled', { rate: pct(d.sampleRate * 100, 1) });
  return msgv(`sz.method.${d.method}`);
}

const groupName = (role: Role, devices: readonly string[]): Val => msgv('ch.deviceRole', { device: str(devices.join(', ')), role: msgv(`role.${role}`) });

function groupsOf(a: AnalysisReport): { role: Role; rwq: ReadWriteQueueGroup; sizes: RequestSizesGroup | null }[] {
  const out: { role: Role; rwq: ReadWriteQueueGroup; sizes: RequestSizesGroup | null }[] = [];
  if (a.readWriteQueue.front !== null) out.push({ role: 'front', rwq: a.readWriteQueue.front, sizes: a.requestSizes.front });
  out.push({ role: 'backing', rwq: a.readWriteQueue.backing, sizes: a.requestSizes.backing });
  return out;
}

function timeSpec(a: AnalysisReport, series: ReportSeries, id: 'rw-time' | 'queue-time', s: ChartSeries[], items: Val[], unit: 'iops' | 'requests'): ChartSpec {
  return {
    id, kind: 'line', title: m(id === 'rw-time' ? 'ch.rwTitle' : 'ch.queueTitle'),
    x: { kind: 'time', label: m('ax.timeUtc') },
    y: { label: m(id === 'rw-time' ? 'ax.perSecond' : 'ax.queue'), unit, min: 0 },
    series: s, bands: bands(a),
    summary: m('ch.summary', { text: { k: 'list', items, sep: '; ' } }),
    note: m('ch.noteShape', { bucket: duration(series.bucketMs / 1000) }),
  };
}

const points = (series: ReportSeries, ys: readonly (number | null)[]): [number, number | null][] => series.t.map((t, j) => [t, ys[j] ?? null]);
const item = (name: Val, st: { baseline: PeakStat; measure: PeakStat }): Val =>
  msgv('ch.rwItem', { name, before: sig(st.baseline.mean), after: sig(st.measure.mean), peakBefore: sig(st.baseline.peak), peakAfter: sig(st.measure.peak) });

/**
 * Reads/s and writes/s of the front and backing groups over both windows (reads solid, writes
 * dashed, in the group's role colour) and the average queue size; null without the groups' lines.
 */
export function readWriteCharts(a: AnalysisReport, series: ReportSeries): ChartSpec[] {
  const lines = series.groups ?? [];
  if (lines.length === 0) return [];
  const rw: ChartSeries[] = [], q: ChartSeries[] = [], rwItems: Val[] = [], qItems: Val[] = [];
  for (const g of groupsOf(a)) {
    const line: ReportSeriesGroup | undefined = lines.find((l) => l.group === g.role);
    if (line === undefined) continue;
    const color = g.role === 'front' ? COLOR.front : COLOR.backing;
    const name = groupName(g.role, line.devices);
    for (const op of ['reads', 'writes'] as const) {
      const opName = msgv('ser.rw', { op: msgv(op === 'reads' ? 'rw.reads' : 'rw.writes'), group: name });
      rw.push({ name: opName, color, points: points(series, op === 'reads' ? line.readIops : line.writeIops), ...(op === 'writes' ? { dashed: true } : {}), ...(g.role === 'front' ? {} : { width: UNDER_WIDTH }) });
      const key = op === 'reads' ? 'readsPerSec' : 'writesPerSec';
      rwItems.push(item(opName, { baseline: g.rwq.baseline[key], measure: g.rwq.measure[key] }));
    }
    q.push({ name, color, points: points(series, line.aquSz), ...(g.role === 'front' ? {} : { width: UNDER_WIDTH }) });
    qItems.push(item(name, { baseline: g.rwq.baseline.aquSz, measure: g.rwq.measure.aquSz }));
  }
  return [timeSpec(a, series, 'rw-time', rw, rwItems, 'iops'), timeSpec(a, series, 'queue-time', q, qItems, 'requests')];
}

/**
 * One line for each figure of the table whose mean lies above its 95th percentile (the engine's
 * `bursty` note): "Backing (sdb), measure, writes/s: mean 74.4, p95 2, peak 2,382 — bursty: …".
 */
export function burstyNotes(a: AnalysisReport): Val[] {
  const out: Val[] = [];
  for (const g of groupsOf(a)) {
    for (const k of WINS) {
      const w = g.rwq[k];
      for (const [label, s] of [['rw.reads', w.readsPerSec], ['rw.writes', w.writesPerSec], ['rw.queue', w.aquSz]] as const) {
        if (!s.notes.includes('bursty')) continue;
        out.push(msgv('rw.bursty', { who: groupName(g.role, g.rwq.devices), window: msgv(`win.${k}`), figure: msgv(label), mean: sig(s.mean), p95: sig(s.p95), peak: sig(s.peak) }));
      }
    }
  }
  return out;
}

/** Reads/s, writes/s, the read share and aqu-sz per group and window: mean, p95, peak (`readWriteQueue`). */
export function readWriteQueueTable(a: AnalysisReport): Table {
  const rows: Table['rows'] = [];
  for (const g of groupsOf(a)) {
    for (const k of WINS) {
      const w = g.rwq[k];
      const who = groupName(g.role, g.rwq.devices);
      const stat = (label: ReportKey, s: PeakStat): Table['rows'][number] => ({ cells: [who, msgv(`win.${k}`), msgv(label), sig(s.mean, undefined, s.reasons['mean']), sig(s.p95, undefined, s.reasons['p95']), sig(s.peak, undefined, s.reasons['peak'])] });
      rows.push(stat('rw.reads', w.readsPerSec), stat('rw.writes', w.writesPerSec),
        { cells: [who, msgv(`win.${k}`), msgv('rw.readShare'), pct(w.readSharePercent, 1, w.reasons['readSharePercent']), empty, empty] },
        stat('rw.queue', w.aquSz));
    }
  }
  return {
    id: 'read-write-queue', title: m('t.rwq'), sheet: true,
    columns: [col('c.device', 'left'), col('c.window', 'left'), col('c.figure', 'left'), col('c.mean'), col('c.p95'), col('c.peak')],
    rows,
    caption: m('t.rwqCaption'),
  };
}

/** The request-size chart of one operation at the application-facing group: each window's share of I/Os per bucket (before grey, after sky blue). */
function sizesChart(a: AnalysisReport, g: RequestSizesGroup, role: Role, op: 'reads' | 'writes'): ChartSpec | null {
  const shown = WINS.map((k) => shownSizes(g[k]));
  const ops = shown.map((d) => d[op]);
  const range = sizeRange(ops);
  if (range === null) return null;
  const buckets = a.requestSizes.buckets.slice(range.from, range.to + 1);
  const mode = (o: OpSizes | null): Val => {
    if (o === null) return msgv('na');
    const best = mostCommonBucket(o.counts, range.from, range.to);
    return msgv('sz.mode', { bucket: sizeBucketLabel(a.requestSizes.buckets[best] as SizeBucket), pct: pct(o.percents[best] ?? null) });
  };
  const opWord = msgv(op === 'reads' ? 'sz.reads' : 'sz.writes');
  const devices = str(g.devices.join(', '));
  return {
    id: `sizes-${op}`, kind: 'bar',
    title: m('ch.sizesTitle', { op: opWord, devices: groupName(role, g.devices) }),
    x: { kind: 'category', label: m('ax.sizeBucket'), categories: buckets.map(sizeBucketLabel) },
    y: { label: m('ax.iosShare'), unit: 'percent', min: 0 },
    series: WINS.map((k, i) => ({
      name: msgv('sz.series', { window: msgv(`win.${k}`), method: sizeMethodVal(shown[i] as SizeDistribution) }),
      color: k === 'baseline' ? COLOR.before : COLOR.after,
      points: buckets.map((_, j) => [j, ops[i]?.percents[range.from + j] ?? null] as [number, number | null]),
    })),
    summary: m('ch.sizesSummary', {
      op: opWord, devices, before: mode(ops[0] ?? null), after: mode(ops[1] ?? null),
      meanBefore: ops[0] === null || ops[0] === undefined ? msgv('na') : sizeVal(ops[0].meanBytes),
      meanAfter: ops[1] === null || ops[1] === undefined ? msgv('na') : sizeVal(ops[1].meanBytes),
    }),
  };
}

/** One group's request sizes: per bucket the share of reads and writes of each window, then the I/Os counted, the mean size and the method. */
function sizesTable(a: AnalysisReport, g: RequestSizesGroup, role: Role): Table | null {
  const shown = WINS.map((k) => shownSizes(g[k]));
  const cols: (OpSizes | null)[] = [shown[0]?.reads ?? null, shown[1]?.reads ?? null, shown[0]?.writes ?? null, shown[1]?.writes ?? null];
  const range = sizeRange(cols);
  if (range === null) return null;
  const rows: Table['rows'] = [];
  for (let k = range.from; k <= range.to; k++) rows.push({ cells: [sizeBucketLabel(a.requestSizes.buckets[k] as SizeBucket), ...cols.map((o) => (o === null ? empty : pct(o.percents[k] ?? null)))] });
  rows.push({ strong: true, cells: [msgv('sz.iosRow'), ...cols.map((o) => (o === null ? empty : num(o.ios, 0)))] });
  rows.push({ cells: [msgv('sz.meanRow'), ...cols.map((o) => (o === null ? empty : sizeVal(o.meanBytes)))] });
  // the method of each window in the caption (a number column does not wrap: a method's name in it would widen the table)
  const methods: Val = { k: 'list', sep: '; ', items: WINS.map((k, i) => msgv('sz.methodOf', { window: msgv(`win.${k}`), method: sizeMethodVal(shown[i] as SizeDistribution) })) };
  return {
    id: `request-sizes-${role}`, title: m('t.sizes', { group: groupName(role, g.devices) }), sheet: true,
    columns: [col('c.size', 'left'), col('c.readsBefore', 'right', 'percent'), col('c.readsAfter', 'right', 'percent'), col('c.writesBefore', 'right', 'percent'), col('c.writesAfter', 'right', 'percent')],
    rows,
    caption: m('t.sizesCaption', { methods }),
  };
}

/** The blocks of the results section (after the per-device tables) and the charts among them. */
export function shapeBlocks(a: AnalysisReport, series: ReportSeries): { blocks: Block[]; charts: ChartSpec[] } {
  const charts: ChartSpec[] = [...readWriteCharts(a, series)];
  const blocks: Block[] = [{ type: 'subheading', text: m('rw.title') }, { type: 'paragraph', text: m('rw.intro') }];
  blocks.push(...charts.map((chart): Block => ({ type: 'chart', chart })), { type: 'table', table: readWriteQueueTable(a) });
  const bursts = burstyNotes(a);
  if (bursts.length > 0) blocks.push({ type: 'notes', tone: 'info', items: bursts });
  blocks.push({ type: 'subheading', text: m('sz.title') }, { type: 'paragraph', text: m('sz.intro') });
  const appRole: Role = a.devices.appFacing === 'front' && a.requestSizes.front !== null ? 'front' : 'backing';
  const app = appRole === 'front' ? a.requestSizes.front : a.requestSizes.backing;
  if (app !== null) {
    for (const op of ['reads', 'writes'] as const) {
      const c = sizesChart(a, app, appRole, op);
      if (c !== null) {
        charts.push(c);
        blocks.push({ type: 'chart', chart: c });
      }
    }
  }
  const tables = groupsOf(a).flatMap((g) => (g.sizes === null ? [] : [sizesTable(a, g.sizes, g.role)])).filter((t): t is Table => t !== null);
  if (tables.length === 0) blocks.push({ type: 'paragraph', text: m('sz.none') });
  blocks.push(...tables.map((table): Block => ({ type: 'table', table })));
  return { blocks, charts };
}
