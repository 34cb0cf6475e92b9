/**
 * The planner's host side: the measured workload a TCO scenario is prefilled from, read from a
 * capture's analysis so the planner uses exactly the figures `analyze` reports. Used by the
 * `plan.fromAnalysis` channel (the Planner screen) and by `cacheproof tco --from-capture`.
 */
import { basename } from 'node:path';
import { analyze, type AnalysisReport, type AnalyzeOptions, type CaptureData, type WindowSummary } from '@cacheproof/engine';
import { HOURS_PER_YEAR, scenarioFromMeasurement, type MeasuredFrom, type MeasuredWorkload, type Scenario } from '@cacheproof/engine/plan';
import { localizeTemplate } from '../shared/i18n/template.ts';
import type { Lang } from '../shared/i18n/types.ts';
import { openCapture, sha256File } from './capture/reader.ts';
import { HostError } from './errors.ts';

const SECONDS_PER_YEAR = HOURS_PER_YEAR * 3600;

/**
 * Builds the planner's input from an analysis and the capture's device inventory, or an
 * English reason (lower case, no full stop) when the analysis has nothing to plan from.
 * Method: IOPS p95/peak/mean, read share and request size of the application-facing group's
 * baseline window; backing bytes per year = window bytes ÷ ok seconds × 31 557 600 s; capacity =
 * sum of the backing devices' sizes; hit shares = the cache-served percentages (front-and-backing only).
 */
export function measuredWorkload(report: AnalysisReport, data: Pick<CaptureData, 'devices'>): MeasuredWorkload | string {
  const app = report.devices.appFacing === 'front' ? report.groups.front : report.groups.backing;
  const backing = report.groups.backing;
  if (!app || !backing) return 'the analysis has no application-facing or backing figures to plan from';
  const base = app.baseline;
  const p = base.percentiles.iops;
  const iopsMean = base.means.iops;
  const readShare = base.means.readSharePercent;
  const avgRequestBytes = base.means.avgRequestBytes;
  if (p === null || iopsMean === null || readShare === null || avgRequestBytes === null) return 'the baseline window has no completed I/O to plan from';
  const perYear = (w: WindowSummary): { readBytes: number; writtenBytes: number } | null => {
    const t = w.totals;
    if (t.readBytes === null || t.writeBytes === null || !(w.okSeconds > 0)) return null;
    return { readBytes: (t.readBytes / w.okSeconds) * SECONDS_PER_YEAR, writtenBytes: (t.writeBytes / w.okSeconds) * SECONDS_PER_YEAR };
  };
  const before = perYear(backing.baseline);
  if (before === null) return 'the backing devices have no byte counts in the baseline window';
  const sizes = new Map(data.devices.map((d) => [d.name, d.sizeBytes]));
  const capacity = report.devices.backing.reduce((a, name) => a + (sizes.get(name) ?? 0), 0);
  if (!(capacity > 0)) return 'the capture does not record the sizes of its backing devices; write workload.capacityBytes into a scenario by hand';
  const share = (x: number | null): number | null => (x === null ? null : Math.min(1, Math.max(0, x / 100)));
  const frontAndBacking = report.mode === 'front-and-backing';
  return {
    iopsP95: p.p95,
    iopsPeak: p.max,
    iopsMean,
    readShare: readShare / 100,
    avgRequestBytes,
    readHitShare: frontAndBacking ? share(report.benefit.cacheServedPercent.reads) : null,
    writeHitShare: frontAndBacking ? share(report.benefit.cacheServedPercent.writes) : null,
    cacheMode: null,
    backingCapacityBytes: capacity,
    backingBytesPerYearBefore: before,
    backingBytesPerYearAfter: perYear(backing.measure),
  };
}

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
