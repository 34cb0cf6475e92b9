/**
 * The planner's host side: opens a capture, analyzes it and prefills a TCO scenario from the
 * engine's `measuredWorkload` (engine/src/plan/measured.ts), so the planner uses exactly the
 * figures `analyze` reports. Used by the `plan.fromAnalysis` channel (the Planner screen) and
 * by `cacheproof tco --from-capture`.
 */
import { basename } from 'node:path';
import { analyze, type AnalysisReport, type AnalyzeOptions, type CaptureData } from '@cacheproof/engine';
import { measuredWorkload, scenarioFromMeasurement, type MeasuredFrom, type Scenario } from '@cacheproof/engine/plan';
import { localizeTemplate } from '../shared/i18n/template.ts';
import type { Lang } from '../shared/i18n/types.ts';
import { openCapture, sha256File } from './capture/reader.ts';
import { HostError } from './errors.ts';

/**
 * The scenario `tco --from-capture --lang LANG` would write for this capture (the documented
 * example with the measured workload, its title and drive and configuration labels in `lang`):
 * not validated, for a person to edit. `options` are the analysis options the view was opened
 * with (roles, windows, targets), so the measured figures are the dashboard's. Expected failures
 * throw {@link HostError} (`capture-*`, `analysis-failed`).
 */
export function prefilledScenario(capturePath: string, lang: Lang = 'en', options: AnalyzeOptions = {}): Scenario {
  const data = openCapture(capturePath).data;
  const report = analyze(data, options);
  if (!report.ok) throw new HostError('analysis-failed', `${capturePath}: ${report.error.message}`);
  return prefilledScenarioOf(report, data, capturePath, lang);
}

/**
 * {@link prefilledScenario} from an analysis already made (the capture's session,
 * host/session.ts): `data` needs only the capture's devices (their sizes).
 */
export function prefilledScenarioOf(report: AnalysisReport, data: Pick<CaptureData, 'devices'>, capturePath: string, lang: Lang = 'en'): Scenario {
  const m = measuredWorkload(report, data);
  if (typeof m === 'string') throw new HostError('analysis-failed', `${capturePath}: ${m}.`);
  return localizeTemplate(scenarioFromMeasurement(m), lang);
}

/** A scenario's `measuredFrom` for a capture (docs/tco-scenario.md): its file name and the SHA-256 of its bytes now. */
export async function measuredFromCapture(capturePath: string): Promise<MeasuredFrom> {
  return { captureFile: basename(capturePath), captureSha256: await sha256File(capturePath) };
}
