/**
 * Figures of the analysis built from window aggregate vectors (aggregate.ts `AGG`): work done,
 * the workload's shape for drift, each hour's side, the hourly and matched-hours figures (step 7
 * of {@link analyze}) and the workload drift (step 8).
 */
import type { Reasons } from '../metrics/summary.ts';
import type { WindowAggregates } from './aggregate.ts';
import { AGG, AGG_K } from './aggregate.ts';
import type { DriftReport, WorkloadShape } from './drift.ts';
import { checkDrift } from './drift.ts';
import type { AnalysisMode, Figure } from './figures.ts';
import { averageLatencyMs, iosSavedPercent, latencyReductionPercent } from './figures.ts';
import type { HourlyEntry, HourSide, WorkDone } from './result.ts';

type Win = 'baseline' | 'measure';

/** A figure's value, its null reason recorded under `key`. */
export const fig = (f: Figure, key: string, reasons: Reasons): number | null => {
  if (f.value === null) reasons[key] = f.reason;
  return f.value;
};
/** Slot `i` of an aggregate vector. */
export const at = (v: Float64Array, i: number): number => v[i] as number;

export function workDone(mode: AnalysisMode, v: Float64Array): WorkDone {
  const front = mode === 'front-and-backing';
  const seconds = at(v, front ? AGG.fSec : AGG.bSec);
  const reasons: Reasons = {};
  if (!(seconds > 0)) {
    reasons.ios = 'no-data';
    reasons.bytes = 'no-data';
    return { ios: null, bytes: null, seconds, reasons };
  }
  return {
    ios: at(v, front ? AGG.fReads : AGG.bReads) + at(v, front ? AGG.fWrites : AGG.bWrites),
    bytes: at(v, front ? AGG.fBytes : AGG.bBytes),
    seconds,
    reasons,
  };
}

function shape(v: Float64Array): WorkloadShape {
  const sec = at(v, AGG.fSec);
  const ios = at(v, AGG.fReads) + at(v, AGG.fWrites);
  const bytes = at(v, AGG.fBytes);
  return {
    iops: sec > 0 ? ios / sec : null,
    readSharePercent: ios > 0 ? (at(v, AGG.fReads) / ios) * 100 : null,
    meanRequestBytes: ios > 0 ? bytes / ios : null,
    bytesPerSec: sec > 0 ? bytes / sec : null,
  };
}

function hourSide(mode: AnalysisMode, v: Float64Array): HourSide {
  const reasons: Reasons = {};
  const appSec = at(v, mode === 'front-and-backing' ? AGG.fSec : AGG.bSec);
  const appIos = mode === 'front-and-backing' ? at(v, AGG.fReads) + at(v, AGG.fWrites) : at(v, AGG.bReads) + at(v, AGG.bWrites);
  const bSec = at(v, AGG.bSec);
  const iops = appSec > 0 ? appIos / appSec : null;
  if (iops === null) reasons.iops = 'no-data';
  const backingIops = bSec > 0 ? (at(v, AGG.bReads) + at(v, AGG.bWrites)) / bSec : null;
  if (backingIops === null) reasons.backingIops = 'no-data';
  const latencyMs = fig(averageLatencyMs(mode, v), 'latencyMs', reasons);
  return { seconds: Math.max(at(v, AGG.fSec), bSec), iops, backingIops, latencyMs, reasons };
}

function sumVectors(vs: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(AGG_K);
  for (const v of vs) for (let k = 0; k < AGG_K; k++) out[k] = (out[k] as number) + (v[k] as number);
  return out;
}

/** Step 7: each UTC hour of the day present in both windows, and the matched-hours figures. */
export function hourlyFigures(mode: AnalysisMode, agg: Record<Win, WindowAggregates>) {
  const hourly: HourlyEntry[] = [];
  const matchedB: Float64Array[] = [], matchedM: Float64Array[] = [];
  for (let h = 0; h < 24; h++) {
    const vb = agg.baseline.hours[h], vm = agg.measure.hours[h];
    if (!vb || !vm) continue;
    matchedB.push(vb);
    matchedM.push(vm);
    const reasons: Reasons = {};
    const hb = averageLatencyMs(mode, vb), hm = averageLatencyMs(mode, vm);
    hourly.push({
      hour: h,
      baseline: hourSide(mode, vb),
      measure: hourSide(mode, vm),
      iosSavedPercent: fig(iosSavedPercent(mode, vb, vm), 'iosSavedPercent', reasons),
      latencyReductionPercent: fig(latencyReductionPercent(hb, hm), 'latencyReductionPercent', reasons),
      reasons,
    });
  }
  const mhR: Reasons = {};
  let matchedSaved: number | null = null, matchedRed: number | null = null;
  if (hourly.length === 0) {
    mhR.iosSavedPercent = 'no-matched-hours';
    mhR.latencyReductionPercent = 'no-matched-hours';
  } else {
    const sb = sumVectors(matchedB), sm = sumVectors(matchedM);
    matchedSaved = fig(iosSavedPercent(mode, sb, sm), 'iosSavedPercent', mhR);
    matchedRed = fig(latencyReductionPercent(averageLatencyMs(mode, sb), averageLatencyMs(mode, sm)), 'latencyReductionPercent', mhR);
  }
  return { hourly, matchedHours: { hours: hourly.map((h) => h.hour), iosSavedPercent: matchedSaved, latencyReductionPercent: matchedRed, reasons: mhR } };
}

/** Step 8: the workload's drift between the windows (front-and-backing mode only). */
export function workloadDrift(mode: AnalysisMode, agg: Record<Win, WindowAggregates>, threshold: number): DriftReport {
  return mode === 'front-and-backing' ? checkDrift(shape(agg.baseline.total), shape(agg.measure.total), threshold) : checkDrift(null, null, threshold);
}

