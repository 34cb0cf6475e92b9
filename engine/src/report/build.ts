/**
 * Builds the {@link ReportModel} from an analysis (the `cacheproof analyze --json` object), the
 * capture's facts, the chart series, an optional TCO plan and the cover typed by a person.
 * Pure: no clock (the generation time is passed in), no I/O, no language (text is keys).
 *
 * Every figure is the analysis' own number; the model only chooses how it is displayed, with the
 * dashboard's rules: percents 1 decimal, counts whole, measured values (response times, IOPS,
 * MB/s, speed-up) 3 significant digits below 100 and whole numbers above.
 */
import { engineBlocks, engineSummaryRows } from './engine-section.ts';
import type { AnalysisReport, AnalysisWarning } from '../benefit/result.ts';
import { switchedByAdapter } from '../benefit/engine-stats.ts';
import type { Interval95 } from '../benefit/bootstrap.ts';
import type { WindowSummary } from '../metrics/summary.ts';
import type { ReportKey } from './keys.ts';
import { REPORT_FORMAT_VERSION, type Block, type Card, type ChartSpec, type Msg, type ReportModel, type Section, type SummaryRow, type Table, type Unit, type Val } from './types.ts';
import type { ImportedFile, ReportCapture, ReportTco, ReportInput } from './input.ts';
import { m, str, msgv, num, pct, ms, sig, ci, time, list, duration, why, appDevices, windowsMsg, gradeVal, targetsVal, presetVal } from './values.ts';
import { timeChart, hourlyChart, distributionChart } from './charts.ts';
import { figuresTable, deviceTable, devicePeaksTable, hourlyTable, distributionTable, healthTable, devicesInventory } from './tables.ts';
import { tcoSection } from './tco-section.ts';
import { predictionBlocks } from './prediction-section.ts';
import { traceLatencyBlocks } from './trace-latency-section.ts';
import { shapeBlocks } from './shape-section.ts';
import { latencyChange, latencyChangeVal } from './latency-change.ts';
import { ioTimeMeasuredMsg, ioTimeMsgs, ioTimeSavedMsg, layerLatencyNote, layersFact, noChange } from './benefit-words.ts';
import { perWorkDetail, perWorkMsg } from './per-work-words.ts';
import { backingOnlyWords } from './mode-words.ts';
import { decisionBlock, decisionSection } from './decision.ts';

export type { ImportedFile, ReportCapture, ReportInput, ReportTco } from './input.ts';
export { MAX_DEVICE_LINES } from './charts.ts';

/**
 * Neither of a card's two figures has a value, for the same reason: the card says it once
 * ("n/a (needs a front device)"), not twice on a value line that then no longer fits its card.
 */
function bothNa(x: number | null, y: number | null, reasons: Record<string, string>, kx: string, ky: string): boolean {
  return x === null && y === null && reasons[kx] === reasons[ky];
}

/**
 * The headline cards: what the server did — I/Os saved from the backing drives, response time,
 * throughput with the IOPS delivered, the share served by the cache. IOPS at queue depth 1
 * (1000 ÷ ms) is not among them: it is in the results' details ({@link normalizedIopsDetail}).
 */
function cards(a: AnalysisReport): Card[] {
  const b = a.benefit;
  const backing = list(a.devices.backing);
  const app = list(appDevices(a));
  const win = windowsMsg(a);
  const ciMsg = (c: Interval95 | null): Msg[] => (c === null ? [] : [m('card.ci', { ci: ci(c, 'pct') })]);
  // the engine's one wording of the change (latency-change.ts): "increased by 50 %, 1.5× slower" when it rose
  const change = latencyChangeVal(b.latencyMs);
  // a saving whose 95 % interval includes zero says so first (benefit-words.ts), as on the dashboard
  const noise = noChange(a);
  const said = (x: Msg | null): Msg[] => (x === null ? [] : [x]);
  const latencySubs: Msg[] = [...(change.k === 'msg' ? [change.m] : []), ...said(noise.latency), ...said(layerLatencyNote(a))];
  return [
    {
      id: 'iosSaved', title: m('card.iosSaved'), value: [pct(b.iosSavedPercent.value, 1, why(b.iosSavedPercent.reasons, 'value'))],
      subs: [...said(noise.iosSaved), m('card.beforeAfterIos', { before: num(b.iosToBacking.before, 0, undefined, why(b.iosToBacking.reasons, 'before')), after: num(b.iosToBacking.after, 0, undefined, why(b.iosToBacking.reasons, 'after')) }),
        ...ciMsg(b.iosSavedPercent.ci95), ...ioTimeMsgs(b.ioTimeMeasured, b.ioTimeSaved), m('card.device', { devices: backing }), win],
    },
    {
      id: 'latency', title: m('card.latency'),
      value: bothNa(b.latencyMs.before, b.latencyMs.after, b.latencyMs.reasons, 'before', 'after')
        ? [ms(null, why(b.latencyMs.reasons, 'before'))]
        : [ms(b.latencyMs.before, why(b.latencyMs.reasons, 'before')), str('→'), ms(b.latencyMs.after, why(b.latencyMs.reasons, 'after'))],
      subs: [...latencySubs, ...ciMsg(b.latencyMs.reductionPercentCi95), m('card.device', { devices: app }), win],
    },
    {
      id: 'throughput', title: m('card.throughput'),
      value: [sig(b.throughputMBps.before, 'mbps'), str('→'), sig(b.throughputMBps.after, 'mbps')],
      // the work the server did: the IOPS delivered, beside the bytes
      subs: [m('card.delivered', { before: sig(b.deliveredIops.before, 'iops'), after: sig(b.deliveredIops.after, 'iops') }), m('card.device', { devices: app }), win],
    },
    a.layers.case === 'in-os-cache' ? {
      // an in-OS cache serves reads from RAM above the disks: their counters hold only the disk I/Os avoided (the I/Os saved card)
      id: 'cacheServed', title: m('card.cacheServedInOs'), value: [msgv('card.notInDiskCounters')],
      subs: [m('card.device', { devices: str(a.devices.backing.join(', ') || '—') }), win],
    } : {
      id: 'cacheServed', title: m('card.cacheServed'),
      value: bothNa(b.cacheServedPercent.reads, b.cacheServedPercent.writes, b.cacheServedPercent.reasons, 'reads', 'writes')
        ? [pct(null, 1, why(b.cacheServedPercent.reasons, 'reads'))]
        : [msgv('card.readsWrites', { reads: pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), writes: pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')) })],
      subs: [m('card.device', { devices: str(`${a.devices.front.join(', ') || '—'} / ${a.devices.backing.join(', ') || '—'}`) }), win],
    },
  ];
}

/** The executive summary: one sentence per headline figure, each with its interval. */
/**
 * The executive summary's first sentence, the verdict: what the cache did (I/Os kept off the
 * backing drives, response time at the application-facing devices), how sure we are (the 95%
 * interval of the I/Os saved) and, with a TCO scenario, what it is worth (the cheapest
 * configuration's savings against the reference). The same figures as `analyze --json`
 * (`benefit.iosSavedPercent`, `benefit.latencyMs`) and the TCO plan.
 */
export function verdict(a: AnalysisReport, tco: ReportTco | null): Msg {
  const b = a.benefit;
  const saved = b.iosSavedPercent;
  if (saved.value === null) return m('verdict.na', { why: msgv(`why.${saved.reasons['value'] ?? 'no-data'}` as ReportKey) });
  // an interval that includes zero: the verdict is that the data cannot tell it from no change, and what would settle it
  const noise = noChange(a).iosSaved;
  if (noise !== null) return noise;
  const sure = saved.ci95 === null ? msgv('noCi') : ci(saved.ci95, 'pct');
  if (saved.value < 0) return m('verdict.rose', { value: pct(-saved.value), ci: sure });
  const l = b.latencyMs;
  const base = { value: pct(saved.value), ci: sure, devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after) };
  if (l.before === null || l.after === null) return m('verdict.savedNoLatency', { value: base.value, ci: sure });
  if (tco !== null) {
    const p = tco.plan;
    const ref = p.configurations.find((c) => c.id === p.referenceId);
    const best = [...p.configurations].sort((x, y) => x.totalUsd - y.totalUsd)[0];
    const cmp = best === undefined ? undefined : p.comparisons.find((c) => c.id === best.id);
    if (best !== undefined && ref !== undefined && best.id !== ref.id && cmp !== undefined && cmp.savingsPct !== null) {
      return m('verdict.savedTco', { ...base, years: num(p.years, 0), label: str(best.label), savingsPct: pct(cmp.savingsPct), reference: str(ref.label) });
    }
  }
  return m('verdict.saved', base);
}

function summarySentences(a: AnalysisReport, tco: ReportTco | null): Msg[] {
  const b = a.benefit;
  const out: Msg[] = [];
  const w = a.windows;
  if (b.iosSavedPercent.value !== null && b.iosSavedPercent.value < 0) {
    // More I/O reached the drives after the switch: say it rose, never "fell by −276 %".
    out.push(m('sum.iosRose', {
      devices: list(a.devices.backing), value: pct(-b.iosSavedPercent.value), saved: pct(b.iosSavedPercent.value),
      ci: b.iosSavedPercent.ci95 === null ? msgv('noCi') : ci(b.iosSavedPercent.ci95, 'pct'),
      before: num(b.iosToBacking.before, 0), after: num(b.iosToBacking.after, 0),
    }));
  } else if (b.iosSavedPercent.value !== null) {
    out.push(m(b.iosSavedPercent.ci95 === null ? 'sum.iosSavedNoCi' : 'sum.iosSaved', {
      devices: list(a.devices.backing), value: pct(b.iosSavedPercent.value), ci: ci(b.iosSavedPercent.ci95, 'pct'),
      before: num(b.iosToBacking.before, 0), after: num(b.iosToBacking.after, 0),
    }));
  } else out.push(m('sum.iosSavedNa', { why: msgv(`why.${b.iosSavedPercent.reasons['value'] ?? 'no-data'}` as ReportKey) }));
  const noise = noChange(a);
  if (noise.iosSaved !== null) out.push(noise.iosSaved);
  const t = b.ioTimeSaved;
  // what the counters measured first (the summed I/O time per hour, each window), then the model's
  // estimate ("Estimate (…): 81 % less time on I/O, 4 min 53 s less per hour") and how it was computed
  const measuredTime = ioTimeMeasuredMsg(b.ioTimeMeasured);
  if (measuredTime !== null) out.push(measuredTime);
  const timeSaved = ioTimeSavedMsg(t);
  if (timeSaved !== null) out.push(timeSaved);
  if (t.perHourSeconds !== null && t.totalSeconds !== null && t.avgResponseMsBefore !== null && t.eliminatedPerSecond !== null && t.eliminatedPerSecond > 0) {
    out.push(m('sum.ioTimeSaved', { perHour: num(t.perHourSeconds, 1, 's'), total: num(t.totalSeconds, 0, 's'), measure: duration(w.measure.seconds), perSecond: num(t.eliminatedPerSecond, 1), avg: ms(t.avgResponseMsBefore), devices: list(a.devices.backing) }));
  }
  // the disks' I/Os per unit of the server's work (per-work-words.ts), when the log carries its work
  for (const x of [perWorkMsg(a), perWorkDetail(a)]) if (x !== null) out.push(x);
  const l = b.latencyMs;
  const change = latencyChange(l);
  if (l.before !== null && l.after !== null && l.reductionPercent !== null && l.speedup !== null && change?.key === 'lat.higher') {
    // Slower after the switch: say it rose (the engine's one rule, latency-change.ts), with the reduction's interval as computed.
    out.push(m('sum.latencyRose', {
      devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after),
      increase: pct(change.percent), reductionCi: l.reductionPercentCi95 === null ? msgv('noCi') : ci(l.reductionPercentCi95, 'pct'),
    }));
  } else if (l.before !== null && l.after !== null && change !== null) {
    out.push(m('sum.latency', {
      devices: list(appDevices(a)), before: ms(l.before), after: ms(l.after),
      reduction: pct(change.percent), reductionCi: l.reductionPercentCi95 === null ? msgv('noCi') : ci(l.reductionPercentCi95, 'pct'),
      speedup: msgv('speedup', { value: sig(change.factor) }), speedupCi: l.speedupCi95 === null ? msgv('noCi') : ci(l.speedupCi95, 'x'),
    }));
  } else out.push(m('sum.latencyNa', { before: ms(l.before, why(l.reasons, 'before')), after: ms(l.after, why(l.reasons, 'after')) }));
  if (noise.latency !== null) out.push(noise.latency);
  // the in-OS cache case: what these disk counters measure and cannot see (layers.ts)
  const layerNote = layerLatencyNote(a);
  if (layerNote !== null) out.push(layerNote);
  out.push(m('sum.throughput', {
    devices: list(appDevices(a)),
    before: sig(b.throughputMBps.before, 'mbps', why(b.throughputMBps.reasons, 'before')), after: sig(b.throughputMBps.after, 'mbps', why(b.throughputMBps.reasons, 'after')),
    gbBefore: num(b.totalWork.before.bytes === null ? null : b.totalWork.before.bytes / 1e9, 2), gbAfter: num(b.totalWork.after.bytes === null ? null : b.totalWork.after.bytes / 1e9, 2),
    baseline: duration(w.baseline.seconds), measure: duration(w.measure.seconds),
  }));
  if (a.layers.case === 'in-os-cache') {
    out.push(m('sum.cacheServedInOs', { value: pct(b.iosSavedPercent.value, 1, why(b.iosSavedPercent.reasons, 'value')) }));
  } else if (b.cacheServedPercent.reads !== null || b.cacheServedPercent.writes !== null) {
    out.push(m('sum.cacheServed', { reads: pct(b.cacheServedPercent.reads, 1, why(b.cacheServedPercent.reasons, 'reads')), writes: pct(b.cacheServedPercent.writes, 1, why(b.cacheServedPercent.reasons, 'writes')) }));
  } else out.push(m('sum.cacheServedNa'));
  out.push(m('sum.health', { preset: presetVal(a), targets: targetsVal(a), before: gradeVal(a.health.baseline), after: gradeVal(a.health.measure) }));
  if (a.drift.exceeded.length > 0) out.push(m('sum.drift', { metrics: { k: 'list', items: a.drift.exceeded.map((x) => msgv(`drift.${x}` as ReportKey)) } }));
  if (tco !== null) {
    const p = tco.plan;
    const ref = p.configurations.find((c) => c.id === p.referenceId);
    const best = [...p.configurations].sort((x, y) => x.totalUsd - y.totalUsd)[0];
    if (best !== undefined && ref !== undefined) {
      const cmp = p.comparisons.find((c) => c.id === best.id);
      if (best.id === ref.id || cmp === undefined) out.push(m('sum.tcoRef', { years: num(p.years, 0), label: str(best.label), total: num(best.totalUsd, 0) }));
      else out.push(m('sum.tco', { years: num(p.years, 0), label: str(best.label), total: num(best.totalUsd, 0), savingsPct: pct(cmp.savingsPct), reference: str(ref.label), refTotal: num(ref.totalUsd, 0) }));
    }
  }
  return out;
}

/**
 * IOPS at queue depth 1 (normalized: 1000 ÷ average ms) beside the IOPS delivered, in the results'
 * details under the figures table (its definition is in the method's definitions): how fast one
 * request is served, never a headline multiplier.
 */
function normalizedIopsDetail(a: AnalysisReport): Msg {
  const b = a.benefit;
  return m('sum.normalizedIops', {
    before: sig(b.normalizedIops.before, 'iops', why(b.normalizedIops.reasons, 'before')), after: sig(b.normalizedIops.after, 'iops', why(b.normalizedIops.reasons, 'after')),
    dBefore: sig(b.deliveredIops.before, 'iops', why(b.deliveredIops.reasons, 'before')), dAfter: sig(b.deliveredIops.after, 'iops', why(b.deliveredIops.reasons, 'after')),
  });
}

// ---------------------------------------------------------------------------------------------

function summaryRows(a: AnalysisReport): SummaryRow[] {
  const b = a.benefit;
  const back = a.devices.backing.join(', ');
  const app = appDevices(a).join(', ');
  const row = (id: string, label: ReportKey, unit: Unit | null, path: string, f: Partial<Pick<SummaryRow, 'before' | 'after' | 'value' | 'low' | 'high'>>, devices: string): SummaryRow => ({
    id, label: m(label), unit, path, before: f.before ?? null, after: f.after ?? null, value: f.value ?? null, low: f.low ?? null, high: f.high ?? null, devices,
  });
  const d = a.latencyDistribution;
  return [
    row('iosToBacking', 'fig.iosToBacking', 'ios', 'benefit.iosToBacking', { before: b.iosToBacking.before, after: b.iosToBacking.after }, back),
    row('iosToBackingPerSecond', 'fig.iosToBackingPerSec', 'iops', 'benefit.iosToBacking', { before: b.iosToBacking.beforePerSecond, after: b.iosToBacking.afterPerSecond }, back),
    row('iosSavedPercent', 'fig.iosSaved', 'percent', 'benefit.iosSavedPercent', { value: b.iosSavedPercent.value, low: b.iosSavedPercent.ci95?.low ?? null, high: b.iosSavedPercent.ci95?.high ?? null }, back),
    row('latencyMs', 'fig.latency', 'ms', 'benefit.latencyMs', { before: b.latencyMs.before, after: b.latencyMs.after }, app),
    row('latencyReductionPercent', 'fig.latencyReduction', 'percent', 'benefit.latencyMs.reductionPercent', { value: b.latencyMs.reductionPercent, low: b.latencyMs.reductionPercentCi95?.low ?? null, high: b.latencyMs.reductionPercentCi95?.high ?? null }, app),
    row('speedup', 'fig.speedup', null, 'benefit.latencyMs.speedup', { value: b.latencyMs.speedup, low: b.latencyMs.speedupCi95?.low ?? null, high: b.latencyMs.speedupCi95?.high ?? null }, app),
    row('normalizedIops', 'fig.normalizedIops', 'iops', 'benefit.normalizedIops', { before: b.normalizedIops.before, after: b.normalizedIops.after }, app),
    row('deliveredIops', 'fig.deliveredIops', 'iops', 'benefit.deliveredIops', { before: b.deliveredIops.before, after: b.deliveredIops.after }, app),
    row('deliveredIopsPerSpindle', 'fig.iopsPerSpindleShort', 'iops', 'benefit.deliveredIopsPerSpindle', { before: b.deliveredIopsPerSpindle.before, after: b.deliveredIopsPerSpindle.after }, app),
    row('throughputMBps', 'fig.throughput', 'mbps', 'benefit.throughputMBps', { before: b.throughputMBps.before, after: b.throughputMBps.after }, app),
    row('totalWorkIos', 'fig.totalIos', 'ios', 'benefit.totalWork.*.ios', { before: b.totalWork.before.ios, after: b.totalWork.after.ios }, app),
    row('totalWorkBytes', 'fig.totalBytes', 'bytes', 'benefit.totalWork.*.bytes', { before: b.totalWork.before.bytes, after: b.totalWork.after.bytes }, app),
    row('ioTimeMeasuredPerHour', 'fig.ioTimeMeasured', 's', 'benefit.ioTimeMeasured', { before: b.ioTimeMeasured.beforePerHourSeconds, after: b.ioTimeMeasured.afterPerHourSeconds }, back),
    row('ioTimeSavedPerHour', 'fig.ioTimeSavedPerHour', 's', 'benefit.ioTimeSaved.perHourSeconds', { value: b.ioTimeSaved.perHourSeconds }, back),
    row('ioTimeSavedTotal', 'fig.ioTimeSavedTotal', 's', 'benefit.ioTimeSaved.totalSeconds', { value: b.ioTimeSaved.totalSeconds }, back),
    ...(a.layers.case === 'in-os-cache' ? [] : [row('cacheServedReads', 'fig.cacheServedReads', 'percent', 'benefit.cacheServedPercent.reads', { value: b.cacheServedPercent.reads }, `${a.devices.front.join(', ')} / ${back}`),
    row('cacheServedWrites', 'fig.cacheServedWrites', 'percent', 'benefit.cacheServedPercent.writes', { value: b.cacheServedPercent.writes }, `${a.devices.front.join(', ')} / ${back}`)]),
    row('matchedIosSaved', 'fig.matchedIosSaved', 'percent', 'benefit.matchedHours.iosSavedPercent', { value: b.matchedHours.iosSavedPercent }, back),
    row('matchedLatencyReduction', 'fig.matchedLatencyReduction', 'percent', 'benefit.matchedHours.latencyReductionPercent', { value: b.matchedHours.latencyReductionPercent }, app),
    row('latencyP50', 'fig.p50', 'ms', 'latencyDistribution.*.p50', { before: d.baseline?.p50 ?? null, after: d.measure?.p50 ?? null }, d.devices.join(', ')),
    row('latencyP95', 'fig.p95', 'ms', 'latencyDistribution.*.p95', { before: d.baseline?.p95 ?? null, after: d.measure?.p95 ?? null }, d.devices.join(', ')),
    row('latencyP99', 'fig.p99', 'ms', 'latencyDistribution.*.p99', { before: d.baseline?.p99 ?? null, after: d.measure?.p99 ?? null }, d.devices.join(', ')),
  ];
}

function notOkTotal(w: WindowSummary): number {
  const n = w.notOk;
  return n.reset + n.wrap + n.gap + n['clock-jump'] + n.incomplete;
}

/** Warnings the report's caveats say in their own words: backing-only mode (`cav.backingOnly`), drift (`cav.drift`, per metric). */
const RESTATED_WARNINGS: ReadonlySet<string> = new Set(['backing-only-mode', 'workload-drift']);

function caveats(a: AnalysisReport, tco: ReportTco | null): Section {
  const items: Val[] = [];
  if (a.mode === 'backing-only') items.push(msgv('cav.backingOnly'));
  for (const k of a.drift.exceeded) {
    const d = a.drift.metrics[k];
    items.push(msgv('cav.drift', { metric: msgv(`drift.${k}` as ReportKey), change: pct(d.changePercent), threshold: pct(a.drift.thresholdPercent, 0) }));
  }
  // the analysis' own warnings, less those the caveats above restate with their consequence (the
  // same fact twice, in two wordings: the short form printed both and ran to a third page)
  for (const w of a.warnings) if (!RESTATED_WARNINGS.has(w.code)) items.push({ k: 'warning', w } as Val);
  const resets = a.perDevice.reduce((s, d) => s + notOkTotal(d.baseline) + notOkTotal(d.measure), 0);
  if (resets > 0 && !a.warnings.some((w) => w.code.startsWith('interval-'))) items.push(msgv('cav.notOk', { n: num(resets, 0) }));
  if (items.length === 0) items.push(msgv('cav.none'));
  const general: Val[] = [msgv('cav.matched'), msgv('cav.util'), msgv('cav.units')];
  if (!a.drift.checked) general.push(msgv('cav.driftUnchecked'));
  if (tco !== null) general.push(msgv('cav.tco'));
  return {
    id: 'caveats', title: m('sec.caveats'),
    blocks: [{ type: 'paragraph', text: m('cav.intro') }, { type: 'notes', tone: 'warning', items }, { type: 'notes', tone: 'info', items: general }],
  };
}

const warmupKey = (s: string): ReportKey => `warmupSource.${s}` as ReportKey;

function method(a: AnalysisReport, c: ReportCapture): Section {
  const w = a.windows;
  const switchedBy = switchedByAdapter(a.cacheEngine);
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('m.baseline'), value: [msgv('m.windowValue', { start: time(w.baseline.start), end: time(w.baseline.end), duration: duration(w.baseline.seconds), source: msgv(`winSource.${w.source.baseline}`) })] },
    { label: m('m.measure'), value: [msgv('m.windowValue', { start: time(w.measure.start), end: time(w.measure.end), duration: duration(w.measure.seconds), source: msgv(`winSource.${w.source.measure}`) })] },
    { label: m('m.switch'), value: [w.switchAt === null ? msgv('unknown') : switchedBy === null ? time(w.switchAt) : msgv('m.switchAdapter', { time: time(w.switchAt), adapter: str(switchedBy) })] },
    { label: m('m.warmup'), value: [msgv('m.warmupValue', { duration: duration(w.warmupExcludedSeconds), source: msgv(warmupKey(w.warmupSource)) })] },
    { label: m('m.trim'), value: [w.trim.firstSeconds === 0 && w.trim.lastSeconds === 0 ? msgv('m.noTrim') : msgv('m.trimValue', { first: duration(w.trim.firstSeconds), last: duration(w.trim.lastSeconds) })] },
    { label: m('m.sampleInterval'), value: [c.sampleIntervalMs === null ? msgv('unknown') : num(c.sampleIntervalMs / 1000, c.sampleIntervalMs % 1000 === 0 ? 0 : 3, 's')] },
    { label: m('m.mode'), value: [msgv(`m.modeValue.${a.mode}`)] },
    { label: m('m.appFacing'), value: [msgv(`appFacing.${a.devices.appFacing}` as ReportKey, { devices: list(appDevices(a)) })] },
    { label: m('m.layers'), value: [layersFact(a)] },
    { label: m('m.roles'), value: [msgv('m.rolesValue', { front: list(a.devices.front), backing: list(a.devices.backing), cache: list(a.devices.cache), other: list(a.devices.other), spindles: num(a.devices.spindles, 0) })] },
    { label: m('m.targets'), value: [msgv('m.targetsValue', { preset: presetVal(a), targets: targetsVal(a) })] },
    { label: m('m.uncertainty'), value: [msgv('m.uncertaintyValue', { replicates: num(a.uncertainty.replicates, 0), seed: str(String(a.uncertainty.seed)), blockB: duration(a.uncertainty.blockSeconds.baseline), blockM: duration(a.uncertainty.blockSeconds.measure) })] },
    { label: m('m.drift'), value: [a.drift.checked ? msgv('m.driftValue', { threshold: pct(a.drift.thresholdPercent, 0) }) : msgv('m.driftUnchecked')] },
  ];
  const defs: ReportKey[] = ['iosToBacking', 'iosSaved', 'latency', 'latencyReduction', 'speedup', 'normalizedIops', 'iopsPerSpindleShort', 'throughput', 'totalIos', 'cacheServed', 'matchedHours', 'percentiles', 'health', 'util']
    // the in-OS cache case has no share served by the cache to define (benefit/layers.ts)
    .filter((k) => k !== 'cacheServed' || a.layers.case !== 'in-os-cache').map((k) => k as ReportKey);
  return {
    id: 'method', title: m('sec.method'),
    blocks: [
      { type: 'paragraph', text: m('m.intro') },
      { type: 'facts', rows: facts },
      { type: 'table', table: devicesInventory(a, c) },
      { type: 'subheading', text: m('m.definitions') },
      { type: 'facts', rows: defs.map((k) => ({ label: m(`fig.${k}` as ReportKey), value: [msgv(`def.${k}` as ReportKey)] })) },
    ],
  };
}

function appendix(a: AnalysisReport, c: ReportCapture, input: ReportInput): Section {
  const facts: { label: Msg; value: Val[] }[] = [
    { label: m('a.hostname'), value: [a.host.hostname === null ? msgv('unknown') : str(a.host.hostname)] },
    { label: m('a.kernel'), value: [a.host.kernel === null ? msgv('unknown') : str(a.host.kernel)] },
    { label: m('a.captureFile'), value: [str(c.fileName)] },
    { label: m('a.sha256'), value: [str(c.sha256)] },
    { label: m('a.size'), value: [c.sizeBytes === null ? msgv('unknown') : num(c.sizeBytes / 1e6, 1, 'mb')] },
    { label: m('a.source'), value: [c.source === null ? msgv('unknown') : str(c.source)] },
    { label: m('a.schema'), value: [c.schemaVersion === null ? msgv('unknown') : num(c.schemaVersion, 0)] },
    { label: m('a.probe'), value: [c.probeVersion === null ? msgv('unknown') : str(c.probeVersion)] },
    { label: m('a.app'), value: [str(input.appVersion)] },
    { label: m('a.generated'), value: [time(input.generatedMs)] },
    { label: m('a.analysisFormat'), value: [msgv('a.analysisFormatValue', { version: num(a.formatVersion, 0), seed: str(String(a.uncertainty.seed)) })] },
  ];
  if (input.tco !== null) facts.push({ label: m('a.scenario'), value: [str(input.tco.scenarioFile)] });
  const imports = c.imports ?? [];
  return { id: 'appendix', title: m('sec.appendix'), blocks: [{ type: 'facts', rows: facts }, ...(imports.length > 0 ? [{ type: 'table' as const, table: importsTable(imports) }] : []), { type: 'table', table: hourlyTable(a) }] };
}

/** Where an imported capture's figures came from: every file the import read, with its hash (the appendix). */
export function importsTable(files: readonly ImportedFile[]): Table {
  const offset = (min: number | null): Val => (min === null ? msgv('unknown') : str(`UTC${min < 0 ? '−' : '+'}${String(Math.floor(Math.abs(min) / 60)).padStart(2, '0')}:${String(Math.abs(min) % 60).padStart(2, '0')}`));
  return {
    id: 'imports', title: m('t.imports'), sheet: true,
    columns: [
      { head: m('c.file'), align: 'left' }, { head: m('c.part'), align: 'left' }, { head: m('c.format'), align: 'left' }, { head: m('c.encoding'), align: 'left' },
      { head: m('c.timeZone'), align: 'left' }, { head: m('c.samples'), align: 'right' }, { head: m('c.span'), align: 'left' }, { head: m('c.sizeMb'), unit: 'mb', align: 'right' }, { head: m('c.sha256'), align: 'left' },
    ],
    rows: files.map((f) => ({
      cells: [
        str(f.name), str(f.part), str(`${f.kind}: ${f.format}`), str(f.encoding),
        f.timeZone === null ? offset(f.utcOffsetMin) : { k: 'list', items: [str(f.timeZone), offset(f.utcOffsetMin)], sep: ' · ' },
        num(f.samples, 0),
        f.firstUtcMs === null || f.lastUtcMs === null ? msgv('unknown') : msgv('cover.range', { start: time(f.firstUtcMs), end: time(f.lastUtcMs) }),
        num(f.sizeBytes / 1e6, 2), str(f.sha256),
      ],
    })),
    caption: m('t.importsCaption'),
  };
}

/**
 * The report model for one analysis. Charts and tables appear in the sections in reading
 * order; `charts` lists them again for the exporters' checks; `summary` holds the raw figures
 * with their JSON paths (the XLSX/CSV summary).
 */
export function buildReportModel(input: ReportInput): ReportModel {
  const a = input.analysis;
  const c = input.capture;
  const cover = input.cover;
  const { blocks: results, charts, predictedSummary } = resultsSection(a, input.series);

  // the decision block first (decision.ts): the verdict, what it rests on, the figures, drive life, the caveats
  const decision = decisionBlock({ kind: 'before-after', analysis: a, tco: input.tco });
  const sections: Section[] = [
    decisionSection(decision),
    { id: 'summary', title: m('sec.summary'), blocks: [
      { type: 'paragraph', text: verdict(a, input.tco) },
      { type: 'paragraph', text: m('sum.intro', { server: str(cover.server ?? a.host.hostname ?? '—'), baseline: duration(a.windows.baseline.seconds), measure: duration(a.windows.measure.seconds) }) },
      { type: 'paragraph', text: m(`mode.${a.mode}` as ReportKey) },
      { type: 'sentences', items: summarySentences(a, input.tco) },
      { type: 'cards', cards: cards(a) },
    ] },
    method(a, c),
    { id: 'results', title: m('sec.results'), blocks: results },
  ];
  const summary = [...summaryRows(a), ...engineSummaryRows(a, [...a.devices.front, ...a.devices.backing].join(', ')), ...predictedSummary];
  if (input.tco !== null) {
    const t = tcoSection(input.tco, a.layers.case === 'in-os-cache');
    sections.push(t.section);
    charts.push(...t.charts);
    summary.push(...t.summary);
  }
  sections.push(caveats(a, input.tco), appendix(a, c, input));

  const footerParts = [cover.customer, cover.title].filter((s): s is string => s !== undefined && s.trim() !== '');
  const intervalDevices = a.perDevice.map((d) => ({ device: d.device, role: d.role as string }));
  const model: ReportModel = {
    formatVersion: REPORT_FORMAT_VERSION,
    form: 'full',
    generatedMs: input.generatedMs,
    cover: coverOf(input),
    footer: footerParts.length > 0 ? str(footerParts.join(' · ')) : msgv('cover.defaultTitle'),
    sections,
    decision,
    summary,
    charts,
    intervalDevices,
  };
  // no front device: the figures are the backing drives' own, never the application's
  return a.mode === 'backing-only' ? backingOnlyWords(model) : model;
}

/** The Results section's blocks in order (figures, time charts, devices, shape, hours, distribution, trace latency, health, engine, prediction), its charts, and the prediction's summary rows. */
function resultsSection(a: AnalysisReport, series: ReportInput['series']): { blocks: Block[]; charts: ChartSpec[]; predictedSummary: ReturnType<typeof predictionBlocks>['summary'] } {
  const iops = timeChart(a, series, 'iops');
  // front-and-backing: the application's response time and the backing drives' on charts of their own (own scales)
  const split = a.mode === 'front-and-backing' && a.devices.front.length > 0 && a.devices.backing.length > 0;
  const lats = split ? [timeChart(a, series, 'latencyMs', 'front'), timeChart(a, series, 'latencyMs', 'backing')] : [timeChart(a, series, 'latencyMs')];
  const hourly = hourlyChart(a);
  const dist = distributionChart(a);
  const shape = shapeBlocks(a, series);
  const charts: ChartSpec[] = [iops, ...lats, ...shape.charts];
  const results: Block[] = [
    { type: 'table', table: figuresTable(a) },
    { type: 'paragraph', text: normalizedIopsDetail(a) },
    { type: 'chart', chart: iops },
    ...lats.map((chart): Block => ({ type: 'chart', chart })),
    { type: 'table', table: deviceTable(a) },
    { type: 'table', table: devicePeaksTable(a) },
    // the read/write split, queue depth and request sizes (shape-section.ts)
    ...shape.blocks,
    { type: 'subheading', text: m('r.matchedTitle') },
    { type: 'paragraph', text: a.hourly.length === 0 ? m('r.matchedNone') : m('r.matched', {
      hours: str(a.benefit.matchedHours.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ')),
      saved: pct(a.benefit.matchedHours.iosSavedPercent, 1, why(a.benefit.matchedHours.reasons, 'iosSavedPercent')),
      reduction: pct(a.benefit.matchedHours.latencyReductionPercent, 1, why(a.benefit.matchedHours.reasons, 'latencyReductionPercent')),
    }) },
  ];
  if (a.hourly.length > 0) {
    results.push({ type: 'chart', chart: hourly });
    charts.push(hourly);
  }
  results.push({ type: 'subheading', text: m('r.distributionTitle') }, { type: 'table', table: distributionTable(a) });
  if (a.latencyDistribution.baseline !== null || a.latencyDistribution.measure !== null) {
    results.push({ type: 'chart', chart: dist });
    charts.push(dist);
  }
  const traced = traceLatencyBlocks(a);
  results.push(...traced.blocks);
  charts.push(...traced.charts);
  results.push({ type: 'subheading', text: m('r.healthTitle') }, { type: 'table', table: healthTable(a) });
  // the cache engine's own statistics beside the counters (captures recorded with an adapter)
  results.push(...engineBlocks(a));
  const predicted = predictionBlocks(a);
  results.push(...predicted.blocks);
  charts.push(...predicted.charts);
  return { blocks: results, charts, predictedSummary: predicted.summary };
}

/** The cover: its title and rows (customer, server, author, prepared on, windows, capture, versions; a field left empty is left out). */
function coverOf(input: ReportInput): ReportModel['cover'] {
  const a = input.analysis;
  const c = input.capture;
  const cover = input.cover;
  const preparedMs = cover.preparedMs ?? input.generatedMs;
  const title: Val = cover.title !== undefined && cover.title.trim() !== '' ? str(cover.title) : msgv('cover.defaultTitle');
  const rows: { label: Msg; value: Val[] }[] = [
    // a field left empty is left out (no "not given" on a cover)
    ...(cover.customer === undefined || cover.customer.trim() === '' ? [] : [{ label: m('cover.customer'), value: [str(cover.customer)] }]),
    { label: m('cover.server'), value: [str(cover.server !== undefined && cover.server !== '' ? cover.server : (a.host.hostname ?? '—'))] },
    ...(cover.author === undefined || cover.author.trim() === '' ? [] : [{ label: m('cover.author'), value: [str(cover.author)] }]),
    { label: m('cover.prepared'), value: [time(preparedMs, 'date')] },
    { label: m('cover.baseline'), value: [msgv('cover.range', { start: time(a.windows.baseline.start), end: time(a.windows.baseline.end) })] },
    { label: m('cover.measure'), value: [msgv('cover.range', { start: time(a.windows.measure.start), end: time(a.windows.measure.end) })] },
    { label: m('cover.capture'), value: [str(c.fileName)] },
    { label: m('cover.version'), value: [msgv('cover.versionValue', { app: str(input.appVersion), probe: c.probeVersion === null ? msgv('unknown') : str(c.probeVersion) })] },
  ];
  return { title, subtitle: m('cover.subtitle'), rows };
}

/** Warnings in the model's caveats (for tests and the CLI). */
export function reportWarnings(model: ReportModel): AnalysisWarning[] {
  const out: AnalysisWarning[] = [];
  for (const s of model.sections) for (const b of s.blocks) if (b.type === 'notes') for (const v of b.items) if (v.k === 'warning') out.push(v.w);
  return out;
}
