import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from './scenario.ts';
import { planScenario } from './plan.ts';
import type { PlanResult } from './result.ts';
import { tcoComparisonTable, type TcoCell } from './tco-table.ts';
import { EXAMPLE_SCENARIO } from './template.ts';

function example(): Scenario {
  const s = parseScenario(JSON.parse(JSON.stringify(EXAMPLE_SCENARIO)));
  if (!s.ok) throw new Error(s.error.message);
  return s.value;
}

function plan(): PlanResult {
  const r = planScenario(example());
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const figure = (cells: TcoCell[], column: TcoCell['column']): number | null => {
  const c = cells.find((x) => x.column === column);
  if (c?.kind !== 'number') throw new Error(`${column} is not a figure`);
  return c.value;
};

// The example scenario's figures by hand (app/src/cli/tco.test.ts works them out line by line):
// all-HDD RAID 10 is the reference, 348 drives, 268 145.12 USD; HDD RAID 5 + 2 SSDs: 105 + 2 drives,
// 106 959.58 USD, savings 161 185.54 USD = 60.1 %.
describe('tcoComparisonTable', () => {
  const p = plan();
  const table = tcoComparisonTable(p);

  it('has the eight columns in order, each with its unit and alignment', () => {
    expect(table.columns.map((c) => `${c.id}:${c.align}:${c.unit ?? '-'}`)).toEqual([
      'configuration:left:-', 'drives:right:count', 'totalUsd:right:usd', 'savingsUsd:right:usd', 'savingsPct:right:percent',
      'usdPerIops:right:usdPerIops', 'usdPerTb:right:usdPerTb', 'breakEven:left:-',
    ]);
  });

  it('has one row per comparison, in the plan order, each cell under its column', () => {
    expect(table.rows.map((r) => r.configId)).toEqual(p.comparisons.map((c) => c.id));
    for (const r of table.rows) expect(r.cells.map((c) => c.column)).toEqual(table.columns.map((c) => c.id));
    expect(table.years).toBe(4);
    expect(table.referenceId).toBe('all-hdd');
    expect(table.referenceLabel).toBe('All HDD, RAID 10');
  });

  it('gives the reference row the word "reference" and no savings', () => {
    const ref = table.rows.find((r) => r.reference);
    expect(ref?.configId).toBe('all-hdd');
    expect(ref?.cells[7]).toEqual({ column: 'breakEven', kind: 'reference' });
    expect(figure(ref?.cells ?? [], 'drives')).toBe(348);
    expect(figure(ref?.cells ?? [], 'totalUsd')).toBeCloseTo(268_145.12, 2);
    expect(figure(ref?.cells ?? [], 'savingsUsd')).toBe(0);
  });

  it('counts backing and cache drives, and carries savings, digits and the engine payback', () => {
    const ssd = table.rows.find((r) => r.configId === 'hdd-ssd-cache');
    expect(ssd?.reference).toBe(false);
    const cells = ssd?.cells ?? [];
    expect(figure(cells, 'drives')).toBe(107);
    expect(figure(cells, 'totalUsd')).toBeCloseTo(106_959.58, 2);
    expect(figure(cells, 'savingsUsd')).toBeCloseTo(161_185.54, 2);
    expect(figure(cells, 'savingsPct')).toBeCloseTo(60.11, 2);
    expect(cells.filter((c) => c.kind === 'number').map((c) => (c.kind === 'number' ? c.digits : -1))).toEqual([0, 0, 0, 1, 2, 2]);
    const be = cells[7];
    expect(be?.kind).toBe('payback');
    if (be?.kind === 'payback') expect(be.payback.kind).toBe('day-one');
  });

  it('leaves a row out when its configuration is missing, and names the reference by id when it is', () => {
    const broken: PlanResult = { ...p, referenceId: 'gone', configurations: p.configurations.filter((c) => c.id !== 'hdd-ssd-cache') };
    const t = tcoComparisonTable(broken);
    expect(t.rows.map((r) => r.configId)).not.toContain('hdd-ssd-cache');
    expect(t.rows).toHaveLength(p.comparisons.length - 1);
    expect(t.referenceLabel).toBe('gone');
    expect(t.rows.some((r) => r.reference)).toBe(false);
  });
});
