/**
 * The plan of a workload-profile or fleet report (issue 37): the scenario prefilled from the
 * capture exactly as `cacheproof tco --from-capture` writes it (the same measured workload,
 * host/plan.ts `measuredWorkloadOfCapture`, and the same prefill, `prefillFromMeasurement`), or the
 * `--scenario` file checked against the capture, planned by the engine. The report's sizing and
 * TCO sections and its decision block are drawn from it.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { AnalyzeOptions, CaptureData, WorkloadProfile } from '@cacheproof/engine';
import type { ReportTco } from '@cacheproof/engine/report';
import { analysisName } from '../../shared/i18n/template.ts';
import { openCapture, sha256File } from '../capture/reader.ts';
import { isFleetSummaryPath } from '../fleet-summary.ts';
import { measuredWorkloadOfCapture } from '../plan.ts';
import { prefilledTcoOf, tcoOfMeasured, type LoadOptions } from './input.ts';

/** The capture a plan is measured from: its data, the path as given, its file name in the report and its SHA-256. */
export interface PlanCapture {
  data: CaptureData;
  path: string;
  captureName: string;
  sha256: string;
}

/**
 * The report's plan for a capture (`o.scenario`: the prefill in a language, a scenario file, or
 * none); `profiled`: the capture's workload profile with `options`, when already computed. Null
 * without a scenario, or when the prefill has nothing to plan from (the report then says so).
 * A scenario file that does not fit the capture throws HostError, as in the before/after report.
 */
export function planOfCapture(scenario: LoadOptions['scenario'], c: PlanCapture, options: AnalyzeOptions = {}, profiled?: WorkloadProfile): ReportTco | null {
  if (scenario === null) return null;
  const m = measuredWorkloadOfCapture(c.data, options, profiled);
  const measured = m.ok ? m.value : m.message;
  if ('prefill' in scenario) return prefilledTcoOf(measured, analysisName(c.data.host.hostname, c.path), c.captureName, c.sha256, scenario.prefill);
  return tcoOfMeasured(scenario, measured, c.captureName, c.sha256);
}

/**
 * The plan of a fleet report: a fleet capture is measured as one capture (what `tco --from-capture`
 * does with it). A folder of captures or a Prometheus summary has no one capture to measure: no
 * prefill, and a scenario file is planned as typed (it cannot name the folder as its capture).
 */
export async function planOfFleet(o: LoadOptions): Promise<ReportTco | null> {
  if (o.scenario === null) return null;
  let folder = false;
  try {
    folder = statSync(o.capturePath).isDirectory();
  } catch {
    folder = false;
  }
  const name = o.captureName ?? basename(o.capturePath);
  if (folder || isFleetSummaryPath(o.capturePath)) {
    return 'prefill' in o.scenario ? null : tcoOfMeasured(o.scenario, 'a folder of captures or a summary is not one measured capture', name, '');
  }
  const data = openCapture(o.capturePath).data;
  return planOfCapture(o.scenario, { data, path: o.capturePath, captureName: name, sha256: await sha256File(o.capturePath) }, o.analyzeOptions ?? {});
}
