/** The Planner's results: summary, comparison, charts, line items per configuration, drive life. */
import type { Chart } from 'chart.js';
import { savingsSensitivity, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import { configurationSentences, configWarningSentences, costPerSentence, driveLifeSentence, lineItemDetail, planner, planSummarySentences, sensitivitySentences, type PlannerKey } from '../../shared/i18n/planner.ts';
import { breakEvenText, formatTcoNumber, tco, type TcoKey } from '../../shared/i18n/tco.ts';
import { translate } from '../../shared/i18n/types.ts';
import { verdictText } from '../../shared/i18n/verdict.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { costBars, cumulativeLines, spindleLines, spindleSeries, SPINDLE_FACTORS, tornadoBars, type ChartCtx } from './charts.ts';

/** Where the results' charts are kept once drawn, so that the screen destroys them when it redraws or is left. */
export type ChartSink = (chart: Chart) => void;

/** Results: summary, comparison, charts, line items per configuration, drive life. */
// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function resultsView(ctx: ChartCtx, s: Scenario, r: PlanResult, keep: ChartSink): HTMLElement[] {
  const lang = ctx.lang;
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, lang, key, params);
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  const n = (x: number, digits = 0): string => formatTcoNumber(lang, x, digits);
  const out: HTMLElement[] = [];

  const summary = planSummarySentences(r, s, lang).join(' ');
  // the bottom line first: the engine's verdict and the basis it was sized on (the sentence `cacheproof tco` and the report print)
  // then the comparison, and the scenario's summary under it (the table stays in the window beside the editor)
  out.push(el('h3', {}, p('sec.results')), el('p', { class: 'pl-verdict', 'data-testid': TID.plannerVerdict }, verdictText(r.verdict, lang)));

  // Comparison.
  const ref = r.configurations.find((c) => c.id === r.referenceId);
  const cmpHead = el('tr', {}, ...(['cmp.config', 'cmp.drives', 'cmp.total', 'cmp.savings', 'cmp.savingsPct', 'cmp.perIops', 'cmp.perTb', 'cmp.breakEven'] as const).map((k) => el('th', { scope: 'col' }, t(k))));
  const cmpBody = el('tbody', {});
  for (const cmp of r.comparisons) {
    const c = r.configurations.find((x) => x.id === cmp.id);
    if (c === undefined) continue;
    const isRef = c.id === r.referenceId;
    const be = isRef ? t('reference') : breakEvenText(cmp, r.years, lang);
    cmpBody.append(
      el('tr', { 'data-config': c.id },
        el('th', { scope: 'row' }, c.label),
        el('td', { class: 'num' }, n(c.sizing.driveCount + c.cacheDriveCount)),
        el('td', { class: 'num', 'data-col': 'total' }, n(c.totalUsd)),
        el('td', { class: 'num' }, n(cmp.savingsUsd)),
        el('td', { class: 'num' }, n(cmp.savingsPct, 1)),
        el('td', { class: 'num' }, c.costPerDeliveredIopsUsd === null ? '—' : n(c.costPerDeliveredIopsUsd, 2)),
        el('td', { class: 'num' }, n(c.costPerUsableTbUsd, 2)),
        el('td', {}, be)),
    );
  }
  out.push(
    el('div', { class: 'pl-table-wrap' },
      el('table', { class: 'pl-table', 'data-testid': TID.plannerComparison },
        el('caption', {}, p('cmpCaption', { label: ref?.label ?? r.referenceId })), el('thead', {}, cmpHead), cmpBody)),
    el('p', { class: 'pl-summary', 'data-testid': TID.plannerSummary }, summary),
  );

  // Charts.
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
  out.push(el('h3', {}, p('sec.charts')), grid);

  // Line items per configuration.
  out.push(el('h3', {}, p('sec.lines')));
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
  out.push(lines);

  // Drive life.
  const lifeBody = el('tbody', {});
  for (const c of r.configurations) {
    const cache = driveLifeSentence(c, r.years, lang, true);
    lifeBody.append(el('tr', { 'data-config': c.id }, el('th', { scope: 'row' }, c.label), el('td', {}, driveLifeSentence(c, r.years, lang, false)), el('td', {}, cache === '' ? p('life.none') : cache)));
  }
  out.push(
    el('h3', {}, p('sec.life')),
    el('table', { class: 'pl-table', 'data-testid': TID.plannerLife },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, p('life.config')), el('th', { scope: 'col' }, p('life.backing')), el('th', { scope: 'col' }, p('life.cache')))),
      lifeBody),
  );
  return out;
}

function chartBox(testId: string, title: string, draw: (canvas: HTMLCanvasElement) => Chart, summaryText: string, p: (key: PlannerKey, params?: Record<string, string | number>) => string, keep: ChartSink): HTMLElement {
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
