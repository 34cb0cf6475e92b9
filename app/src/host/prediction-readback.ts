/**
 * After `cacheproof-probe predict … --store` (host/predict.ts), only the stored prediction is read
 * back: the `meta` row the probe wrote (docs/capture-schema.md, `prediction`), set into the open
 * analysis's view by the engine (`withStoredPrediction`: the same `predictionBesideBenefit` the
 * analysis uses, on the view's measured benefit), so that the view reads, figure for figure, as a
 * fresh analysis of the changed capture without reading its intervals again. The capture is
 * hashed once more (its content changed); the session (host/session.ts) and the cache of finished
 * analyses (host/analysis.ts) then hold the new view under the file's new size and time.
 */
import { withStoredPrediction, type AnalysisReport, type AnalyzeOptions } from '@cacheproof/engine';
import type { AnalysisView } from '../shared/contract.ts';
import { cachedViewEntry, isRecording, publicView, replaceCachedView, type HostView, type ViewMeta } from './analysis.ts';
import { readPrediction, type PredictionRead } from './capture/prediction.ts';
import { readCapture, recorderState, sha256File } from './capture/reader.ts';
import { stampOf, type AnalysisSessions } from './session.ts';

/** An open analysis's view held before the probe writes its capture: its SHA-256, and the read-back after. */
export interface HeldView {
  sha256: string;
  /** The view with the prediction the probe stored (the capture analysed again only when that prediction is not readable). */
  readBack(): Promise<AnalysisView>;
}

/** The capture's stored prediction (the one `meta` row) and its recorder's state, in one open of the capture. */
export function readStoredPrediction(path: string): { read: PredictionRead; recorderState: string | null } {
  return readCapture(path, (db) => {
    const raw = db.prepare("SELECT value FROM meta WHERE key = 'prediction'").pluck().get() as string | undefined;
    return { read: readPrediction(raw === undefined ? {} : { prediction: raw }, db.name), recorderState: recorderState(db) };
  });
}

/**
 * Holds the session's view of the capture at `path` (with these options, `meta.host`'s devices
 * within a fleet capture) before the probe writes to it; `readBack()` after the probe stored a
 * prediction returns the updated view and puts it in the session and the on-disk cache (the entry
 * of the old file removed). A stored prediction the app cannot read is left to a full analysis of
 * the file, which names it in a `prediction-unreadable` warning.
 *
 * @example
 * const held = await holdForReadBack(sessions, cacheDir, '/data/run.capture', { id, name: 'run', isSample: false }, {});
 * // … cacheproof-probe predict /data/run.capture --size 1GiB --store
 * const view = await held.readBack(); // view.result.prediction: the new one
 */
export async function holdForReadBack(sessions: AnalysisSessions, cacheDir: string | null, path: string, meta: Omit<ViewMeta, 'sha256'>, options: AnalyzeOptions): Promise<HeldView> {
  const oldStamp = stampOf(path);
  const oldEntry = cachedViewEntry(path, options, meta.host, cacheDir);
  const view = await sessions.openHost(path, meta, options);
  return {
    sha256: view.captureSha256,
    readBack: async () => {
      const entry = cachedViewEntry(path, options, meta.host, cacheDir);
      const stamp = stampOf(path);
      const { read, recorderState: state } = readStoredPrediction(path);
      if (read.warning !== null) {
        replaceCachedView(cacheDir, oldEntry, null, view);
        return sessions.open(path, meta, options);
      }
      const next: HostView = { ...view, id: meta.id, name: meta.name, isSample: meta.isSample, captureSha256: await sha256File(path), fromCache: false, result: withStoredPrediction(view.result as AnalysisReport, read.prediction) };
      // a file that changed again meanwhile keeps no session or cache entry: its next open analyses it
      const unchanged = stampOf(path) === stamp;
      if (unchanged) sessions.replaceView(path, options, meta.host, oldStamp, next);
      replaceCachedView(cacheDir, oldEntry, unchanged && !isRecording(state) ? entry : null, next);
      return publicView(next);
    },
  };
}
