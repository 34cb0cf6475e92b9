import { describe, expect, it } from 'vitest';
import catalogJson from '../../../samples/catalog/drives.json';
import type { AnalysisReport } from '../benefit/result.ts';
import { analyze } from '../benefit/analyze.ts';
import { synthCapture } from '../benefit/testkit.ts';
import { parseCatalog, type DriveCatalog } from './catalog.ts';
import { ramCacheOfSize, suggestedCacheSize } from './cache-size.ts';
import { measuredWorkload, scenarioFromMeasurement, type MeasuredWorkload } from './measured.ts';
import { parseScenario } from './scenario.ts';
import { planScenario } from './plan.ts';
import { EXAMPLE_SCENARIO } from './template.ts';
import { inputProvenance } from './provenance.ts';

const GIB = 2 ** 30;
const MIB = 2 ** 20;
const parsed = parseCatalog(catalogJson);
if (!parsed.ok) throw new Error(parsed.error.message);
const catalog: DriveCatalog = parsed.value;
const module32 = catalog.ramModules.find((m) => m.id === 'ddr4-rdimm-32gb');
if (module32 === undefined || module32.wattsPerDimm.value === null || module32.capacityBytes.value === null) throw new Error('catalog row ddr4-rdimm-32gb missing');
const USD_PER_GB = module32.usdPerGb.value;
const WATTS_PER_GB = module32.wattsPerDimm.value / (module32.capacityBytes.value / GIB);

type Sizing = Pick<AnalysisReport, 'cacheEngine' | 'prediction' | 'mode' | 'benefit'>;
/** The parts of an analysis the size reads: an engine counter list, a trace prediction, the measured read hit share. */
function sizingInput(o: { engineBytes?: number; footprint?: number; curve?: [number, number][]; hitPercent?: number | null }): Sizing {
  const counters = o.engineBytes === undefined ? [] : [{ name: 'cache_total_bytes', unit: 'bytes', window: 'current', method: 'last', value: o.engineBytes, reasons: {} }];
  const fromTrace = o.footprint === undefined ? null : { footprintBytes: o.footprint, maxReadHitPercent: 95, curve: (o.curve ?? []).map(([bytes, r]) => ({ bytes, readHitRatio: r, iosSavedPercent: r * 70 })) };
  return {
    cacheEngine: { comparison: o.engineBytes === undefined ? null : { adapter: 'dm-cache', counters }, reasons: {} },
    prediction: { fromTrace, reasons: {} },
    mode: o.hitPercent === null ? 'backing-only' : 'front-and-backing',
    benefit: { cacheServedPercent: { reads: o.hitPercent ?? null, writes: null } },
  } as unknown as Sizing;
}

describe('suggestedCacheSize: the cache sized from what was measured, with its basis', () => {
  it('a 369 MB workload measured at 88.9 % read hits: the prediction curve\'s smallest size reaching it, near the working set, not 549.8 GB', () => {
    const s = suggestedCacheSize(sizingInput({ footprint: 369e6, hitPercent: 88.9, curve: [[50e6, 0.4], [200e6, 0.8], [300e6, 0.9], [369e6, 0.95]] }), null);
    expect(s?.basis).toBe('prediction');
    expect(s?.key).toBe('cacheSize.prediction');
    expect(s?.bytes).toBe(Math.ceil(300e6 / MIB) * MIB);
    expect(s?.params['hitPercent']).toBe(88.9);
    expect(s?.bytes).toBeLessThan(0.5e9);
  });

  it('no measured hit share (backing only) or a curve below it: the trace\'s footprint, saying which', () => {
    const noHit = suggestedCacheSize(sizingInput({ footprint: 369e6, hitPercent: null, curve: [[369e6, 0.95]] }), null);
    expect(noHit).toMatchObject({ basis: 'footprint', bytes: Math.ceil(369e6 / MIB) * MIB, params: { reason: 'no-measured-hit-share' } });
    const above = suggestedCacheSize(sizingInput({ footprint: 369e6, hitPercent: 97, curve: [[369e6, 0.95]] }), null);
    expect(above).toMatchObject({ basis: 'footprint', params: { reason: 'curve-below-measured', hitPercent: 97 } });
  });

  it('the engine\'s own cache size comes first when the capture has one', () => {
    const s = suggestedCacheSize(sizingInput({ engineBytes: 8 * GIB, footprint: 369e6, hitPercent: 88.9, curve: [[369e6, 0.95]] }), { bytes: 1e12, capacityBytes: null });
    expect(s).toMatchObject({ basis: 'engine', bytes: 8 * GIB, params: { adapter: 'dm-cache', counter: 'cache_total_bytes' } });
  });

  it('no trace: the bytes moved in the baseline, at most the backing capacity; nothing measured gives null', () => {
    expect(suggestedCacheSize(sizingInput({}), { bytes: 5 * GIB, capacityBytes: 1e12 })).toMatchObject({ basis: 'bytes-moved', bytes: 5 * GIB, params: { capped: 'none' } });
    expect(suggestedCacheSize(null, { bytes: 5e12, capacityBytes: 1e12 })).toMatchObject({ basis: 'bytes-moved', params: { capped: 'capacity' } });
    expect(suggestedCacheSize(null, null)).toBeNull();
  });
});

describe('ramCacheOfSize: price and power scale linearly with the size from the catalog row', () => {
  it('per GB of ddr4-rdimm-32gb: double the size, double the price and the power', () => {
    const one = ramCacheOfSize(catalog, 'ddr4-rdimm-32gb', 10 * GIB);
    const two = ramCacheOfSize(catalog, 'ddr4-rdimm-32gb', 20 * GIB);
    if (!one.ok || !two.ok) throw new Error('sizing failed');
    expect(one.value.costUsd).toBeCloseTo(10 * USD_PER_GB, 9);
    expect(one.value.watts).toBeCloseTo(10 * WATTS_PER_GB, 9);
    expect(two.value.costUsd).toBeCloseTo(2 * one.value.costUsd, 9);
    expect(two.value.watts).toBeCloseTo(2 * one.value.watts, 9);
    expect(one.value.usdPerGb).toBe(USD_PER_GB);
  });

  it('fails naming an unknown module or a size not above 0', () => {
    expect(ramCacheOfSize(catalog, 'no-such', GIB)).toMatchObject({ ok: false, error: { code: 'unknown-module' } });
    expect(ramCacheOfSize(catalog, 'ddr4-rdimm-32gb', 0)).toMatchObject({ ok: false, error: { code: 'below-min' } });
  });
});

describe('scenarioFromMeasurement with the catalog: the prefilled RAM cache is the measured size', () => {
  it('a measured workload of a few hundred MB: the RAM cache is its size (not the example\'s 512 GiB), priced per GB, the basis in the file, and the scenario plans', () => {
    const data = synthCapture({ baselineS: 600, measureS: 600, stepMs: 10_000, iopsBefore: 250, iopsAfter: 250, requestBytes: 4096, missRatio: 0.1 });
    for (const d of data.devices) if (d.name === 'sda') d.sizeBytes = 1e12;
    const report = analyze(data);
    if (!report.ok) throw new Error(report.error.message);
    const m = measuredWorkload(report, data) as MeasuredWorkload;
    // 250 IOPS × 4 KiB × 600 s through the backing before the switch
    expect(m.cacheSize).toMatchObject({ basis: 'bytes-moved' });
    expect(m.cacheSize?.bytes).toBeCloseTo(Math.ceil((250 * 4096 * 600) / MIB) * MIB, -6);
    const s = scenarioFromMeasurement(m, EXAMPLE_SCENARIO, catalog);
    const ram = s.configurations.find((c) => c.cache?.kind === 'ram')?.cache;
    if (ram?.kind !== 'ram') throw new Error('no RAM cache');
    const exampleRam = EXAMPLE_SCENARIO.configurations.find((c) => c.cache?.kind === 'ram')?.cache;
    expect(exampleRam?.kind === 'ram' ? exampleRam.capacityBytes : 0).toBe(512 * GIB);
    expect(ram.capacityBytes).toBe(m.cacheSize?.bytes);
    expect(ram.costUsd).toBeCloseTo((ram.capacityBytes / GIB) * USD_PER_GB, 9);
    expect(ram.watts).toBeCloseTo((ram.capacityBytes / GIB) * WATTS_PER_GB, 9);
    expect(ram.sizing).toEqual({ basis: 'bytes-moved', suggestedBytes: m.cacheSize?.bytes, moduleId: 'ddr4-rdimm-32gb' });
    const check = parseScenario(JSON.parse(JSON.stringify(s)));
    if (!check.ok) throw new Error(check.error.message);
    expect(planScenario(check.value).ok).toBe(true);
    // the report's sources table: the prefilled size is the measured one; a typed size is said to be typed
    const sizeRow = (sc: typeof s) => inputProvenance(sc, m, true).find((r) => r.input === 'ramSize');
    expect(sizeRow(s)).toMatchObject({ value: ram.capacityBytes, source: 'measured' });
    const typed = JSON.parse(JSON.stringify(s)) as typeof s;
    const typedRam = typed.configurations.find((c) => c.cache?.kind === 'ram')?.cache;
    if (typedRam?.kind === 'ram') typedRam.capacityBytes = 2e9;
    expect(sizeRow(typed)).toMatchObject({ value: 2e9, source: 'typed' });
    // without the catalog the example's size stays (callers that cannot price it)
    const plain = scenarioFromMeasurement(m).configurations.find((c) => c.cache?.kind === 'ram')?.cache;
    expect(plain?.kind === 'ram' ? plain.capacityBytes : 0).toBe(512 * GIB);
  });
});
