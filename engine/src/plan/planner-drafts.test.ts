/** What the Planner builds on: every problem of a draft named by field, and catalog drives drafted with their gaps left to type in. */
import { describe, expect, it } from 'vitest';
import catalogJson from '../../../samples/catalog/drives.json';
import exampleJson from '../../../samples/scenarios/example.tco.json';
import { catalogDrive, catalogDriveDraft, parseCatalog } from './catalog.ts';
import { parseScenario, scenarioProblems } from './scenario.ts';
import { ramCacheDraft } from './recipe.ts';

const catalog = (() => {
  const c = parseCatalog(catalogJson);
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
})();

describe('scenarioProblems', () => {
  it('names every bad field once, in the words of parseScenario', () => {
    const s = JSON.parse(JSON.stringify(exampleJson)) as { drives: { priceUsd: unknown }[]; workload: { readShare: number }; energy: { usdPerKwh: number } };
    expect(scenarioProblems(s)).toEqual([]);
    if (s.drives[0] !== undefined) s.drives[0].priceUsd = -250;
    s.workload.readShare = 2;
    s.energy.usdPerKwh = -1;
    const problems = scenarioProblems(s);
    expect(problems.map((p) => p.path).sort()).toEqual(['drives[0].priceUsd', 'energy.usdPerKwh', 'workload.readShare']);
    const first = parseScenario(s);
    expect(first.ok).toBe(false);
    if (!first.ok) expect(problems.map((p) => p.message)).toContain(first.error.message);
    expect(problems.find((p) => p.path === 'workload.readShare')?.message).toBe('workload.readShare: must be at most 1, got 2.');
  });

  it('a cross-field problem comes alone once the schema holds', () => {
    const s = JSON.parse(JSON.stringify(exampleJson)) as { configurations: { backing: { driveId: string } }[] };
    if (s.configurations[0] !== undefined) s.configurations[0].backing.driveId = 'nope';
    expect(scenarioProblems(s).map((p) => p.code)).toEqual(['unknown-drive']);
  });
});

describe('catalogDriveDraft', () => {
  it('is catalogDrive when the catalog gives every figure the model needs', () => {
    const full = catalogDrive(catalog, 'micron-7400-pro-m2-3.84tb', true);
    if (!full.ok) throw new Error(full.error.message);
    expect(catalogDriveDraft(catalog, 'micron-7400-pro-m2-3.84tb')).toEqual({ drive: full.value, absent: [] });
  });

  it('leaves out what the catalog does not give, so that the scenario check names the field to type in', () => {
    const d = catalogDriveDraft(catalog, 'samsung-mzqlb3t8hals');
    expect(d?.absent).toEqual(['watts']);
    expect(d?.drive).not.toHaveProperty('watts');
    expect(d?.drive['capacityBytes']).toBe(3.84e12);
    const s = JSON.parse(JSON.stringify(exampleJson)) as { drives: unknown[] };
    s.drives.push(d?.drive);
    const problems = scenarioProblems(s);
    expect(problems.map((p) => `${p.code} ${p.path}`)).toEqual([`missing drives[${s.drives.length - 1}].watts`]);
    expect(catalogDriveDraft(catalog, 'no-such-drive')).toBeNull();
  });
});

describe('ramCacheDraft', () => {
  it('the Planner\'s RAM cache is the example\'s modules sized from the catalog, not typed figures', () => {
    const r = ramCacheDraft(catalog);
    expect(r).toEqual({ ok: true, value: { moduleId: 'ddr4-rdimm-32gb', dimms: 16, capacityBytes: 16 * 32 * 2 ** 30, costUsd: 16 * 32 * 3, watts: 16 * 5, examplePrice: true } });
    // the catalog's price per GB moves the draft's cost: nothing is hard-coded
    const dearer = { ...catalog, ramModules: catalog.ramModules.map((m) => ({ ...m, usdPerGb: { ...m.usdPerGb, value: 4 } })) };
    const d = ramCacheDraft(dearer);
    expect(d.ok && d.value.costUsd).toBe(16 * 32 * 4);
    expect(ramCacheDraft({ ...catalog, ramModules: [] }).ok).toBe(false);
  });
});
