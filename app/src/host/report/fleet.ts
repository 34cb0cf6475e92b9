/**
 * The fleet report's loader (issue 27): a folder of one capture per host, or a fleet capture
 * (meta `fleet`) with no switch, reported as a fleet — the fleet view's table (`fleet.open`: each
 * host's workload profile and the engine's per-moment sum, host/fleet.ts) modelled by the engine's
 * `buildFleetReportModel`. The exporters draw that model as they draw the others.
 */
import { statSync } from 'node:fs';
import { buildFleetReportModel } from '@cacheproof/engine/report';
import { readCapture, readCaptureInfo } from '../capture/reader.ts';
import { fleetOf } from '../capture/scope.ts';
import { HostError } from '../errors.ts';
import { FleetSessions } from '../fleet.ts';
import { isFleetSummaryPath } from '../fleet-summary.ts';
import { AnalysisSessions } from '../session.ts';
import type { LoadOptions } from './input.ts';
import type { LoadedAny } from './profile.ts';
import { planOfFleet } from './sizing.ts';

/**
 * Whether `path` is reported as a fleet: a folder, or a fleet capture with no measure window
 * opened without a host (a before/after fleet capture keeps its before/after report).
 */
export function isFleetReport(o: Pick<LoadOptions, 'capturePath' | 'host'>): boolean {
  if (o.host !== undefined) return false;
  let dir: boolean;
  try {
    dir = statSync(o.capturePath).isDirectory();
  } catch {
    return false; // the capture's own loader says it is missing
  }
  if (dir || isFleetSummaryPath(o.capturePath)) return true;
  try {
    const info = readCapture(o.capturePath, readCaptureInfo);
    return fleetOf(info.meta) !== null && !info.phases.some((p) => p.name === 'measure');
  } catch {
    return false;
  }
}

/** The fleet at `o.capturePath` as a report model. Throws HostError for expected failures. */
export async function loadFleetReport(o: LoadOptions, progress: (percent: number, stage: string) => void = () => {}): Promise<LoadedAny> {
  progress(2, 'analyze');
  // the hosts' profiles are computed here, in this process (no analysis worker: a fleet with no switch
  // needs none); the job's progress moves from 2 to 40 % host by host
  const view = await new FleetSessions(new AnalysisSessions(null, null)).open(o.capturePath, (p) => progress(2 + Math.floor((38 * p.done) / Math.max(1, p.total)), 'analyze'));
  if (view.aggregate === null) {
    throw new HostError('bad-request', `${o.capturePath}: its hosts have a switch (a before/after each): the fleet report sums fleets with no switch; report each host with cacheproof report CAPTURE --host HOST, or with --profile.`);
  }
  // the fleet capture measured as `tco --from-capture` measures it, its prefilled scenario planned (or --scenario): the sizing section
  const tco = await planOfFleet(o);
  progress(40, 'model');
  const model = buildFleetReportModel({
    tco,
    path: view.path,
    kind: view.kind,
    hosts: view.rows.map((r) => ({ host: r.host, devices: r.devices, figures: r.figures, error: r.error })),
    aggregate: view.aggregate,
    cover: o.cover,
    appVersion: o.appVersion,
    probeVersion: o.probeVersion,
    generatedMs: o.generatedMs,
  });
  return { kind: 'fleet', model, rows: null, close: () => {} };
}
