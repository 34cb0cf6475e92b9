/**
 * Export a dashboard chart as PNG, SVG or CSV (issue 17: "export any chart"). Works from the
 * Chart.js chart as drawn, so every chart of the dashboard gets it without a second description:
 * - **PNG**: the canvas as on screen, on the theme's background, under the chart's title;
 * - **SVG**: the chart redrawn by the report's own SVG renderer (shared/chart-svg.ts) from the
 *   same series, colours, dashes, phase bands and axis titles; a chart with a second y scale
 *   (the backing drives' response time) gets a panel per scale, as on screen;
 * - **CSV**: the series the chart draws (the visible ones, before decimation), one column each,
 *   named with the chart's axis title (its unit); times in ISO 8601 UTC, numbers as JavaScript
 *   writes them (a dot, no grouping), blank where a series has no point.
 * The file is handed to the browser as a Blob URL download (no host call; the app's CSP allows
 * blob: only where needed, and a download is not a fetch).
 */
import type { Chart } from 'chart.js';
import type { ChartSeries, ChartSpec, Msg } from '@cacheproof/engine/report';
import { chartSvg, CHART_HEIGHT, CHART_WIDTH, legendItems } from '../shared/chart-svg.ts';
import { esc } from '../shared/escape.ts';
import { PALETTE } from '../shared/palette.ts';
import type { Lang } from '../shared/i18n/types.ts';
import type { PhaseBand } from './draw/phase-shading.ts';
import { devicePixels, legendItemWidth, scaledPx } from './draw/export-geometry.ts';

export type ChartExportFormat = 'png' | 'svg' | 'csv';

/** What the chart is, beside its Chart.js object. */
export interface ChartMeta {
  /** Stable id, used in the file names (`iops`, `latency`, …). */
  id: string;
  title: string;
  /** The chart in words (the figure's text summary). */
  summary: string;
}

const text = (s: string): Msg => ({ key: 'x.text', p: { text: { k: 'str', s } } });

interface Column {
  label: string;
  /** The y axis it is drawn against (its title names the unit). */
  axis: string;
  color: string;
  dashed: boolean;
  points: [number, number | null][];
}

/** The palette index of a colour drawn with one of the app's palettes (light or dark), else null. */
function paletteIndex(color: string, palettes: readonly (readonly string[])[]): number | null {
  const c = color.trim().toLowerCase();
  for (const p of palettes) {
    const i = p.findIndex((x) => x.toLowerCase() === c);
    if (i >= 0) return i;
  }
  return null;
}

function axisTitle(chart: Chart, id: string): string {
  const scale = (chart.options.scales as Record<string, { title?: { text?: string | string[] } } | undefined> | undefined)?.[id];
  const t = scale?.title?.text;
  return Array.isArray(t) ? t.join(' ') : (t ?? '');
}

/** The visible series with their full data (Chart.js keeps the undecimated data in `_data`). */
function columns(chart: Chart): Column[] {
  const out: Column[] = [];
  chart.data.datasets.forEach((ds, i) => {
    if (!chart.isDatasetVisible(i)) return;
    const raw = ((ds as unknown as { _data?: unknown[] })._data ?? ds.data) as unknown[];
    const points: [number, number | null][] = raw.map((p, j) => {
      if (p !== null && typeof p === 'object' && 'x' in p && 'y' in p) {
        const q = p as { x: number; y: number | null };
        return [Number(q.x), q.y === null || !Number.isFinite(Number(q.y)) ? null : Number(q.y)];
      }
      return [j, p === null || p === undefined || !Number.isFinite(Number(p)) ? null : Number(p)];
    });
    // a line is its stroke; a bar its fill (a lighter fill with a border keeps its fill in the SVG)
    const bar = (chart.config as { type?: string }).type === 'bar';
    const stroke = typeof ds.borderColor === 'string' ? ds.borderColor : null, fill = typeof ds.backgroundColor === 'string' ? ds.backgroundColor : null;
    const color = (bar ? fill ?? stroke : stroke ?? fill) ?? '#000000';
    const dash = (ds as { borderDash?: number[] }).borderDash;
    out.push({ label: ds.label ?? `#${i + 1}`, axis: (ds as { yAxisID?: string }).yAxisID ?? 'y', color, dashed: Array.isArray(dash) && dash.length > 0, points });
  });
  return out;
}

/** A numeric x axis as drawn: logarithmic or not, and its ticks with the labels on screen. */
function numberAxis(chart: Chart): { log: boolean; ticks: { v: number; label: string }[] } {
  const x = chart.scales['x'];
  const log = (chart.options.scales as Record<string, { type?: string } | undefined> | undefined)?.['x']?.type === 'logarithmic';
  const ticks = (x?.ticks ?? []).map((t) => ({ v: t.value, label: Array.isArray(t.label) ? t.label.join(' ') : String(t.label ?? '') })).filter((t) => t.label !== '');
  return { log, ticks };
}

function xKind(chart: Chart): 'time' | 'number' | 'category' {
  const t = (chart.options.scales as Record<string, { type?: string } | undefined> | undefined)?.['x']?.type;
  return t === 'time' || t === 'timeseries' ? 'time' : t === 'linear' || t === 'logarithmic' ? 'number' : 'category';
}

/**
 * The chart as report chart specs: one per y scale it draws on. Colours of the app's palette
 * keep their meaning (the light palette on the white page); any other colour is kept as drawn.
 */
export function chartSpecs(chart: Chart, meta: ChartMeta, palettes: readonly (readonly string[])[] = [PALETTE]): ChartSpec[] {
  const cols = columns(chart);
  const kind = xKind(chart);
  const type = (chart.config as { type?: string }).type === 'bar' ? 'bar' : 'line';
  const stacked = (chart.options.scales as Record<string, { stacked?: boolean } | undefined> | undefined)?.['x']?.stacked === true;
  const categories = (chart.data.labels ?? []).map((l) => ({ k: 'str' as const, s: Array.isArray(l) ? l.join(' ') : String(l) }));
  const shading = (chart.options.plugins as Record<string, { bands?: PhaseBand[] } | undefined> | undefined)?.['phaseShading']?.bands ?? [];
  const bands = shading.filter((b) => b.tone !== undefined).map((b) => ({ fromMs: b.startMs, toMs: b.endMs, label: text(b.label), tone: b.tone as 'baseline' | 'warmup' | 'measure' }));
  const axes = [...new Set(cols.map((c) => c.axis))];
  return (axes.length === 0 ? ['y'] : axes).map((axis, n) => {
    const series: ChartSeries[] = cols.filter((c) => c.axis === axis).map((c) => {
      const idx = paletteIndex(c.color, palettes);
      return { name: { k: 'str', s: c.label }, color: idx ?? 0, ...(idx === null ? { rgb: c.color } : {}), points: c.points, ...(c.dashed ? { dashed: true } : {}) };
    });
    return {
      id: axes.length > 1 ? `${meta.id}-${n + 1}` : meta.id,
      kind: type === 'bar' ? (stacked ? 'stacked-bar' : 'bar') : 'line',
      title: text(axes.length > 1 ? `${meta.title}: ${axisTitle(chart, axis)}` : meta.title),
      x: { kind: type === 'bar' && kind !== 'number' ? 'category' : kind, label: text(axisTitle(chart, 'x')), ...(type === 'bar' || kind === 'category' ? { categories } : {}), ...(kind === 'number' ? numberAxis(chart) : {}) },
      y: { label: text(axisTitle(chart, axis)), unit: 'count' },
      series,
      ...(kind === 'time' && bands.length > 0 ? { bands } : {}),
      summary: text(meta.summary),
    } satisfies ChartSpec;
  });
}

/** A standalone SVG document: the title, a panel per y scale (the report's renderer), the legend. */
export function chartSvgDocument(chart: Chart, meta: ChartMeta, lang: Lang, palettes?: readonly (readonly string[])[]): string {
  const specs = chartSpecs(chart, meta, palettes);
  const W = CHART_WIDTH;
  const top = 28;
  const parts: string[] = [];
  let y = top;
  for (const s of specs) {
    parts.push(chartSvg(s, lang).replace(/^<svg /u, `<svg x="0" y="${y}" `));
    y += CHART_HEIGHT + 6;
  }
  const legend = specs.flatMap((s) => legendItems(s, lang));
  let lx = 8;
  let ly = y + 12;
  for (const l of legend) {
    const wText = legendItemWidth(W, l.name.length);
    if (lx + wText > W) {
      lx = 8;
      ly += 18;
    }
    parts.push(`<rect x="${lx}" y="${ly - 8}" width="18" height="${l.dashed ? 3 : 6}" fill="${esc(l.color)}"/><text x="${lx + 24}" y="${ly}" font-size="11" fill="#222">${esc(l.name)}</text>`);
    lx += wText;
  }
  const H = ly + 12;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="DejaVu Sans, Verdana, sans-serif" role="img" aria-label="${esc(meta.title)}"><title>${esc(meta.title)}</title><desc>${esc(meta.summary)}</desc><rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/><text x="8" y="18" font-size="14" font-weight="bold" fill="#111">${esc(meta.title)}</text>${parts.join('')}</svg>\n`;
}

function csvField(s: string): string {
  return /[",\n\r]/u.test(s) ? `"${s.replace(/"/gu, '""')}"` : s;
}

/** The CSV of the series the chart draws: x first (ISO UTC times, numbers or categories), then one column per series. */
export function chartCsv(chart: Chart): string {
  const cols = columns(chart);
  const kind = xKind(chart);
  const type = (chart.config as { type?: string }).type;
  const labels = (chart.data.labels ?? []).map((l) => (Array.isArray(l) ? l.join(' ') : String(l)));
  const xs = [...new Set(cols.flatMap((c) => c.points.map((p) => p[0])))].sort((a, b) => a - b);
  const byX = cols.map((c) => new Map(c.points.map((p) => [p[0], p[1]])));
  const head = [axisTitle(chart, 'x') || 'x', ...cols.map((c) => {
    const unit = axisTitle(chart, c.axis);
    return unit === '' ? c.label : `${c.label} (${unit})`;
  })];
  const xText = (x: number): string => (kind === 'time' ? new Date(x).toISOString() : type === 'bar' || kind === 'category' ? (labels[x] ?? String(x)) : String(x));
  const rows = xs.map((x) => [xText(x), ...byX.map((m) => {
    const v = m.get(x);
    return v === undefined || v === null ? '' : String(v);
  })]);
  return `${[head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** The chart as a PNG: the canvas on `background`, under the title. */
export function chartPng(chart: Chart, title: string, background: string, ink: string): Promise<Blob> {
  const src = chart.canvas;
  const ratio = devicePixels(src.width, src.clientWidth);
  const head = scaledPx(30, ratio);
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height + head;
  const g = c.getContext('2d');
  if (g === null) return Promise.reject(new Error('no 2D context'));
  g.fillStyle = background;
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = ink;
  g.font = `bold ${scaledPx(15, ratio)}px ${getComputedStyle(document.documentElement).fontFamily || 'sans-serif'}`;
  g.fillText(title, scaledPx(8, ratio), scaledPx(20, ratio));
  g.drawImage(src, 0, head);
  return new Promise((resolve, reject) => c.toBlob((b) => (b === null ? reject(new Error('the canvas gave no PNG')) : resolve(b)), 'image/png'));
}

/** Hands a file to the browser (a download from a Blob URL, revoked after). */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
