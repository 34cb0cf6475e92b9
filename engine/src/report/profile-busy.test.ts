import { describe, expect, it } from 'vitest';
import { profileWorkload } from '../benefit/profile.ts';
import { synthCapture } from '../benefit/testkit.ts';
import { busiestDevice, busiestDeviceMsg } from './profile-busy.ts';
import { buildProfileReportModel } from './profile-report.ts';

/** A baseline alone on two backing disks, sdb idle: the group's busy % is their average, sda's is twice it. */
function twoDisks() {
  const data = synthCapture({ baselineS: 1800, measureS: 600, stepMs: 10_000, iopsBefore: 50, front: null, backing: ['sda', 'sdb'] });
  const base = data.phases.find((p) => p.name === 'baseline');
  data.intervals = data.intervals.filter((r) => r.endMs <= (base?.endMs as number))
    // sdb did no I/O: busy 0
    .map((r) => (r.device === 'sdb' ? { ...r, reads: 0, writes: 0, readBytes: 0, writeBytes: 0, readTimeMs: 0, writeTimeMs: 0, busyMs: 0, weightedMs: 0 } : r));
  data.phases = [{ name: 'baseline', startMs: base?.startMs as number, endMs: null }];
  const p = profileWorkload(data, {});
  if (!p.ok) throw new Error(p.error.message);
  return p;
}

describe('busy % per device, the busiest named beside the group\'s average', () => {
  it('names sda, busy twice the two-disk group\'s average', () => {
    const p = twoDisks();
    const group = p.appFacing.means.utilPercent as number;
    const b = busiestDevice(p);
    expect(b?.device).toBe('sda');
    expect(b?.devices).toBe(2);
    expect(b?.meanPercent).toBeCloseTo(2 * group, 6);
    expect(busiestDeviceMsg(p)?.key).toBe('pr.busiestDevice');
  });
  it('the profile report says it under the figures and gives busy % per device', () => {
    const p = twoDisks();
    const model = buildProfileReportModel({
      profile: p, hostname: 'db01', cover: {}, appVersion: 'test', generatedMs: Date.UTC(2026, 10, 27),
      capture: { fileName: 'db01.capture', sha256: 'ab'.repeat(32), sizeBytes: 1e6, probeVersion: null, source: 'live', schemaVersion: 6, sampleIntervalMs: 10_000, devices: [] },
    });
    const blocks = model.sections.flatMap((s) => s.blocks);
    expect(blocks.some((b) => b.type === 'paragraph' && b.text.key === 'pr.busiestDevice')).toBe(true);
    const devices = blocks.find((b) => b.type === 'table' && b.table.id === 'profile-devices');
    expect(devices?.type === 'table' && devices.table.columns.some((c) => c.head.key === 'pr.c.busy')).toBe(true);
  });
});
