/**
 * The prediction from the block trace (engine `prediction.fromTrace`, docs/analyze-json.md): the
 * predicted I/Os saved beside the measured figure, the size answer ("a cache of X holds Y% of
 * reads") and the miss-ratio curve with the chosen size marked, zoomable on the size axis. Every
 * number is the probe's, carried by the engine; nothing is computed here but the miss ratio
 * (1 − the engine's hit ratio) the curve plots.
 */
import type { AnalysisReport, PredictionReport } from '@cacheproof/engine';
import { Chart, type TooltipItem } from 'chart.js';
import { fmtBytes } from '../../shared/i18n/numbers.ts';
import { prediction, type PredictionKey } from '../../shared/i18n/prediction.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtPercent } from '../format.ts';
import { figure, type ChartScheduler } from './frame.ts';
import { wrap, type Params, type Words } from './text.ts';
import { COLOR } from '@cacheproof/engine/report';
import { paletteColor } from '../../shared/palette.ts';

/** The section, or null when the analysis holds no prediction. */
export function predictionSection(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement | null {
  const p = r.prediction.fromTrace;
  if (p === null) return null;
  const t = (key: PredictionKey, params?: Params): string => translate(prediction, w.lang, key, params);
  const size = (b: number): string => fmtBytes(w.lang, b);
  const pct = (v: number): string => fmtPercent(w.lang, v, 1);
  const node = el('section', { class: 'dash-prediction', 'data-testid': TID.dashPrediction, 'aria-labelledby': 'dash-prediction-title' },
    el('h3', { class: 'dash-section', id: 'dash-prediction-title' }, t('title')),
    el('p', { class: 'dash-def' }, t('def')));

  // predicted beside measured
  const cell = (label: string, value: number | null, text: string, kind: string): HTMLElement =>
    el('div', { class: 'card', 'data-kind': kind, 'data-value': value === null ? '' : String(value) },
      el('h4', {}, label), el('div', { class: 'value' }, text));
  const diff = p.differencePp === null ? w.na : t('unit.pp', { value: `${p.differencePp >= 0 ? '+' : '−'}${fmtNumber(w.lang, Math.abs(p.differencePp), 1)}` });
  node.append(
    el('div', { class: 'cards prediction-compare', 'data-testid': TID.dashPredictionCompare },
      cell(t('predicted'), p.iosSavedPercent, pct(p.iosSavedPercent), 'predicted'),
      cell(t('measured'), p.measuredIosSavedPercent, p.measuredIosSavedPercent === null ? `${w.na} (${w.reason(p.reasons['measuredIosSavedPercent'])})` : pct(p.measuredIosSavedPercent), 'measured'),
      cell(t('difference'), p.differencePp, diff, 'difference')),
    el('p', { class: 'dash-note' }, t('compareLine', {
      size: size(p.cacheBytes), devices: p.devices.join(', '), reads: fmtNumber(w.lang, p.reads, 0), writes: fmtNumber(w.lang, p.writesCount, 0), warmup: w.duration(p.warmupS),
    })),
    el('p', { class: 'dash-note' }, t('method', {
      policy: p.policy.toUpperCase(), block: size(p.blockBytes), writesPolicy: p.writes, start: w.utc(Date.parse(p.windowStart)), end: w.utc(Date.parse(p.windowEnd)),
    })));
  if (p.sampleRate < 1) node.append(el('p', { class: 'dash-note' }, t('sampled', { rate: pct(p.sampleRate * 100), pp: fmtNumber(w.lang, p.iosSavedUncertaintyPp, 1) })));
  if (p.cacheBytes > p.footprintBytes) node.append(el('p', { class: 'dash-note', role: 'note' }, t('note', { text: t('larger', { size: size(p.cacheBytes), footprint: size(p.footprintBytes) }) })));

  node.append(sizeAnswer(p, w, t, size, pct));
  node.append(curveFigure(p, w, t, size, palette, scheduler));
  return node;
}

/** "A cache of X holds Y% of reads", for a share the person picks. */
function sizeAnswer(p: PredictionReport, w: Words, t: (k: PredictionKey, x?: Params) => string, size: (b: number) => string, pct: (v: number) => string): HTMLElement {
  const targets = [50, 80, 90, 95, 99];
  const id = `${TID.dashSizeAnswer}-target`;
  const select = el('select', { id, 'data-testid': id });
  for (const v of targets) select.append(el('option', { value: String(v) }, t('answer.option', { percent: pct(v) })));
  select.value = '90';
  const line = el('p', { class: 'size-answer', 'aria-live': 'polite' });
  const show = (): void => {
    const target = Number(select.value);
    const a = p.sizeAnswers.find((x) => x.readHitPercent === target);
    line.textContent = a === undefined
      ? t('answer.none', { percent: pct(target), max: pct(p.maxReadHitPercent) })
      : t('answer.line', { size: size(a.bytes), percent: pct(target) });
    line.dataset['bytes'] = a === undefined ? '' : String(a.bytes);
  };
  select.addEventListener('change', show);
  show();
  return el('div', { class: 'dash-size-answer', 'data-testid': TID.dashSizeAnswer }, el('label', { for: id }, t('answer.label')), ' ', select, line);
}

/** The miss-ratio curve (LRU), sizes on a log axis, the chosen size marked; wheel/pinch zoom and pan on the size axis. */
function curveFigure(p: PredictionReport, w: Words, t: (k: PredictionKey, x?: Params) => string, size: (b: number) => string, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const f = figure(TID.chartMrc, t('chart'), t('def.chart'), undefined, w);
  const points = p.curve.map((c) => ({ x: c.bytes, y: 100 * (1 - c.readHitRatio) }));
  const chosen = points.filter((c) => c.x === p.cacheBytes);
  const every = Math.max(1, Math.ceil(points.length / 8));
  f.summary.textContent = t('summary', { points: points.filter((_, i) => i % every === 0 || i === points.length - 1).map((c) => `${size(c.x)} → ${fmtPercent(w.lang, c.y, 1)}`).join('; ') });
  let chart: Chart<'line', { x: number; y: number }[]> | null = null;
  const reset = el('button', { type: 'button' }, t('zoom.reset'));
  reset.addEventListener('click', () => chart?.resetZoom('none'));
  f.tools.append(reset, el('span', { class: 'dash-help' }, t('zoom.help')));
  // the curve is the front devices' reads (their colour); the chosen size a category colour (shared/palette.ts)
  const color = paletteColor(COLOR.front, palette);
  const mark = paletteColor(COLOR.category2, palette);
  scheduler.add(f.canvas, (firstDraw) => {
    chart = new Chart<'line', { x: number; y: number }[]>(f.canvas, {
      type: 'line',
      data: {
        datasets: [
          { label: t('series.lru'), data: points, borderColor: color, backgroundColor: color, pointRadius: 2, tension: 0 },
          { label: `${t('series.chosen')} (${size(p.cacheBytes)})`, data: chosen, borderColor: mark, backgroundColor: mark, pointRadius: 6, pointStyle: 'rectRot', showLine: false },
        ],
      },
      plugins: [firstDraw],
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: t('axis.size') }, ticks: { callback: (v) => size(Number(v)) } },
          y: { min: 0, max: 100, title: { display: true, text: t('axis.hit') }, ticks: { callback: (v) => w.num(Number(v)) } },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${size(item.parsed.x ?? 0)} → ${fmtPercent(w.lang, item.parsed.y ?? 0, 1)}`,
              footer: () => wrap(t('def.chart')),
            },
          },
          zoom: {
            limits: { x: { min: 'original', max: 'original' } },
            pan: { enabled: true, mode: 'x' },
            zoom: { wheel: { enabled: true }, pinch: { enabled: true }, mode: 'x' },
          },
        },
      },
    });
    return chart;
  });
  return f.node;
}
