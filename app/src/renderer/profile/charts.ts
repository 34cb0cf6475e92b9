/**
 * The workload profile's time charts — IOPS, MB/s, average response time and, when the series
 * carries it, average queue size — over the capture on one UTC time axis, the profiled window
 * shaded, drawn as the dashboard draws its own: the host's group lines (`ProfileView.groupSeries`,
 * host/series.ts), the dashboard's figure frame with its PNG/SVG/CSV export (dashboard/frame.ts),
 * LTTB decimation, wheel/drag zoom and pan kept in step across the charts, zoom buttons and the
 * visible range in words. The summaries quote the engine's window means (`profile.appFacing`,
 * `profile.backing`); nothing is computed here but the highest drawn point.
 */
import type { WindowMeans, WindowSummary } from '@cacheproof/engine';
import { Chart, type ChartDataset, type Plugin } from 'chart.js';
import { COLOR } from '@cacheproof/engine/report';
import type { ProfileView } from '../../shared/contract.ts';
import { profileCharts, type ProfileChartsKey } from '../../shared/i18n/profile-charts.ts';
import { translate } from '../../shared/i18n/types.ts';
import { dashboardShape } from '../../shared/i18n/dashboard-shape.ts';
import { PHASE_TINT, paletteColor } from '../../shared/palette.ts';
import { TID } from '../../shared/testids.ts';
import { cssVar, firstLayoutPadding } from '../charts.ts';
import { el } from '../dom.ts';
import { timePlugins, utcTicks, zoomControls } from '../time-charts.ts';
import { figure, type ChartScheduler } from '../dashboard/frame.ts';
import type { Words } from '../dashboard/text.ts';
import { gapSpanMs } from '../draw/time-geometry.ts';
import { seriesMax, seriesStepMs, spanWith, windowValues } from '@cacheproof/engine';

type Point = { x: number; y: number };
type Metric = 'iops' | 'mbps' | 'latencyMs' | 'aquSz';
type Group = NonNullable<ProfileView['groupSeries']>[number];

/** The engine's window mean each chart's summary quotes. */
const MEAN: Record<Metric, (m: WindowMeans) => number | null> = {
  iops: (m) => m.iops, mbps: (m) => m.mbps, latencyMs: (m) => m.awaitMs, aquSz: (m) => m.aquSz,
};

interface Line { label: string; group: Group['group']; color: string; width: number; dash: number[]; points: Point[]; summary: WindowSummary | null }

function points(t: readonly number[], y: readonly (number | null)[] | undefined): Point[] {
  const out: Point[] = [];
  if (y === undefined) return out;
  for (let i = 0; i < t.length; i++) {
    const v = y[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) out.push({ x: t[i] as number, y: v });
  }
  return out;
}

/** The group lines of one metric: front narrow and solid on top, backing wide and dashed beneath (as on the dashboard). */
function lines(v: ProfileView, metric: Metric, w: Words, palette: readonly string[], label?: (name: string) => string): Line[] {
  const p = v.profile;
  // one group alone (a profile's usual case) is drawn narrow and solid: nothing lies beneath it
  const alone = (v.groupSeries ?? []).length === 1;
  return (v.groupSeries ?? []).flatMap((g): Line[] => {
    const pts = points(g.t, g[metric]);
    if (pts.length === 0) return [];
    const devices = g.devices.length > 3 ? `${g.devices.slice(0, 3).join(', ')}… (${g.devices.length})` : g.devices.join(', ');
    const name = w.d(g.group === 'front' ? 'series.front' : 'series.backing', { devices });
    const summary = g.group === p.devices.appFacing ? p.appFacing : g.group === 'backing' ? p.backing : null;
    return [{
      label: label === undefined ? name : label(name), group: g.group, points: pts, summary,
      color: paletteColor(g.group === 'front' ? COLOR.front : COLOR.backing, palette),
      width: g.group === 'front' || alone ? 2 : 5, dash: g.group === 'front' || alone ? [] : [6, 3],
    }];
  });
}

function stepOf(v: ProfileView): number {
  const t = v.groupSeries?.[0]?.t ?? [];
  return seriesStepMs(t);
}

/** The profile's time charts with their shared zoom controls. */
export function profileTimeline(v: ProfileView, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const c = (key: ProfileChartsKey, params?: Record<string, string>): string => translate(profileCharts, w.lang, key, params);
  const win = v.profile.window;
  const charts: Chart[] = [];
  const { controls, sync, showRange } = zoomControls(charts, w);

  const stepMs = stepOf(v);
  const requests = (x: number | null): string => (x === null ? w.na : w.fixed(x, 2));
  const specs: { testId: string; title: string; yTitle: string; definition: string; metric: Metric; fmt: (x: number | null) => string; label?: (n: string) => string }[] = [
    { testId: TID.profileChartIops, title: c('chart.iops'), yTitle: w.d('axis.iops'), definition: c('def.chart.iops'), metric: 'iops', fmt: w.iops },
    { testId: TID.profileChartMbps, title: c('chart.mbps'), yTitle: c('axis.mbps'), definition: c('def.chart.mbps'), metric: 'mbps', fmt: w.mbps },
    { testId: TID.profileChartLatency, title: c('chart.latency'), yTitle: w.d('axis.latency'), definition: c('def.chart.latency'), metric: 'latencyMs', fmt: w.ms },
    { testId: TID.profileChartQueue, title: c('chart.queue'), yTitle: translate(dashboardShape, w.lang, 'axis.queue'), definition: c('def.chart.queue'), metric: 'aquSz', fmt: requests, label: (n) => c('series.queue', { group: n }) },
  ];
  const nodes: HTMLElement[] = [];
  const windowName = w.d('phase.baseline');
  for (const sp of specs) {
    const ls = lines(v, sp.metric, w, palette, sp.label);
    if (ls.length === 0) continue;
    const f = figure(sp.testId, sp.title, sp.definition, `${sp.testId}-summary`, w);
    f.summary.textContent = w.d('summary', { text: ls.map((l) => {
      const inWin = windowValues(l.points, win.startMs, win.endMs);
      const mean = l.summary === null ? null : MEAN[sp.metric](l.summary.means);
      return inWin.length === 0 || mean === null ? w.d('sum.noData', { label: l.label })
        : w.d('sum.series', { label: l.label, window: windowName, mean: sp.fmt(mean), max: sp.fmt(seriesMax(inWin)) });
    }).join('; ') });
    scheduler.add(f.canvas, (firstDraw) => {
      const ch = timeChart(f.canvas, firstDraw, { ...sp, lines: ls, stepMs, w, win, windowName, onRange: sync });
      charts.push(ch);
      const first = charts[0];
      const x = first?.scales['x'];
      if (first === ch) showRange(ch);
      else if (first !== undefined && x !== undefined && first.isZoomedOrPanned()) ch.zoomScale('x', { min: x.min, max: x.max }, 'none');
      return ch;
    });
    nodes.push(f.node);
  }
  return el('div', { class: 'dash-timeline' }, el('h3', { class: 'dash-section' }, c('sec.charts')), controls, ...nodes);
}

function timeChart(canvas: HTMLCanvasElement, firstDraw: Plugin, o: {
  yTitle: string; definition: string; lines: Line[]; stepMs: number; w: Words; win: ProfileView['profile']['window']; windowName: string;
  fmt: (v: number | null) => string; onRange: (chart: Chart) => void;
}): Chart<'line', Point[]> {
  const { w } = o;
  const datasets: ChartDataset<'line', Point[]>[] = o.lines.map((l) => ({
    label: l.label, data: l.points, borderColor: l.color, backgroundColor: l.color, borderWidth: l.width, borderDash: l.dash,
    pointRadius: 0, pointHitRadius: 4, order: l.group === 'front' ? 0 : 1, spanGaps: gapSpanMs(o.stepMs),
  }));
  const xs = o.lines.flatMap((l) => [(l.points[0] as Point).x, (l.points[l.points.length - 1] as Point).x]);
  canvas.dataset['series'] = JSON.stringify(o.lines.map((l) => ({ label: l.label, role: l.group, color: l.color, points: l.points.length })));
  return new Chart<'line', Point[]>(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [firstDraw],
    options: {
      animation: false, parsing: false, normalized: true, maintainAspectRatio: false,
      layout: { padding: firstLayoutPadding(o.lines.map((l) => ({ borderWidth: l.width, pointRadius: 0 }))) },
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'time', ...spanWith(xs, o.win.startMs, o.win.endMs),
          title: { display: true, text: w.d('axis.timeUtc') },
          ticks: utcTicks(w),
        },
        y: { type: 'linear', beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (value) => w.num(Number(value)) } },
      },
      plugins: {
        ...timePlugins({ w, fmt: o.fmt, definition: o.definition, stepMs: o.stepMs, onRange: o.onRange }),
        phaseShading: {
          bands: [{ startMs: o.win.startMs, endMs: o.win.endMs, color: cssVar('--phase-baseline', PHASE_TINT.baseline.light), label: o.windowName, tone: 'baseline' }], markers: [],
          textColor: cssVar('--muted', '#57606a'), labelBackground: cssVar('--label-bg', 'rgba(255,255,255,0.85)'),
          font: `12px ${getComputedStyle(document.documentElement).fontFamily || 'system-ui'}`, maxRows: 3,
        },
      },
    },
  });
}
