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
import { readCapture, readCaptureInfo } from '../capture/reader.ts';
import { HostError } from '../errors.ts';
import { loadReport, sessionFor, type LoadOptions } from './input.ts';
import { loadFleetReport } from './fleet.ts';
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

/** Models a capture's workload profile (its session's info, hash and columnar data). Throws HostError for expected failures (the engine's sentence, naming the capture). */
export async function loadProfileReport(o: LoadOptions, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedAny> {
  progress(2, 'open');
  const { session, own } = sessionFor({ ...o, profile: true });
  const release = (): void => { if (own) session.close(); };
  try {
    const info = session.info ?? readCapture(o.capturePath, readCaptureInfo);
    const hashing = session.sha256();
    hashing.catch(() => undefined);
    const capture = await session.columnar((rows, total) => progress(2 + Math.round((23 * rows) / Math.max(1, total)), 'open'));
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
    return { kind: 'profile', model, rows: o.rows === true ? capture.data.source ?? null : null, close: release };
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * The report a capture gets, by its session's kind (report/session.ts): a fleet's (a folder, or a
 * fleet capture with no switch), its workload profile with `profile` or when the capture holds a
 * baseline alone (nothing to compare: the profile is what it can say), else the before/after report.
 */
export async function loadReportOrProfile(o: LoadOptions & { profile?: boolean }, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedAny> {
  const { session, own } = sessionFor(o);
  const load = { ...o, session };
  try {
    const loaded = session.kind === 'fleet' ? await loadFleetReport(load, progress)
      : session.kind === 'profile' ? await loadProfileReport(load, progress)
        : await loadReport(load, progress).then((r): LoadedAny => ({ kind: 'before-after', model: r.model, rows: r.rows, close: () => r.close() }));
    return own ? { ...loaded, close: () => { loaded.close(); session.close(); } } : loaded;
  } catch (err) {
    if (own) session.close();
    throw err;
  }
}
