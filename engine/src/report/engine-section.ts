/**
 * The report's cache-engine statistics (analysis `cacheEngine.comparison`; docs/metrics.md §
 * Engine statistics, docs/report.md): the engine's own cache share beside the disk counters'
 * share, the counting differences that apply, the engine's counters over the measure window and
 * the adapter's actions. Figures are the analysis' own, never recomputed.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { EngineShare } from '../benefit/engine-stats.ts';
import type { ReportKey } from './keys.ts';
import type { Block, SummaryRow, Table } from './types.ts';
import { m, msgv, num, pct, str, time, why } from './values.ts';

const KINDS = ['reads', 'writes', 'all'] as const;

function sharesTable(shares: Record<(typeof KINDS)[number], EngineShare>, threshold: number): Table {
  return {
    id: 'engineShares', title: m('eng.sharesTitle'), sheet: false,
    columns: [
      { head: m('eng.c.kind'), align: 'left' }, { head: m('eng.c.engine'), unit: 'percent', align: 'right' }, { head: m('eng.c.counters'), unit: 'percent', align: 'right' },
      { head: m('eng.c.diff'), align: 'right' }, { head: m('eng.c.hits'), align: 'right' }, { head: m('eng.c.verdict'), align: 'left' },
    ],
    rows: KINDS.map((k) => {
      const s = shares[k];
      return {
        cells: [
          msgv(`eng.kind.${k}`),
          pct(s.enginePercent, 1, why(s.reasons, 'enginePercent')),
          pct(s.countersPercent, 1, why(s.reasons, 'countersPercent')),
          s.differencePoints === null ? num(null, 1, undefined, why(s.reasons, 'differencePoints')) : msgv('eng.points', { value: num(s.differencePoints, 1) }),
          s.engineHits === null || s.engineTotal === null ? num(null, 0, undefined, why(s.reasons, 'enginePercent')) : msgv('eng.hits', { hits: num(s.engineHits, 0), total: num(s.engineTotal, 0) }),
          msgv(s.differencePoints === null ? 'eng.verdict.na' : s.exceeds ? 'eng.verdict.exceeds' : 'eng.verdict.within', { threshold: num(threshold, 0) }),
        ],
      };
    }),
  };
}

/** The blocks of the report's cache-engine part, or none for a capture recorded without an adapter. */
export function engineBlocks(a: AnalysisReport): Block[] {
  const c = a.cacheEngine.comparison;
  if (c === null) return [];
  const blocks: Block[] = [
    { type: 'subheading', text: m('eng.title'), sub: msgv('eng.adapter', { adapter: str(c.adapter), device: str(c.device) }) },
    { type: 'paragraph', text: m('eng.def', { threshold: num(c.thresholdPoints, 0), start: time(c.window.start), end: time(c.window.end) }) },
    { type: 'table', table: sharesTable(c.shares, c.thresholdPoints) },
  ];
  if (c.notes.length > 0) {
    blocks.push({ type: 'subheading', text: m('eng.notesTitle') }, { type: 'sentences', items: c.notes.map((n) => m(`eng.note.${n}` as ReportKey)) });
  }
  blocks.push(c.counters.length === 0 ? { type: 'paragraph', text: m('eng.countersNone') } : {
    type: 'table', table: {
      id: 'engineCounters', title: m('eng.countersTitle'), sheet: false,
      columns: [{ head: m('eng.c.name'), align: 'left' }, { head: m('eng.c.value'), align: 'right' }, { head: m('eng.c.unit'), align: 'left' }, { head: m('eng.c.window'), align: 'left' }, { head: m('eng.c.method'), align: 'left' }],
      rows: c.counters.map((x) => ({ cells: [str(x.name), num(x.value, 0, undefined, why(x.reasons, 'value')), str(x.unit), str(x.window), msgv(`eng.method.${x.method}`)] })),
    },
  });
  blocks.push(c.actions.length === 0 ? { type: 'paragraph', text: m('eng.actionsNone') } : {
    type: 'table', table: {
      id: 'engineActions', title: m('eng.actionsTitle'), sheet: false,
      columns: [{ head: m('eng.c.time'), align: 'left' }, { head: m('eng.c.action'), align: 'left' }, { head: m('eng.c.step'), align: 'left' }, { head: m('eng.c.result'), align: 'left' }],
      rows: c.actions.map((x) => ({
        cells: [
          time(x.startMs),
          x.action === 'enable' || x.action === 'disable' || x.action === 'restore' ? msgv(`eng.action.${x.action}`) : str(x.action),
          str(x.step),
          x.ok ? msgv('eng.result.ok', { before: str(x.modeBefore ?? '—'), after: str(x.modeAfter ?? '—') })
            : x.exitStatus === null ? msgv('eng.result.failedNoExit') : msgv('eng.result.failed', { exit: num(x.exitStatus, 0) }),
        ],
      })),
    },
  });
  return blocks;
}

/** The engine's shares as summary rows (XLSX/CSV summary): engine and counters, reads, writes and all I/O. */
export function engineSummaryRows(a: AnalysisReport, devices: string): SummaryRow[] {
  const c = a.cacheEngine.comparison;
  if (c === null) return [];
  const out: SummaryRow[] = [];
  for (const k of KINDS) {
    const s = c.shares[k];
    out.push({ id: `engineShare.${k}`, label: m('eng.fig.engineShare', { kind: msgv(`eng.kind.${k}`) }), unit: 'percent', path: `cacheEngine.comparison.shares.${k}.enginePercent`, before: null, after: null, value: s.enginePercent, low: null, high: null, devices: c.device });
    out.push({ id: `countersShare.${k}`, label: m('eng.fig.countersShare', { kind: msgv(`eng.kind.${k}`) }), unit: 'percent', path: `cacheEngine.comparison.shares.${k}.countersPercent`, before: null, after: null, value: s.countersPercent, low: null, high: null, devices });
  }
  return out;
}
