/**
 * The exporters' view of a capture's intervals (app/src/host/report/rows.ts) and the report's
 * chart lines of a streamed pass (engine reportSeriesOfSums), equal to those of the records.
 */
import { describe, expect, it } from 'vitest';
import { allocColumns, bucketSums, columnsFromRecords, extentOf, memorySource, type BucketGrid, type DeviceColumns, type IntervalRecord } from '@cacheproof/engine';
import { reportSeries, reportSeriesOfSums, reportSeriesPlan } from '@cacheproof/engine/report';
import { countRecords } from '../src/host/report/rows.ts';

function records(): IntervalRecord[] {
  const out: IntervalRecord[] = [];
  for (const device of ['sda', 'sdb', 'sdc']) {
    for (let i = 0; i < (device === 'sdb' ? 3 : 7); i++) {
      out.push({ device, startMs: i * 1000, endMs: (i + 1) * 1000, intervalMs: 1000, status: i === 2 ? 'gap' : 'ok', reads: i === 2 ? null : 10 * i, writes: i, readBytes: 4096 * i, writeBytes: 512 * i, readTimeMs: i, writeTimeMs: 2 * i, busyMs: 3 * i, weightedMs: null });
    }
  }
  return out;
}

describe('countRecords', () => {
  it('counts the intervals of the named devices of a source, an empty device included', () => {
    const cols = [allocColumns('empty0', 0), ...columnsFromRecords(records())];
    expect(countRecords(memorySource(cols), ['sdb', 'sdc'])).toBe(10);
    expect(countRecords(memorySource(cols), ['empty0', 'sda', 'nope'])).toBe(7);
  });
});

describe('reportSeriesOfSums (the report lines of a streamed pass)', () => {
  it('gives exactly reportSeries of the records, from the extents and per-device sums', () => {
    const recs = records();
    const devices = [{ name: 'sda', role: 'front' as const }, { name: 'sdb', role: 'backing' as const }, { name: 'sdc', role: 'backing' as const }, { name: 'none', role: 'backing' as const }];
    const cols = columnsFromRecords(recs);
    const plan = reportSeriesPlan(cols.map(extentOf), devices, 4);
    const sums = new Map(plan.names.map((d) => [d, bucketSums(cols.find((c) => c.device === d) as DeviceColumns, plan.grid as BucketGrid)]));
    expect(reportSeriesOfSums(plan, sums, devices)).toEqual(reportSeries(recs, devices, 4));
    expect(reportSeries(recs, devices, 4).devices.map((d) => d.device)).toEqual(['sda', 'sdb', 'sdc']);
  });
});
