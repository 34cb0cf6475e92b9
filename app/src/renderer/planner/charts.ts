/**
 * The Planner's charts (Chart.js): costs stacked by category, cumulative costs, backing drives
 * against the IOPS target, the savings tornado. Colours keep the palette's meanings (engine
 * report/colors.ts), as in the report's TCO charts: each cost item its colour of the cost ramp, each
 * configuration a colour of its own (by its place in the scenario; no two share one), the
 * tornado's sides the two category colours; every series is named in the legend. Each canvas carries its series and colours in `data-series` (tests compare them
 * with the report's).
 */
import { Chart, type ChartDataset } from 'chart.js';
import { firstLayoutPadding } from '../charts.ts';
import { COST_STACKS, scaledIopsTargets, sensitivity, stackCostUsd, tornadoChangePct, tornadoSide, type ConfigResult, type PlanResult, type SavingsSensitivity, type Scenario } from '@cacheproof/engine/plan';
import { COLOR, COST_COLOR, configColor, configDashed } from '@cacheproof/engine/report';
import { paletteColor } from '../../shared/palette.ts';
import { rt } from '../../shared/i18n/report.ts';
import { planner, type PlannerKey } from '../../shared/i18n/planner.ts';
import { formatTcoNumber, tco, type TcoKey } from '../../shared/i18n/tco.ts';
import { fmtDecimal } from '../../shared/i18n/numbers.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';

/** What a chart is drawn with: the language and the colour-blind-safe palette (Okabe–Ito) shared with the dashboard. */
export interface ChartCtx {
  lang: Lang;
  palette: readonly string[];
}

/** IOPS targets of the spindle chart, as multiples of today's target. */
export const SPINDLE_FACTORS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3];
/** Each configuration's colour (its own, by its place in the scenario: engine `configColor`) and dash (only when a seventh repeats a colour). */
export function configStyles(ctx: ChartCtx, configs: readonly ConfigResult[]): { color: string; dash: number[] }[] {
  return configs.map((_, i) => ({ color: paletteColor(configColor(i), ctx.palette), dash: configDashed(i) ? [8, 4] : [] }));
}

/** What a chart draws, beside its canvas (label and colour of each series). */
function expose(canvas: HTMLCanvasElement, datasets: readonly { label?: string | undefined; backgroundColor?: unknown; borderColor?: unknown }[]): void {
  canvas.dataset['series'] = JSON.stringify(datasets.map((d) => ({ label: d.label ?? '', color: typeof d.borderColor === 'string' ? d.borderColor : d.backgroundColor })));
}

/** Titles of a chart and its USD formatter. */
function baseOptions(ctx: ChartCtx, title: string, xTitle: string, yTitle: string): { usd: (v: string | number) => string; title: string; xTitle: string; yTitle: string } {
  const usd = (v: string | number): string => formatTcoNumber(ctx.lang, Number(v));
  return { usd, title, xTitle, yTitle };
}

export function costBars(ctx: ChartCtx, canvas: HTMLCanvasElement, r: PlanResult): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const o = baseOptions(ctx, p('chart.costs', { years: r.years }), p('axis.config'), p('axis.usd'));
  // the report's stacks and their names (engine COST_STACKS, the report catalog's `stack.*`), each in its cost colour
  const datasets: ChartDataset<'bar', number[]>[] = COST_STACKS.map((st) => ({
    label: rt(`stack.${st.id}`, ctx.lang),
    data: r.configurations.map((c) => stackCostUsd(c, st.id)),
    backgroundColor: paletteColor(COST_COLOR[st.id], ctx.palette),
    stack: 'cost',
  }));
  expose(canvas, datasets);
  return new Chart(canvas, {
    type: 'bar',
    data: { labels: r.configurations.map((c) => c.label), datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { stacked: true, title: { display: true, text: o.xTitle } },
        y: { stacked: true, beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (v) => o.usd(v) } },
      },
      plugins: {
        title: { display: true, text: o.title },
        tooltip: { callbacks: { label: (item) => p('sum.total', { label: item.dataset.label ?? '', total: o.usd(Number(item.parsed.y)) }) } },
      },
    },
  });
}

export function cumulativeLines(ctx: ChartCtx, canvas: HTMLCanvasElement, r: PlanResult): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const o = baseOptions(ctx, p('chart.cumulative'), p('axis.year'), p('axis.usd'));
  const styles = configStyles(ctx, r.configurations);
  const datasets = r.configurations.map((c, i) => ({
    label: c.label,
    data: c.cumulativeUsd,
    borderColor: styles[i]?.color ?? '#000',
    backgroundColor: styles[i]?.color ?? '#000',
    borderDash: styles[i]?.dash ?? [],
    borderWidth: 2,
    pointRadius: 3,
  }));
  expose(canvas, datasets);
  return new Chart(canvas, {
    type: 'line',
    data: {
      labels: Array.from({ length: r.years + 1 }, (_, k) => String(k)),
      datasets,
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      // the plot area Chart.js settles on, from the first layout (charts.ts)
      layout: { padding: firstLayoutPadding(datasets) },
      scales: {
        x: { type: 'category', title: { display: true, text: o.xTitle } },
        y: { beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (v) => o.usd(v) } },
      },
      plugins: {
        title: { display: true, text: o.title },
        tooltip: { callbacks: { label: (item) => p('sum.total', { label: item.dataset.label ?? '', total: o.usd(Number(item.parsed.y)) }) } },
      },
    },
  });
}

export interface SpindleSeries {
  label: string;
  /** The configuration's colour and dash (its kind, {@link configStyles}). */
  color: string;
  dash: number[];
  points: { x: number; y: number | null }[];
}

/** Backing drives of each configuration as today's IOPS target varies (engine `sensitivity`, axis `iopsTarget`). */
export function spindleSeries(ctx: ChartCtx, s: Scenario, r: PlanResult): SpindleSeries[] {
  const today = r.frontEndIopsToday;
  const values = scaledIopsTargets(today, SPINDLE_FACTORS);
  const styles = configStyles(ctx, r.configurations);
  return r.configurations.map((c: ConfigResult, i) => ({
    label: c.label,
    color: styles[i]?.color ?? '#000',
    dash: styles[i]?.dash ?? [],
    points: sensitivity(s, i, 'iopsTarget', values).map((pt) => ({ x: pt.value, y: pt.driveCount })),
  }));
}

export function spindleLines(ctx: ChartCtx, canvas: HTMLCanvasElement, series: SpindleSeries[]): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const num = (v: string | number): string => formatTcoNumber(ctx.lang, Number(v));
  const datasets = series.map((sp) => ({
    label: sp.label,
    data: sp.points,
    borderColor: sp.color,
    backgroundColor: sp.color,
    borderDash: sp.dash,
    borderWidth: 2,
    pointRadius: 3,
    spanGaps: false,
  }));
  expose(canvas, datasets);
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      layout: { padding: firstLayoutPadding(datasets) },
      scales: {
        x: { type: 'linear', beginAtZero: true, title: { display: true, text: p('axis.iopsTarget') }, ticks: { callback: (v) => num(v) } },
        y: { type: 'linear', beginAtZero: true, title: { display: true, text: p('axis.drives') }, ticks: { precision: 0 } },
      },
      plugins: {
        title: { display: true, text: p('chart.spindles') },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${p('sum.spindlesPoint', { drives: num(Number(item.parsed.y)), iops: num(Number(item.parsed.x)) })}` } },
      },
    },
  });
}

/**
 * The tornado (engine savingsSensitivity): one horizontal bar per input from its savings at −20 %
 * to its savings at +20 %, largest swing on top, against a line at the savings as entered. Two
 * datasets (−20 % and +20 % ends) so the direction is in the legend, not only in the colour.
 */
export function tornadoBars(ctx: ChartCtx, canvas: HTMLCanvasElement, sens: SavingsSensitivity, r: PlanResult): Chart {
  const p = (key: PlannerKey, params?: Record<string, string | number>): string => translate(planner, ctx.lang, key, params);
  const t = (key: TcoKey): string => translate(tco, ctx.lang, key);
  const usd = (v: string | number): string => formatTcoNumber(ctx.lang, Number(v));
  const pct = fmtDecimal(ctx.lang, tornadoChangePct(sens), 1);
  const label = (id: string): string => r.configurations.find((c) => c.id === id)?.label ?? id;
  const bars = sens.bars;
  // the two sides in the category colours, as the report's sensitivity chart draws them
  const datasets = [
    { label: p('tornado.low', { pct }), data: tornadoSide(sens, 'low'), backgroundColor: paletteColor(COLOR.category1, ctx.palette), grouped: false },
    { label: p('tornado.high', { pct }), data: tornadoSide(sens, 'high'), backgroundColor: paletteColor(COLOR.category2, ctx.palette), grouped: false },
  ];
  expose(canvas, datasets);
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: bars.map((b) => t(`in.${b.input}`)),
      datasets,
    },
    options: {
      indexAxis: 'y',
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: { display: true, text: p('axis.savings', { years: sens.years }) }, ticks: { callback: (v) => usd(v) } },
        y: { title: { display: false } },
      },
      plugins: {
        title: { display: true, text: p('chart.tornado', { label: label(sens.configId), ref: label(sens.referenceId), pct }) },
        tooltip: {
          callbacks: {
            label: (item) => {
              const b = bars[item.dataIndex];
              const v = b === undefined ? null : item.datasetIndex === 0 ? b.savingsLowUsd : b.savingsHighUsd;
              return `${item.dataset.label ?? ''}: ${v === null ? '—' : `${usd(v)} USD`}`;
            },
          },
        },
      },
    },
  });
}
