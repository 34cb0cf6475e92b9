/**
 * The workload-profile report's loader (issue 27): a capture with no before/after (a log imported
 * with no switch, a run stopped before it), or any capture with `--profile`, is reported as its
 * workload profile: the engine's `profileWorkload` over the same columnar read as
 * `cacheproof analyze --profile`, with the same options (devices, baseline window, targets), and
 * `buildProfileReportModel`. The exporters draw that model as they draw the before/after one.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { allocColumns, columnsFromRecords, profileWorkload, type CaptureData, type ColumnSource, type DeviceColumns } from '@cacheproof/engine';
import { buildProfileReportModel, profileSeries, type ReportModel } from '@cacheproof/engine/report';
import { shippedRateLimit } from '../drive-catalog.ts';
import { readCapture, readCaptureInfo, sha256File } from '../capture/reader.ts';
import { openCaptureColumnarParallel } from '../capture/columnar.ts';
import { scopeToHost } from '../capture/scope.ts';
import { analysisWorkerPath } from '../worker-path.ts';
import { HostError } from '../errors.ts';
import { loadReport, type LoadOptions } from './input.ts';
import { isFleetReport, loadFleetReport } from './fleet.ts';
import { planOfCapture } from './sizing.ts';

/** What the exporters need of a loaded report, and which report it is. */
export interface LoadedAny {
  kind: 'before-after' | 'profile' | 'fleet';
  model: ReportModel;
  rows: ColumnSource | null;
  close(): void;
}

/** A device's columns from the capture as read: its column source (one device at a time), else its columns or intervals in memory. */
function columnLoader(data: CaptureData): (device: string) => DeviceColumns {
  const src = data.source;
  if (src !== undefined) return (d) => src.load(d);
  const byName = new Map((data.columns ?? columnsFromRecords(data.intervals)).map((c) => [c.device, c]));
  return (d) => byName.get(d) ?? allocColumns(d, 0);
}

/** Opens a capture and models its workload profile. Throws HostError for expected failures (the engine's sentence, naming the capture). */
export async function loadProfileReport(o: LoadOptions, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedAny> {
  progress(2, 'open');
  const info = readCapture(o.capturePath, readCaptureInfo);
  const hashing = sha256File(o.capturePath);
  const capture = scopeToHost(await openCaptureColumnarParallel(o.capturePath, analysisWorkerPath(), undefined, (rows, total) => progress(2 + Math.round((23 * rows) / Math.max(1, total)), 'open')), o.host);
  try {
    progress(25, 'analyze');
    const a = o.analyzeOptions ?? {};
    const p = profileWorkload(capture.data, { front: a.front, backing: a.backing, baseline: a.baseline, targets: a.targets, rateLimit: shippedRateLimit() });
    if (!p.ok) throw new HostError(p.error.code === 'invalid-option' ? 'bad-request' : 'analysis-failed', `${o.capturePath}: ${p.error.message}`);
    const sha256 = await hashing;
    progress(35, 'model');
    let sizeBytes: number | null;
    try {
      sizeBytes = statSync(o.capturePath).size;
    } catch {
      sizeBytes = null;
    }
    const captureName = o.captureName ?? basename(o.capturePath);
    // the plan of the scenario prefilled from this capture as `tco --from-capture` writes it (or --scenario): the sizing section
    const tco = planOfCapture(o.scenario, { data: capture.data, path: o.capturePath, captureName, sha256 }, a, p);
    const model = buildProfileReportModel({
      tco,
      profile: p,
      capture: {
        fileName: captureName,
        sha256,
        sizeBytes,
        probeVersion: info.meta['probe_version'] ?? o.probeVersion,
        source: info.meta['source'] ?? null,
        schemaVersion: info.schemaVersion,
        sampleIntervalMs: capture.data.sampleIntervalMs,
        devices: [...capture.data.devices],
        imports: info.imports,
      },
      hostname: o.host ?? info.host.hostname,
      cover: o.cover,
      appVersion: o.appVersion,
      generatedMs: o.generatedMs,
      // the time charts' lines, with the engine's bucketing over the profiled window (issue 37)
      series: profileSeries(columnLoader(capture.data), p),
    });
    progress(40, 'model');
    if (o.rows === true) return { kind: 'profile', model, rows: capture.data.source ?? null, close: () => capture.close() };
    capture.close();
    return { kind: 'profile', model, rows: null, close: () => {} };
  } catch (err) {
    capture.close();
    throw err;
  }
}

/**
 * The report a capture gets: a fleet's (a folder, or a fleet capture with no switch), its
 * workload profile with `profile`, else the before/after report,
 * or its workload profile when the capture holds a baseline alone (the analysis's
 * `analysis-no-measure`: nothing to compare, and the profile is what it can say).
 */
export async function loadReportOrProfile(o: LoadOptions & { profile?: boolean }, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedAny> {
  // a folder of captures, or a fleet capture with no switch: the fleet report (report/fleet.ts)
  if (isFleetReport(o)) return loadFleetReport(o, progress);
  if (o.profile === true) return loadProfileReport(o, progress);
  try {
    const loaded = await loadReport(o, progress);
    return { kind: 'before-after', model: loaded.model, rows: loaded.rows, close: () => loaded.close() };
  } catch (err) {
    if (err instanceof HostError && err.code === 'analysis-no-measure') return loadProfileReport(o, progress);
    throw err;
  }
}
