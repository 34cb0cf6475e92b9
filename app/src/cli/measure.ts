/**
 * The measured workload a TCO scenario is prefilled from (`cacheproof tco --from-capture`):
 * read from a capture's analysis, so the planner uses exactly the figures `analyze` reports.
 * The figures themselves are built by the engine's `measuredWorkload` (engine/src/plan, shared with
 * the Planner screen's `plan.fromAnalysis` channel); this module maps failures to exit codes and
 * names the capture (`measuredFrom`: file name and SHA-256) for the scenario to record.
 */
import { analyze, type CaptureData } from '@cacheproof/engine';
import { openCapture } from '../host/capture/reader.ts';
import { measuredWorkload } from '@cacheproof/engine/plan';
import { measuredFromCapture } from '../host/plan.ts';
import { HostError } from '../host/errors.ts';
import { exitFor } from './exit-codes.ts';
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
  const report = analyze(data, {});
  if (!report.ok) return { ok: false, exitCode: exitFor(report.error.code), message: `${path}: ${report.error.message}` };
  const m = measuredWorkload(report, data);
  if (typeof m === 'string') return { ok: false, exitCode: EXIT.mismatch, message: `${path}: ${m}.` };
  return { ok: true, value: m, measuredFrom: await measuredFromCapture(path) };
};
