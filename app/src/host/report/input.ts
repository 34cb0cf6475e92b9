/**
 * Everything a report needs: the capture's analysis and report chart lines (the host's session,
 * or one streamed pass over the capture: the same engine calls as `cacheproof analyze`), the file's hash and
 * size, and optionally a TCO scenario checked against the capture. Expected failures are
 * {@link HostError}s with one sentence naming the file or field.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type AnalysisReport, type AnalyzeOptions, type ColumnSource, type DeviceInfo } from '@cacheproof/engine';
import { prefillFromMeasurement, scenarioSources } from '../plan.ts';
import { measuredHitShares, parseScenario, planScenario, type MeasuredWorkload, type Scenario } from '@cacheproof/engine/plan';
import { buildReportModel, type CoverInput, type ReportInput, type ReportModel, type ReportTco } from '@cacheproof/engine/report';
import type { HostView } from '../analysis.ts';
import { readCapture, readCaptureInfo } from '../capture/reader.ts';
import { openReportSession, type CaptureSession } from './session.ts';
import type { ReportCover } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { analysisName } from '../../shared/i18n/template.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { measuredWorkload } from '@cacheproof/engine/plan';

export interface LoadedReport {
  /** The capture's devices (their sizes, for a scenario's measured workload). */
  devices: readonly DeviceInfo[];
  analysis: AnalysisReport;
  input: ReportInput;
  model: ReportModel;
  /**
   * The capture's intervals one device at a time (for the per-interval CSV and XLSX sheets), when
   * `rows` was asked for; null otherwise. Valid until {@link LoadedReport.close}.
   */
  rows: ColumnSource | null;
  /** Removes the columnar files of `rows` (a no-op without them). */
  close(): void;
}

export interface LoadOptions {
  capturePath: string;
  /** The name shown for the capture (default: the file name). */
  captureName?: string;
  cover: CoverInput;
  /**
   * A parsed scenario file's JSON and its name (`origin`: the Planner's edited scenario or its
   * unedited prefill, said in the report), `{ prefill: lang }`: the scenario prefilled from this
   * capture's analysis (its labels in `lang`; no TCO section when the analysis has nothing to
   * plan from or the prefill does not fit), or null for no TCO section.
   */
  scenario: ScenarioSource | { prefill: Lang } | null;
  analyzeOptions?: AnalyzeOptions;
  /** Within a fleet capture, the host reported alone (its devices, figures and rows: host/capture/scope.ts). */
  host?: string;
  appVersion: string;
  probeVersion: string | null;
  generatedMs: number;
  /**
   * The capture's analysis from the host's session (host/session.ts `analysisOfCapture`: the
   * dashboard's, computed once on a worker thread). Without it (the CLI) the capture is read and
   * analysed here, once, with the report's chart lines in the same pass.
   */
  analysis?: () => Promise<HostView>;
  /** Keep the capture's intervals readable for the exporter ({@link LoadedReport.rows}). */
  rows?: boolean;
  /** Analyse on a worker thread when the report's session computes the analysis (report/session.ts `offThread`). */
  offThread?: boolean;
  /**
   * The capture's report session (report/session.ts: its info, kind, hash, columnar data and
   * analysis, each read once), kept by its owner across exports; without it one is opened for this
   * load and closed with it.
   */
  session?: CaptureSession;
}

/** Tolerance when a scenario's "measured" hit shares are compared with the capture's (absolute, 0…1). */
export const HIT_SHARE_TOLERANCE = 0.005;
/** Relative tolerance for the measured IOPS figures of a prefilled workload. */
export const IOPS_TOLERANCE = 0.01;

const f3 = (x: number): string => (Math.round(x * 1000) / 1000).toString();

/**
 * Whether a scenario belongs to this capture. A scenario that names its capture (`measuredFrom`,
 * written by `tco --from-capture` and the Planner's prefill) matches exactly when the SHA-256 it
 * records is this capture file's; nothing else is compared (the figures may come from other
 * analysis options of the same file). Without `measuredFrom`, a scenario says it was measured when
 * a cache configuration has `hitShareSource: "measured"`; its hit shares (and its workload's
 * 95th-percentile IOPS and read share, as `tco --from-capture` writes them) must then be this
 * capture's, within rounding. A scenario with neither is a typed model and fits any capture.
 * Returns an English sentence naming the files or the field, or null when it matches.
 */
export function scenarioMismatch(s: Scenario, m: MeasuredWorkload | string, file: string, captureName: string, captureSha256?: string): string | null {
  if (s.measuredFrom !== undefined && captureSha256 !== undefined) {
    const from = s.measuredFrom;
    if (from.captureSha256.toLowerCase() === captureSha256.toLowerCase()) return null;
    const short = (h: string): string => h.slice(0, 12).toLowerCase();
    const prefill = `'cacheproof tco --from-capture ${captureName} --out FILE' (or in the Planner)`;
    return from.captureFile === captureName
      ? `${file}: measuredFrom.captureSha256 is ${short(from.captureSha256)}…, but ${captureName} has changed since the scenario was measured from it (its SHA-256 is now ${short(captureSha256)}…): prefill the scenario from ${captureName} again with ${prefill}.`
      : `${file}: measuredFrom says the scenario was measured from ${from.captureFile} (SHA-256 ${short(from.captureSha256)}…), not from ${captureName} (SHA-256 ${short(captureSha256)}…): report on ${from.captureFile} instead, or prefill a scenario from ${captureName} with ${prefill}.`;
  }
  const measuredConfigs = s.configurations.map((c, i) => ({ c, i })).filter(({ c }) => c.cache !== undefined && c.cache.hitShareSource === 'measured');
  if (measuredConfigs.length === 0) return null;
  const fix = `Prefill a scenario from this capture with 'cacheproof tco --from-capture ${captureName} --out FILE', or report on the capture the scenario was measured from.`;
  if (typeof m === 'string') return `${file}: configurations[${measuredConfigs[0]?.i ?? 0}].cache.hitShareSource is "measured", but ${captureName} gives nothing to measure (${m}). ${fix}`;
  const hits = measuredHitShares(m);
  for (const { c, i } of measuredConfigs) {
    const cache = c.cache;
    if (cache === undefined) continue;
    if (hits.read !== null && Math.abs(cache.readHitShare - hits.read) > HIT_SHARE_TOLERANCE)
      return `${file}: configurations[${i}].cache.readHitShare is ${f3(cache.readHitShare)} "measured", but ${captureName} measures ${f3(hits.read)}: the scenario does not match this capture. ${fix}`;
    if (hits.write !== null && cache.mode === 'write-back' && Math.abs(cache.writeHitShare - hits.write) > HIT_SHARE_TOLERANCE)
      return `${file}: configurations[${i}].cache.writeHitShare is ${f3(cache.writeHitShare)} "measured", but ${captureName} measures ${f3(hits.write)}: the scenario does not match this capture. ${fix}`;
  }
  const p95 = s.workload.iops.p95;
  if (p95 !== undefined && Math.abs(p95 - m.iopsP95) > IOPS_TOLERANCE * Math.max(1, m.iopsP95))
    return `${file}: workload.iops.p95 is ${f3(p95)}, but ${captureName} measures ${f3(m.iopsP95)}: the scenario does not match this capture. ${fix}`;
  if (Math.abs(s.workload.readShare - m.readShare) > HIT_SHARE_TOLERANCE)
    return `${file}: workload.readShare is ${f3(s.workload.readShare)}, but ${captureName} measures ${f3(m.readShare)}: the scenario does not match this capture. ${fix}`;
  return null;
}

/** Reads a scenario file's JSON (HostError `report-scenario-invalid` when unreadable or not JSON). */
export async function readScenarioFile(path: string): Promise<{ json: unknown; file: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new HostError('report-scenario-invalid', `Cannot read the scenario ${path}: ${(err as Error).message}.`);
  }
  try {
    return { json: JSON.parse(text), file: basename(path) };
  } catch (err) {
    throw new HostError('report-scenario-invalid', `${path} is not valid JSON: ${(err as Error).message}. Check the file, or write a new one with 'cacheproof tco --from-capture'.`);
  }
}

/** A scenario for a report: its JSON, the name it is shown under, and which scenario it is when it comes from the Planner. */
export interface ScenarioSource {
  json: unknown;
  file: string;
  origin?: 'planner' | 'prefilled';
}

/**
 * The TCO part of a report from the scenario prefilled from this capture's analysis (what the
 * Planner starts from and `tco --from-capture` writes, `measuredFrom` naming this capture), or
 * null when there is nothing to plan from or the prefill cannot be planned (the report then has
 * no TCO section, as without a scenario).
 */
export function prefilledTco(analysis: AnalysisReport, devices: readonly DeviceInfo[], captureName: string, captureSha256: string, lang: Lang): ReportTco | null {
  return prefilledTcoOf(measuredWorkload(analysis, { devices: [...devices] }), analysisName(analysis.host.hostname, captureName), captureName, captureSha256, lang);
}

/**
 * {@link prefilledTco} from a measured workload (an analysis's, a workload profile's, a fleet
 * capture's): the scenario `tco --from-capture` writes (host/plan.ts prefillFromMeasurement, `name`
 * its title), planned; null when there is nothing to plan from or the prefill cannot be planned.
 */
export function prefilledTcoOf(m: MeasuredWorkload | string, name: string, captureName: string, captureSha256: string, lang: Lang): ReportTco | null {
  if (typeof m === 'string') return null;
  const json = prefillFromMeasurement(m, lang, name, { captureFile: captureName, captureSha256 });
  try {
    return tcoOfMeasured({ json, file: 'prefilled.tco.json', origin: 'prefilled' }, m, captureName, captureSha256);
  } catch (err) {
    if (err instanceof HostError) return null;
    throw err;
  }
}

/** The TCO part of a report: the scenario parsed, checked against the capture (`captureSha256`: the capture file's hash) and planned. */
export function tcoFor(scenario: ScenarioSource, analysis: AnalysisReport, devices: readonly DeviceInfo[], captureName: string, captureSha256: string): ReportTco {
  return tcoOfMeasured(scenario, measuredWorkload(analysis, { devices: [...devices] }), captureName, captureSha256);
}

/** {@link tcoFor} against a measured workload (or the reason there is none), whatever it was measured from. */
export function tcoOfMeasured(scenario: ScenarioSource, measured: MeasuredWorkload | string, captureName: string, captureSha256: string): ReportTco {
  const parsed = parseScenario(scenario.json);
  if (!parsed.ok) throw new HostError('report-scenario-invalid', `${scenario.file}: ${parsed.error.message}`);
  const mismatch = scenarioMismatch(parsed.value, measured, scenario.file, captureName, captureSha256);
  if (mismatch !== null) throw new HostError('report-scenario-mismatch', mismatch);
  const plan = planScenario(parsed.value);
  if (!plan.ok) throw new HostError('report-scenario-invalid', `${scenario.file}: ${plan.error.message}`);
  const sources = scenarioSources(parsed.value, measured, captureSha256);
  return { scenarioFile: scenario.file, scenario: parsed.value, plan: plan.value, sources, ...(scenario.origin === undefined ? {} : { origin: scenario.origin }) };
}

/** The options' report session, or one opened for this load (`own`: closed with the loaded report). */
export function sessionFor(o: LoadOptions & { profile?: boolean }): { session: CaptureSession; own: boolean } {
  if (o.session !== undefined) return { session: o.session, own: false };
  const session = openReportSession(o.capturePath, { ...(o.analyzeOptions === undefined ? {} : { options: o.analyzeOptions }), ...(o.host === undefined ? {} : { host: o.host }),
    ...(o.profile === true ? { profile: true } : {}), ...(o.analysis === undefined ? {} : { analysis: o.analysis }), ...(o.offThread === true ? { offThread: true } : {}) });
  return { session, own: true };
}

/** Opens, analyses and models a capture for a report (its session's info, analysis, hash and columnar data). Throws HostError for expected failures. */
export async function loadReport(o: LoadOptions, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedReport> {
  progress(2, 'open');
  const { session, own } = sessionFor(o);
  const release = (): void => { if (own) session.close(); };
  try {
    // (a folder has no info: reading it says why it has no before/after report)
    const info = session.info ?? readCapture(o.capturePath, readCaptureInfo);
    const view = await session.analysis(progress);
    let rows: ColumnSource | null = null;
    if (o.rows === true) {
      progress(20, 'open');
      rows = (await session.columnar()).data.source ?? null;
    }
    const result = view.result as unknown as AnalysisReport;
    const captureName = o.captureName ?? basename(o.capturePath);
    const tco = o.scenario === null ? null
      : 'prefill' in o.scenario ? prefilledTco(result, info.devices, captureName, view.captureSha256, o.scenario.prefill)
        : tcoFor(o.scenario, result, info.devices, captureName, view.captureSha256);
    progress(35, 'model');
    let sizeBytes: number | null = null;
    try {
      sizeBytes = statSync(o.capturePath).size;
    } catch {
      sizeBytes = null;
    }
    const input: ReportInput = {
      analysis: result,
      capture: {
        fileName: captureName,
        sha256: view.captureSha256,
        sizeBytes,
        probeVersion: info.meta['probe_version'] ?? o.probeVersion,
        source: info.meta['source'] ?? null,
        schemaVersion: info.schemaVersion,
        sampleIntervalMs: view.sampleIntervalMs,
        devices: [...info.devices],
        imports: info.imports,
      },
      series: view.reportSeries,
      cover: o.cover,
      appVersion: o.appVersion,
      generatedMs: o.generatedMs,
      tco,
    };
    const model = buildReportModel(input);
    progress(40, 'model');
    return { devices: info.devices, analysis: result, input, model, rows, close: release };
  } catch (err) {
    release();
    throw err;
  }
}

/** The cover as the model takes it: `date` (YYYY-MM-DD) becomes the "prepared on" time, midnight UTC. */
export function coverFrom(c: ReportCover): CoverInput {
  const out: CoverInput = {};
  if (c.title !== undefined && c.title.trim() !== '') out.title = c.title;
  if (c.customer !== undefined && c.customer.trim() !== '') out.customer = c.customer;
  if (c.server !== undefined && c.server.trim() !== '') out.server = c.server;
  if (c.author !== undefined && c.author.trim() !== '') out.author = c.author;
  if (c.date !== undefined) {
    const ms = Date.parse(`${c.date}T00:00:00Z`);
    if (Number.isFinite(ms)) out.preparedMs = ms;
  }
  return out;
}
