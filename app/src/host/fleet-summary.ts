/**
 * A fleet computed by its Prometheus (`cacheproof-probe import prometheus --fleet-summary FILE`:
 * PromQL pushdown, docs/import.md § Fleet summary) as the fleet view's table: each host's row
 * (engine `fleetFiguresOfSummary`) and the fleet as one load (engine `fleetAggregateOfSummary`),
 * the same figures by the same method as a fleet of imported captures; nothing is computed here.
 */
import { readFileSync, statSync } from 'node:fs';
import { fleetAggregateOfSummary, fleetFiguresOfSummary, parseFleetSummary } from '@cacheproof/engine';
import type { FleetView } from '../shared/contract.ts';
import { HostError } from './errors.ts';

/** Whether `path` is a fleet summary file (a `.json` file, not a capture or a folder). */
export function isFleetSummaryPath(path: string): boolean {
  try {
    return /\.json$/iu.test(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The fleet view of the summary at `path`. Throws HostError when it is not one. */
export function fleetSummaryView(path: string): FleetView {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new HostError('fleet-not-found', `${path} is not a fleet summary (cacheproof-probe import prometheus --fleet-summary): ${(err as Error).message}`);
  }
  const p = parseFleetSummary(v);
  if (!p.ok) throw new HostError('fleet-not-found', `${path} is not a fleet summary (cacheproof-probe import prometheus --fleet-summary): ${p.why}.`);
  const s = p.summary;
  const rangeMs = s.endMs - s.startMs;
  return {
    path,
    kind: 'summary',
    rows: s.hosts.map((h) => ({ host: h.host, capture: path, scope: h.host, devices: h.devices, figures: fleetFiguresOfSummary(h, s.stepMs, rangeMs, s.breakingMs), error: null })),
    aggregate: fleetAggregateOfSummary(s),
    pushdown: { url: s.url, selector: s.selector, stepMs: s.stepMs, startMs: s.startMs, endMs: s.endMs, queries: s.queries },
  };
}
