/**
 * The planner's host side: opens a capture, analyzes it and prefills a TCO scenario from the
 * engine's `measuredWorkload` (engine/src/plan/measured.ts), so the planner uses exactly the
 * figures `analyze` reports. Used by the `plan.fromAnalysis` channel (the Planner screen) and
 * by `cacheproof tco --from-capture`.
 */
import { basename } from 'node:path';
import { analyze, profileWorkload, type AnalysisReport, type AnalyzeFailure, type AnalyzeOptions, type CaptureData, type WorkloadProfile } from '@cacheproof/engine';
import { inputProvenance, measuredWorkload, measuredWorkloadFromProfile, scenarioFromMeasurement, withMeasuredFrom, type MeasuredFrom, type MeasuredWorkload, type ProvenanceRow, type Scenario } from '@cacheproof/engine/plan';
import { analysisName, localizeTemplate } from '../shared/i18n/template.ts';
import type { Lang } from '../shared/i18n/types.ts';
import { openCapture, sha256File } from './capture/reader.ts';
import { HostError } from './errors.ts';
import { shippedCatalog, shippedRateLimit } from './drive-catalog.ts';

/**
 * The scenario `tco --from-capture --lang LANG` would write for this capture (the documented
 * example with the measured workload, its title and drive and configuration labels in `lang`):
 * not validated, for a person to edit. `options` are the analysis options the view was opened
 * with (roles, windows, targets), so the measured figures are the dashboard's. Expected failures
 * throw {@link HostError} (`capture-*`, `analysis-failed`).
 */
export function prefilledScenario(capturePath: string, lang: Lang = 'en', options: AnalyzeOptions = {}): Scenario {
  const data = openCapture(capturePath).data;
  const m = measuredWorkloadOfCapture(data, options);
  if (!m.ok) throw new HostError('analysis-failed', `${capturePath}: ${m.message}`);
  return prefillFromMeasurement(m.value, lang, analysisName(data.host.hostname, capturePath));
}

/**
 * The one prefill of a scenario from a measured workload, as `tco --from-capture` writes it, the
 * Planner gets it and every report plans it: the documented example with the measured workload and
 * the RAM cache sized from it (the shipped drive catalog), its title (`name`: the analysis's name)
 * and its drive and configuration labels in `lang`, and `measuredFrom` naming the capture when given.
 */
export function prefillFromMeasurement(m: MeasuredWorkload, lang: Lang, name?: string, measuredFrom?: MeasuredFrom): Scenario {
  const prefilled = localizeTemplate(scenarioFromMeasurement(m, undefined, shippedCatalog()), lang, name);
  return measuredFrom === undefined ? prefilled : withMeasuredFrom(prefilled, measuredFrom);
}

/**
 * The measured workload of a capture: from its analysis (before/after, with the cache's hit
 * shares), or, when it holds a baseline alone (a log imported with no switch, a run stopped
 * before it: the analysis's `no-measure`), from its workload profile (no hit shares): capacity
 * planning without a cache. A failure is the engine's code and one sentence.
 */
export function measuredWorkloadOfCapture(data: CaptureData, options: AnalyzeOptions = {}, profiled?: WorkloadProfile):
  { ok: true; value: MeasuredWorkload; from: 'analysis' | 'profile' } | { ok: false; code: AnalyzeFailure['error']['code'] | 'nothing-to-plan'; message: string } {
  const report = analyze(data, { ...options, rateLimit: shippedRateLimit() });
  if (report.ok) {
    const m = measuredWorkload(report, data);
    return typeof m === 'string' ? { ok: false, code: 'nothing-to-plan', message: `${m}.` } : { ok: true, value: m, from: 'analysis' };
  }
  if (report.error.code !== 'no-measure') return { ok: false, code: report.error.code, message: report.error.message };
  // `profiled`: the profile of this capture with these options, already computed (the profile report's)
  const p = profiled ?? profileWorkload(data, { front: options.front, backing: options.backing, baseline: options.baseline, targets: options.targets, rateLimit: shippedRateLimit() });
  if (!p.ok) return { ok: false, code: p.error.code, message: p.error.message };
  const m = measuredWorkloadFromProfile(p, data);
  return typeof m === 'string' ? { ok: false, code: 'nothing-to-plan', message: `${m}.` } : { ok: true, value: m, from: 'profile' };
}

/**
 * {@link prefilledScenario} from an analysis already made (the capture's session,
 * host/session.ts): `data` needs only the capture's devices (their sizes).
 */
export function prefilledScenarioOf(report: AnalysisReport, data: Pick<CaptureData, 'devices'>, capturePath: string, lang: Lang = 'en'): Scenario {
  const m = measuredWorkload(report, data);
  if (typeof m === 'string') throw new HostError('analysis-failed', `${capturePath}: ${m}.`);
  return prefillFromMeasurement(m, lang, analysisName(report.host.hostname, capturePath));
}

/** {@link prefilledScenarioOf} for a workload profile (a capture with a baseline alone): no cache measured, the example's hit shares kept. */
export function prefilledScenarioOfProfile(profile: WorkloadProfile, data: Pick<CaptureData, 'devices'>, capturePath: string, lang: Lang = 'en', hostname: string | null = null): Scenario {
  const m = measuredWorkloadFromProfile(profile, data);
  if (typeof m === 'string') throw new HostError('analysis-failed', `${capturePath}: ${m}.`);
  return prefillFromMeasurement(m, lang, analysisName(hostname, capturePath));
}

/** A scenario's `measuredFrom` for a capture (docs/tco-scenario.md): its file name and the SHA-256 of its bytes now. */
export async function measuredFromCapture(capturePath: string): Promise<MeasuredFrom> {
  return { captureFile: basename(capturePath), captureSha256: await sha256File(capturePath) };
}

/**
 * Where each input of a scenario comes from against a capture (engine `inputProvenance`): the
 * measured workload counts only when the scenario says it was measured from this capture (its
 * `measuredFrom.captureSha256` is the capture's). The report's sources table and decision block
 * (report/input.ts tcoFor) and the dashboard's decision block (`plan.sources`) take it from here.
 */
export function scenarioSources(s: Scenario, measured: MeasuredWorkload | string, captureSha256: string): ProvenanceRow[] {
  const sameCapture = s.measuredFrom !== undefined && s.measuredFrom.captureSha256.toLowerCase() === captureSha256.toLowerCase();
  return inputProvenance(s, typeof measured === 'string' ? null : measured, sameCapture);
}
