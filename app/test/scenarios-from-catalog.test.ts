/**
 * One source of truth for the example's figures: engine/src/plan/template.ts,
 * samples/scenarios/example.tco.json and the example in docs/tco-scenario.md are rebuilt here
 * from samples/catalog/drives.json and EXAMPLE_RECIPE, exactly as `node scripts/gen-scenarios.mjs`
 * writes them, and must equal the shipped files byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_RECIPE,
  EXAMPLE_SCENARIO,
  buildExampleFiles,
  parseCatalog,
  parseScenario,
  planScenario,
  type DriveCatalog,
} from '@cacheproof/engine/plan';

const root = join(__dirname, '..', '..');
const read = (rel: string): string => readFileSync(join(root, rel), 'utf8');
const catalogJson = (): unknown => JSON.parse(read('samples/catalog/drives.json')) as unknown;

function built(catalog: unknown = catalogJson()) {
  const r = buildExampleFiles(catalog, read('docs/tco-scenario.md'));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('the example scenario is built from the drive catalog', () => {
  it('template.ts, example.tco.json and the docs example equal what the catalog and the recipe give (run node scripts/gen-scenarios.mjs when this fails)', () => {
    const b = built();
    expect(read('engine/src/plan/template.ts')).toBe(b.templateTs);
    expect(read('samples/scenarios/example.tco.json')).toBe(b.exampleJson);
    expect(read('docs/tco-scenario.md')).toBe(b.doc);
    expect(EXAMPLE_SCENARIO).toEqual(b.scenario);
  });

  it('fails when they drift: a catalog figure changed gives other files', () => {
    const changed = catalogJson() as { drives: { id: string; watts: { value: number } }[] };
    const mg10 = changed.drives.find((d) => d.id === 'toshiba-mg10aca20te');
    if (mg10 === undefined) throw new Error('the recipe uses toshiba-mg10aca20te');
    mg10.watts.value = 9.4;
    const b = built(changed);
    expect(b.exampleJson).not.toBe(read('samples/scenarios/example.tco.json'));
    expect(b.templateTs).not.toBe(read('engine/src/plan/template.ts'));
    expect(b.doc).not.toBe(read('docs/tco-scenario.md'));
  });

  it('every drive figure of the example is the catalog value, drives are named by catalog id, RAM comes from catalog modules', () => {
    const c = parseCatalog(catalogJson());
    if (!c.ok) throw new Error(c.error.message);
    const catalog: DriveCatalog = c.value;
    expect(EXAMPLE_SCENARIO.drives.map((d) => d.id)).toEqual(EXAMPLE_RECIPE.drives);
    for (const d of EXAMPLE_SCENARIO.drives) {
      const entry = catalog.drives.find((x) => x.id === d.id);
      if (entry === undefined) throw new Error(`${d.id} is not in the catalog`);
      expect(d.label).toBe(entry.label);
      expect(d.capacityBytes).toBe(entry.capacityBytes.value);
      expect(d.iops).toBe(entry.iops.value);
      expect(d.afr).toBe(entry.afr.value);
      expect(d.priceUsd).toBe(entry.priceUsd.value);
      expect([entry.watts.value, entry.maxWatts?.value]).toContain(d.watts);
    }
    const ram = EXAMPLE_SCENARIO.configurations.find((x) => x.cache?.kind === 'ram');
    const module = catalog.ramModules.find((m) => m.id === 'ddr4-rdimm-32gb');
    if (ram?.cache?.kind !== 'ram' || module === undefined || module.capacityBytes.value === null || module.wattsPerDimm.value === null)
      throw new Error('the example has a RAM cache of catalog DIMMs');
    expect(ram.cache.capacityBytes).toBe(16 * module.capacityBytes.value);
    expect(ram.cache.watts).toBe(16 * module.wattsPerDimm.value);
    expect(ram.cache.costUsd).toBe(16 * (module.capacityBytes.value / 2 ** 30) * module.usdPerGb.value);
    expect(ram.notes).toContain('catalog "ddr4-rdimm-32gb"');
  });

  it('the example says its prices are examples, and so does its plan', () => {
    expect(EXAMPLE_SCENARIO.priceKind).toBe('example');
    const s = parseScenario(JSON.parse(read('samples/scenarios/example.tco.json')));
    if (!s.ok) throw new Error(s.error.message);
    const plan = planScenario(s.value);
    expect(plan.ok && plan.value.examplePrices).toBe(true);
  });

  it('a catalog that cannot source a figure the recipe needs stops the build, naming it', () => {
    const broken = catalogJson() as { drives: { id: string; afr: unknown }[] };
    const mg10 = broken.drives.find((d) => d.id === 'toshiba-mg10aca20te');
    if (mg10 === undefined) throw new Error('fixture');
    mg10.afr = { value: null, reason: 'withdrawn from the test', date: '2026-11-23' };
    const r = buildExampleFiles(broken, read('docs/tco-scenario.md'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.path).toBe('drives[0].afr');
    expect(r.error.message).toContain('withdrawn from the test');
  });

  it('scripts/gen-scenarios.mjs --check agrees (exit 0, nothing written)', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'gen-scenarios.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
