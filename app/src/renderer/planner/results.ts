/** The Planner's results: summary, comparison, charts, line items per configuration, drive life. */
import type { Chart } from 'chart.js';
import { savingsSensitivity, tcoComparisonTable, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import { configurationSentences, configWarningSentences, costPerSentence, driveLifeSentence, lineItemDetail, planner, planSummarySentences, sensitivitySentences, type PlannerKey } from '../../shared/i18n/planner.ts';
import { formatTcoNumber, tco, type TcoKey } from '../../shared/i18n/tco.ts';
import { TCO_COLUMN_KEYS, tcoCellText } from '../../shared/i18n/tco-table.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { verdictText } from '../../shared/i18n/verdict.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { costBars, cumulativeLines, spindleLines, spindleSeries, SPINDLE_FACTORS, tornadoBars, type ChartCtx } from './charts.ts';

/** Where the results' charts are kept once drawn, so that the screen destroys them when it redraws or is left. */
export type ChartSink = (chart: Chart) => void;

type PlannerWords = (key: PlannerKey, params?: Record<string, string | number>) => string;
type TcoWords = (key: TcoKey, params?: Record<string, string | number>) => string;

/** Results: summary, comparison, charts, line items per configuration, drive life. */
export function resultsView(ctx: ChartCtx, s: Scenario, r: PlanResult, keep: ChartSink): HTMLElement[] {
  const lang = ctx.lang;
  const p: PlannerWords = (key, params) => translate(planner, lang, key, params);
  const t: TcoWords = (key, params) => translate(tco, lang, key, params);
  const summary = planSummarySentences(r, s, lang).join(' ');
  // the bottom line first: the engine's verdict and the basis it was sized on (the sentence `cacheproof tco` and the report print)
  // then the comparison, and the scenario's summary under it (the table stays in the window beside the editor)
  return [
    el('h3', {}, p('sec.results')), el('p', { class: 'pl-verdict', 'data-testid': TID.plannerVerdict }, verdictText(r.verdict, lang)),
    comparisonView(r, lang, p, t),
    el('p', { class: 'pl-summary', 'data-testid': TID.plannerSummary }, summary),
    el('h3', {}, p('sec.charts')), chartsView(ctx, s, r, keep, p),
    el('h3', {}, p('sec.lines')), lineItemsView(s, r, lang, t),
    ...driveLifeView(r, lang, p),
  ];
}

/** The comparison table: the engine's model (tcoComparisonTable), the one `cacheproof tco` and the report draw. */
function comparisonView(r: PlanResult, lang: Lang, p: PlannerWords, t: TcoWords): HTMLElement {
  const table = tcoComparisonTable(r);
  const head = el('tr', {}, ...table.columns.map((c) => el('th', { scope: 'col' }, t(TCO_COLUMN_KEYS[c.id]))));
  const body = el('tbody', {});
  for (const row of table.rows) {
    body.append(el('tr', { 'data-config': row.configId }, ...row.cells.map((cell) => {
      const text = tcoCellText(cell, table.years, lang);
      if (cell.column === 'configuration') return el('th', { scope: 'row' }, text);
      if (cell.column === 'totalUsd') return el('td', { class: 'num', 'data-col': 'total' }, text);
      return el('td', cell.kind === 'number' ? { class: 'num' } : {}, text);
    })));
  }
  return el('div', { class: 'pl-table-wrap' },
    el('table', { class: 'pl-table', 'data-testid': TID.plannerComparison },
      el('caption', {}, p('cmpCaption', { label: table.referenceLabel })), el('thead', {}, head), body));
}

/** The charts: costs, cumulative costs, spindles and the savings sensitivity, each with its summary. */
function chartsView(ctx: ChartCtx, s: Scenario, r: PlanResult, keep: ChartSink, p: PlannerWords): HTMLElement {
  const lang = ctx.lang;
  const n = (x: number, digits = 0): string => formatTcoNumber(lang, x, digits);
  const grid = el('div', { class: 'pl-charts' });
  grid.append(
    chartBox(TID.plannerChartCosts, p('chart.costs', { years: r.years }), (canvas) => costBars(ctx, canvas, r),
      r.configurations.map((c) => p('sum.total', { label: c.label, total: n(c.totalUsd) })).join('; '), p, keep),
    chartBox(TID.plannerChartCumulative, p('chart.cumulative'), (canvas) => cumulativeLines(ctx, canvas, r),
      r.configurations.map((c) => p('sum.cumulative', { label: c.label, start: n(c.cumulativeUsd[0] ?? 0), end: n(c.cumulativeUsd[c.cumulativeUsd.length - 1] ?? 0), years: r.years })).join('; '), p, keep),
  );
  const spindles = spindleSeries(ctx, s, r);
  grid.append(
    chartBox(TID.plannerChartSpindles, p('chart.spindles'), (canvas) => spindleLines(ctx, canvas, spindles),
      spindles.map((sp) => p('sum.spindles', {
        label: sp.label,
        points: [sp.points[0], sp.points[SPINDLE_FACTORS.indexOf(1)], sp.points[sp.points.length - 1]].filter((pt) => pt !== undefined).map((pt) => (pt.y === null ? p('sum.noFit', { iops: n(pt.x) }) : p('sum.spindlesPoint', { drives: n(pt.y), iops: n(pt.x) }))).join(', '),
      })).join('; '), p, keep),
  );
  // Savings sensitivity (the same engine function `tco --json` prints as `sensitivity`).
  const sens = savingsSensitivity(s);
  if (sens.ok) {
    const sentences = sensitivitySentences(sens.value, r, lang);
    grid.append(chartBox(TID.plannerChartTornado, sentences[0] ?? '', (canvas) => tornadoBars(ctx, canvas, sens.value, r), sentences.slice(1).join(' '), p, keep));
    const box = grid.lastElementChild?.querySelector(`[data-testid="${TID.plannerChartTornado}"]`);
    box?.setAttribute('data-largest', sens.value.bars[0]?.input ?? '');
  } else grid.append(el('p', { class: 'pl-help' }, p('tornado.none')));
  return grid;
}

/** Line items per configuration, with the upfront and total rows, cost per IOPS and warnings. */
function lineItemsView(s: Scenario, r: PlanResult, lang: Lang, t: TcoWords): HTMLElement {
  const n = (x: number, digits = 0): string => formatTcoNumber(lang, x, digits);
  const lines = el('div', { class: 'pl-lines' });
  for (const [i, c] of r.configurations.entries()) {
    const conf = s.configurations[i];
    if (conf === undefined) continue;
    const sentences = configurationSentences(r, s, i, lang);
    const body = el('tbody', {});
    for (const line of c.lines) body.append(el('tr', { 'data-line': line.id }, el('th', { scope: 'row' }, t(`line.${line.id}`)), el('td', {}, lineItemDetail(line, lang)), el('td', { class: 'num' }, n(line.costUsd))));
    const foot = el('tfoot', {},
      el('tr', { 'data-line': 'upfront' }, el('th', { scope: 'row' }, t('upfront')), el('td', {}), el('td', { class: 'num' }, n(c.upfrontUsd))),
      el('tr', { 'data-line': 'total', class: 'pl-total' }, el('th', { scope: 'row' }, t('total', { years: r.years })), el('td', {}), el('td', { class: 'num' }, n(c.totalUsd))));
    const perIops = costPerSentence(c, lang);
    const warnings = configWarningSentences(c, lang).map((w) => el('p', { class: 'pl-warning' }, w));
    lines.append(
      el('section', { class: 'pl-config-result', 'aria-label': c.label },
        el('h4', {}, c.id === r.referenceId ? `${c.label} (${t('reference')})` : c.label),
        el('p', { class: 'pl-help' }, sentences.join(' ')),
        el('table', { class: 'pl-table', 'data-testid': `${TID.plannerLines}-${c.id}` },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('col.item')), el('th', { scope: 'col' }, t('col.detail')), el('th', { scope: 'col', class: 'num' }, t('col.amount')))),
          body, foot),
        el('p', { class: 'pl-help' }, perIops),
        ...warnings),
    );
  }
  return lines;
}

/** The drive-life table: per configuration, the backing drives' and the cache's life. */
function driveLifeView(r: PlanResult, lang: Lang, p: PlannerWords): HTMLElement[] {
  const lifeBody = el('tbody', {});
  for (const c of r.configurations) {
    const cache = driveLifeSentence(c, r.years, lang, true);
    lifeBody.append(el('tr', { 'data-config': c.id }, el('th', { scope: 'row' }, c.label), el('td', {}, driveLifeSentence(c, r.years, lang, false)), el('td', {}, cache === '' ? p('life.none') : cache)));
  }
  return [
    el('h3', {}, p('sec.life')),
    el('table', { class: 'pl-table', 'data-testid': TID.plannerLife },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, p('life.config')), el('th', { scope: 'col' }, p('life.backing')), el('th', { scope: 'col' }, p('life.cache')))),
      lifeBody),
  ];
}

function chartBox(testId: string, title: string, draw: (canvas: HTMLCanvasElement) => Chart, summaryText: string, p: PlannerWords, keep: ChartSink): HTMLElement {
  const canvas = el('canvas', { role: 'img', 'aria-label': title });
  const box = el('div', { class: 'chart-box pl-chart', 'data-testid': testId }, canvas);
  const summary = el('p', { class: 'sr-summary', 'data-testid': `${testId}-summary` }, p('summary', { text: summaryText }));
  const figure = el('figure', { class: 'pl-figure' }, box, summary);
  // Chart.js measures its parent: draw once the box is in the document.
  queueMicrotask(() => {
    if (canvas.isConnected) keep(draw(canvas));
  });
  return figure;
}
