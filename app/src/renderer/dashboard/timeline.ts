/**
 * The time charts over both windows on one UTC time axis — IOPS, average response time, reads
 * and writes per second, average queue size; front and backing — with the phases shaded
 * (baseline, excluded warm-up, measure) and the switch marked; LTTB decimation; wheel/drag zoom
 * and pan kept in step across every chart, with keyboard-reachable zoom in / out / reset buttons
 * and the visible range in words.
 */
import type { AnalysisReport, WindowMeans, WindowSummary } from '@cacheproof/engine';
import { Chart, type ChartDataset, type Plugin } from 'chart.js';
import type { AnalysisView } from '../../shared/contract.ts';
import { TID } from '../../shared/testids.ts';
import { COLOR, SCREEN_LINE_WIDTH, SCREEN_UNDER_WIDTH, roleColor } from '@cacheproof/engine/report';
import { PHASE_TINT, paletteColor } from '../../shared/palette.ts';
import { cssVar, firstLayoutPadding } from '../charts.ts';
import { el } from '../dom.ts';
import { timePlugins, utcTicks, zoomControls } from '../time-charts.ts';
import type { PhaseBand, PhaseMarker } from '../draw/phase-shading.ts';
import { engineMarkers, switchMarkerLabel } from './engine-words.ts';
import { figure, type ChartScheduler, type Figure } from './frame.ts';
import type { Words } from './text.ts';
import { dashboardShape, type DashboardShapeKey } from '../../shared/i18n/dashboard-shape.ts';
import { translate } from '../../shared/i18n/types.ts';
import { readWriteQueueTable } from './shape.ts';
import { deviceLinesShown } from '../../shared/chart-lines.ts';
import { gapSpanMs } from '../draw/time-geometry.ts';
import { seriesMax, spanWith, widestStepMs, windowValues } from '@cacheproof/engine';

type Point = { x: number; y: number };

interface Line {
  label: string;
  /** The role the line's colour says (shared/palette.ts): front, backing, cache or other. */
  role: string;
  /** Its y scale: the application-facing latency in one panel, the backing drives' in a panel of its own below (so a backing spike does not flatten the front line, and lines on different scales never share a plot). */
  axis: 'y' | 'y1';
  color: string;
  width: number;
  dash: number[];
  hidden: boolean;
  /** Chart.js drawing order: lower is drawn on top. */
  order: number;
  points: Point[];
  /** The engine's summaries of what this line draws, per window (its averages are the cards'). */
  windows: { baseline: WindowSummary; measure: WindowSummary } | null;
  /** The window figure this line's summary quotes from {@link windows}. */
  mean: (m: WindowMeans) => number | null;
}

/** What a time chart draws: the group lines' (and, for IOPS and response time, the devices') field. */
type Metric = 'iops' | 'latencyMs' | 'readIops' | 'writeIops' | 'aquSz';

/** The backing group's line width, px: wider than the front's, drawn beneath it (colors.ts: the report draws them alike). */
export const BACKING_WIDTH = SCREEN_UNDER_WIDTH;

/** The window mean each metric's summary quotes (the engine's `means`, the cards' and the report's figure). */
const MEAN: Record<Metric, (m: WindowMeans) => number | null> = {
  iops: (m) => m.iops, latencyMs: (m) => m.awaitMs, readIops: (m) => m.readsPerSec, writeIops: (m) => m.writesPerSec, aquSz: (m) => m.aquSz,
};


function points(t: readonly number[], y: readonly (number | null)[]): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < t.length; i++) {
    const v = y[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) out.push({ x: t[i] as number, y: v });
  }
  return out;
}


/**
 * The lines of a time chart: one per group (front, backing) and, for IOPS and response time,
 * the devices not alone in a group (hidden, in the legend). `label` names a group line when the
 * chart draws more than one line per group (reads and writes).
 */
function lines(v: AnalysisView, r: AnalysisReport, metric: Metric, w: Words, palette: readonly string[], label?: (group: string) => string, dash?: (group: 'front' | 'backing') => number[]): { lines: Line[]; stepMs: number } {
  const out: Line[] = [];
  let stepMs = 1000;
  const groups = v.groupSeries ?? [];
  for (const g of groups) {
    const ys = g[metric];
    if (ys === undefined) continue;
    stepMs = widestStepMs([g.t], stepMs);
    const name = w.d(g.group === 'front' ? 'series.front' : 'series.backing', { devices: g.devices.length > 3 ? `${g.devices.slice(0, 3).join(', ')}… (${g.devices.length})` : g.devices.join(', ') });
    out.push({
      label: label === undefined ? name : label(name),
      role: g.group,
      axis: metric === 'latencyMs' && g.group === 'backing' && groups.some((x) => x.group === 'front') ? 'y1' : 'y',
      color: paletteColor(g.group === 'front' ? COLOR.front : COLOR.backing, palette),
      // Before the switch the backing drives carry the front's I/O and the two lines coincide: the
      // backing line is drawn wide and dashed underneath, the front line narrow and solid on top,
      // so both stay visible where they lie on each other (the report draws them the same way).
      width: g.group === 'front' ? SCREEN_LINE_WIDTH : BACKING_WIDTH,
      dash: dash?.(g.group) ?? (g.group === 'front' ? [] : [6, 3]),
      hidden: false,
      order: g.group === 'front' ? 0 : 1,
      points: points(g.t, ys),
      windows: r.groups[g.group] ?? null,
      mean: MEAN[metric],
    });
  }
  if (metric !== 'iops' && metric !== 'latencyMs') return { lines: out, stepMs };
  const grouped = new Set(groups.filter((g) => g.devices.length === 1).flatMap((g) => g.devices));
  const deviceLines = v.series.filter((s) => !grouped.has(s.device));
  if (deviceLinesShown(v.series.length, groups.length)) {
    // a device's colour is its role's (the report's too); the group lines are solid, device lines dotted
    deviceLines.forEach((s) => {
      stepMs = widestStepMs([s.t], stepMs);
      const role = ['front', 'backing', 'cache', 'other'].includes(s.role) ? w.d(`role.${s.role as 'front'}`) : s.role;
      out.push({
        label: w.d('series.device', { device: s.device, role }),
        role: s.role,
        axis: metric === 'latencyMs' && s.role !== 'front' && groups.some((x) => x.group === 'front') ? 'y1' : 'y',
        color: paletteColor(roleColor(s.role), palette),
        width: 1,
        dash: [2, 2],
        hidden: groups.length > 0,
        order: 2,
        points: points(s.t, s[metric]),
        windows: r.perDevice.find((d) => d.device === s.device) ?? null,
        mean: MEAN[metric],
      });
    });
  }
  return { lines: out, stepMs };
}

/** Shaded phases from the windows the analysis actually compared. */
export function phases(r: AnalysisReport, w: Words): { bands: PhaseBand[]; markers: PhaseMarker[] } {
  const b0 = Date.parse(r.windows.baseline.start), b1 = Date.parse(r.windows.baseline.end);
  const m0 = Date.parse(r.windows.measure.start), m1 = Date.parse(r.windows.measure.end);
  const sw = r.windows.switchAt === null ? null : Date.parse(r.windows.switchAt);
  const bands: PhaseBand[] = [
    { startMs: b0, endMs: b1, color: cssVar('--phase-baseline', PHASE_TINT.baseline.light), label: w.d('phase.baseline'), tone: 'baseline' },
  ];
  const warm0 = sw ?? b1;
  if (m0 > warm0) bands.push({ startMs: warm0, endMs: m0, color: cssVar('--phase-warmup', PHASE_TINT.warmup.light), label: w.d('phase.warmup'), tone: 'warmup' });
  bands.push({ startMs: m0, endMs: m1, color: cssVar('--phase-measure', PHASE_TINT.measure.light), label: w.d('phase.measure'), tone: 'measure' });
  // the adapter's actions (the switch it made, the restore) marked at their moment, beside the switch
  const actions = engineMarkers(r, w).filter((m) => m.atMs >= b0 && m.atMs <= m1 + 60_000);
  return { bands, markers: [...(sw === null ? [] : [{ atMs: sw, label: switchMarkerLabel(r, w) }]), ...actions] };
}

/**
 * "label, window: average …, highest point …" for each line and window (hidden per-device lines
 * left out). The average is the engine's window figure (the cards' and the report's), never a
 * mean of the drawn points; the highest point is the drawn line's.
 */
function summaryText(ls: readonly Line[], r: AnalysisReport, w: Words, fmt: (v: number | null) => string): string {
  const wins: ['baseline' | 'measure', string, number, number][] = [
    ['baseline', w.d('phase.baseline'), Date.parse(r.windows.baseline.start), Date.parse(r.windows.baseline.end)],
    ['measure', w.d('phase.measure'), Date.parse(r.windows.measure.start), Date.parse(r.windows.measure.end)],
  ];
  const parts: string[] = [];
  for (const l of ls.filter((x) => !x.hidden)) {
    for (const [key, name, a, b] of wins) {
      const ys = windowValues(l.points, a, b);
      const means = l.windows?.[key].means;
      const avg = means === undefined ? null : l.mean(means);
      parts.push(ys.length === 0 || avg === null ? w.d('sum.noData', { label: `${l.label}, ${name}` })
        : w.d('sum.series', { label: l.label, window: name, mean: fmt(avg), max: fmt(seriesMax(ys)) }));
    }
  }
  return w.d('summary', { text: parts.join('; ') });
}

/**
 * What the chart drew, beside its canvas after each draw (`data-plot`): each scale's box, range and
 * title with its font, and the windows' times. Tests find each series' pixels per window and check
 * that no axis title is longer than its axis and that no two y scales share a plot.
 */
function exposePlot(r: AnalysisReport): Plugin<'line'> {
  return {
    id: 'exposePlot',
    afterDraw(chart) {
      const scales = Object.values(chart.scales).map((s) => {
        const title = (s.options as { title?: unknown }).title as { display?: boolean; text?: string | string[]; font?: { size?: number; family?: string } } | undefined;
        return { id: s.id, left: s.left, right: s.right, top: s.top, bottom: s.bottom, min: s.min, max: s.max, vertical: !s.isHorizontal(), title: title?.display === true ? String(title.text ?? '') : '' };
      });
      const font = Chart.defaults.font;
      chart.canvas.dataset['plot'] = JSON.stringify({
        area: chart.chartArea, scales, titleFont: `${font.size ?? 12}px ${font.family ?? 'sans-serif'}`,
        windows: { baseline: [Date.parse(r.windows.baseline.start), Date.parse(r.windows.baseline.end)], measure: [Date.parse(r.windows.measure.start), Date.parse(r.windows.measure.end)] },
      });
    },
  };
}

function timeChart(canvas: HTMLCanvasElement, firstDraw: Plugin, o: {
  title: string; yTitle: string; definition: string; lines: Line[]; stepMs: number; r: AnalysisReport; w: Words;
  fmt: (v: number | null) => string; onRange: (chart: Chart) => void;
}): Chart<'line', Point[]> {
  const { w } = o;
  const datasets: ChartDataset<'line', Point[]>[] = o.lines.map((l) => ({
    label: l.label, data: l.points, borderColor: l.color, backgroundColor: l.color, borderWidth: l.width, borderDash: l.dash,
    pointRadius: 0, pointHitRadius: 4, hidden: l.hidden, order: l.order, spanGaps: gapSpanMs(o.stepMs), yAxisID: l.axis,
  }));
  const twoScales = o.lines.some((l) => l.axis === 'y1');
  const xs = o.lines.flatMap((l) => (l.points.length > 0 ? [(l.points[0] as Point).x, (l.points[l.points.length - 1] as Point).x] : []));
  const { min: xMin, max: xMax } = spanWith(xs, Date.parse(o.r.windows.baseline.start), Date.parse(o.r.windows.measure.end));
  const { bands, markers } = phases(o.r, w);
  // what each line is and its colour, readable beside the canvas (tests compare them with the report's)
  canvas.dataset['series'] = JSON.stringify(o.lines.map((l) => ({ label: l.label, role: l.role, color: l.color, hidden: l.hidden, axis: l.axis, points: l.points.length })));
  return new Chart<'line', Point[]>(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [firstDraw, exposePlot(o.r)],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      // the plot area Chart.js settles on from the first layout (charts.ts), so that zoom and reset keep it
      layout: { padding: firstLayoutPadding(o.lines.map((l) => ({ borderWidth: l.width, pointRadius: 0 }))) },
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'time', min: xMin, max: xMax,
          title: { display: true, text: w.d('axis.timeUtc') },
          ticks: utcTicks(w),
        },
        // Two scales are two panels, one above the other on the same time axis (never two y axes
        // over one plot: lines 10× apart would look comparable), each with a short title that fits its half.
        // (the backing panel is listed first: Chart.js stacks left scales in reverse, so the front's panel is on top)
        ...(twoScales ? {
          y1: {
            type: 'linear' as const, position: 'left' as const, beginAtZero: true, stack: 'panels', stackWeight: 1, offset: true,
            title: { display: true, text: w.d('axis.latencyBacking') }, ticks: { callback: (value: string | number) => w.num(Number(value)) },
          },
        } : {}),
        y: {
          type: 'linear', beginAtZero: true, ...(twoScales ? { stack: 'panels', stackWeight: 1, offset: true } : {}),
          title: { display: true, text: twoScales ? w.d('axis.latencyFront') : o.yTitle }, ticks: { callback: (value) => w.num(Number(value)) },
        },
      },
      plugins: {
        ...timePlugins({ w, fmt: o.fmt, definition: o.definition, stepMs: o.stepMs, onRange: o.onRange }),
        phaseShading: {
          bands, markers, textColor: cssVar('--muted', '#57606a'), labelBackground: cssVar('--label-bg', 'rgba(255,255,255,0.85)'),
          font: `12px ${getComputedStyle(document.documentElement).fontFamily || 'system-ui'}`, maxRows: 3,
        },
      },
    },
  });
}

/** The IOPS and response-time figures with their shared zoom controls. */
export function timeline(v: AnalysisView, r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const charts: Chart[] = [];
  const { controls, sync, showRange } = zoomControls(charts, w);

  const t = (key: DashboardShapeKey, params?: Record<string, string>): string => translate(dashboardShape, w.lang, key, params);
  const iops = lines(v, r, 'iops', w, palette);
  const lat = lines(v, r, 'latencyMs', w, palette);
  // each in its group's role colour, a dash pattern per group and operation (front reads solid,
  // backing reads dashed, writes dotted and dash-dotted) so that lines carrying the same I/O before
  // the switch stay apart; then the queue size of each group
  const reads = lines(v, r, 'readIops', w, palette, (g) => t('series.reads', { group: g }), (g) => (g === 'front' ? [] : [6, 3]));
  const writes = lines(v, r, 'writeIops', w, palette, (g) => t('series.writes', { group: g }), (g) => (g === 'front' ? [2, 2] : [8, 3, 2, 3]));
  const rw = { lines: [...reads.lines, ...writes.lines], stepMs: seriesMax([reads.stepMs, writes.stepMs]) ?? reads.stepMs };
  const queue = lines(v, r, 'aquSz', w, palette, (g) => t('series.queue', { group: g }));
  const requests = (x: number | null): string => (x === null ? w.na : t('unit.requests', { value: w.num(x) }));
  const specs: { testId: string; summaryId?: string; title: string; yTitle: string; definition: string; set: { lines: Line[]; stepMs: number }; fmt: (x: number | null) => string }[] = [
    { testId: TID.chartIops, summaryId: TID.chartSummary, title: w.d('chart.iops'), yTitle: w.d('axis.iops'), definition: w.d('def.chart.iops'), set: iops, fmt: w.iops },
    { testId: TID.chartLatency, title: w.d('chart.latency'), yTitle: w.d('axis.latency'), definition: w.d('def.chart.latency'), set: lat, fmt: w.ms },
  ];
  if (rw.lines.length > 0) specs.push({ testId: TID.chartReadWrite, title: t('chart.rw'), yTitle: t('axis.perSec'), definition: t('def.chart.rw'), set: rw, fmt: w.perSec });
  if (queue.lines.length > 0) specs.push({ testId: TID.chartQueue, title: t('chart.queue'), yTitle: t('axis.queue'), definition: t('def.chart.queue'), set: queue, fmt: requests });
  const nodes: HTMLElement[] = [];
  for (const sp of specs) {
    const f: Figure = figure(sp.testId, sp.title, sp.definition, sp.summaryId, w);
    f.summary.textContent = summaryText(sp.set.lines, r, w, sp.fmt);
    // two panels (the response time of the front and of the backing drives) get the height of two charts
    if (sp.set.lines.some((l) => l.axis === 'y1')) f.canvas.parentElement?.classList.add('panels-2');
    scheduler.add(f.canvas, (firstDraw) => {
      const c = timeChart(f.canvas, firstDraw, { title: sp.title, yTitle: sp.yTitle, definition: sp.definition, ...sp.set, r, w, fmt: sp.fmt, onRange: sync });
      charts.push(c);
      const first = charts[0];
      const x = first?.scales['x'];
      if (first === c) showRange(c);
      // a chart drawn after the person zoomed the first one takes its range (only this chart: the
      // others already have it); unzoomed, every chart already shows the whole time axis
      else if (first !== undefined && x !== undefined && first.isZoomedOrPanned()) c.zoomScale('x', { min: x.min, max: x.max }, 'none');
      return c;
    });
    nodes.push(f.node);
  }
  if (queue.lines.length > 0) nodes.push(readWriteQueueTable(r, w));
  return el('div', { class: 'dash-timeline' }, controls, ...nodes);
}
