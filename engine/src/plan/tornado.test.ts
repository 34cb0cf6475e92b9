import { describe, expect, it } from 'vitest';
import exampleJson from '../../../samples/scenarios/example.tco.json';
import { parseScenario, type Scenario } from './scenario.ts';
import { savingsSensitivity, scaledScenario, tornadoInputValue } from './tornado.ts';

function example(edit: (s: Scenario) => void = () => undefined): Scenario {
  const p = parseScenario(JSON.parse(JSON.stringify(exampleJson)));
  if (!p.ok) throw new Error(p.error.message);
  edit(p.value);
  return p.value;
}

describe('savingsSensitivity', () => {
  it('needs a configuration besides the reference', () => {
    const r = savingsSensitivity(example((s) => (s.configurations = s.configurations.slice(0, 1))));
    expect(r.ok ? null : r.error.code).toBe('no-comparison');
  });

  it('by default varies the cache design that saves most; a configuration can be named', () => {
    const r = savingsSensitivity(example());
    expect(r.ok && r.value.configId).toBe('hdd-ssd-cache');
    const ram = savingsSensitivity(example(), { configId: 'hdd-ram-cache' });
    expect(ram.ok && ram.value.configId).toBe('hdd-ram-cache');
    const flash = savingsSensitivity(example(), { configId: 'all-flash-nvme' });
    // No cache: no cache price, no hit share.
    expect(flash.ok && flash.value.bars.map((b) => b.input).sort()).toEqual(['backingDrivePrice', 'capacity', 'capacityGrowth', 'energyPrice', 'iopsGrowth', 'iopsTarget'].sort());
  });

  it('a RAM cache\'s price is its cost; a hit share is capped at 1; the other inputs are untouched', () => {
    const s = example();
    const ram = s.configurations.findIndex((c) => c.id === 'hdd-ram-cache');
    const up = scaledScenario(s, 'cacheDrivePrice', 1.2, ram, 0);
    expect(tornadoInputValue(up, 'cacheDrivePrice', ram)).toBeCloseTo((tornadoInputValue(s, 'cacheDrivePrice', ram) ?? NaN) * 1.2, 9);
    expect(up.drives).toEqual(s.drives);
    const cache = s.configurations.findIndex((c) => c.id === 'hdd-ssd-cache');
    const hit = scaledScenario(example((x) => {
      const c = x.configurations[cache]?.cache;
      if (c) c.readHitShare = 0.95;
    }), 'hitShare', 1.2, cache, 0);
    expect(hit.configurations[cache]?.cache?.readHitShare).toBe(1);
    expect(hit.workload).toEqual(s.workload);
  });
});
