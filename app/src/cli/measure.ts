/**
 * The measured workload a TCO scenario is prefilled from (`cacheproof tco --from-capture`):
 * read from a capture's analysis, so the planner uses exactly the figures `analyze` reports.
 * The figures themselves are built by the engine's `measuredWorkload` (engine/src/plan, shared with
 * the Planner screen's `plan.fromAnalysis` channel), or `measuredWorkloadFromProfile` for a capture
 * with a baseline alone; this module maps failures to exit codes and
 * names the capture (`measuredFrom`: file name and SHA-256) for the scenario to record.
 */
import type { CaptureData } from '@cacheproof/engine';
import { openCapture } from '../host/capture/reader.ts';
import { measuredFromCapture, measuredWorkloadOfCapture } from '../host/plan.ts';
import { HostError } from '../host/errors.ts';
import { exitFor } from './exit-codes.ts';
import { analysisName } from '../shared/i18n/template.ts';
import { EXIT } from './io.ts';
import type { MeasureCapture } from './tco.ts';

export const measureCapture: MeasureCapture = async (path) => {
  let data: CaptureData;
  try {
    data = openCapture(path).data;
  } catch (err) {
    if (err instanceof HostError) return { ok: false, exitCode: exitFor(err.code), message: err.message };
    throw err;
  }
  // a capture with a baseline alone (a log imported with no switch) is planned from its workload profile
  const m = measuredWorkloadOfCapture(data, {});
  if (!m.ok) return { ok: false, exitCode: m.code === 'nothing-to-plan' ? EXIT.mismatch : exitFor(m.code), message: `${path}: ${m.message}` };
  return { ok: true, value: m.value, measuredFrom: await measuredFromCapture(path), from: m.from, name: analysisName(data.host.hostname, path) };
};
