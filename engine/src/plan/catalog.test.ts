import { describe, expect, it } from 'vitest';
import catalogJson from '../../../samples/catalog/drives.json';
import {
  DRIVE_FIGURES,
  EXAMPLE_SCENARIO,
  catalogDrive,
  evaluateConfiguration,
  parseCatalog,
  parseScenario,
  planScenario,
  ramCacheFromCatalog,
  type DriveCatalog,
  type Scenario,
  type ScenarioInput,
} from './index.ts';

function catalog(): DriveCatalog {
  const r = parseCatalog(catalogJson);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function raw(): { drives: Record<string, unknown>[]; ramModules: Record<string, unknown>[] } {
  return JSON.parse(JSON.stringify(catalogJson)) as { drives: Record<string, unknown>[]; ramModules: Record<string, unknown>[] };
}

/** Every `{ value: … }` object anywhere in the file, with its JSON path. */
function figures(node: unknown, path: string, out: { path: string; f: Record<string, unknown> }[] = []): { path: string; f: Record<string, unknown> }[] {
  if (node === null || typeof node !== 'object') return out;
  if (!Array.isArray(node) && 'value' in node) {
    out.push({ path, f: node as Record<string, unknown> });
    return out;
  }
  for (const [k, v] of Object.entries(node)) figures(v, Array.isArray(node) ? `${path}[${k}]` : `${path}.${k}`, out);
  return out;
}

describe('the drive catalog (samples/catalog/drives.json)', () => {
  it('parses, and has no placeholder left', () => {
    expect(catalog().drives.length).toBeGreaterThan(10);
    expect(JSON.stringify(catalogJson)).not.toContain('default-to-review');
  });

  it('every numeric figure has a non-empty source and date; every absent one a reason and the date of the search', () => {
    const all = figures(catalogJson, '');
    expect(all.length).toBeGreaterThan(200);
    for (const { path, f } of all) {
      if (typeof f['value'] === 'number') {
        expect(typeof f['source'] === 'string' && f['source'].trim() !== '', `${path}.source`).toBe(true);
        expect(typeof f['date'] === 'string' && f['date'].trim() !== '', `${path}.date`).toBe(true);
      } else {
        expect(f['value'], path).toBeNull();
        expect(typeof f['reason'] === 'string' && f['reason'].trim() !== '', `${path}.reason`).toBe(true);
      }
    }
    // No numeric value outside a { value, source, date } figure (a bare number would be unsourced).
    const bare: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node === 'number' && !/\.(value|version)$/.test(path)) bare.push(path);
      if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`);
    };
    walk(catalogJson, '');
    expect(bare).toEqual([]);
  });

  it('every drive lists every figure of its kind; every price is an example or a dated quote', () => {
    // listed: a sourced number, or absent (value null) with the reason no source gave it
    const listed = (f: { value: number | null; source?: string; reason?: string } | undefined, what: string): void => {
      expect(f, `${what} is listed`).toBeTypeOf('object');
      expect(f, `${what} is listed`).not.toBeNull();
      if (f?.value === null) expect(f.reason, `${what}: absent, with a reason`).toMatch(/\S/u);
      else {
        expect(Number.isFinite(f?.value), `${what}: a finite number`).toBe(true);
        expect(f?.source, `${what}: with its source`).toMatch(/\S/u);
      }
    };
    for (const d of catalog().drives) {
      for (const k of DRIVE_FIGURES) {
        if (k === 'maxWatts') continue; // listed only where a maximum is sourced
        if (k === 'seqReadMBps') continue; // listed where sourced: the plausibility limit takes the fastest sourced one (plan/fastest.ts)
        if ((k === 'rpm' || k === 'workloadTbPerYear') && d.class !== 'hdd') continue; // spindle figures
        if ((k === 'enduranceTbw' || k === 'dwpd') && d.class === 'hdd') continue; // flash figures
        listed(d[k], `${d.id}.${k}`);
      }
      expect(['example', 'quote']).toContain(d.priceUsd.priceKind);
    }
  });

  it('covers 7.2k SATA and SAS, 10k SAS, read-intensive and mixed-use SATA SSDs and NVMe, two vendors or more each', () => {
    const c = catalog();
    const vendors = (pred: (d: DriveCatalog['drives'][number]) => boolean): Set<string> => new Set(c.drives.filter(pred).map((d) => d.vendor));
    expect(vendors((d) => d.segment === 'hdd-7.2k-nearline' && d.interface === 'sata').size).toBeGreaterThanOrEqual(2);
    expect(vendors((d) => d.segment === 'hdd-7.2k-nearline' && d.interface === 'sas').size).toBeGreaterThanOrEqual(2);
    expect(vendors((d) => d.segment === 'hdd-10k').size).toBeGreaterThanOrEqual(2);
    expect(vendors((d) => d.segment === 'ssd-sata-read-intensive').size).toBeGreaterThanOrEqual(2);
    expect(vendors((d) => d.segment === 'ssd-sata-mixed-use').size).toBeGreaterThanOrEqual(2);
    expect(vendors((d) => d.segment === 'ssd-nvme').size).toBeGreaterThanOrEqual(2);
    expect(c.ramModules.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses an unsourced figure, a figure without a date, an absent one without a reason, a non-example price without kind, duplicate ids', () => {
    const bare = raw();
    if (bare.drives[0]) bare.drives[0]['iops'] = 75;
    expect(parseCatalog(bare)).toMatchObject({ ok: false, error: { code: 'unsourced', path: 'drives[0].iops' } });
    const noDate = raw();
    if (noDate.drives[1]) noDate.drives[1]['watts'] = { value: 9, source: 'a data sheet' };
    expect(parseCatalog(noDate)).toMatchObject({ ok: false, error: { path: 'drives[1].watts' } });
    const noReason = raw();
    if (noReason.drives[2]) noReason.drives[2]['watts'] = { value: null, date: '2026-11-23' };
    expect(parseCatalog(noReason)).toMatchObject({ ok: false, error: { path: 'drives[2].watts' } });
    const emptySource = raw();
    if (emptySource.drives[0]) emptySource.drives[0]['afr'] = { value: 0.01, source: '  ', date: '2026' };
    const es = parseCatalog(emptySource);
    expect(!es.ok && es.error.path).toMatch(/^drives\[0\]\.afr/);
    const price = raw();
    if (price.drives[0]) price.drives[0]['priceUsd'] = { value: 100, source: 'shop', date: '2026' };
    expect(parseCatalog(price).ok).toBe(false);
    const dup = raw();
    if (dup.drives[1] && dup.drives[0]) dup.drives[1]['id'] = dup.drives[0]['id'];
    expect(parseCatalog(dup)).toMatchObject({ ok: false, error: { code: 'duplicate-id', path: 'drives[1].id' } });
  });
});

describe('catalogDrive', () => {
  it('turns a fully sourced entry into a scenario drive with the catalog figures', () => {
    const r = catalogDrive(catalog(), 'toshiba-mg10aca20te');
    if (!r.ok) throw new Error(r.error.message);
    const { notes, ...figures } = r.value;
    expect(figures).toEqual({ id: 'toshiba-mg10aca20te', label: 'Toshiba MG10ACA20TE 20 TB 7,200 rpm SATA', class: 'hdd', interface: 'sata', rpm: 7200, capacityBytes: 20e12, iops: 75, watts: 9.3, priceUsd: 450, afr: 0.00541, workloadTbPerYear: 550 });
    // Where the figures come from, and how the non-datasheet ones were obtained, travel with the drive.
    expect(notes).toContain('samples/catalog/drives.json, "toshiba-mg10aca20te"');
    expect(notes).toContain('example price, replace before use');
    expect(notes).toContain('iops: class rule of thumb');
    expect(notes).toContain('afr: field failures at a large operator');
  });
  it('uses the sourced maximum power, and says so, only when no average is sourced; prefers TBW over DWPD', () => {
    const c = catalog();
    const micron = catalogDrive(c, 'micron-7400-pro-m2-3.84tb', true);
    if (!micron.ok) throw new Error(micron.error.message);
    expect(micron.value.watts).toBe(8.25);
    expect(micron.value.notes).toContain('watts: the sourced maximum (8.25 W), an upper bound');
    expect(micron.value).toMatchObject({ dwpd: 1, warrantyYears: 5 });
    expect(micron.value.enduranceTbw).toBeUndefined();
    const p4500 = catalogDrive(c, 'intel-dc-p4500-4tb', true);
    expect(p4500).toMatchObject({ ok: false, error: { path: expect.stringMatching(/\.watts$/) as unknown as string } });
    const mg10 = catalogDrive(c, 'toshiba-mg10aca20te');
    expect(mg10.ok && mg10.value.notes).not.toContain('maximum');
  });
  it('names the absent figure and its reason instead of guessing', () => {
    const r = catalogDrive(catalog(), 'seagate-st1200mm0129');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.path).toMatch(/^drives\[\d+\]\.watts$/);
    expect(r.error.message).toContain('no sourced value');
    expect(r.error.message).toContain('DC power');
    expect(catalogDrive(catalog(), 'nope')).toMatchObject({ ok: false, error: { code: 'unknown-drive' } });
  });
  it('a cache SSD needs a sourced endurance', () => {
    const c = catalog();
    const kingston = catalogDrive(c, 'kingston-sedc600m-960g');
    expect(kingston.ok).toBe(false); // no sourced AFR
    const mg10 = catalogDrive(c, 'toshiba-mg10aca20te', true);
    expect(mg10).toMatchObject({ ok: false, error: { code: 'figure-absent' } });
  });
});

describe('RAM cache from catalog modules (purchase + power, no wear)', () => {
  it('sizes DIMMs: capacity, cost and watts from the module figures', () => {
    const r = ramCacheFromCatalog(catalog(), 'ddr4-rdimm-32gb', 8);
    expect(r).toEqual({ ok: true, value: { moduleId: 'ddr4-rdimm-32gb', dimms: 8, capacityBytes: 8 * 32 * 2 ** 30, costUsd: 8 * 32 * 3, watts: 40, examplePrice: true } });
    expect(ramCacheFromCatalog(catalog(), 'ddr4-rdimm-32gb', 0)).toMatchObject({ ok: false, error: { path: 'dimms' } });
    expect(ramCacheFromCatalog(catalog(), 'sdram', 2)).toMatchObject({ ok: false, error: { code: 'unknown-module' } });
  });

  it('in the plan: a RAM line, its watts in power, no cache SSD, failure or wear line', () => {
    const ram = ramCacheFromCatalog(catalog(), 'ddr4-rdimm-32gb', 8);
    if (!ram.ok) throw new Error(ram.error.message);
    const input = JSON.parse(JSON.stringify(EXAMPLE_SCENARIO)) as ScenarioInput;
    const base = input.configurations[1];
    if (base === undefined) throw new Error('example has a cache configuration');
    const { capacityBytes, costUsd, watts } = ram.value;
    input.configurations = [
      { ...base, id: 'no-cache', cache: undefined } as unknown as ScenarioInput['configurations'][number],
      { ...base, id: 'ram', cache: { kind: 'ram', capacityBytes, costUsd, watts, mode: 'write-through', readHitShare: 0.5, licenseUsd: 0 } },
    ];
    delete (input.configurations[0] as { cache?: unknown }).cache;
    input.referenceId = 'no-cache';
    input.workload.iops = { basis: 'p95', p95: 5000 };
    const s = parseScenario(input);
    if (!s.ok) throw new Error(s.error.message);
    const plain = evaluateConfiguration(s.value, 0);
    const r = evaluateConfiguration(s.value, 1);
    if (!r.ok) throw new Error(r.error.message);
    if (!plain.ok) throw new Error(plain.error.message);
    const ids = r.value.lines.map((l) => l.id);
    expect(ids).toContain('cacheRam');
    expect(ids).not.toContain('cacheDrives');
    expect(ids).not.toContain('cacheFailures');
    expect(ids).not.toContain('cacheWearReplacements');
    expect(r.value.lines.find((l) => l.id === 'cacheRam')?.costUsd).toBe(768);
    expect(r.value.cacheLife).toBeNull();
    expect(r.value.cacheDriveCount).toBe(0);
    // Same drives as without a cache would need fewer (half the reads hit RAM); the RAM's 40 W are in the power.
    const backingWatts = (c: typeof r.value): number => c.sizing.driveCount * (s.value.drives.find((d) => d.id === c.backingDriveId)?.watts ?? 0);
    expect(r.value.watts - backingWatts(r.value) - r.value.enclosures * (base.enclosure.watts ?? 0)).toBeCloseTo(40 + (base.system.watts ?? 0), 9);
    expect(r.value.sizing.driveCount).toBeLessThanOrEqual(plain.value.sizing.driveCount);
  });
});

describe('example prices', () => {
  it('a scenario marked priceKind "example" makes the plan say so; a quoted one does not', () => {
    const input = JSON.parse(JSON.stringify(EXAMPLE_SCENARIO)) as ScenarioInput & { priceKind?: string };
    input.priceKind = 'example';
    const a = parseScenario(input);
    if (!a.ok) throw new Error(a.error.message);
    const pa = planScenario(a.value);
    expect(pa.ok && pa.value.examplePrices).toBe(true);
    input.priceKind = 'quoted';
    const b = parseScenario(input);
    const pb = b.ok ? planScenario(b.value) : null;
    expect(pb?.ok && pb.value.examplePrices).toBe(false);
    expect(parseScenario({ ...input, priceKind: 'guess' })).toMatchObject({ ok: false, error: { path: 'priceKind' } });
    const s: Scenario = a.value;
    expect(s.priceKind).toBe('example');
  });
});
