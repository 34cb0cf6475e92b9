/**
 * The TCO comparison table as one model: its columns (unit, digits, alignment), one row per
 * configuration of the plan's comparisons with its cells, and the break-even's words as the
 * engine's payback (paybackOf). The Planner screen, `cacheproof tco` and the report's TCO
 * section all draw this table; none assembles its rows or cells itself.
 *
 * Example: the reference row's break-even cell is `{ kind: 'reference' }`; a configuration that
 * breaks even in year 1.5 has `{ kind: 'payback', payback: { kind: 'year', year: 1.5, months: 18 } }`.
 */
import type { PlanFigures } from './result.ts';
import { paybackOf, type Payback } from './verdict.ts';

/** The comparison's columns, in order. */
export type TcoColumnId = 'configuration' | 'drives' | 'totalUsd' | 'savingsUsd' | 'savingsPct' | 'usdPerIops' | 'usdPerTb' | 'breakEven';

/** The unit a column's figures are in (null: words). */
export type TcoColumnUnit = 'count' | 'usd' | 'percent' | 'usdPerIops' | 'usdPerTb' | null;

export interface TcoColumn {
  id: TcoColumnId;
  align: 'left' | 'right';
  unit: TcoColumnUnit;
}

/** One cell: the configuration's label, a figure with its digits (null: no figure), or the break-even's words. */
export type TcoCell =
  | { column: TcoColumnId; kind: 'text'; text: string }
  | { column: TcoColumnId; kind: 'number'; value: number | null; digits: number }
  | { column: TcoColumnId; kind: 'reference' }
  | { column: TcoColumnId; kind: 'payback'; payback: Payback };

export interface TcoRow {
  configId: string;
  /** The configuration the others are compared with. */
  reference: boolean;
  cells: TcoCell[];
}

export interface TcoComparisonTable {
  years: number;
  referenceId: string;
  /** The reference configuration's label (its id when the plan has no such configuration). */
  referenceLabel: string;
  columns: TcoColumn[];
  rows: TcoRow[];
}

export const TCO_COLUMNS: readonly TcoColumn[] = [
  { id: 'configuration', align: 'left', unit: null },
  { id: 'drives', align: 'right', unit: 'count' },
  { id: 'totalUsd', align: 'right', unit: 'usd' },
  { id: 'savingsUsd', align: 'right', unit: 'usd' },
  { id: 'savingsPct', align: 'right', unit: 'percent' },
  { id: 'usdPerIops', align: 'right', unit: 'usdPerIops' },
  { id: 'usdPerTb', align: 'right', unit: 'usdPerTb' },
  { id: 'breakEven', align: 'left', unit: null },
];

/**
 * The comparison table of a plan: per comparison (in the plan's order) the configuration's label,
 * its drives (backing + cache), total, savings against the reference (USD and percent, one
 * decimal), cost per delivered IOPS and per usable TB (two decimals) and its break-even.
 */
export function tcoComparisonTable(p: PlanFigures): TcoComparisonTable {
  const ref = p.configurations.find((c) => c.id === p.referenceId);
  const rows: TcoRow[] = [];
  for (const cmp of p.comparisons) {
    const c = p.configurations.find((x) => x.id === cmp.id);
    if (c === undefined) continue;
    const reference = c.id === p.referenceId;
    const number = (column: TcoColumnId, value: number | null, digits: number): TcoCell => ({ column, kind: 'number', value, digits });
    rows.push({
      configId: c.id,
      reference,
      cells: [
        { column: 'configuration', kind: 'text', text: c.label },
        number('drives', c.sizing.driveCount + c.cacheDriveCount, 0),
        number('totalUsd', c.totalUsd, 0),
        number('savingsUsd', cmp.savingsUsd, 0),
        number('savingsPct', cmp.savingsPct, 1),
        number('usdPerIops', c.costPerDeliveredIopsUsd, 2),
        number('usdPerTb', c.costPerUsableTbUsd, 2),
        reference ? { column: 'breakEven', kind: 'reference' } : { column: 'breakEven', kind: 'payback', payback: paybackOf(cmp, p.years) },
      ],
    });
  }
  return { years: p.years, referenceId: p.referenceId, referenceLabel: ref?.label ?? p.referenceId, columns: [...TCO_COLUMNS], rows };
}
