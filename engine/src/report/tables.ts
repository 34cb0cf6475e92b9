/**
 * The report's tables: headline figures, devices, matched hours, latency distribution, health
 * checks and the device inventory. Every cell is the analysis' own number ({@link Val}).
 */
import type { AnalysisReport, DeviceWindows } from '../benefit/result.ts';
import type { HealthCheck } from '../benefit/health.ts';
import type { Distribution } from '../metrics/summary.ts';
import type { ReportKey } from './keys.ts';
import type { Table, Val } from './types.ts';
import type { ReportCapture } from './input.ts';
import { latencyChange, latencyChangeVal } from './latency-change.ts';
import { m, str, msgv, empty, num, pct, ms, sig, ci, list, why, roleOf, gradeVal, presetVal, col } from './values.ts';

export function figuresTable(a: AnalysisReport): Table {
  const b = a.benefit;
  const gb = (x: number | null): number | null => (x === null ? null : x / 1e9);
  const l = b.latencyMs;
  return {
    id: 'figures', title: m('t.figures'), sheet: false,
    columns: [col('c.figure', 'left'), col('c.before'), col('c.after'), col('c.change', 'left')],
    rows: [
      { cells: [msgv('fig.iosToBacking'), num(b.iosToBacking.before, 0), num(b.iosToBacking.after, 0), b.iosSavedPercent.value === null ? empty : msgv('chg.saved', { value: pct(b.iosSavedPercent.value), ci: ci(b.iosSavedPercent.ci95, 'pct') })] },
      { cells: [msgv('fig.iosToBackingPerSec'), sig(b.iosToBacking.beforePerSecond, 'iops'), sig(b.iosToBacking.afterPerSecond, 'iops'), empty] },
      { cells: [msgv('fig.latency'), ms(l.before, why(l.reasons, 'before')), ms(l.after, why(l.reasons, 'after')),
        latencyChange(l) === null ? empty : msgv('chg.latency', { change: latencyChangeVal(l), ci: ci(l.reductionPercentCi95, 'pct') })] },
      { cells: [msgv('fig.normalizedIops'), sig(b.normalizedIops.before, 'iops'), sig(b.normalizedIops.after, 'iops'), empty] },
      { cells: [msgv('fig.iopsPerSpindle', { n: num(b.deliveredIopsPerSpindle.spindles, 0) }), sig(b.deliveredIopsPerSpindle.before, 'iops'), sig(b.deliveredIopsPerSpindle.after, 'iops'), empty] },
      { cells: [msgv('fig.throughput'), sig(b.throughputMBps.before, 'mbps'), sig(b.throughputMBps.after, 'mbps'), empty] },
      { cells: [msgv('fig.totalIos'), num(b.totalWork.before.ios, 0), num(b.totalWork.after.ios, 0), empty] },
      { cells: [msgv('fig.totalGb'), num(gb(b.totalWork.before.bytes), 2, 'gb'), num(gb(b.totalWork.after.bytes), 2, 'gb'), empty] },
      // an in-OS cache serves from RAM above the disks: their counters hold no share it served (benefit/layers.ts)
      ...(a.layers.case === 'in-os-cache' ? [] : [
        { cells: [msgv('fig.cacheServedReads'), empty, pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), empty] },
        { cells: [msgv('fig.cacheServedWrites'), empty, pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')), empty] },
      ]),
    ],
  };
}

export function deviceTable(a: AnalysisReport): Table {
  const row = (d: DeviceWindows): Table['rows'][number] => {
    const B = d.baseline.means;
    const A = d.measure.means;
    return {
      cells: [str(d.device), msgv(`role.${d.role}` as ReportKey), sig(B.iops), sig(A.iops), sig(B.mbps), sig(A.mbps), ms(B.awaitMs, B.reasons['awaitMs']), ms(A.awaitMs, A.reasons['awaitMs']), num(B.utilPercent, 1), num(A.utilPercent, 1)],
    };
  };
  return {
    id: 'devices', title: m('t.devices'), sheet: true,
    columns: [col('c.device', 'left'), col('c.role', 'left'), col('c.iopsBefore', 'right', 'iops'), col('c.iopsAfter', 'right', 'iops'), col('c.mbpsBefore', 'right', 'mbps'), col('c.mbpsAfter', 'right', 'mbps'),
      col('c.awaitBefore', 'right', 'ms'), col('c.awaitAfter', 'right', 'ms'), col('c.utilBefore', 'right', 'percent'), col('c.utilAfter', 'right', 'percent')],
    rows: a.perDevice.map(row),
    caption: m('t.devicesCaption'),
  };
}

/** Each device's 95th percentile and peak of its per-interval IOPS and throughput, per window (what Live Optics sizes on). */
export function devicePeaksTable(a: AnalysisReport): Table {
  const rows: Table['rows'] = [];
  for (const d of a.perDevice) {
    for (const [win, key] of [[d.baseline, 'win.baseline'], [d.measure, 'win.measure']] as const) {
      const io = win.percentiles.iops, mb = win.percentiles.mbps;
      rows.push({ cells: [str(d.device), msgv(key), sig(io?.p95 ?? null), sig(io?.max ?? null), sig(mb?.p95 ?? null), sig(mb?.max ?? null)] });
    }
  }
  return {
    id: 'device-peaks', title: m('t.devicePeaks'), sheet: true,
    columns: [col('c.device', 'left'), col('c.window', 'left'), col('c.iopsP95', 'right', 'iops'), col('c.iopsPeak', 'right', 'iops'), col('c.mbpsP95', 'right', 'mbps'), col('c.mbpsPeak', 'right', 'mbps')],
    rows,
    caption: m('t.devicePeaksCaption'),
  };
}

export function hourlyTable(a: AnalysisReport): Table {
  return {
    id: 'hourly', title: m('t.hourly'), sheet: true,
    columns: [col('c.hour', 'left'), col('c.iopsBefore', 'right', 'iops'), col('c.iopsAfter', 'right', 'iops'), col('c.backingIopsBefore', 'right', 'iops'), col('c.backingIopsAfter', 'right', 'iops'),
      col('c.latBefore', 'right', 'ms'), col('c.latAfter', 'right', 'ms'), col('c.iosSaved', 'right', 'percent'), col('c.latReduction', 'right', 'percent')],
    rows: a.hourly.map((h) => ({
      cells: [msgv('hourLabel', { h: num(h.hour, 0) }), sig(h.baseline.iops), sig(h.measure.iops), sig(h.baseline.backingIops), sig(h.measure.backingIops),
        ms(h.baseline.latencyMs, h.baseline.reasons['latencyMs']), ms(h.measure.latencyMs, h.measure.reasons['latencyMs']), pct(h.iosSavedPercent, 1, h.reasons['iosSavedPercent']), pct(h.latencyReductionPercent, 1, h.reasons['latencyReductionPercent'])],
    })),
    caption: m('t.hourlyCaption'),
  };
}

export function distributionTable(a: AnalysisReport): Table {
  const d = a.latencyDistribution;
  const row = (label: ReportKey, x: Distribution | null): Table['rows'][number] => ({
    cells: [msgv(label), ms(x?.p50 ?? null, d.reasons[label === 'win.baseline' ? 'baseline' : 'measure']), ms(x?.p95 ?? null), ms(x?.p99 ?? null), ms(x?.max ?? null), num(x?.n ?? null, 0)],
  });
  return {
    id: 'latency-distribution', title: m('t.distribution'), sheet: true,
    columns: [col('c.window', 'left'), col('c.p50', 'right', 'ms'), col('c.p95', 'right', 'ms'), col('c.p99', 'right', 'ms'), col('c.max', 'right', 'ms'), col('c.intervals', 'right', 'count')],
    rows: [row('win.baseline', d.baseline), row('win.measure', d.measure)],
    caption: m('t.distributionCaption', { devices: list(d.devices) }),
  };
}

export function healthTable(a: AnalysisReport): Table {
  const rows: Table['rows'] = [];
  const metrics = new Set<HealthCheck['metric']>([...a.health.baseline.checks.map((c) => c.metric), ...a.health.measure.checks.map((c) => c.metric)]);
  const meets = (c: HealthCheck | undefined): Val => (c === undefined || c.meetsTarget === null ? msgv('na') : msgv(c.meetsTarget ? 'meets' : 'breaks'));
  for (const metric of metrics) {
    const b = a.health.baseline.checks.find((c) => c.metric === metric);
    const af = a.health.measure.checks.find((c) => c.metric === metric);
    const target = b?.targetMs ?? af?.targetMs ?? null;
    rows.push({
      cells: [msgv(`metric.${metric}`), num(target, 0), ms(b?.averageMs ?? null), meets(b), pct(b?.breakingPercent ?? null), ms(af?.averageMs ?? null), meets(af), pct(af?.breakingPercent ?? null)],
    });
  }
  rows.push({ strong: true, cells: [msgv('c.grade'), empty, empty, gradeVal(a.health.baseline), empty, empty, gradeVal(a.health.measure), empty] });
  return {
    id: 'health', title: m('t.health', { preset: presetVal(a) }), sheet: true,
    columns: [col('c.check', 'left'), col('c.target', 'right', 'ms'), col('c.avgBefore', 'right', 'ms'), col('c.before', 'left'), col('c.breakingBefore', 'right', 'percent'),
      col('c.avgAfter', 'right', 'ms'), col('c.after', 'left'), col('c.breakingAfter', 'right', 'percent')],
    rows,
    caption: m('t.healthCaption', { devices: list(a.health.devices) }),
  };
}

export function devicesInventory(a: AnalysisReport, c: ReportCapture): Table {
  const yesNo = (b: boolean | null): Val => msgv(b === null ? 'unknown' : b ? 'yes' : 'no');
  return {
    id: 'inventory', title: m('t.inventory'), sheet: false,
    columns: [col('c.device', 'left'), col('c.role', 'left'), col('c.model', 'left'), col('c.sizeGb', 'right', 'gb'), col('c.rotational', 'left')],
    rows: c.devices.map((d) => ({ cells: [str(d.name), msgv(`role.${roleOf(a, d.name, d.role)}` as ReportKey), d.model === null ? msgv('unknown') : str(d.model), num(d.sizeBytes === null ? null : d.sizeBytes / 1e9, 1), yesNo(d.rotational)] })),
  };
}
