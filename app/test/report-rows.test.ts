/**
 * The exporters' view of a capture's intervals (app/src/host/report/rows.ts): records built from
 * the reader's columns when read, equal to the records themselves, and the same chart series.
 */
import { describe, expect, it } from 'vitest';
import { allocColumns, columnsFromRecords, type IntervalRecord } from '@cacheproof/engine';
import { reportSeries } from '@cacheproof/engine/report';
import { isoTimes } from '../src/host/report/csv.ts';
import { countRecords, forEachRecord, recordsView } from '../src/host/report/rows.ts';

function records(): IntervalRecord[] {
  const out: IntervalRecord[] = [];
  for (const device of ['sda', 'sdb', 'sdc']) {
    for (let i = 0; i < (device === 'sdb' ? 3 : 7); i++) {
      out.push({ device, startMs: i * 1000, endMs: (i + 1) * 1000, intervalMs: 1000, status: i === 2 ? 'gap' : 'ok', reads: i === 2 ? null : 10 * i, writes: i, readBytes: 4096 * i, writeBytes: 512 * i, readTimeMs: i, writeTimeMs: 2 * i, busyMs: 3 * i, weightedMs: null });
    }
  }
  return out;
}

describe('recordsView', () => {
  it('reads the same records as the columns hold, device after device, with length and iteration, across an empty device', () => {
    const recs = records();
    const cols = [allocColumns('empty0', 0), ...columnsFromRecords(recs).flatMap((c, i) => (i === 1 ? [c, allocColumns('empty1', 0)] : [c]))];
    const view = recordsView(cols);
    expect(view.length).toBe(recs.length);
    expect([...view]).toEqual(recs);
    // random access in any order
    for (const k of [16, 0, 9, 7, 10, 3, 15]) expect(view[k]).toEqual(recs[k]);
    expect(view[recs.length]).toBeUndefined();
    expect(countRecords(cols, ['sdb', 'sdc'])).toBe(10);
    const seen: string[] = [];
    forEachRecord(cols, ['sdc', 'sda'], (r) => seen.push(r.device));
    expect(seen).toEqual([...Array(7).fill('sdc'), ...Array(7).fill('sda')]);
  });

  it('gives reportSeries exactly the series of the records', () => {
    const recs = records();
    const devices = [{ name: 'sda', role: 'front' as const }, { name: 'sdb', role: 'backing' as const }, { name: 'sdc', role: 'backing' as const }];
    expect(reportSeries(recordsView(columnsFromRecords(recs)), devices, 4)).toEqual(reportSeries(recs, devices, 4));
  });
});

describe('isoTimes (the CSV time cells)', () => {
  it('formats like Date#toISOString across days, years, leap days, fractions and before 1970', () => {
    const iso = isoTimes();
    const times = [0, 999, 86_399_999, 86_400_000, Date.UTC(2024, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 12, 0, 0, 5), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), -1, -86_400_001, 1234.5, Date.UTC(2026, 10, 2, 7, 8, 9, 10)];
    for (const t of times) expect(iso(t), String(t)).toBe(new Date(t).toISOString());
    for (let t = Date.UTC(2026, 10, 2, 23, 0, 0); t < Date.UTC(2026, 10, 3, 1, 0, 0); t += 997) expect(iso(t)).toBe(new Date(t).toISOString());
  });
});
