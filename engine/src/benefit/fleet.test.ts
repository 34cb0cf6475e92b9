import { describe, expect, it } from 'vitest';
import { memorySource } from '../records/source.ts';
import { columnsFromRecords } from '../records/columns.ts';
import type { CaptureData } from '../records/types.ts';
import { analyze } from './analyze.ts';
import { fleetFiguresOfAnalysis, fleetFiguresOfProfile, hostCapture, hostDeviceName, parseFleet, type FleetHost } from './fleet.ts';
import { profileWorkload } from './profile.ts';
import { synthCapture } from './testkit.ts';

/** Two hosts' own captures, and the fleet capture that holds both (devices `HOST/NAME`). */
function fleetOf(a: CaptureData, b: CaptureData): CaptureData {
  const pre = (h: string, d: CaptureData): CaptureData => ({
    ...d,
    devices: d.devices.map((x) => ({ ...x, name: `${h}/${x.name}` })),
    intervals: d.intervals.map((r) => ({ ...r, device: `${h}/${r.device}` })),
  });
  const pa = pre('a:9100', a), pb = pre('b:9100', b);
  return { ...a, host: { hostname: 'a:9100, b:9100', kernel: null }, devices: [...pa.devices, ...pb.devices], intervals: [...pa.intervals, ...pb.intervals] };
}

const hostA = synthCapture({ baselineS: 3600, measureS: 3600, front: 'dm-0', backing: ['sda', 'sdb'], iopsBefore: 400, latBeforeMs: 9, latAfterMs: 0.7, missRatio: 0.1, noise: 0.2, seed: 3 });
const hostB = synthCapture({ baselineS: 3600, measureS: 3600, front: 'dm-0', backing: ['sda'], iopsBefore: 90, latBeforeMs: 14, latAfterMs: 3, missRatio: 0.4, noise: 0.3, seed: 9 });
const own = (d: CaptureData, h: string): CaptureData => ({ ...d, host: { hostname: h, kernel: null } });

describe('fleet', () => {
  const fleet = fleetOf(hostA, hostB);
  const hosts = parseFleet(JSON.stringify([
    { host: 'a:9100', devices: ['a:9100/dm-0', 'a:9100/sda', 'a:9100/sdb'] },
    { host: 'b:9100', devices: ['b:9100/dm-0', 'b:9100/sda'] },
  ]));

  it('reads meta.fleet and refuses what is not one', () => {
    expect(hosts?.map((h) => h.host)).toEqual(['a:9100', 'b:9100']);
    expect(parseFleet(undefined)).toBeNull();
    expect(parseFleet('not json')).toBeNull();
    expect(parseFleet('[{"host":"a","devices":["a/sda"]}]')).toBeNull(); // one host: not a fleet
    expect(parseFleet('[{"host":1,"devices":[]},{"host":"b","devices":[]}]')).toBeNull();
    expect(hostDeviceName('a:9100', 'a:9100/sda')).toBe('sda');
    expect(hostDeviceName('WEB1', 'WEB1\\LogicalDisk(C:)')).toBe('LogicalDisk(C:)');
  });

  it('analyses each host exactly as that host\'s own capture (records, columns, or one device at a time)', () => {
    if (hosts === null) throw new Error('hosts');
    const [ha, hb] = hosts as [FleetHost, FleetHost];
    for (const [h, mine] of [[ha, hostA], [hb, hostB]] as const) {
      const want = analyze(own(mine, h.host));
      expect(want.ok).toBe(true);
      expect(analyze(hostCapture(fleet, h))).toEqual(want);
      const cols = columnsFromRecords(fleet.intervals);
      expect(analyze(hostCapture({ ...fleet, columns: cols }, h))).toEqual(want);
      expect(analyze(hostCapture({ ...fleet, intervals: [], source: memorySource(cols) }, h))).toEqual(want);
      // and its workload profile as its own capture's
      expect(profileWorkload(hostCapture(fleet, h))).toEqual(profileWorkload(own(mine, h.host)));
    }
    // the whole fleet is not any host
    expect(analyze(fleet)).not.toEqual(analyze(own(hostA, 'a:9100')));
  });

  it('reads the table\'s figures from the analysis and the profile, each as the dashboard shows it', () => {
    if (hosts === null) throw new Error('hosts');
    const r = analyze(hostCapture(fleet, hosts[0] as NonNullable<typeof hosts>[number]));
    if (!r.ok) throw new Error(r.error.message);
    const f = fleetFiguresOfAnalysis(r);
    expect(f).toMatchObject({
      kind: 'analysis',
      iosSavedPercent: r.benefit.iosSavedPercent.value,
      latencyBeforeMs: r.benefit.latencyMs.before,
      latencyAfterMs: r.benefit.latencyMs.after,
      iopsBefore: r.benefit.deliveredIops.before,
      iopsAfter: r.benefit.deliveredIops.after,
      mbpsBefore: r.benefit.throughputMBps.before,
      mbpsAfter: r.benefit.throughputMBps.after,
      healthBefore: r.health.baseline.grade,
      healthAfter: r.health.measure.grade,
    });
    expect(f.iosSavedPercent).toBeGreaterThan(80);
    expect(f.latencyAfterMs as number).toBeLessThan(f.latencyBeforeMs as number);
    const p = profileWorkload(hostCapture(fleet, hosts[1] as NonNullable<typeof hosts>[number]));
    if (!p.ok) throw new Error(p.error.message);
    const g = fleetFiguresOfProfile(p);
    expect(g).toMatchObject({ kind: 'profile', iosSavedPercent: null, latencyBeforeMs: p.appFacing.means.awaitMs, iopsBefore: p.appFacing.means.iops, mbpsBefore: p.appFacing.means.mbps, healthBefore: p.health.window.grade, latencyAfterMs: null });
  });
});
