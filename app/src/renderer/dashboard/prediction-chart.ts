/**
 * The miss-ratio curves of the prediction (engine `prediction.fromTrace.policies`): one line per
 * replacement policy the probe simulated (LRU by stack distance, the others by simulation at the
 * same sizes), each in its palette colour and dash pattern (engine/src/report/colors.ts
 * `policyColor`, `policyDash`), the chosen size marked on every line, sizes on a log axis, wheel or
 * pinch zoom and drag to pan on the size axis (chartjs-plugin-zoom, as the timeline). The plotted
 * value is the miss ratio, 100 × (1 − the probe's read hit ratio). The marker starts at the chosen
 * size and follows the what-if slider (`mark`: engine `curveMarks`, each curve read at the size),
 * its legend, the summary and the figure's `data-mark-bytes` saying the size shown.
 */
import { curveMarks, missRatioCurve, type PredictionReport } from '@cacheproof/engine';
import { COLOR, miniatureMsg, policyColor, policyDash } from '@cacheproof/engine/report';
import { Chart, type Plugin, type TooltipItem } from 'chart.js';
import { firstLayoutPadding, legendWithMarkers } from '../charts.ts';
import { fmtCacheBytes } from '../../shared/i18n/numbers.ts';
import { prediction } from '../../shared/i18n/prediction.ts';
import { reportText } from '../../shared/i18n/report.ts';
import { predictUi, type PredictUiKey } from '../../shared/i18n/predict-ui.ts';
import { translate } from '../../shared/i18n/types.ts';
import { paletteColor } from '../../shared/palette.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtPercent } from '../format.ts';
import { figure, type ChartScheduler } from './frame.ts';
import { wrap, type Words } from './text.ts';
import { everyNth } from '@cacheproof/engine';

type Points = { x: number; y: number }[];

/** The x of every mark the drawn chart holds (its last dataset), for the reader of the DOM and the e2e check. */
const shownX = (c: Chart<'line', Points>): string => (c.data.datasets[c.data.datasets.length - 1]?.data ?? []).map((x) => String(x.x)).join(',');

/** The policy's name in the language (`LRU`, `S3-FIFO`). */
export function policyName(w: Words, policy: string): string {
  const key = `policy.${policy}` as PredictUiKey;
  return key in predictUi.en ? translate(predictUi, w.lang, key) : policy;
}

/** The figure, and `mark(bytes)`: moves the asked-size marker (and the words saying it) to `bytes`. */
export interface CurveFigure {
  node: HTMLElement;
  mark: (bytes: number) => void;
}

export function curveFigure(p: PredictionReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): CurveFigure {
  const t = (key: 'chart' | 'axis.size' | 'series.chosen' | 'series.shown' | 'summary' | 'summaryAt' | 'zoom.reset' | 'zoom.help', params?: Record<string, string>): string => translate(prediction, w.lang, key, params);
  const def = translate(predictUi, w.lang, 'chart.def');
  // sizes typed in a binary unit (the chosen cache, the curve's end at it) read in it: '1 GiB', not '1.07 GB'
  const size = (b: number): string => fmtCacheBytes(w.lang, b);
  const f = figure(TID.chartMrc, t('chart'), def, undefined, w);
  const lines = p.policies.map((c) => ({ policy: c.policy, points: missRatioCurve(c.curve).map((x) => ({ x: x.bytes, y: x.missPercent })) as Points }));
  const first = lines[0];
  const said = (l: (typeof lines)[number]): string => `${policyName(w, l.policy)} ${everyNth(l.points, 8, first?.points.length ?? 1).map((c) => `${size(c.x)} → ${fmtPercent(w.lang, c.y, 1)}`).join('; ')}`;
  const curves = t('summary', { points: lines.map(said).join(' · ') });
  let markBytes = p.cacheBytes;
  let marks: Points = [];
  const markLabel = (): string => `${t(markBytes === p.cacheBytes ? 'series.chosen' : 'series.shown')} (${size(markBytes)})`;
  /** The marks at `markBytes` from the engine, and the words saying them; the chart, once drawn, follows. */
  const setMarks = (): void => {
    const m = curveMarks(p, markBytes);
    marks = m.map((x) => ({ x: x.bytes, y: x.missPercent }));
    const said = m.map((x) => `${policyName(w, x.policy)} ${fmtPercent(w.lang, x.missPercent, 1)}`).join(', ');
    f.summary.textContent = m.length === 0 ? curves : `${curves} ${t('summaryAt', { size: size(markBytes), marks: said })}`;
    f.node.dataset['markBytes'] = String(markBytes);
  };
  setMarks();
  f.node.dataset['policies'] = lines.map((l) => l.policy).join(',');
  f.node.dataset['testid'] = `${TID.chartMrc}-figure`;
  let chart: Chart<'line', Points> | null = null;
  const reset = el('button', { type: 'button' }, t('zoom.reset'));
  reset.addEventListener('click', () => chart?.resetZoom('none'));
  f.tools.append(reset, el('span', { class: 'dash-help' }, t('zoom.help')));
  const markColor = paletteColor(COLOR.category2, palette);
  scheduler.add(f.canvas, (firstDraw) => {
    chart = drawCurves(f.canvas, firstDraw, { lines, marks, markLabel: markLabel(), markColor, w, palette, def });
    // the lines drawn (the chosen size's marks aside), for the reader of the DOM and the e2e check
    f.node.dataset['lines'] = String(chart.data.datasets.filter((d) => d.showLine !== false).length);
    f.node.dataset['markX'] = shownX(chart);
    return chart;
  });
  // the other policies' curves from a miniature of the trace: how, and their expected error (the report's words)
  // curves that lie on one another (the engine's test): said, since one line hides the others
  if (p.policiesCoincide) {
    f.node.append(el('p', { class: 'dash-note', role: 'note', 'data-testid': `${TID.chartMrc}-coincide` },
      translate(predictUi, w.lang, 'chart.coincide', { policies: lines.map((l) => policyName(w, l.policy)).join(', ') })));
  }
  const mini = miniatureMsg(p);
  if (mini !== null) f.node.append(el('p', { class: 'dash-note', 'data-testid': `${TID.chartMrc}-miniature` }, reportText(mini, w.lang)));
  const moveMark = (bytes: number): void => {
    markBytes = bytes;
    setMarks();
    const c = chart;
    const d = c?.data.datasets[c.data.datasets.length - 1];
    if (c === null || d === undefined) return;
    d.data = marks;
    d.label = markLabel();
    c.update('none');
    f.node.dataset['markX'] = shownX(c);
  };
  return { node: f.node, mark: moveMark };
}

/** The curves of every policy and the marks at the size shown, on a logarithmic size axis. */
function drawCurves(canvas: HTMLCanvasElement, firstDraw: Plugin, o: {
  lines: { policy: PredictionReport['policies'][number]['policy']; points: Points }[]; marks: Points; markLabel: string; markColor: string; w: Words; palette: readonly string[]; def: string;
}): Chart<'line', Points> {
  const { w } = o;
  const t = (key: 'axis.size'): string => translate(prediction, w.lang, key);
  const size = (b: number): string => fmtCacheBytes(w.lang, b);
return new Chart<'line', Points>(canvas, {
    type: 'line',
    data: {
      datasets: [
        ...o.lines.map((l) => {
          const color = paletteColor(policyColor(l.policy), o.palette);
          return { label: policyName(w, l.policy), data: l.points, borderColor: color, backgroundColor: color, borderDash: policyDash(l.policy), pointRadius: 2, tension: 0 };
        }),
        { label: o.markLabel, data: o.marks, borderColor: o.markColor, backgroundColor: o.markColor, pointRadius: 6, pointStyle: 'rectRot', showLine: false },
      ],
    },
    plugins: [firstDraw],
    options: {
      animation: false,
      maintainAspectRatio: false,
      // the plot area Chart.js settles on, from the first layout: a reset gives back the chart as first drawn
      layout: { padding: firstLayoutPadding([{ pointRadius: 2 }, { pointRadius: 6 }]) },
      parsing: false,
      scales: {
        x: { type: 'logarithmic', title: { display: true, text: t('axis.size') }, ticks: { callback: (v) => size(Number(v)) } },
        y: { min: 0, max: 100, title: { display: true, text: translate(predictUi, w.lang, 'chart.axisMiss') }, ticks: { callback: (v) => w.num(Number(v)) } },
      },
      plugins: {
        // the size's marks (the last dataset) show their diamond in the legend, the curves a line
        legend: legendWithMarkers(new Set([o.lines.length])),
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${size(item.parsed.x ?? 0)} → ${fmtPercent(w.lang, item.parsed.y ?? 0, 1)}`,
            footer: () => wrap(o.def),
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
}
