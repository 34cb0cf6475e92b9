/**
 * One host of a fleet capture (meta `fleet`, written by `cacheproof-probe import prometheus` of
 * several hosts): the capture as that host's own capture would hold it (engine `hostCapture`),
 * so that its analysis, profile and chart lines are those of a capture of that host alone.
 */
import { hostCapture, parseFleet, type CaptureData, type FleetHost } from '@cacheproof/engine';
import { HostError } from '../errors.ts';
import { openCapture, type OpenedCapture } from './reader.ts';

/** The hosts of a capture's `meta.fleet`, or null when it is not a fleet. */
export function fleetOf(meta: Readonly<Record<string, string>>): FleetHost[] | null {
  return parseFleet(meta['fleet']);
}

/**
 * `capture` with its data restricted to `host` (unchanged when `host` is undefined). A host that
 * is not one of the fleet's is `fleet-not-found`.
 *
 * @example
 * const mine = scopeToHost(openCapture('/data/fleet.capture'), 'web1:9100'); // mine.data.devices: sda, dm-0 …
 */
export function scopeToHost<T extends { path: string; meta: Record<string, string>; data: CaptureData }>(capture: T, host: string | undefined): T {
  if (host === undefined) return capture;
  return { ...capture, data: hostCapture(capture.data, fleetHost(capture.path, capture.meta, host)) };
}

/** The fleet host `host` of the capture at `path` (its `meta`); `fleet-not-found` when it has none. */
export function fleetHost(path: string, meta: Readonly<Record<string, string>>, host: string): FleetHost {
  const fleet = fleetOf(meta);
  const h = fleet?.find((x) => x.host === host);
  if (h === undefined) {
    const known = fleet === null ? 'it holds no fleet (one host)' : `its hosts are ${fleet.map((x) => x.host).join(', ')}`;
    throw new HostError('fleet-not-found', `${path} has no host '${host}': ${known}.`);
  }
  return h;
}

/**
 * Opens the capture at `path`, or, with `host`, that host of a fleet capture: only its devices'
 * intervals are read (through the table's key), so a fleet's hosts one after the other read the
 * capture once in all, not once each.
 *
 * @example
 * const mine = openHostCapture('/data/fleet.capture', 'web1:9100'); // as scopeToHost(openCapture(…), 'web1:9100')
 */
export function openHostCapture(path: string, host: string | undefined): OpenedCapture {
  if (host === undefined) return openCapture(path);
  return scopeToHost(openCapture(path, (meta) => new Set(fleetHost(path, meta, host).devices)), host);
}
