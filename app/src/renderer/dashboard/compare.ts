/**
 * Before/after bar charts: matched hours of the day (engine `hourly`), the response-time
 * distribution per window (`latencyDistribution`), and where the I/O went — served by the
 * cache vs reached the backing drives, reads and writes (`groups.*.means`).
 */
import { ioSplit, type AnalysisReport, type Distribution, type HourlyEntry } from '@cacheproof/engine';
import { Chart, type ChartDataset, type Plugin, type TooltipItem } from 'chart.js';
import { TID } from '../../shared/testids.ts';
import { COLOR } from '@cacheproof/engine/report';
import { paletteColor } from '../../shared/palette.ts';
import { el } from '../dom.ts';
import { figure, type ChartScheduler } from './frame.ts';
import { wrap, type Words } from './text.ts';
import { seriesMin } from '@cacheproof/engine';

/** A colour of the palette (#RRGGBB) as a lighter fill: the same hue at 45 % opacity. */
function tint(hex: string): string {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return Number.isNaN(n) ? hex : `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, 0.45)`;
}

/** Before = the baseline grey, after = the measure sky blue (shared/palette.ts), the same on every before/after chart and in the report. */
function beforeAfterColors(palette: readonly string[]): [string, string] {
  return [paletteColor(COLOR.before, palette), paletteColor(COLOR.after, palette)];
}

/** A bar chart of the dashboard (categories × datasets), its series and colours exposed on the canvas for the tests. */
export function bars(canvas: HTMLCanvasElement, firstDraw: Plugin, o: {
  labels: string[]; datasets: ChartDataset<'bar', (number | null)[]>[]; xTitle: string; yTitle: string; definition: string;
  w: Words; fmt: (v: number | null) => string; stacked?: boolean; footer?: (index: number) => string[];
}): Chart<'bar', (number | null)[], string> {
  canvas.dataset['series'] = JSON.stringify(o.datasets.map((d) => ({ label: d.label ?? '', color: d.backgroundColor })));
  return new Chart<'bar', (number | null)[], string>(canvas, {
    type: 'bar',
    data: { labels: o.labels, datasets: o.datasets },
    plugins: [firstDraw],
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { stacked: o.stacked === true, title: { display: true, text: o.xTitle } },
        y: { stacked: o.stacked === true, beginAtZero: true, title: { display: true, text: o.yTitle }, ticks: { callback: (value) => o.w.num(Number(value)) } },
      },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => `${item.dataset.label ?? ''}: ${o.fmt(item.parsed.y)}`,
            footer: (items: TooltipItem<'bar'>[]) => [...(o.footer?.(items[0]?.dataIndex ?? 0) ?? []), ...wrap(o.definition)],
          },
        },
      },
    },
  });
}

type HourMetric = 'backingIops' | 'latency' | 'iops';

function hourValue(h: HourlyEntry, side: 'baseline' | 'measure', m: HourMetric): number | null {
  const s = h[side];
  return m === 'backingIops' ? s.backingIops : m === 'latency' ? s.latencyMs : s.iops;
}

/** Matched-hour before/after bars, with a selector for the figure compared. */
export function hourlyFigure(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const f = figure(TID.chartHourly, w.d('chart.hourly'), w.d('def.chart.hourly'), undefined, w);
  const hours = r.hourly;
  if (hours.length === 0) {
    f.notes.append(el('p', { class: 'dash-note', role: 'note' }, w.d('hourly.none')));
    f.summary.textContent = w.d('summary', { text: w.d('hourly.none') });
    f.canvas.parentElement?.remove();
    return f.node;
  }
  if (r.windows.baseline.seconds < 3600 || r.windows.measure.seconds < 3600) {
    f.notes.append(el('p', { class: 'dash-note', role: 'note' }, w.d('hourly.short', { baseline: w.duration(r.windows.baseline.seconds), measure: w.duration(r.windows.measure.seconds) })));
  }
  // [figure, its name in the selector, its axis title, its formatter]
  const metrics: [HourMetric, string, string, (v: number | null) => string][] = [
    ['backingIops', w.d('hourly.metric.backingIops'), w.d('axis.iosPerSec'), w.perSec],
    ['latency', w.d('hourly.metric.latency'), w.d('axis.latency'), w.ms],
    ['iops', w.d('hourly.metric.iops'), w.d('axis.iops'), w.iops],
  ];
  const selectId = `${TID.chartHourly}-metric`;
  const select = el('select', { id: selectId, 'data-testid': TID.dashHourlyMetric });
  for (const [value, label] of metrics) select.append(el('option', { value }, label));
  f.tools.append(el('label', { for: selectId }, w.d('hourly.metric')), select);
  const labels = hours.map((h) => w.d('hourly.label', { hour: String(h.hour).padStart(2, '0') }));
  const [cBefore, cAfter] = beforeAfterColors(palette);
  const current = (): [HourMetric, string, string, (v: number | null) => string] => metrics.find((m) => m[0] === select.value) ?? (metrics[0] as [HourMetric, string, string, (v: number | null) => string]);
  const summarize = (): void => {
    const [m, label, , fmt] = current();
    f.summary.textContent = w.d('summary', { text: `${label}. ${hours.map((h, i) => w.d('sum.hour', { hour: labels[i] ?? '', before: fmt(hourValue(h, 'baseline', m)), after: fmt(hourValue(h, 'measure', m)) })).join('; ')}` });
  };
  summarize();
  let chart: Chart<'bar', (number | null)[], string> | null = null;
  const datasets = (m: HourMetric): ChartDataset<'bar', (number | null)[]>[] => [
    { label: w.d('phase.baseline'), data: hours.map((h) => hourValue(h, 'baseline', m)), backgroundColor: cBefore },
    { label: w.d('phase.measure'), data: hours.map((h) => hourValue(h, 'measure', m)), backgroundColor: cAfter },
  ];
  scheduler.add(f.canvas, (firstDraw) => {
    const [m, , axis] = current();
    chart = bars(f.canvas, firstDraw, {
      labels, datasets: datasets(m), xTitle: w.d('axis.hourUtc'), yTitle: axis, definition: w.d('def.chart.hourly'), w,
      fmt: (v) => current()[3](v),
      footer: (i) => {
        const h = hours[i];
        return h ? [w.d('hourly.tip', { seconds: w.duration(seriesMin([h.baseline.seconds, h.measure.seconds]) ?? h.measure.seconds), saved: w.pct(h.iosSavedPercent), reduction: w.pct(h.latencyReductionPercent) })] : [];
      },
    });
    return chart;
  });
  select.addEventListener('change', () => {
    summarize();
    const c = chart;
    if (!c) return;
    const [m, , axis] = current();
    c.data.datasets = datasets(m);
    const y = c.options.scales?.['y'];
    if (y && 'title' in y && y.title) y.title.text = axis;
    c.update('none');
  });
  return f.node;
}

/** p50 / p95 / p99 / maximum of per-interval response time, before vs after. */
export function distributionFigure(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const ld = r.latencyDistribution;
  const devices = ld.devices.join(', ');
  const f = figure(TID.chartDistribution, w.d('chart.dist'), w.d('def.chart.dist', { devices }), undefined, w);
  const keys: (keyof Omit<Distribution, 'n'>)[] = ['p50', 'p95', 'p99', 'max'];
  const labels = [w.d('dist.p50'), w.d('dist.p95'), w.d('dist.p99'), w.d('dist.max')];
  const missing: string[] = [];
  if (ld.baseline === null) missing.push(`${w.d('phase.baseline')}: ${w.d('dist.none', { reason: w.reason(ld.reasons['baseline']) })}`);
  if (ld.measure === null) missing.push(`${w.d('phase.measure')}: ${w.d('dist.none', { reason: w.reason(ld.reasons['measure']) })}`);
  for (const m of missing) f.notes.append(el('p', { class: 'dash-note', role: 'note' }, m));
  const parts: string[] = [];
  for (const [name, dist] of [[w.d('phase.baseline'), ld.baseline], [w.d('phase.measure'), ld.measure]] as const) {
    if (dist) parts.push(w.d('sum.dist', { window: name, p50: w.ms(dist.p50), p95: w.ms(dist.p95), p99: w.ms(dist.p99), max: w.ms(dist.max) }));
  }
  f.summary.textContent = w.d('summary', { text: [...parts, ...missing].join('; ') });
  if (ld.baseline === null && ld.measure === null) {
    f.canvas.parentElement?.remove();
    return f.node;
  }
  const [cBefore, cAfter] = beforeAfterColors(palette);
  scheduler.add(f.canvas, (firstDraw) => bars(f.canvas, firstDraw, {
    labels,
    datasets: [
      { label: w.d('phase.baseline'), data: keys.map((k) => ld.baseline?.[k] ?? null), backgroundColor: cBefore },
      { label: w.d('phase.measure'), data: keys.map((k) => ld.measure?.[k] ?? null), backgroundColor: cAfter },
    ],
    xTitle: w.d('axis.percentile'), yTitle: w.d('axis.latency'), definition: w.d('def.chart.dist', { devices }), w, fmt: w.ms,
    footer: () => [ld.baseline ? `${w.d('phase.baseline')}: ${w.d('dist.tip', { n: w.num(ld.baseline.n) })}` : '', ld.measure ? `${w.d('phase.measure')}: ${w.d('dist.tip', { n: w.num(ld.measure.n) })}` : ''].filter((s) => s.length > 0),
  }));
  return f.node;
}

/** Reads and writes per second before and after: served by the cache (front − backing) vs reached the backing drives. */
export function ioFigure(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const f = figure(TID.chartFrontBacking, w.d('chart.io'), w.d('def.chart.io'), undefined, w);
  const front = r.groups.front, backing = r.groups.backing;
  if (!backing) {
    f.notes.append(el('p', { class: 'dash-note', role: 'note' }, w.d('io.none')));
    f.summary.textContent = w.d('summary', { text: w.d('io.none') });
    f.canvas.parentElement?.remove();
    return f.node;
  }
  const windows = ['baseline', 'measure'] as const;
  const labels = [w.d('phase.baseline'), w.d('phase.measure')];
  // the engine's split (ioSplit): backing r/s and w/s, and what the cache served (front − backing)
  const split = ioSplit(r);
  const bRead = windows.map((k) => split?.[k].readsBacking ?? null);
  const bWrite = windows.map((k) => split?.[k].writesBacking ?? null);
  let datasets: ChartDataset<'bar', (number | null)[]>[];
  let summary: string;
  // colour says where the I/O went (the palette's meanings: backing drives vermillion, the cache
  // bluish green); writes are the same colours as a lighter fill with a solid border, and every
  // bar is named in the legend
  const cBacking = paletteColor(COLOR.backing, palette), cCache = paletteColor(COLOR.cache, palette);
  const write = (c: string): Partial<ChartDataset<'bar', (number | null)[]>> => ({ backgroundColor: tint(c), borderColor: c, borderWidth: 2 });
  if (front) {
    const rc = windows.map((k) => split?.[k].readsCache ?? null);
    const wc = windows.map((k) => split?.[k].writesCache ?? null);
    datasets = [
      { label: w.d('io.readsBacking'), data: bRead, backgroundColor: cBacking, stack: 'reads' },
      { label: w.d('io.readsCache'), data: rc, backgroundColor: cCache, stack: 'reads' },
      { label: w.d('io.writesBacking'), data: bWrite, ...write(cBacking), stack: 'writes' },
      { label: w.d('io.writesCache'), data: wc, ...write(cCache), stack: 'writes' },
    ];
    summary = labels.map((l, i) => w.d('sum.io', { window: l, rc: w.perSec(rc[i] ?? null), rb: w.perSec(bRead[i] ?? null), wc: w.perSec(wc[i] ?? null), wb: w.perSec(bWrite[i] ?? null) })).join('; ');
  } else {
    f.notes.append(el('p', { class: 'dash-note', role: 'note' }, w.d('io.backingOnly')));
    datasets = [
      { label: w.d('io.backingReads'), data: bRead, backgroundColor: cBacking, stack: 'reads' },
      { label: w.d('io.backingWrites'), data: bWrite, ...write(cBacking), stack: 'writes' },
    ];
    summary = labels.map((l, i) => w.d('sum.ioBackingOnly', { window: l, rb: w.perSec(bRead[i] ?? null), wb: w.perSec(bWrite[i] ?? null) })).join('; ');
  }
  f.summary.textContent = w.d('summary', { text: summary });
  scheduler.add(f.canvas, (firstDraw) => bars(f.canvas, firstDraw, {
    labels, datasets, xTitle: w.d('axis.window'), yTitle: w.d('axis.iosPerSec'), definition: w.d('def.chart.io'), w, fmt: w.perSec, stacked: true,
  }));
  return f.node;
}
