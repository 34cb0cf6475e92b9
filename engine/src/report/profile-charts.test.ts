import { describe, expect, it } from 'vitest';
import { profileWorkload } from '../benefit/profile.ts';
import { synthCapture } from '../benefit/testkit.ts';
import { allocColumns, columnsFromRecords } from '../records/columns.ts';
import { buildProfileReportModel } from './profile-report.ts';
import { profileSeries } from './profile-series.ts';

const HOUR = 3_600_000;

/** Two days from 00:00 UTC at 5 min steps on sdb alone, 10:00–13:00 of the first day missing; the capture runs an hour past the window. */
function capture(): ReturnType<typeof synthCapture> {
  const t0 = Date.UTC(2026, 4, 4);
  const data = synthCapture({ t0, baselineS: 48 * 3600, measureS: 3600, stepMs: 300_000, front: null, backing: ['sdb'], iopsBefore: 500, noise: 0.3, seed: 11 });
  data.intervals = data.intervals.filter((r) => !(r.startMs >= t0 + 10 * HOUR && r.startMs < t0 + 13 * HOUR));
  data.phases = [{ name: 'baseline', startMs: t0, endMs: t0 + 48 * HOUR }];
  return data;
}

describe('the workload-profile report\'s time charts and per-day tables', () => {
  const data = capture();
  const p = profileWorkload(data);
  if (!p.ok) throw new Error(p.error.message);
  const cols = new Map(columnsFromRecords(data.intervals).map((c) => [c.device, c]));
  const s = profileSeries((d) => cols.get(d) ?? allocColumns(d, 0), p);
  const model = buildProfileReportModel({
    profile: p, hostname: 'db01', cover: {}, appVersion: 'test', generatedMs: Date.UTC(2026, 10, 27), series: s,
    capture: { fileName: 'db01.capture', sha256: 'ab'.repeat(32), sizeBytes: 1e6, probeVersion: null, source: 'sadf', schemaVersion: 6, sampleIntervalMs: 300_000, devices: [] },
  });

  it('covers the profiled window only in at most 480 points, a gap where the data is missing (null, never a line across it)', () => {
    expect(s.t[0]).toBeGreaterThanOrEqual(p.window.startMs);
    expect(s.t[s.t.length - 1]).toBeLessThan(p.window.endMs);
    // 576 samples of 5 min in 48 h: 480 points of 6 min
    expect(s.t).toHaveLength(480);
    expect(s.bucketMs).toBe(360_000);
    const gap = s.t.map((t, i) => [t, s.iops[i]] as const).filter(([t]) => t >= p.window.startMs + 10 * HOUR && t < p.window.startMs + 13 * HOUR);
    expect(gap.length).toBe(30);
    expect(gap.every(([, v]) => v === null)).toBe(true);
    for (const k of ['readIops', 'writeIops', 'mbps', 'latencyMs', 'aquSz'] as const) expect(s[k].filter((v) => v === null).length, k).toBe(30);
    // reads + writes = IOPS at every point with data, within the window's per-interval range
    s.iops.forEach((v, i) => {
      if (v === null) return;
      expect((s.readIops[i] ?? 0) + (s.writeIops[i] ?? 0)).toBeCloseTo(v, 9);
      expect(v).toBeLessThanOrEqual(p.appFacing.percentiles.iops?.max ?? 0);
    });
    // request size per clock hour: 48 hours, the three missing ones null, 4 KiB elsewhere (the synthetic requests)
    expect(s.requestBytes).toHaveLength(48);
    expect(s.requestBytes.filter((v) => v === null)).toHaveLength(3);
    for (const v of s.requestBytes) if (v !== null) expect(v).toBeCloseTo(4096, 6);
  });

  it('draws IOPS with reads and writes, MB/s, response time, queue size and request size, each series its own colour, the gaps as null points', () => {
    expect(model.charts.map((c) => c.id)).toEqual(['profile-iops-time', 'profile-mbps-time', 'profile-latency-time', 'profile-queue-time', 'profile-size-time']);
    const iops = model.charts[0];
    expect(new Set(iops?.series.map((x) => x.color)).size).toBe(3);
    for (const c of model.charts) {
      expect(c.kind).toBe('line');
      for (const ser of c.series) expect(ser.points.some(([, y]) => y === null), `${c.id}: a gap`).toBe(true);
    }
    const results = model.sections.find((x) => x.id === 'results')?.blocks ?? [];
    expect(results.filter((b) => b.type === 'chart').map((b) => (b.type === 'chart' ? b.chart.id : ''))).toEqual(model.charts.map((c) => c.id));
    expect(JSON.stringify(model.charts)).not.toMatch(/NaN|Infinity/);
  });

  it('tables each day\'s mean, p95 and peak with the peak\'s time, from the profile\'s days (analyze --profile --json)', () => {
    const tables = (model.sections.find((x) => x.id === 'results')?.blocks ?? []).flatMap((b) => (b.type === 'table' && b.table.id.startsWith('profile-days-') ? [b.table] : []));
    expect(tables.map((t) => t.id)).toEqual(['profile-days-iops', 'profile-days-mbps', 'profile-days-awaitMs']);
    const iops = tables[0];
    expect(iops?.rows.map((r) => r.cells[0])).toEqual(p.days.map((d) => ({ k: 'str', s: d.day })));
    p.days.forEach((d, i) => {
      expect(iops?.rows[i]?.cells.slice(1, 4)).toEqual([{ k: 'num', v: d.iops.mean, d: 1 }, { k: 'num', v: d.iops.p95, d: 1 }, { k: 'num', v: d.iops.peak, d: 1 }]);
      expect(iops?.rows[i]?.cells[4]).toEqual({ k: 'time', ms: d.iops.peakAtMs, style: 'time' });
    });
  });

  it('has no time chart without the series (a model built from the profile alone)', () => {
    const bare = buildProfileReportModel({ ...{ profile: p, hostname: null, cover: {}, appVersion: 'test', generatedMs: 0 }, capture: { fileName: 'x', sha256: '', sizeBytes: null, probeVersion: null, source: null, schemaVersion: null, sampleIntervalMs: null, devices: [] } });
    expect(bare.charts).toEqual([]);
  });
});
