/**
 * Turns an opened capture into what the UI shows: the engine's analyze output (the same
 * object `cacheproof analyze --json` prints) plus chart series built with the engine's own
 * interval metrics (one implementation of each figure).
 */
import {
  analyze, columnsFromRecords, INTERVAL_STATUSES, intervalMetrics, recordAt, STATUS_CODE,
  type AnalyzeOptions, type DeviceColumns, type IntervalRecord,
} from '@cacheproof/engine';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisView } from '../shared/contract.ts';
import { openCapture, sha256File, type OpenedCapture } from './capture/reader.ts';
import { writeFileAtomicSync } from './atomic-write.ts';
import { APP_VERSION } from './version.ts';
import { HostError } from './errors.ts';
import { buildGroupSeriesFromColumns } from './series.ts';

/** At most this many points per device go to a chart; longer series are merged into buckets. */
export const MAX_CHART_POINTS = 2000;

/** Merges slots [from, to) of a device's columns into one record (sums of counts over the `ok` ones; absent counts as 0). */
function merge(c: DeviceColumns, from: number, to: number): IntervalRecord {
  let okN = 0, ms = 0, reads = 0, writes = 0, readBytes = 0, writeBytes = 0, readTimeMs = 0, writeTimeMs = 0, busyMs = 0, weightedMs = 0;
  const add = (v: number): number => (Number.isNaN(v) ? 0 : v);
  for (let i = from; i < to; i++) {
    if (c.status[i] !== STATUS_CODE.ok) continue;
    okN++;
    ms += c.intervalMs[i] as number;
    reads += add(c.reads[i] as number);
    writes += add(c.writes[i] as number);
    readBytes += add(c.readBytes[i] as number);
    writeBytes += add(c.writeBytes[i] as number);
    readTimeMs += add(c.readTimeMs[i] as number);
    writeTimeMs += add(c.writeTimeMs[i] as number);
    busyMs += add(c.busyMs[i] as number);
    weightedMs += add(c.weightedMs[i] as number);
  }
  const none = okN === 0;
  return {
    device: c.device,
    startMs: c.startMs[from] as number,
    endMs: c.endMs[to - 1] as number,
    intervalMs: ms,
    status: none ? (INTERVAL_STATUSES[c.status[from] as number] ?? 'gap') : 'ok',
    reads: none ? null : reads, writes: none ? null : writes, readBytes: none ? null : readBytes, writeBytes: none ? null : writeBytes,
    readTimeMs: none ? null : readTimeMs, writeTimeMs: none ? null : writeTimeMs, busyMs: none ? null : busyMs, weightedMs: none ? null : weightedMs,
  };
}

/** The intervals of a capture as per-device columns (the reader's, or built from the records). */
function columnsOf(capture: OpenedCapture): readonly DeviceColumns[] {
  return capture.data.columns ?? columnsFromRecords(capture.data.intervals);
}

/**
 * Per-device chart series: iops, average response time and MB/s of each interval (the engine's
 * `intervalMetrics`), at most {@link MAX_CHART_POINTS} points per device: longer series are cut
 * into equal runs of consecutive intervals, each merged into one record first.
 */
export function buildSeriesView(capture: OpenedCapture): AnalysisView['series'] {
  const roles = new Map(capture.data.devices.map((d) => [d.name, d.role]));
  const someRole = [...roles.values()].some((x) => x !== 'other');
  const out: AnalysisView['series'] = [];
  for (const c of columnsOf(capture)) {
    if (c.n === 0) continue;
    const role = roles.get(c.device) ?? 'other';
    if (role === 'other' && roles.size > 0 && someRole) continue;
    const bucket = Math.max(1, Math.ceil(c.n / MAX_CHART_POINTS));
    const s = { device: c.device, role, t: [] as number[], iops: [] as (number | null)[], latencyMs: [] as (number | null)[], mbps: [] as (number | null)[] };
    for (let i = 0; i < c.n; i += bucket) {
      const rec = bucket === 1 ? recordAt(c, i) : merge(c, i, Math.min(c.n, i + bucket));
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
  if (columnsOf(capture).every((c) => c.n === 0)) throw new HostError('capture-empty', `${capture.path} holds no intervals yet.`);
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
    groupSeries: buildGroupSeriesFromColumns(columnsOf(capture), result.devices),
    phases: capture.data.phases.map((p) => ({ name: p.name, startMs: p.startMs, endMs: p.endMs })),
  };
}

/** Bump when the cached view's shape changes in a way the app version does not capture. */
export const VIEW_CACHE_FORMAT = 1;
/** Finished analyses kept in the cache (the least recently written go first). */
export const VIEW_CACHE_ENTRIES = 16;

declare const __filename: string | undefined;

/** What identifies this build's analysis code: the app version and the size and time of the running bundle (or module). */
function buildStamp(): string {
  try {
    if (typeof __filename === 'string') {
      const st = statSync(__filename);
      return `${APP_VERSION}:${st.size}:${st.mtimeMs}`;
    }
  } catch { /* no file to stat: the version alone */ }
  return APP_VERSION;
}

interface FileStamp { size: number; mtimeMs: number }
function fileStamp(path: string): FileStamp | null {
  try {
    const st = statSync(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

/** The cache key of a capture's analysis: path, size and modification time of the file and of its write-ahead log, the options, the build. */
function cacheKey(path: string, options: AnalyzeOptions): { key: string; stamp: string } {
  const stamp = JSON.stringify({ file: fileStamp(path), wal: fileStamp(`${path}-wal`) });
  const key = createHash('sha256')
    .update(JSON.stringify({ format: VIEW_CACHE_FORMAT, build: buildStamp(), path, stamp, options }))
    .digest('hex');
  return { key, stamp };
}

function readCached(file: string, key: string): AnalysisView | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null; // absent or unreadable: recompute
  }
  const entry = parsed as { key?: unknown; view?: Partial<AnalysisView> } | null;
  const view = entry?.view;
  if (entry?.key !== key || view === undefined || typeof view.result !== 'object' || !Array.isArray(view.series)) return null;
  return view as AnalysisView;
}

function writeCached(dir: string, file: string, key: string, view: AnalysisView): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(file, JSON.stringify({ key, view }));
    const entries = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, t: fileStamp(join(dir, f))?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of entries.slice(VIEW_CACHE_ENTRIES)) rmSync(join(dir, f), { force: true });
  } catch {
    // the cache is an optimization: a read-only or full data folder only costs a recomputation next time
  }
}

/**
 * Opens a capture and builds its {@link AnalysisView}, through a cache of finished analyses in
 * `cacheDir` (one JSON file per analysis, named by a hash of the capture's path, size and
 * modification time, those of its write-ahead log, the options and the build). Re-opening an
 * unchanged capture returns the cached view (`fromCache: true`) without reading the capture;
 * any change to the file gives a new key. A capture whose recorder is still running (or
 * starting) is never cached, nor one that changed while it was being read. `cacheDir` null:
 * no cache.
 *
 * @example
 * const view = await loadAnalysisView('/data/run.capture', { id, name: 'run', isSample: false }, {}, join(dataDir(), 'analysis-cache'));
 * view.fromCache // false the first time, true the next
 */
export async function loadAnalysisView(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, cacheDir: string | null): Promise<AnalysisView> {
  const { key, stamp } = cacheKey(path, options);
  const file = cacheDir === null ? null : join(cacheDir, `${key}.json`);
  if (file !== null) {
    const hit = readCached(file, key);
    if (hit !== null) return { ...hit, id: meta.id, name: meta.name, isSample: meta.isSample, fromCache: true };
  }
  // The hash runs on a worker thread while this one scans the capture.
  const hashing = sha256File(path);
  hashing.catch(() => undefined);
  const capture = openCapture(path);
  const sha256 = await hashing;
  const view: AnalysisView = { ...buildAnalysisView(capture, { ...meta, sha256 }, options), fromCache: false };
  const recording = capture.recorderState === 'running' || capture.recorderState === 'starting';
  if (cacheDir !== null && file !== null && !recording && cacheKey(path, options).stamp === stamp) writeCached(cacheDir, file, key, view);
  return view;
}
