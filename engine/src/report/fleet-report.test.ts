import { describe, expect, it } from 'vitest';
import { fleetAggregate, type HostIops } from '../benefit/fleet-aggregate.ts';
import { buildFleetReportModel, type FleetReportHost } from './fleet-report.ts';
import type { Table } from './types.ts';

const load = (host: string, iops: number[]): HostIops => ({
  host,
  startMs: Float64Array.from(iops.map((_, i) => i * 60_000)),
  endMs: Float64Array.from(iops.map((_, i) => (i + 1) * 60_000)),
  iops: Float64Array.from(iops),
});
const figures = (iops: number): FleetReportHost['figures'] => ({ kind: 'profile', iosSavedPercent: null, latencyBeforeMs: 1.5, latencyAfterMs: null, iopsBefore: iops, iopsAfter: null, mbpsBefore: 2, mbpsAfter: null, healthBefore: 'good', healthAfter: null, healthPreset: 'generic', secondsBefore: 240, secondsAfter: null });

describe('buildFleetReportModel', () => {
  const aggregate = fleetAggregate([load('a', [100, 50, 30, 10]), load('b', [10, 10, 100, 10])]);
  const model = buildFleetReportModel({
    path: '/x/fleet.capture', kind: 'capture', aggregate, cover: {}, appVersion: '1.0.0', probeVersion: '0.1.0', generatedMs: 0,
    hosts: [{ host: 'a', devices: 2, figures: figures(47.5), error: null }, { host: 'b', devices: 1, figures: null, error: { code: 'capture-empty', message: 'b.capture holds no intervals yet.' } }],
  });
  const tables = model.sections.flatMap((s) => s.blocks).filter((b) => b.type === 'table').map((b) => (b as { table: Table }).table);
  const byId = (id: string): Table => tables.find((t) => t.id === id) as Table;

  it('carries the engine’s aggregate: the peak of the sum, its p95, mean and the hosts’ peaks summed', () => {
    expect(byId('fleet-aggregate').rows.map((r) => r.cells[1])).toEqual([
      { k: 'num', v: 130, d: 0, unit: 'iops' }, { k: 'num', v: aggregate.p95Iops, d: 0, unit: 'iops' }, { k: 'num', v: 80, d: 0, unit: 'iops' }, { k: 'num', v: 200, d: 0, unit: 'iops' },
    ]);
    expect(model.sections[0]?.blocks[0]).toMatchObject({ type: 'paragraph', text: { key: 'fl.verdict', p: { peak: { v: 130 }, sumOfPeaks: { v: 200 } } } });
    expect(model.summary.map((r) => [r.id, r.value, r.path])).toEqual([
      ['fleetPeak', 130, 'aggregate.peak.iops'], ['fleetP95', aggregate.p95Iops, 'aggregate.p95Iops'], ['fleetMean', 80, 'aggregate.meanIops'], ['fleetSumOfPeaks', 200, 'aggregate.sumOfHostPeaksIops'],
    ]);
  });

  it('names the hosts that make the peak, and gives each host its own figures or why it has none', () => {
    expect(byId('fleet-peak-hosts').rows.map((r) => r.cells[0])).toEqual([{ k: 'str', s: 'b' }, { k: 'str', s: 'a' }]);
    const hosts = byId('fleet-hosts').rows;
    expect(hosts[0]?.cells.slice(0, 5)).toEqual([{ k: 'str', s: 'a' }, { k: 'num', v: 2, d: 0 }, { k: 'num', v: 1.5, d: 3 }, { k: 'num', v: 47.5, d: 1 }, { k: 'num', v: 2, d: 2 }]);
    expect(hosts[1]?.cells[2]).toEqual({ k: 'msg', m: { key: 'fl.noFigures', p: { why: { k: 'str', s: 'b.capture holds no intervals yet.' } } } });
  });

  it('hosts that peak together: the verdict says so, not that they peak apart', () => {
    const together = buildFleetReportModel({ path: '/x', kind: 'folder', aggregate: fleetAggregate([load('a', [10, 90]), load('b', [5, 50])]), cover: {}, appVersion: '1', probeVersion: null, generatedMs: 0, hosts: [] });
    expect(together.sections[0]?.blocks[0]).toMatchObject({ type: 'paragraph', text: { key: 'fl.verdictTogether', p: { peak: { v: 140 }, sumOfPeaks: { v: 140 } } } });
  });

  it('a fleet with no usable interval says so and names no peak', () => {
    const none = buildFleetReportModel({ path: '/x', kind: 'folder', aggregate: fleetAggregate([]), cover: {}, appVersion: '1', probeVersion: null, generatedMs: 0, hosts: [] });
    expect(none.sections[0]?.blocks[0]).toEqual({ type: 'paragraph', text: { key: 'fl.verdictNone' } });
    expect(none.sections.flatMap((s) => s.blocks).some((b) => b.type === 'table' && b.table.id === 'fleet-peak-hosts')).toBe(false);
  });
});
