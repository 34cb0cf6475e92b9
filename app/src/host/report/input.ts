/**
 * Everything a report needs, read from disk: the capture (through the one reader), its
 * analysis (the same engine call as `cacheproof analyze`), the chart series, the file's hash and
 * size, and optionally a TCO scenario checked against the capture. Expected failures are
 * {@link HostError}s with one sentence naming the file or field.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { analyze, type AnalysisReport, type AnalyzeOptions } from '@cacheproof/engine';
import { measuredHitShares, parseScenario, planScenario, type MeasuredWorkload, type Scenario } from '@cacheproof/engine/plan';
import { buildReportModel, reportSeries, type CoverInput, type ReportInput, type ReportModel, type ReportTco } from '@cacheproof/engine/report';
import { openCapture, sha256File, type OpenedCapture } from '../capture/reader.ts';
import type { ReportCover } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { measuredWorkload } from '@cacheproof/engine/plan';
import { recordsView } from './rows.ts';

export interface LoadedReport {
  capture: OpenedCapture;
  analysis: AnalysisReport;
  input: ReportInput;
  model: ReportModel;
}

export interface LoadOptions {
  capturePath: string;
  /** The name shown for the capture (default: the file name). */
  captureName?: string;
  cover: CoverInput;
  /** A parsed scenario file's JSON and its name, or null. */
  scenario: { json: unknown; file: string } | null;
  analyzeOptions?: AnalyzeOptions;
  appVersion: string;
  probeVersion: string | null;
  generatedMs: number;
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

/** The TCO part of a report: the scenario parsed, checked against the capture (`captureSha256`: the capture file's hash) and planned. */
export function tcoFor(scenario: { json: unknown; file: string }, analysis: AnalysisReport, capture: OpenedCapture, captureName: string, captureSha256: string): ReportTco {
  const parsed = parseScenario(scenario.json);
  if (!parsed.ok) throw new HostError('report-scenario-invalid', `${scenario.file}: ${parsed.error.message}`);
  const mismatch = scenarioMismatch(parsed.value, measuredWorkload(analysis, capture.data), scenario.file, captureName, captureSha256);
  if (mismatch !== null) throw new HostError('report-scenario-mismatch', mismatch);
  const plan = planScenario(parsed.value);
  if (!plan.ok) throw new HostError('report-scenario-invalid', `${scenario.file}: ${plan.error.message}`);
  return { scenarioFile: scenario.file, scenario: parsed.value, plan: plan.value };
}

/** Opens, analyses and models a capture for a report. Throws HostError for expected failures. */
export async function loadReport(o: LoadOptions, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedReport> {
  progress(2, 'open');
  // The hash runs on a worker thread while this one scans the capture.
  const hashing = sha256File(o.capturePath);
  hashing.catch(() => undefined);
  const capture = openCapture(o.capturePath);
  if (capture.intervalCount === 0) throw new HostError('capture-empty', `${o.capturePath} holds no intervals yet; record a capture first.`);
  progress(15, 'hash');
  const sha256 = await hashing;
  progress(20, 'analyze');
  const result = analyze(capture.data, o.analyzeOptions ?? {});
  if (!result.ok) throw new HostError('analysis-failed', `${o.capturePath}: ${result.error.message}`);
  const captureName = o.captureName ?? basename(o.capturePath);
  const tco = o.scenario === null ? null : tcoFor(o.scenario, result, capture, captureName, sha256);
  progress(35, 'model');
  const roles = new Map(capture.data.devices.map((d) => [d.name, d.role]));
  const charted = capture.data.devices.filter((d) => !(d.role === 'other' && [...roles.values()].some((r) => r !== 'other')));
  for (const name of [...result.devices.front, ...result.devices.backing]) {
    if (!charted.some((d) => d.name === name)) charted.push({ name, role: result.devices.front.includes(name) ? 'front' : 'backing', sizeBytes: null, rotational: null, model: null });
  }
  // a view over the reader's columns: no record object per interval is kept (rows.ts)
  const series = reportSeries(capture.data.columns === undefined ? capture.data.intervals : recordsView(capture.data.columns), charted.map((d) => ({ name: d.name, role: result.devices.front.includes(d.name) ? 'front' : result.devices.backing.includes(d.name) ? 'backing' : d.role })));
  const meta = capture.meta;
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
      sha256,
      sizeBytes,
      probeVersion: meta['probe_version'] ?? o.probeVersion,
      source: meta['source'] ?? null,
      schemaVersion: capture.schemaVersion,
      sampleIntervalMs: capture.data.sampleIntervalMs,
      devices: capture.data.devices,
    },
    series,
    cover: o.cover,
    appVersion: o.appVersion,
    generatedMs: o.generatedMs,
    tco,
  };
  const model = buildReportModel(input);
  progress(40, 'model');
  return { capture, analysis: result, input, model };
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
