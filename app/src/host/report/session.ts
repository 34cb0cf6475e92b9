/**
 * One capture's report session: the capture's path, its info (read once), which report it gets
 * (before/after, workload profile, fleet: from its phases as the analysis decides, never by
 * catching `analysis-no-measure`), its SHA-256 (hashed once), its columnar data (read once, kept
 * for the per-interval CSV and XLSX sheets) and its analysis (the host's session's, or computed
 * once here). The report loaders (input.ts, profile.ts, fleet.ts) take this object: the CLI builds
 * one per `cacheproof report`, the host keeps one per open analysis across its preview and exports
 * (report/jobs.ts).
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { hostDevices, type AnalyzeOptions } from '@cacheproof/engine';
import { readCapture, readCaptureInfo, sha256File, type CaptureInfo } from '../capture/reader.ts';
import { openCaptureColumnarParallel, type ColumnarCapture } from '../capture/columnar.ts';
import { fleetHost, fleetOf, scopeToHost } from '../capture/scope.ts';
import { baselineAlone, computeViewKeeping, type HostView, type ViewProgress } from '../analysis.ts';
import { isFleetSummaryPath } from '../fleet-summary.ts';
import { analysisWorkerPath } from '../worker-path.ts';
import { computeViewInWorker } from '../session.ts';

/** Which report a capture gets. */
export type ReportKind = 'before-after' | 'profile' | 'fleet';

/** A stage's progress (percent of the whole export, stage name). */
type Progress = (percent: number, stage: string) => void;

export interface CaptureSession {
  readonly path: string;
  /** Within a fleet capture, the host reported alone. */
  readonly host: string | undefined;
  readonly options: AnalyzeOptions;
  /** The capture's info (one host's devices within a fleet capture); null for a folder of captures or a fleet summary. */
  readonly info: CaptureInfo | null;
  readonly kind: ReportKind;
  /** The before/after analysis with the report's chart lines (computed once; progress 2–35 % when computed here). */
  analysis(progress?: Progress): Promise<HostView>;
  /** The capture file's SHA-256 (the analysis's, or hashed once). */
  sha256(): Promise<string>;
  /** The capture's columnar data (one host's within a fleet capture), read once and kept until {@link close}. */
  columnar(progress?: (rows: number, total: number) => void): Promise<ColumnarCapture>;
  /** Removes the kept columnar data. */
  close(): void;
}

export interface SessionOptions {
  options?: AnalyzeOptions;
  host?: string;
  /** The workload-profile report even when the capture has a measure window. */
  profile?: boolean;
  /** The host's session's analysis (host/session.ts); without it the capture is analysed here, once. */
  analysis?: () => Promise<HostView>;
  /**
   * Analyse on a worker thread (host/session.ts computeViewInWorker) rather than on this one, when
   * the worker bundle is built: for an export that needs no rows, so that this thread's event loop
   * stays free meanwhile (the PDF's Chromium starts and opens its page while the capture is analysed).
   */
  offThread?: boolean;
}

/** A folder of captures, a fleet summary, or a fleet capture with no measure window opened without a host: a fleet. */
function isFleet(path: string, info: CaptureInfo | null, host: string | undefined): boolean {
  if (host !== undefined) return false;
  if (info === null) return true;
  return fleetOf(info.meta) !== null && !info.phases.some((p) => p.name === 'measure');
}

/** The capture's info, read once (null for a folder or a fleet summary); a missing or damaged file throws its HostError here. */
function infoOf(path: string, host: string | undefined): CaptureInfo | null {
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    dir = false; // readCapture says it is missing
  }
  if (dir || isFleetSummaryPath(path)) return null;
  const whole = readCapture(path, readCaptureInfo);
  // one host of a fleet capture: its devices, named as its own capture names them
  return host === undefined ? whole : { ...whole, devices: hostDevices(whole.devices, fleetHost(path, whole.meta, host)) };
}

/** Opens a capture's report session: reads its info and decides its kind; the rest is read when first asked for. */
export function openReportSession(path: string, o: SessionOptions = {}): CaptureSession {
  const options = o.options ?? {};
  const info = infoOf(path, o.host);
  const kind: ReportKind = isFleet(path, info, o.host) ? 'fleet' : o.profile === true || (info !== null && baselineAlone(info.phases, options)) ? 'profile' : 'before-after';
  let analysis: Promise<HostView> | null = null;
  let hash: Promise<string> | null = null;
  let columnar: Promise<ColumnarCapture> | null = null;
  let closed = false;
  const keep = (c: Promise<ColumnarCapture>): Promise<ColumnarCapture> => {
    columnar = c;
    c.then((x) => { if (closed) x.close(); }, () => { if (columnar === c) columnar = null; });
    return c;
  };
  const session: CaptureSession = {
    path, host: o.host, options, info, kind,
    analysis(progress = () => {}) {
      if (analysis !== null) return analysis;
      if (o.analysis !== undefined) {
        progress(5, 'analyze');
        analysis = o.analysis();
      } else {
        const meta = { id: 'report', name: basename(path), isSample: false, host: o.host };
        const onProgress = (p: ViewProgress): void => {
          if (p.stage === 'read') progress(2 + Math.round((23 * p.done) / Math.max(1, p.total)), 'open');
          else progress(25 + Math.round((10 * p.done) / Math.max(1, p.total)), 'analyze');
        };
        const workerFile = o.offThread === true ? analysisWorkerPath() : null;
        if (workerFile !== null) {
          analysis = computeViewInWorker(workerFile, path, meta, options, onProgress).result.then((r) => r.view);
        } else {
          // the CLI: one read, the hash beside it, and the columnar data kept for the rows
          const done = computeViewKeeping(path, meta, options, onProgress);
          if (columnar === null) keep(done.then((d) => d.capture));
          analysis = done.then((d) => d.view);
        }
      }
      analysis.catch(() => { analysis = null; });
      return analysis;
    },
    sha256() {
      hash ??= kind === 'before-after' ? session.analysis().then((v) => v.captureSha256) : sha256File(path);
      return hash;
    },
    columnar(progress) {
      // offThread: the host's event loop keeps answering while an export reads the capture
      return columnar ?? keep(openCaptureColumnarParallel(path, analysisWorkerPath(), undefined, progress, undefined, o.analysis !== undefined).then((c) => scopeToHost(c, o.host)));
    },
    close() {
      closed = true;
      void columnar?.then((c) => c.close(), () => undefined);
    },
  };
  return session;
}
