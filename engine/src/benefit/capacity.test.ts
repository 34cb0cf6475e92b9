import { describe, expect, it } from 'vitest';
import type { VolumeCapacityRow } from '../records/types.ts';
import { volumeCapacity } from './capacity.ts';
import { hostCapture } from './fleet.ts';
import { profileWorkload } from './profile.ts';
import { synthCapture } from './testkit.ts';

const DAY = 86_400_000;
const GB = 1e9;
const T0 = Date.UTC(2026, 0, 5);

/** A volume of `size` bytes whose used space grows by `perDay` bytes a day from `used0`, stated every hour for `days`, with a daily saw-tooth (a nightly clean-up) that leaves the trend whole. */
function growing(volume: string, size: number, used0: number, perDay: number, days: number, wobble = 0): VolumeCapacityRow[] {
  const rows: VolumeCapacityRow[] = [];
  for (let h = 0; h <= days * 24; h++) {
    const t = T0 + h * 3_600_000;
    // ±wobble alternating by hour: zero mean over each pair of hours, zero slope
    const used = used0 + (perDay * h) / 24 + (h % 2 === 0 ? wobble : -wobble) * (h === 0 || h === days * 24 ? 0 : 1);
    rows.push({ volume, utcMs: t, device: 'LogicalDisk(C:)', mount: 'C:\\', sizeBytes: size, freeBytes: size - used, source: 'windows_exporter' });
  }
  return rows;
}

describe('volumeCapacity (size, free, growth per day, days to full)', () => {
  it('a synthetic linear growth: 2 GB a day on a 500 GB volume 300 GB used after 10 days is full in 100 days', () => {
    const c = volumeCapacity(growing('C:', 500 * GB, 280 * GB, 2 * GB, 10));
    expect(c.inLog).toBe(true);
    const [v] = c.volumes;
    if (v === undefined) throw new Error('no volume');
    expect(v.volume).toBe('C:');
    expect(v.sizeBytes).toBe(500 * GB);
    expect(v.usedBytes).toBe(300 * GB);
    expect(v.freeBytes).toBe(200 * GB);
    expect(v.usedShare).toBeCloseTo(0.6, 12);
    expect(v.growthBytesPerDay).toBeCloseTo(2 * GB, 0);
    expect(v.daysToFull).toBeCloseTo(100, 9);
    expect(v.fitDays).toBe(10);
    expect(v.samples).toBe(241);
    expect([v.device, v.mount, v.source]).toEqual(['LogicalDisk(C:)', 'C:\\', 'windows_exporter']);
  });

  it('the fit is over the whole log, not its ends: hourly noise around the trend leaves the growth', () => {
    const [v] = volumeCapacity(growing('D:', 1000 * GB, 100 * GB, 5 * GB, 7, 3 * GB)).volumes;
    expect(v?.growthBytesPerDay).toBeGreaterThan(4.9 * GB);
    expect(v?.growthBytesPerDay).toBeLessThan(5.1 * GB);
  });

  it('a shrinking or steady volume has no days to full; one moment has no growth; a log without capacity says so', () => {
    const [shrinking] = volumeCapacity(growing('E:', 100 * GB, 50 * GB, -1 * GB, 5)).volumes;
    expect(shrinking?.growthBytesPerDay).toBeCloseTo(-1 * GB, 0);
    expect(shrinking?.daysToFull).toBeNull();
    const [steady] = volumeCapacity(growing('F:', 100 * GB, 50 * GB, 0, 2)).volumes;
    expect(steady?.growthBytesPerDay).toBe(0);
    expect(steady?.daysToFull).toBeNull();
    const [one] = volumeCapacity(growing('G:', 100 * GB, 50 * GB, 1 * GB, 0)).volumes;
    expect([one?.growthBytesPerDay, one?.daysToFull, one?.fitDays, one?.freeBytes]).toEqual([null, null, null, 50 * GB]);
    for (const none of [undefined, null, []]) expect(volumeCapacity(none)).toEqual({ inLog: false, volumes: [] });
  });

  it('a growth fitted over less than 24 h is withheld with its reason (a minute of 1 MB/s would read "full in 2 days"); the slope stays for audit', () => {
    const minute: VolumeCapacityRow[] = [0, 60_000].map((t, i) => ({ volume: 'C:', utcMs: T0 + t, device: null, mount: null, sizeBytes: 500 * GB, freeBytes: 200 * GB - i * 60e6, source: 'perfmon' }));
    const [v] = volumeCapacity(minute).volumes;
    expect([v?.growthBytesPerDay, v?.daysToFull]).toEqual([null, null]);
    expect(v?.reasons).toEqual({ growthBytesPerDay: 'short-fit', daysToFull: 'short-fit' });
    expect(v?.fitGrowthBytesPerDay).toBeCloseTo(60e6 * 1440, 0);
    expect(v?.fitDays).toBeCloseTo(60 / 86_400, 12);
    // just under a day: still withheld; a day: given
    const [under] = volumeCapacity(growing('C:', 500 * GB, 280 * GB, 2 * GB, 1).slice(0, 24)).volumes;
    expect(under?.reasons.daysToFull).toBe('short-fit');
    const [day] = volumeCapacity(growing('C:', 500 * GB, 280 * GB, 2 * GB, 1)).volumes;
    expect(day?.reasons).toEqual({});
    expect(day?.growthBytesPerDay).toBeCloseTo(2 * GB, 0);
  });

  it('a volume whose log states free space alone (no size) has its free bytes and no used share or growth', () => {
    const rows: VolumeCapacityRow[] = [0, 1].map((d) => ({ volume: '/dev/sdb1', utcMs: T0 + d * DAY, device: null, mount: '/data', sizeBytes: null, freeBytes: 10 * GB - d * GB, source: 'node_exporter' }));
    const [v] = volumeCapacity(rows).volumes;
    expect([v?.freeBytes, v?.sizeBytes, v?.usedBytes, v?.usedShare, v?.growthBytesPerDay]).toEqual([9 * GB, null, null, null, null]);
  });

  it('the workload profile carries it (over the whole log), and one host of a fleet has its own volumes, named as its capture names them', () => {
    const data = synthCapture({ baselineS: 600, measureS: 600, stepMs: 10_000, iopsBefore: 250, iopsAfter: 900, backing: ['sda'] });
    const p0 = profileWorkload(data);
    if (!p0.ok) throw new Error(p0.error.message);
    expect(p0.capacity).toEqual({ inLog: false, volumes: [] });
    data.volumes = [...growing('web1/C:', 500 * GB, 280 * GB, 2 * GB, 10), ...growing('web2/C:', 100 * GB, 10 * GB, 1 * GB, 10)];
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    expect(p.capacity.volumes.map((v) => [v.volume, v.daysToFull === null ? null : Math.round(v.daysToFull)])).toEqual([['web1/C:', 100], ['web2/C:', 80]]);
    const web2 = hostCapture(data, { host: 'web2', devices: [] });
    expect(volumeCapacity(web2.volumes).volumes.map((v) => [v.volume, v.device])).toEqual([['C:', null]]);
  });
});
