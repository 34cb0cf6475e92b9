/**
 * Where each TCO input came from (issue 17): measured from the capture, taken from the sizes of
 * the capture's devices, predicted from a block trace, a price marked as an example, or typed.
 * A manager signing a TCO must see which of its inputs are facts of this server and which are
 * somebody's numbers. Pure: compares the scenario with the figures the capture gives
 * ({@link measuredWorkload}); a value equal to the measured one (relative difference ≤ 1e-6,
 * the JSON round trip keeps doubles exact) counts as measured, any other value as typed, so an
 * edit after the prefill is never passed off as a measurement.
 *
 * Example: a scenario prefilled from db01.capture, whose capacity was then changed to 40 TB,
 * gives `iops: measured`, `readShare: measured`, `capacity: typed`, the cache's hit share
 * `measured`, and each drive price `example` while the scenario's `priceKind` is `example`.
 */
import { measuredHitShares, type MeasuredWorkload } from './measured.ts';
import type { Scenario } from './scenario.ts';
import { EXAMPLE_SCENARIO } from './template.ts';

/** The kinds of origin, in the words the report prints (`src.<kind>`). */
export type InputSource = 'measured' | 'devices' | 'predicted' | 'assumed' | 'typed' | 'default' | 'example' | 'quoted' | 'notRecorded';

/** The inputs listed, in order (the report's labels are `tin.<id>`). */
export type ProvenanceInput =
  | 'years' | 'iops' | 'readShare' | 'requestSize' | 'capacity' | 'yearlyBytes' | 'capacityGrowth' | 'iopsGrowth'
  | 'readHit' | 'writeHit' | 'ramSize' | 'energyKwh' | 'energyPerDrive' | 'systemPrice' | 'ramPrice' | 'drivePrice';

export interface ProvenanceRow {
  input: ProvenanceInput;
  /** The configuration or drive the row is about (its label), or null for the workload. */
  subject: string | null;
  /** The value as the plan uses it; the unit follows from `input` (shares 0…1, bytes, USD). */
  value: number | null;
  /** For `iops`: the basis the plan sizes on (p95, peak, mean, typed). */
  basis?: string;
  source: InputSource;
}

const same = (a: number | undefined, b: number | null | undefined): boolean =>
  a !== undefined && b !== undefined && b !== null && Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b), 1e-12);

/**
 * The origin of every input of a plan. `measured` is the capture's workload (null when the
 * capture gives none), `sameCapture` whether the scenario says it was measured from this very
 * capture (its `measuredFrom` SHA-256): without it nothing is called measured.
 */
export function inputProvenance(s: Scenario, measured: MeasuredWorkload | null, sameCapture: boolean): ProvenanceRow[] {
  const m = sameCapture ? measured : null;
  const w = s.workload;
  const rows: ProvenanceRow[] = [];
  rows.push({ input: 'years', subject: null, value: s.years, source: 'typed' });
  const basis = w.iops.basis;
  const iops = w.iops[basis] ?? null;
  const measuredIops = m === null ? null : basis === 'p95' ? m.iopsP95 : basis === 'peak' ? m.iopsPeak : basis === 'mean' ? m.iopsMean : null;
  rows.push({ input: 'iops', subject: null, value: iops, basis, source: iops !== null && same(iops, measuredIops) ? 'measured' : 'typed' });
  rows.push({ input: 'readShare', subject: null, value: w.readShare, source: same(w.readShare, m?.readShare) ? 'measured' : 'typed' });
  rows.push({ input: 'requestSize', subject: null, value: w.avgRequestBytes, source: same(w.avgRequestBytes, m?.avgRequestBytes) ? 'measured' : 'typed' });
  // a capture that does not record its devices' sizes leaves the prefill's base capacity, the example's: said so (`notRecorded`)
  const capacitySource: InputSource = same(w.capacityBytes, m?.backingCapacityBytes) ? 'devices'
    : m !== null && m.backingCapacityBytes === null && same(w.capacityBytes, EXAMPLE_SCENARIO.workload.capacityBytes) ? 'notRecorded' : 'typed';
  rows.push({ input: 'capacity', subject: null, value: w.capacityBytes, source: capacitySource });
  const yearly = (w.yearlyReadBytes ?? 0) + (w.yearlyWrittenBytes ?? 0);
  rows.push({
    input: 'yearlyBytes', subject: null, value: w.yearlyReadBytes === undefined && w.yearlyWrittenBytes === undefined ? null : yearly,
    source: w.yearlyReadBytes === undefined && w.yearlyWrittenBytes === undefined ? 'default'
      : same(w.yearlyReadBytes, m?.backingBytesPerYearBefore.readBytes) && same(w.yearlyWrittenBytes, m?.backingBytesPerYearBefore.writtenBytes) ? 'measured' : 'typed',
  });
  rows.push({ input: 'capacityGrowth', subject: null, value: w.growth.capacityPerYear, source: w.growth.capacityPerYear === 0 ? 'default' : 'typed' });
  rows.push({ input: 'iopsGrowth', subject: null, value: w.growth.iopsPerYear, source: w.growth.iopsPerYear === 0 ? 'default' : 'typed' });
  const hits = m === null ? null : measuredHitShares(m);
  for (const c of s.configurations) {
    const cache = c.cache;
    if (cache === undefined) continue;
    const of = (value: number, measuredValue: number | null | undefined): InputSource => {
      if (cache.hitShareSource === 'measured') return same(value, measuredValue) ? 'measured' : 'typed';
      return cache.hitShareSource;
    };
    rows.push({ input: 'readHit', subject: c.label, value: cache.readHitShare, source: of(cache.readHitShare, hits?.read) });
    if (cache.mode === 'write-back') rows.push({ input: 'writeHit', subject: c.label, value: cache.writeHitShare, source: of(cache.writeHitShare, hits?.write) });
    // the RAM cache's size: measured when it is the size the capture suggests (engine suggestedCacheSize), else typed
    if (cache.kind === 'ram') rows.push({ input: 'ramSize', subject: c.label, value: cache.capacityBytes, source: same(cache.capacityBytes, m?.cacheSize?.bytes) ? 'measured' : 'typed' });
  }
  const price: InputSource = s.priceKind === 'example' ? 'example' : s.priceKind === 'quoted' ? 'quoted' : 'typed';
  rows.push('usdPerKwh' in s.energy ? { input: 'energyKwh', subject: null, value: s.energy.usdPerKwh, source: price } : { input: 'energyPerDrive', subject: null, value: s.energy.usdPerDrivePerYear, source: price });
  for (const c of s.configurations) {
    rows.push({ input: 'systemPrice', subject: c.label, value: c.system.baseCostUsd, source: price });
    if (c.cache?.kind === 'ram') rows.push({ input: 'ramPrice', subject: c.label, value: c.cache.costUsd, source: price });
  }
  const used = new Set(s.configurations.flatMap((c) => [c.backing.driveId, ...(c.cache?.kind === 'ssd' ? [c.cache.driveId] : [])]));
  for (const d of s.drives) if (used.has(d.id)) rows.push({ input: 'drivePrice', subject: d.label, value: d.priceUsd, source: price });
  return rows;
}
