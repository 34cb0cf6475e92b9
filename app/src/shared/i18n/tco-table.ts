/**
 * The words of the engine's TCO comparison table (engine/src/plan/tco-table.ts) in the `tco`
 * catalog: the column heads, a payback as printed, a cell as text. `cacheproof tco` and the
 * Planner screen draw the table through these; the report draws the same model in its own catalog.
 */
import type { Payback, TcoCell, TcoColumnId } from '@cacheproof/engine/plan';
import { fmtNumber } from './numbers.ts';
import { tco, type TcoKey } from './tco.ts';
import { translate, type Lang } from './types.ts';

/** The head of each comparison column. */
export const TCO_COLUMN_KEYS: Record<TcoColumnId, TcoKey> = {
  configuration: 'cmp.config', drives: 'cmp.drives', totalUsd: 'cmp.total', savingsUsd: 'cmp.savings',
  savingsPct: 'cmp.savingsPct', usdPerIops: 'cmp.perIops', usdPerTb: 'cmp.perTb', breakEven: 'cmp.breakEven',
};

/**
 * A break-even as printed (tco, Planner, report), as the engine words it (paybackOf): the year,
 * day one, "does not pay back within N years (year X …)" up to 3× the period, and beyond that, or
 * never, "does not pay back within N years" (never "year 348.2").
 */
export function paybackText(p: Payback, years: number, lang: Lang): string {
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  switch (p.kind) {
    case 'day-one': return t('breakEven.fromStart');
    case 'year': return t('breakEven.year', { year: fmtNumber(lang, p.year, 1) });
    case 'beyond': return t('breakEven.beyond', { years: fmtNumber(lang, years), year: fmtNumber(lang, p.year, 1) });
    case 'not-within': return t('breakEven.never', { years: fmtNumber(lang, years) });
  }
}

/** A comparison cell as text: the label, a figure in the language's locale ('—' when absent), "reference", or the payback. */
export function tcoCellText(cell: TcoCell, years: number, lang: Lang): string {
  switch (cell.kind) {
    case 'text': return cell.text;
    case 'number': return cell.value === null ? '—' : fmtNumber(lang, cell.value, cell.digits);
    case 'reference': return translate(tco, lang, 'reference');
    case 'payback': return paybackText(cell.payback, years, lang);
  }
}
