import { describe, expect, it } from 'vitest';
import { inputProvenance, type ProvenanceRow } from './provenance.ts';
import { scenarioFromMeasurement, type MeasuredWorkload } from './measured.ts';
import { parseScenario, type Scenario } from './scenario.ts';

const m: MeasuredWorkload = {
  iopsP95: 1234.5, iopsPeak: 2000, iopsMean: 900, readShare: 0.7, avgRequestBytes: 8192,
  readHitShare: 0.81, writeHitShare: 0.2, cacheMode: null, backingCapacityBytes: 4e12,
  backingBytesPerYearBefore: { readBytes: 3e14, writtenBytes: 1e14 }, backingBytesPerYearAfter: null,
};

/** The prefill as the app writes it and reads it back (a JSON round trip, then the schema). */
function prefilled(edit: (s: Record<string, unknown>) => void = () => {}): Scenario {
  const json = JSON.parse(JSON.stringify(scenarioFromMeasurement(m))) as Record<string, unknown>;
  json['measuredFrom'] = { captureFile: 'db01.capture', captureSha256: 'ab'.repeat(32) };
  edit(json);
  const p = parseScenario(json);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
}
const source = (rows: ProvenanceRow[], input: ProvenanceRow['input'], subject: string | null = null): string | undefined => rows.find((r) => r.input === input && (subject === null || r.subject === subject))?.source;

describe('inputProvenance: where each TCO input came from', () => {
  it('a prefill read back as it was written: the workload is measured, the capacity is the devices\', the hit shares measured, example prices said so', () => {
    const s = prefilled();
    const rows = inputProvenance(s, m, true);
    expect(source(rows, 'iops')).toBe('measured');
    expect(rows.find((r) => r.input === 'iops')).toMatchObject({ value: 1234.5, basis: 'p95' });
    expect(source(rows, 'readShare')).toBe('measured');
    expect(source(rows, 'requestSize')).toBe('measured');
    expect(source(rows, 'capacity')).toBe('devices');
    expect(source(rows, 'yearlyBytes')).toBe('measured');
    expect(rows.find((r) => r.input === 'yearlyBytes')?.value).toBe(4e14);
    const withCache = s.configurations.filter((c) => c.cache !== undefined);
    expect(withCache.length).toBeGreaterThan(0);
    for (const c of withCache) expect(source(rows, 'readHit', c.label), c.label).toBe('measured');
    expect(s.priceKind).toBe('example');
    expect(rows.filter((r) => r.input === 'drivePrice').every((r) => r.source === 'example')).toBe(true);
    expect(rows.filter((r) => r.input === 'drivePrice').length).toBeGreaterThan(0);
  });

  it('an edit after the prefill is typed, never passed off as measured', () => {
    const rows = inputProvenance(prefilled((j) => {
      const w = j['workload'] as Record<string, unknown>;
      w['capacityBytes'] = 40e12;
      w['readShare'] = 0.69;
      (j['configurations'] as { cache?: Record<string, unknown> }[]).forEach((c) => { if (c.cache !== undefined) c.cache['readHitShare'] = 0.5; });
    }), m, true);
    expect(source(rows, 'capacity')).toBe('typed');
    expect(source(rows, 'readShare')).toBe('typed');
    expect(source(rows, 'iops')).toBe('measured');
    expect(rows.filter((r) => r.input === 'readHit').every((r) => r.source === 'typed')).toBe(true);
  });

  it('nothing is measured when the scenario was not measured from this capture; predicted and assumed hit shares say so; quoted prices', () => {
    expect(inputProvenance(prefilled(), m, false).filter((r) => r.source === 'measured' || r.source === 'devices')).toEqual([]);
    const rows = inputProvenance(prefilled((j) => {
      j['priceKind'] = 'quoted';
      const cs = (j['configurations'] as { cache?: Record<string, unknown> }[]).filter((c) => c.cache !== undefined);
      if (cs[0]?.cache !== undefined) cs[0].cache['hitShareSource'] = 'predicted';
      if (cs[1]?.cache !== undefined) cs[1].cache['hitShareSource'] = 'assumed';
    }), m, true);
    const hits = rows.filter((r) => r.input === 'readHit').map((r) => r.source);
    expect(hits.slice(0, 2)).toEqual(['predicted', 'assumed']);
    expect(rows.filter((r) => r.input === 'drivePrice' || r.input === 'systemPrice').every((r) => r.source === 'quoted')).toBe(true);
  });
});
