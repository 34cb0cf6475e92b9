/**
 * Turns an opened capture into what the UI shows: the engine's analyze output (the same
 * object `cacheproof analyze --json` prints) plus chart lines built with the engine's one
 * bucketing (one implementation of each figure and series).
 */
import { analyze, bucketSums, bucketSumsOnTwoGrids, chartPlan, columnsFromRecords, linesOfSums, profileWorkload, type AnalysisResult, type AnalyzeHooks, type AnalyzeOptions, type BucketSums, type ChartPlan, type DeviceColumns, type DeviceRole } from '@cacheproof/engine';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisView, ProfileView } from '../shared/contract.ts';
import { sha256File, type OpenedCapture } from './capture/reader.ts';
import { writeFileAtomicSync } from './atomic-write.ts';
import { openCaptureColumnarParallel, type ColumnarCapture } from './capture/columnar.ts';
import { analysisWorkerPath } from './worker-path.ts';
import { summariesHelper } from './summaries-thread.ts';
import { APP_VERSION } from './version.ts';
import { HostError } from './errors.ts';
import { shippedRateLimit } from './drive-catalog.ts';
import { buildChartSeries, chartSeriesOf, MAX_CHART_POINTS } from './series.ts';
import { openHostCapture, scopeToHost } from './capture/scope.ts';
import { reportDevices, reportSeriesFromColumns, reportSeriesOfSums, reportSeriesPlan, type ReportSeries } from '@cacheproof/engine/report';

/**
 * A capture's view as the host keeps it: the contract's {@link AnalysisView} plus the report's
 * chart lines (engine `reportSeriesOfSums`, computed in the same pass over the devices), so that
 * the report preview and every export draw from the session without reading the capture again.
 * The report lines never cross the contract ({@link publicView}).
 */
export type HostView = Omit<AnalysisView, 'captureSha256'> & { captureSha256: string; reportSeries: ReportSeries };

/** The view as the renderer gets it: the report lines left out, and a SHA-256 not computed yet ('') as null. */
export function publicView(v: HostView | AnalysisView): AnalysisView {
  if (!('reportSeries' in v)) return v;
  const { reportSeries: _, captureSha256, ...rest } = v;
  return { ...rest, captureSha256: captureSha256 === '' ? null : captureSha256 };
}

/** The intervals of a capture as per-device columns (the reader's, or built from the records). */
function columnsOf(capture: OpenedCapture): readonly DeviceColumns[] {
  return capture.data.columns ?? columnsFromRecords(capture.data.intervals);
}

/**
 * The dashboard's chart lines: one per device (devices of role `other` left out when the capture
 * gives roles) and the front and backing groups of the analysis, all on one time grid (the
 * engine's bucketing, {@link buildChartSeries}).
 */
export function buildSeriesView(capture: OpenedCapture, groups: { front: readonly string[]; backing: readonly string[] } = { front: [], backing: [] }): Pick<AnalysisView, 'series' | 'groupSeries'> {
  const columns = columnsOf(capture);
  return buildChartSeries(columns, chartDevicesOf(capture.data.devices, columns), groups);
}

/** The devices that get a chart line: those with intervals, less those of role `other` when the capture gives roles. */
function chartDevicesOf(info: readonly { name: string; role: DeviceRole }[], present: readonly { device: string; n: number }[]): { name: string; role: DeviceRole }[] {
  const roles = new Map(info.map((d) => [d.name, d.role]));
  const someRole = [...roles.values()].some((x) => x !== 'other');
  return present
    .filter((c) => c.n > 0)
    .map((c) => ({ name: c.device, role: roles.get(c.device) ?? 'other' }))
    .filter((d) => !(d.role === 'other' && roles.size > 0 && someRole));
}

export interface ViewMeta {
  id: string;
  name: string;
  sha256: string;
  isSample: boolean;
  /** Within a fleet capture (meta `fleet`), the host whose devices alone are analysed (host/capture/scope.ts). */
  host?: string | undefined;
}

/** What every view of a capture says about where it comes from (the analysis and the profile alike). */
function captureHeader(capture: Pick<OpenedCapture, 'path' | 'data'>, meta: ViewMeta): Pick<ProfileView, 'id' | 'name' | 'captureFile' | 'captureSha256' | 'host' | 'sampleIntervalMs' | 'phases'> {
  return {
    id: meta.id,
    name: meta.name,
    captureFile: capture.path,
    captureSha256: meta.sha256,
    host: capture.data.host,
    sampleIntervalMs: capture.data.sampleIntervalMs,
    phases: capture.data.phases.map((p) => ({ name: p.name, startMs: p.startMs, endMs: p.endMs })),
  };
}

/** What to do with a capture that has a baseline and no measure window (the analysis's `no-measure`). */
export const NO_MEASURE_HINT = 'It holds a baseline alone (a log imported with no switch, or a run stopped before the cache was switched on): cacheproof analyze CAPTURE --profile gives its workload profile, and cacheproof tco --from-capture plans from it. For a before/after, resume the run, or import the log again with --switch-at TIME (or with the files after the switch as --measure).';

/**
 * Whether a capture with these phases holds a baseline alone for these options (a baseline phase,
 * no measure phase, no measure window given): its analysis has no before/after (`analysis-no-measure`),
 * and its report is its workload profile (report/session.ts).
 */
export function baselineAlone(phases: readonly { name: string }[], options: AnalyzeOptions): boolean {
  const names = new Set(phases.map((p) => p.name));
  return options.measure === undefined && names.has('baseline') && !names.has('measure');
}

/** The expected failure of an analysis, in words (a run stopped before the switch says so, with what to do). */
function analysisFailure(path: string, phases: readonly { name: string }[], options: AnalyzeOptions, result: Extract<AnalysisResult, { ok: false }>): HostError {
  const noMeasure = baselineAlone(phases, options) && (result.error.code === 'no-measure' || result.error.code === 'empty-window');
  if (noMeasure) {
    return new HostError('analysis-no-measure', `${path}: ${result.error.message} ${NO_MEASURE_HINT}`);
  }
  return new HostError('analysis-failed', result.error.message);
}

/**
 * The {@link AnalysisView} of a capture read through its columnar files (host/capture/columnar.ts):
 * the analysis and the chart lines in the engine's one pass over the devices, each device read
 * once and dropped, so that memory depends on the devices and hours, not on the rows. The same
 * view as {@link buildAnalysisView} on the capture read whole.
 */
export function buildAnalysisViewStreamed(capture: ColumnarCapture, meta: ViewMeta, options: AnalyzeOptions = {}, onDevice?: (c: DeviceColumns) => void,
  summariesElsewhere?: AnalyzeHooks['summariesElsewhere']): HostView {
  const extents = capture.data.source?.devices ?? [];
  if (extents.every((d) => d.n === 0)) throw new HostError('capture-empty', `${capture.path} holds no intervals yet.`);
  const chartDevices = chartDevicesOf(capture.data.devices, extents.map((e) => ({ device: e.device, n: e.n })));
  let plan: ChartPlan = { grid: null, names: [] };
  let groups = { front: [] as readonly string[], backing: [] as readonly string[] };
  let wanted = new Set<string>();
  const sums = new Map<string, BucketSums>();
  let reportOnes: { name: string; role: DeviceRole }[] = [];
  let reportPlan: ChartPlan = { grid: null, names: [] };
  let reportWanted = new Set<string>();
  const reportSums = new Map<string, BucketSums>();
  const result = analyze(capture.data, { ...options, rateLimit: shippedRateLimit() }, {
    beforePass: (g) => {
      groups = g;
      plan = chartPlan(extents, chartDevices.map((d) => d.name), [{ group: 'front', devices: g.front }, { group: 'backing', devices: g.backing }], MAX_CHART_POINTS);
      wanted = new Set(plan.names);
      reportOnes = reportDevices(capture.data.devices, g);
      reportPlan = reportSeriesPlan(extents, reportOnes);
      reportWanted = new Set(reportPlan.names);
    },
    onDevice: (c) => {
      const screen = plan.grid !== null && wanted.has(c.device) ? plan.grid : null;
      const report = reportPlan.grid !== null && reportWanted.has(c.device) ? reportPlan.grid : null;
      // both lines' sums in one pass over the device's intervals when it is on both
      if (screen !== null && report !== null) {
        const [s, r] = bucketSumsOnTwoGrids(c, screen, report);
        sums.set(c.device, s);
        reportSums.set(c.device, r);
      } else {
        if (screen !== null) sums.set(c.device, bucketSums(c, screen));
        if (report !== null) reportSums.set(c.device, bucketSums(c, report));
      }
      onDevice?.(c);
    },
    ...(summariesElsewhere === undefined ? {} : { summariesElsewhere }),
  });
  if (!result.ok) throw analysisFailure(capture.path, capture.data.phases, options, result);
  const lines = linesOfSums(plan.grid, sums, chartDevices.map((d) => d.name), [{ group: 'front', devices: groups.front }, { group: 'backing', devices: groups.backing }]);
  return {
    ...captureHeader(capture, meta),
    isSample: meta.isSample,
    result,
    ...chartSeriesOf(lines, chartDevices),
    reportSeries: reportSeriesOfSums(reportPlan, reportSums, reportOnes, groups),
  };
}

export function buildAnalysisView(capture: OpenedCapture, meta: ViewMeta, options: AnalyzeOptions = {}): HostView {
  if (columnsOf(capture).every((c) => c.n === 0)) throw new HostError('capture-empty', `${capture.path} holds no intervals yet.`);
  const result = analyze(capture.data, { ...options, rateLimit: shippedRateLimit() });
  if (!result.ok) throw analysisFailure(capture.path, capture.data.phases, options, result);
  return {
    ...captureHeader(capture, meta),
    isSample: meta.isSample,
    result,
    ...buildSeriesView(capture, result.devices),
    reportSeries: reportSeriesFromColumns(columnsOf(capture), reportDevices(capture.data.devices, result.devices), undefined, result.devices),
  };
}

/** Bump when the cached view's shape changes in a way the app version does not capture. */
export const VIEW_CACHE_FORMAT = 3;
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
function cacheKey(path: string, options: AnalyzeOptions, host?: string): { key: string; stamp: string } {
  // an empty write-ahead log counts as none: SQLite creates one when a reader opens a WAL capture
  const wal = fileStamp(`${path}-wal`);
  const stamp = JSON.stringify({ file: fileStamp(path), wal: wal === null || wal.size === 0 ? null : wal });
  const key = createHash('sha256')
    .update(JSON.stringify({ format: VIEW_CACHE_FORMAT, build: buildStamp(), path, stamp, options, ...(host === undefined ? {} : { host }) }))
    .digest('hex');
  return { key, stamp };
}

function readCached(file: string, key: string): HostView | null {
  const pending = pendingWrites.get(file);
  if (pending !== undefined && pending.key === key) return pending.view;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null; // absent or unreadable: recompute
  }
  const entry = parsed as { key?: unknown; view?: Partial<HostView> } | null;
  const view = entry?.view;
  if (entry?.key !== key || view === undefined || typeof view.result !== 'object' || !Array.isArray(view.series) || typeof view.reportSeries !== 'object') return null;
  return view as HostView;
}

function writeCached(dir: string, file: string, key: string, view: HostView): void {
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
export async function loadAnalysisView(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, cacheDir: string | null, compute: ComputeView = computeView,
  onAnalysed?: (view: HostView) => void): Promise<HostView> {
  const { key, stamp } = cacheKey(path, options, meta.host);
  const file = cacheDir === null ? null : join(cacheDir, `${key}.json`);
  if (file !== null) {
    const hit = readCached(file, key);
    if (hit !== null) {
      const view = { ...hit, id: meta.id, name: meta.name, isSample: meta.isSample, fromCache: true };
      onAnalysed?.(view);
      return view;
    }
  }
  // With `onAnalysed`, the analysis is handed over first (its `captureSha256` is '' then) and the
  // file hashed after: beside the analysis, the hash took one of the two cores from it (the
  // analysis keeps both busy); the returned view has the hash. That hash runs at a lower priority,
  // beside the window drawing the analysis it was just given.
  const { view, recorderState } = await compute(path, meta, options, undefined, onAnalysed === undefined);
  if (onAnalysed !== undefined) {
    onAnalysed({ ...view });
    view.captureSha256 = await sha256File(path, { background: true });
  }
  if (cacheDir !== null && file !== null && !isRecording(recorderState) && cacheKey(path, options, meta.host).stamp === stamp) writeCachedLater(cacheDir, file, key, view);
  return view;
}

/** A recorder still running (or starting) writes on: its capture's analysis is never cached. */
export function isRecording(recorderState: string | null): boolean {
  return recorderState === 'running' || recorderState === 'starting';
}

/**
 * Writes a view to the cache on a turn of the event loop of its own, after the caller has the view
 * (serialising and fsyncing a large view takes tens of ms, and the dashboard's reply goes first);
 * until then an open of the same capture gets the view from `pendingWrites`.
 */
function writeCachedLater(cacheDir: string, file: string, key: string, view: HostView): void {
  pendingWrites.set(file, { key, view });
  setImmediate(() => {
    // a write replaced or withdrawn meanwhile (replaceCachedView) is not made
    if (pendingWrites.get(file)?.view !== view) return;
    writeCached(cacheDir, file, key, view);
    pendingWrites.delete(file);
  });
}

/** Where a capture's analysis is cached: the file (in `cacheDir`), its key and the capture's stamp, as the capture is now. */
export interface CachedViewEntry { file: string; key: string; stamp: string }

/** The cache entry of a capture's analysis with these options (one host's, within a fleet capture) as the file is now; null without a cache folder. */
export function cachedViewEntry(path: string, options: AnalyzeOptions, host: string | undefined, cacheDir: string | null): CachedViewEntry | null {
  if (cacheDir === null) return null;
  const { key, stamp } = cacheKey(path, options, host);
  return { file: join(cacheDir, `${key}.json`), key, stamp };
}

/**
 * Re-keys a cached analysis whose capture changed (the probe stored a prediction in it, and the
 * view was updated from it, host/prediction-readback.ts): the entry under the old stamp removed,
 * and `view` written under `now` (null: nothing written, as for a capture still recording or one
 * that changed again meanwhile).
 */
export function replaceCachedView(cacheDir: string | null, old: CachedViewEntry | null, now: CachedViewEntry | null, view: HostView): void {
  if (cacheDir === null) return;
  if (old !== null && old.file !== now?.file) {
    pendingWrites.delete(old.file);
    rmSync(old.file, { force: true });
  }
  if (now !== null) writeCachedLater(cacheDir, now.file, now.key, view);
}

/** Views computed and not yet written to the cache of finished analyses: cache file → key and view. */
const pendingWrites = new Map<string, { key: string; view: HostView }>();

/** How a view is computed when the cache has none: on this thread ({@link computeView}) or on a worker (host/session.ts). */
export type ComputeView = (path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, onProgress?: (p: ViewProgress) => void, hash?: boolean) => Promise<{ view: HostView; recorderState: string | null }>;

/** Where a computation is: reading the capture into its columnar files (rows of about `total`), then analysing (devices of `total`). */
export interface ViewProgress {
  stage: 'read' | 'analyze';
  done: number;
  total: number;
}

/**
 * Computes a capture's view on this thread: the file hash on a worker thread while this one
 * reads the capture into columnar files (host/capture/columnar.ts, under `tmpParent`; the upper
 * half of a large capture's rows on another worker thread at the same time), then the
 * analysis and chart lines in one pass over the devices; the files are removed after.
 */
export async function computeView(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, onProgress?: (p: ViewProgress) => void, hash = true, tmpParent?: string): Promise<{ view: HostView; recorderState: string | null }> {
  const { view, capture } = await computeViewKeeping(path, meta, options, onProgress, tmpParent, hash);
  capture.close();
  return { view, recorderState: capture.recorderState };
}

/**
 * {@link computeView} that keeps the columnar capture open for a reader of the rows that follows
 * (an export's per-interval CSV or XLSX sheets read the same files instead of the capture again).
 * The caller closes it (on failure it is closed here).
 */
export async function computeViewKeeping(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions, onProgress?: (p: ViewProgress) => void, tmpParent?: string,
  hash = true): Promise<{ view: HostView; capture: ColumnarCapture }> {
  // `hash` false: the caller hashes the file itself (loadAnalysisView with onAnalysed); captureSha256 is ''
  const hashing = hash ? sha256File(path) : Promise.resolve('');
  hashing.catch(() => undefined);
  const capture = await openCaptureColumnarParallel(path, analysisWorkerPath(), tmpParent, onProgress === undefined ? undefined : (done, total) => onProgress({ stage: 'read', done, total }));
  try {
    const scoped = scopeToHost(capture, meta.host);
    const total = scoped.data.source?.devices.length ?? 0;
    let done = 0;
    // The analysis runs while the hash worker reads the file on another thread (a capture read from
    // its interval blocks is analysed sooner than it is hashed); the view gets the hash after. Most
    // devices' window summaries are computed on a second thread meanwhile (host/summaries-thread.ts),
    // except for one host of a fleet capture: that thread re-opens the capture and reads the
    // devices by the names the file gives them, not by the host's own names.
    const helper = meta.host === undefined ? summariesHelper(capture, analysisWorkerPath()) : null;
    let built: HostView;
    try {
      built = buildAnalysisViewStreamed(scoped, { ...meta, sha256: '' }, options, () => onProgress?.({ stage: 'analyze', done: ++done, total }), helper?.hook);
    } finally {
      helper?.release();
    }
    const view = { ...built, fromCache: false };
    view.captureSha256 = await hashing;
    return { view, capture };
  } catch (err) {
    capture.close();
    throw err;
  }
}

/**
 * The baseline alone as a workload profile (engine `profileWorkload`): for a capture with no
 * measure window, the window summary figures of the application-facing and backing groups and of
 * each device, and the per-device chart series. No before/after.
 */
export function buildProfileView(capture: OpenedCapture, meta: ViewMeta, options: AnalyzeOptions = {}): ProfileView {
  if (columnsOf(capture).every((c) => c.n === 0)) throw new HostError('capture-empty', `${capture.path} holds no intervals yet.`);
  const profile = profileWorkload(capture.data, { front: options.front, backing: options.backing, baseline: options.baseline, targets: options.targets, rateLimit: shippedRateLimit() });
  if (!profile.ok) throw new HostError('analysis-failed', profile.error.message);
  return {
    ...captureHeader(capture, meta),
    profile: profile as unknown as ProfileView['profile'],
    // the device and group lines the profile screen draws (the dashboard's chart series, host/series.ts)
    ...buildSeriesView(capture, { front: profile.devices.front, backing: profile.devices.backing }),
  };
}

/** Opens a capture and builds its {@link ProfileView} (not cached: one window, one pass). */
export async function loadProfileView(path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions): Promise<ProfileView> {
  const hashing = sha256File(path);
  hashing.catch(() => undefined);
  const capture = openHostCapture(path, meta.host);
  return buildProfileView(capture, { ...meta, sha256: await hashing }, options);
}
