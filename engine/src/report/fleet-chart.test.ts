import { describe, expect, it } from 'vitest';
import { fleetAggregate, type HostIops } from '../benefit/fleet-aggregate.ts';
import { FLEET_CHART_MAX_POINTS, fleetChart } from './fleet-chart.ts';
import { buildFleetReportModel } from './fleet-report.ts';

const STEP = 60_000;
const load = (host: string, iops: number[]): HostIops => ({
  host,
  startMs: Float64Array.from(iops.map((_, i) => i * STEP)),
  endMs: Float64Array.from(iops.map((_, i) => (i + 1) * STEP)),
  iops: Float64Array.from(iops),
});

describe('fleetChart', () => {
  it('draws every moment of a short fleet, the p95 as a line of its own value, the peak in its words, and no note', () => {
    const a = fleetAggregate([load('a', [100, 50, 30, 10]), load('b', [10, 10, 100, 10])]);
    const c = fleetChart(a);
    expect(c).not.toBeNull();
    if (c === null) return;
    expect(c.series).toHaveLength(1);
    expect(c.series[0]?.points).toEqual([[0, 110], [STEP, 60], [2 * STEP, 130], [3 * STEP, 20]]);
    expect(c.refLines).toEqual([{ y: a.p95Iops, label: { key: 'fl.ch.p95Line', p: { p95: { k: 'num', v: a.p95Iops, d: 0, unit: 'iops' } } } }]);
    expect(c.summary).toMatchObject({ key: 'fl.ch.summary', p: { peak: { v: 130 }, start: { k: 'time', ms: 2 * STEP }, p95: { v: a.p95Iops }, mean: { v: 80 } } });
    expect(c.y.min).toBe(0);
    expect(c.x.kind).toBe('time');
    expect(c.note).toBeUndefined();
  });

  it('a week at 60 s is bucketed to at most the bound, each point the highest of its bucket: the peak is a point, the note says so', () => {
    const n = 10_080;
    // a daily wave, with the fleet's one spike in the middle of a bucket (not at a bucket's first moment)
    const wave = Array.from({ length: n }, (_, i) => 1000 + 500 * Math.sin((2 * Math.PI * i) / 1440));
    const spikeAt = 7 * 700 + 3;
    wave[spikeAt] = 9000;
    const a = fleetAggregate([load('a', wave), load('b', wave.map((v) => v / 2))]);
    const c = fleetChart(a);
    expect(c).not.toBeNull();
    if (c === null || a.peak === null) return;
    const pts = c.series[0]?.points ?? [];
    expect(pts.length).toBeLessThanOrEqual(FLEET_CHART_MAX_POINTS);
    expect(pts.length).toBe(Math.ceil(n / 7));
    const top = pts.reduce((best, p) => ((p[1] ?? -1) > (best[1] ?? -1) ? p : best));
    expect(top).toEqual([a.peak.startMs, a.peak.iops]);
    expect(a.peak.iops).toBeCloseTo(13_500, 6);
    expect(top[0]).toBe(spikeAt * STEP);
    // every point is its bucket's highest moment, drawn at that moment's own time
    for (let b = 0; b < pts.length; b++) {
      const seg = a.series.iops.slice(b * 7, b * 7 + 7);
      const i = seg.indexOf(Math.max(...seg));
      expect(pts[b]).toEqual([a.series.startMs[b * 7 + i], seg[i]]);
    }
    expect(c.refLines?.[0]?.y).toBe(a.p95Iops);
    expect(c.note).toMatchObject({ key: 'fl.ch.note', p: { moments: { v: n }, size: { v: 7 }, points: { v: pts.length }, bucket: { k: 'msg', m: { key: 'dur.min', p: { n: { v: 7 } } } } } });
  });

  it('a fleet with no moment has no chart, and the report then has none', () => {
    expect(fleetChart(fleetAggregate([]))).toBeNull();
    const model = buildFleetReportModel({ path: '/x', kind: 'folder', aggregate: fleetAggregate([]), cover: {}, appVersion: '1', probeVersion: null, generatedMs: 0, hosts: [] });
    expect(model.charts).toEqual([]);
  });

  it('the report draws it in its summary, after the aggregate table, and lists it', () => {
    const a = fleetAggregate([load('a', [5, 40, 7])]);
    const model = buildFleetReportModel({ path: '/x', kind: 'folder', aggregate: a, cover: {}, appVersion: '1', probeVersion: null, generatedMs: 0, hosts: [] });
    const blocks = model.sections[0]?.blocks ?? [];
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'table', 'chart']);
    expect(model.charts.map((c) => c.id)).toEqual(['fleet-iops-time']);
  });
});
