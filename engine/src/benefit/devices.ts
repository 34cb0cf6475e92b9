/**
 * Which devices are front and which are backing, from the capture's guessed roles and the
 * options. One implementation for the before/after analysis and the baseline workload profile.
 */
import type { DeviceRole } from '../records/types.ts';
import type { AnalyzeFailure } from './errors.ts';
import { fail } from './errors.ts';

/** A device the options put in the other group than the role the capture guessed for it. */
export interface RoleOverride {
  device: string;
  code: 'front-named-backing' | 'backing-named-front';
}

export interface ResolvedDevices {
  ok: true;
  front: string[];
  backing: string[];
  overridden: RoleOverride[];
}

/**
 * Resolves the front and backing groups. A device named in `options.front`/`options.backing`
 * takes that role; the capture's roles (`roles`: device → guessed role) only fill the group the
 * options leave out, minus the devices the options put in the other group. Fails on a named
 * device the capture does not have, or one device named in both groups.
 *
 * @example
 * // one raw device the probe guessed as front; the person names it backing
 * resolveDevices(new Map([['loop0', 'front']]), { backing: ['loop0'] })
 * // { ok: true, front: [], backing: ['loop0'], overridden: [{ device: 'loop0', code: 'front-named-backing' }] }
 */
export function resolveDevices(
  roles: ReadonlyMap<string, DeviceRole>,
  options: { front?: string | readonly string[] | undefined; backing?: readonly string[] | undefined },
): ResolvedDevices | AnalyzeFailure {
  const frontOpt = options.front === undefined ? undefined : typeof options.front === 'string' ? [options.front] : [...options.front];
  const backingOpt = options.backing === undefined ? undefined : [...options.backing];
  for (const name of [...(frontOpt ?? []), ...(backingOpt ?? [])]) {
    if (!roles.has(name)) return fail('unknown-device', `Device "${name}" is not in the capture.`);
  }
  const ofRole = (role: DeviceRole): string[] => [...roles.entries()].filter(([, r]) => r === role).map(([n]) => n);
  const front = frontOpt ?? ofRole('front').filter((n) => !(backingOpt ?? []).includes(n));
  const backing = backingOpt ?? ofRole('backing').filter((n) => !front.includes(n));
  const overridden: RoleOverride[] = [
    ...(frontOpt === undefined && backingOpt !== undefined ? ofRole('front').filter((n) => backingOpt.includes(n)).map((device) => ({ device, code: 'front-named-backing' as const })) : []),
    ...(backingOpt === undefined && frontOpt !== undefined ? ofRole('backing').filter((n) => frontOpt.includes(n)).map((device) => ({ device, code: 'backing-named-front' as const })) : []),
  ];
  const overlap = front.find((n) => backing.includes(n));
  if (overlap !== undefined) return fail('invalid-option', `Device "${overlap}" cannot be both front and backing.`);
  return { ok: true, front, backing, overridden };
}
