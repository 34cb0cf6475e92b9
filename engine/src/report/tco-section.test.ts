import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../plan/scenario.ts';
import { planScenario } from '../plan/plan.ts';
import { EXAMPLE_SCENARIO } from '../plan/template.ts';
import { tcoSection } from './tco-section.ts';
import type { Table } from './types.ts';

function example(): Scenario {
  const s = parseScenario(JSON.parse(JSON.stringify(EXAMPLE_SCENARIO)));
  if (!s.ok) throw new Error(s.error.message);
  return s.value;
}

describe("the report's TCO comparison table (drawn from the engine's tcoComparisonTable)", () => {
  const r = planScenario(example());
  if (!r.ok) throw new Error(r.error.message);
  const { section } = tcoSection({ scenarioFile: 'example.tco.json', scenario: example(), plan: r.value });
  const table = section.blocks.flatMap((b) => (b.type === 'table' && b.table.id === 'tco-comparison' ? [b.table] : []))[0] as Table;

  it('has the eight report columns with their units', () => {
    expect(table.columns.map((c) => [c.head, c.align, c.unit ?? null])).toEqual([
      [{ key: 'c.configuration' }, 'left', null], [{ key: 'c.drives' }, 'right', 'count'], [{ key: 'c.totalUsd' }, 'right', 'usd'],
      [{ key: 'c.savingsUsd' }, 'right', 'usd'], [{ key: 'c.savingsPct' }, 'right', 'percent'], [{ key: 'c.usdPerIops' }, 'right', 'usdPerIops'],
      [{ key: 'c.usdPerTb' }, 'right', 'usdPerTb'], [{ key: 'c.breakEven' }, 'left', null],
    ]);
  });

  it('says "reference" on the reference row and the payback on the others, savings as a percent with one decimal', () => {
    expect(table.rows).toHaveLength(r.value.comparisons.length);
    const [ref, ssd] = table.rows;
    expect(ref?.cells[0]).toEqual({ k: 'str', s: 'All HDD, RAID 10' });
    expect(ref?.cells[1]).toEqual({ k: 'num', v: 348, d: 0 });
    expect(ref?.cells[7]).toEqual({ k: 'msg', m: { key: 'tco.reference' } });
    expect(ssd?.cells[4]).toMatchObject({ k: 'pct', d: 1 });
    expect(ssd?.cells[7]).toEqual({ k: 'msg', m: { key: 'tco.dayOne' } });
  });
});
