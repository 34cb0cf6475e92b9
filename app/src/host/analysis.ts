/**
 * Turns an opened capture into what the UI shows: the engine's analyze output (the same
 * object `cacheproof analyze --json` prints) plus chart series built with the engine's own
 * interval metrics (one implementation of each figure).
 */
import { analyze, intervalMetrics, type AnalyzeOptions, type IntervalRecord } from '@cacheproof/engine';
import type { AnalysisView } from '../shared/contract.ts';
import type { OpenedCapture } from './capture/reader.ts';
import { HostError } from './errors.ts';

/** At most this many points per device go to a chart; longer series are merged into buckets. */
export const MAX_CHART_POINTS = 2000;

/** Merges consecutive intervals into one record (sums of counts over the `ok` ones). */
function merge(device: string, group: readonly IntervalRecord[]): IntervalRecord {
  const first = group[0];
  const last = group[group.length - 1];
  const ok = group.filter((r) => r.status === 'ok');
  const sum = (k: 'reads' | 'writes' | 'readBytes' | 'writeBytes' | 'readTimeMs' | 'writeTimeMs' | 'busyMs' | 'weightedMs'): number | null =>
    ok.length === 0 ? null : ok.reduce((a, r) => a + (r[k] ?? 0), 0);
  return {
    device,
    startMs: first?.startMs ?? 0,
    endMs: last?.endMs ?? 0,
    intervalMs: ok.reduce((a, r) => a + r.intervalMs, 0),
    status: ok.length === 0 ? (first?.status ?? 'gap') : 'ok',
    reads: sum('reads'),
    writes: sum('writes'),
    readBytes: sum('readBytes'),
    writeBytes: sum('writeBytes'),
    readTimeMs: sum('readTimeMs'),
    writeTimeMs: sum('writeTimeMs'),
    busyMs: sum('busyMs'),
    weightedMs: sum('weightedMs'),
  };
}

export function buildSeriesView(capture: OpenedCapture): AnalysisView['series'] {
  const byDevice = new Map<string, IntervalRecord[]>();
  for (const r of capture.data.intervals) {
    let list = byDevice.get(r.device);
    if (!list) byDevice.set(r.device, (list = []));
    list.push(r);
  }
  const roles = new Map(capture.data.devices.map((d) => [d.name, d.role]));
  const out: AnalysisView['series'] = [];
  for (const [device, records] of byDevice) {
    const role = roles.get(device) ?? 'other';
    if (role === 'other' && roles.size > 0 && [...roles.values()].some((x) => x !== 'other')) continue;
    const bucket = Math.max(1, Math.ceil(records.length / MAX_CHART_POINTS));
    const s = { device, role, t: [] as number[], iops: [] as (number | null)[], latencyMs: [] as (number | null)[], mbps: [] as (number | null)[] };
    for (let i = 0; i < records.length; i += bucket) {
      const rec = bucket === 1 ? (records[i] as IntervalRecord) : merge(device, records.slice(i, i + bucket));
      const m = intervalMetrics(rec);
      s.t.push(rec.endMs);
      s.iops.push(m.iops);
      s.latencyMs.push(m.awaitMs);
      s.mbps.push(m.mbps);
    }
    out.push(s);
  }
  return out;
}

export interface ViewMeta {
  id: string;
  name: string;
  sha256: string;
  isSample: boolean;
}

export function buildAnalysisView(capture: OpenedCapture, meta: ViewMeta, options: AnalyzeOptions = {}): AnalysisView {
  if (capture.data.intervals.length === 0) throw new HostError('capture-empty', `${capture.path} holds no intervals yet.`);
  const result = analyze(capture.data, options);
  if (!result.ok) throw new HostError('analysis-failed', result.error.message);
  return {
    id: meta.id,
    name: meta.name,
    captureFile: capture.path,
    captureSha256: meta.sha256,
    host: capture.data.host,
    sampleIntervalMs: capture.data.sampleIntervalMs,
    isSample: meta.isSample,
    result: result as unknown as AnalysisView['result'],
    series: buildSeriesView(capture),
    phases: capture.data.phases.map((p) => ({ name: p.name, startMs: p.startMs, endMs: p.endMs })),
  };
}
