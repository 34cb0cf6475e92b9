/**
 * Step 10 of {@link analyze} (benefit/analyze.ts): the analysis's warnings, in words, with their
 * parameters, in the order the report lists them (setup, prediction, intervals, figures, capture).
 */
import type { CaptureData } from '../records/types.ts';
import type { TimeWindow } from '../records/window.ts';
import { isoUtc } from '../records/window.ts';
import type { DriftReport } from './drift.ts';
import { ENGINE_DIFFERENCE_POINTS } from './engine-stats.ts';
import type { EngineStatsReport } from './engine-stats.ts';
import type { AnalysisWarning } from './result.ts';
import type { AnalysisWarningCode } from './warnings.ts';
import type { DevicePass } from './device-pass.ts';
import type { AnalysisDevices } from './analyze.ts';
import { HOUR_SPAN_MS, predictionWarnings } from './plausibility.ts';

/** A device whose `ok` intervals cover less than this share of a window gets a `low-coverage` warning, percent. */
export const LOW_COVERAGE_PERCENT = 90;
/** Windows whose lengths differ by more than this, percent of the longer, get an `unequal-windows` note. */
export const UNEQUAL_WINDOWS_PERCENT = 10;
/** Windows shorter than this get a `short-window` warning (a day shows the whole load cycle), ms. */
export const SHORT_WINDOW_MS = 24 * 3_600_000;

type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

/**
 * The codes of the setup warnings ({@link setupWarnings}), which open the list: the prediction's
 * warning comes right after them (a stored prediction read back into an analysis is placed there,
 * benefit/stored-prediction.ts).
 */
export const SETUP_WARNING_CODES = ['front-named-backing', 'backing-named-front', 'backing-only-mode', 'workload-drift', 'unequal-windows', 'short-window', 'very-short-window'] as const;
type SetupWarningCode = typeof SETUP_WARNING_CODES[number];

/** A warning of the analysis, with its device and parameters when it has them. */
function warning(code: AnalysisWarningCode, message: string, extra: { device?: string; params?: Record<string, string | number> } = {}): AnalysisWarning {
  const w: AnalysisWarning = { code, message, source: 'analysis' };
  if (extra.device !== undefined) w.device = extra.device;
  if (extra.params !== undefined) w.params = extra.params;
  return w;
}

/** The windows' lengths, seconds. */
export function windowSeconds(wins: Record<Win, TimeWindow>): { bSec: number; mSec: number } {
  return { bSec: (wins.baseline.endMs - wins.baseline.startMs) / 1000, mSec: (wins.measure.endMs - wins.measure.startMs) / 1000 };
}

/** Warnings about the setup: roles the options overrode, backing-only mode, workload drift, and the windows' lengths. */
function setupWarnings(dev: AnalysisDevices, wins: Record<Win, TimeWindow>, drift: DriftReport, threshold: number): AnalysisWarning[] {
  const { front, mode, overridden } = dev;
  const warnings: AnalysisWarning[] = [];
  // only codes of SETUP_WARNING_CODES here (the read-back of a stored prediction finds the end of these by them)
  const setup: (code: SetupWarningCode, message: string, extra?: Parameters<typeof warning>[2]) => AnalysisWarning = warning;
  for (const o of overridden) {
    warnings.push(setup(o.code, o.code === 'front-named-backing'
      ? `Device ${o.device} was recorded as the front device, but the options name it a backing device: it is analyzed as backing${front.length === 0 ? ', and with no front device left the analysis is backing-only' : ''}.`
      : `Device ${o.device} was recorded as a backing device, but the options name it the front device: it is analyzed as front.`,
    { device: o.device, params: { device: o.device } }));
  }
  if (mode === 'backing-only') {
    warnings.push(setup('backing-only-mode', 'Only backing devices were measured, so windows are compared per second and the workload may have changed between them.'));
  }
  for (const k of drift.exceeded) {
    const m = drift.metrics[k];
    warnings.push(setup('workload-drift', `The workload's ${k} changed by ${(m.changePercent ?? 0).toFixed(1)}% between the windows, more than the ${threshold}% threshold.`,
      { params: { metric: k, changePercent: m.changePercent ?? 0, thresholdPercent: threshold } }));
  }
  const { bSec, mSec } = windowSeconds(wins);
  if (Math.abs(bSec - mSec) > (Math.max(bSec, mSec) * UNEQUAL_WINDOWS_PERCENT) / 100) {
    warnings.push(setup('unequal-windows', 'The windows differ in length by more than 10%; figures are compared per second or per I/O, never as raw totals.',
      { params: { baselineSeconds: bSec, measureSeconds: mSec } }));
  }
  if (bSec * 1000 < SHORT_WINDOW_MS || mSec * 1000 < SHORT_WINDOW_MS) {
    warnings.push(setup('short-window', 'A window is shorter than 24 hours, so it may not see the whole daily cycle of load.',
      { params: { baselineSeconds: bSec, measureSeconds: mSec } }));
  }
  if (bSec * 1000 < HOUR_SPAN_MS || mSec * 1000 < HOUR_SPAN_MS) {
    warnings.push(setup('very-short-window', 'A window is shorter than an hour: no figure of it represents an hour, let alone a day (busiest hour, p95 over the day, daily totals).',
      { params: { baselineSeconds: bSec, measureSeconds: mSec } }));
  }
  return warnings;
}

/** Warnings about the analysed devices' intervals: those without numbers, by status, and low coverage of a window. */
function intervalWarnings(dev: AnalysisDevices, wins: Record<Win, TimeWindow>, pass: Pick<DevicePass<unknown>, 'perDevice'>): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  const { bSec, mSec } = windowSeconds(wins);
  for (const d of pass.perDevice) {
    if (!dev.chosen.has(d.device)) continue;
    for (const k of WINS) {
      const s = d[k];
      const winSec = k === 'baseline' ? bSec : mSec;
      for (const status of ['reset', 'wrap', 'gap', 'clock-jump', 'incomplete'] as const) {
        const count = s.notOk[status];
        if (count > 0) {
          warnings.push(warning(`interval-${status}`, `Device ${d.device} has ${count} ${status} interval(s) in the ${k} window; they carry no numbers and are left out.`,
            { device: d.device, params: { device: d.device, window: k, count } }));
        }
      }
      const coverage = (s.okSeconds / winSec) * 100;
      if (coverage < LOW_COVERAGE_PERCENT) {
        warnings.push(warning('low-coverage', `Device ${d.device} has data for only ${coverage.toFixed(1)}% of the ${k} window.`,
          { device: d.device, params: { device: d.device, window: k, coveragePercent: coverage } }));
      }
    }
  }
  return warnings;
}

/** Warnings about the figures: negative I/Os saved or share served, and a cache engine whose own account differs from the counters'. */
function figureWarnings(iosSavedValue: number | null, served: { reads: number | null; writes: number | null }, engineStats: EngineStatsReport | null): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  if (iosSavedValue !== null && iosSavedValue < 0) {
    warnings.push(warning('negative-ios-saved', 'The backing devices carried more I/O per unit of work after the switch than before.', { params: { value: iosSavedValue } }));
  }
  for (const kind of ['reads', 'writes'] as const) {
    const v = served[kind];
    if (v !== null && v < 0) {
      warnings.push(warning('negative-cache-served', `The backing devices completed more ${kind} than the front device in the measure window (write-backs, metadata or split requests).`,
        { params: { kind, value: v } }));
    }
  }
  for (const kind of ['reads', 'writes', 'all'] as const) {
    const sh = engineStats?.shares[kind];
    if (sh === undefined || !sh.exceeds || sh.enginePercent === null || sh.countersPercent === null || sh.differencePoints === null) continue;
    warnings.push(warning('engine-counters-differ', `The cache engine (${engineStats?.adapter ?? ''}) reports ${sh.enginePercent.toFixed(1)}% of ${kind === 'all' ? 'all I/O' : kind} served from its cache in the measure window, but the front and backing counters show ${sh.countersPercent.toFixed(1)}%: ${Math.abs(sh.differencePoints).toFixed(1)} points apart, more than ${ENGINE_DIFFERENCE_POINTS}. Engines count partial hits, bypassed I/O and write-through writes differently (see cacheEngine.comparison.notes).`,
      { params: { kind, enginePercent: sh.enginePercent, countersPercent: sh.countersPercent, differencePoints: Math.abs(sh.differencePoints), thresholdPoints: ENGINE_DIFFERENCE_POINTS } }));
  }
  return warnings;
}

/** The capture's own warnings that fall inside a window (or have no time). */
function captureWarnings(data: CaptureData, wins: Record<Win, TimeWindow>): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  for (const w of data.warnings) {
    const inside = w.atMs === undefined ||
      (w.atMs >= wins.baseline.startMs && w.atMs <= wins.baseline.endMs) || (w.atMs >= wins.measure.startMs && w.atMs <= wins.measure.endMs);
    if (!inside) continue;
    const out: AnalysisWarning = { code: w.code, message: w.message, source: 'capture' };
    if (w.device !== undefined) out.device = w.device;
    if (w.atMs !== undefined) out.at = isoUtc(w.atMs);
    warnings.push(out);
  }
  return warnings;
}

/** Step 10: the warnings, in words, with their parameters. */
export function analysisWarnings(data: CaptureData, dev: AnalysisDevices, wins: Record<Win, TimeWindow>, pass: Pick<DevicePass<unknown>, 'perDevice'>, drift: DriftReport, threshold: number,
  iosSavedValue: number | null, served: { reads: number | null; writes: number | null }, engineStats: EngineStatsReport | null): AnalysisWarning[] {
  return [
    ...setupWarnings(dev, wins, drift, threshold),
    ...predictionWarnings(data.prediction),
    ...intervalWarnings(dev, wins, pass),
    ...figureWarnings(iosSavedValue, served, engineStats),
    ...captureWarnings(data, wins),
  ];
}
