/**
 * Draws a report chart ({@link ChartSpec}) as a self-contained SVG string: axes with units,
 * ticks in the report's language, shaded windows, reference lines, lines or bars. Pure (no DOM,
 * no clock); every text is escaped; colours are SVG presentation attributes (no style attribute),
 * so the HTML needs neither script nor inline styles to show it.
 */
import type { ChartSpec, Val } from '@cacheproof/engine/report';
import { fmtSig, formatVal, reportText } from './i18n/report.ts';
import { LOCALE, type Lang } from './i18n/types.ts';
import { esc } from './escape.ts';
import { PALETTE, PHASE_TINT, TARGET_LINE, paletteColor } from './palette.ts';
import { BAR_LABEL_PX, REF_LABEL_PX, barLabels, refLabels, type RefLabel } from './chart-ref-labels.ts';

/** The app's one palette (app/src/shared/palette.ts): a colour means the same on screen and on paper. */
export const REPORT_PALETTE = PALETTE;

/** The shaded windows: the before/after tints of the palette (never a series' hue). */
const BAND_FILL: Record<'baseline' | 'warmup' | 'measure', string> = { baseline: PHASE_TINT.baseline.light, warmup: PHASE_TINT.warmup.light, measure: PHASE_TINT.measure.light };

/** Drawing box in SVG user units (1 unit ≈ 1 CSS px at 100%; the SVG scales to the column width). */
export const CHART_WIDTH = 680;
export const CHART_HEIGHT = 270;
/** A line's width when its series gives none, px. */
const LINE_WIDTH = 1.4;
const M = { left: 62, right: 14, top: 22, bottom: 46 };

export function color(i: number): string {
  return paletteColor(i);
}

/** "Nice" ticks from 0 (or the minimum) to at least max: 1, 2, 2.5 or 5 × 10^k steps. */
export function niceTicks(min: number, max: number, target = 5): number[] {
  if (!(max > min)) max = min + 1;
  const raw = (max - min) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag);
  const start = Math.floor(min / step) * step;
  const out: number[] = [];
  for (let v = start; v <= max + step * 1e-9 || out.length < 2; v += step) out.push(Number(v.toPrecision(12)));
  if ((out[out.length - 1] ?? 0) < max) out.push(Number(((out[out.length - 1] ?? 0) + step).toPrecision(12)));
  return out;
}

const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800].map((s) => s * 1000);

function timeTicks(t0: number, t1: number, target = 7): number[] {
  const span = t1 - t0;
  const step = TIME_STEPS.find((s) => span / s <= target) ?? 86_400_000 * Math.ceil(span / target / 86_400_000);
  const out: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) out.push(t);
  return out;
}

/**
 * The labels of a time axis from `x0` to `x1` (UTC ms; the axis title says UTC): the day only when
 * the span crosses a UTC day (and `fewTicks`), seconds only under 20 minutes. The PDF's and HTML's
 * charts and the deck's category labels write their times so.
 *
 * @example
 * timeAxisLabel('en', Date.UTC(2026, 10, 20, 22, 0), Date.UTC(2026, 10, 20, 23, 0))(Date.UTC(2026, 10, 20, 22, 30)) // '22:30'
 */
export function timeAxisLabel(lang: Lang, x0: number, x1: number, fewTicks = true): (ms: number) => string {
  const multiDay = new Date(x0).getUTCDate() !== new Date(x1).getUTCDate() || x1 - x0 > 86_400_000;
  const secs = x1 - x0 < 20 * 60_000;
  return (ms) => timeLabel(lang, ms, multiDay && fewTicks, secs);
}

function timeLabel(lang: Lang, ms: number, withDate: boolean, withSeconds: boolean): string {
  const o: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', hourCycle: 'h23' };
  if (withSeconds) o.second = '2-digit';
  if (withDate) {
    o.day = 'numeric';
    o.month = 'short';
  }
  return new Intl.DateTimeFormat(LOCALE[lang], o).format(new Date(ms));
}

const f1 = (n: number): string => (Math.round(n * 10) / 10).toString();

function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${f1(x)}" y="${f1(y)}"${attrs ? ` ${attrs}` : ''}>${esc(s)}</text>`;
}

/** A value's label on a chart (no unit: the axis says it). */
function tickLabel(lang: Lang, v: number): string {
  return fmtSig(lang, v);
}

/** The y axis of a chart: its ticks (from 0 or the lowest value to past the highest, reference lines included) and value → SVG y. */
function yScale(spec: ChartSpec): { yTicks: number[]; Y: (v: number) => number } {
  const ph = CHART_HEIGHT - M.top - M.bottom;
  const ys: number[] = [];
  if (spec.kind === 'stacked-bar') {
    const n = spec.x.categories?.length ?? 0;
    for (let i = 0; i < n; i++) ys.push(spec.series.reduce((s, ser) => s + (ser.points[i]?.[1] ?? 0), 0));
  } else for (const s of spec.series) for (const p of s.points) if (p[1] !== null && Number.isFinite(p[1])) ys.push(p[1]);
  for (const r of spec.refLines ?? []) ys.push(r.y);
  const yMinData = ys.length ? Math.min(...ys) : 0;
  const yMaxData = ys.length ? Math.max(...ys) : 1;
  const yLo = spec.y.min !== undefined ? Math.min(spec.y.min, yMinData) : Math.min(0, yMinData);
  const yTicks = niceTicks(yLo, yMaxData > yLo ? yMaxData : yLo + 1);
  const y0 = yTicks[0] as number;
  const y1 = yTicks[yTicks.length - 1] as number;
  return { yTicks, Y: (v: number): number => M.top + ph - ((v - y0) / (y1 - y0)) * ph };
}

/** The SVG of one chart, with its title and text alternative inside (`<title>`, `<desc>`). */
export function chartSvg(spec: ChartSpec, lang: Lang): string {
  const W = CHART_WIDTH;
  const H = CHART_HEIGHT;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const out: string[] = [];
  const title = reportText(spec.title, lang);
  const summary = reportText(spec.summary, lang);
  out.push(`<svg class="chart" data-chart="${esc(spec.id)}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">`);
  out.push(`<title>${esc(title)}</title><desc>${esc(summary)}</desc>`);

  const { yTicks, Y } = yScale(spec);
  const hasData = spec.series.some((s) => s.points.some((p) => p[1] !== null));

  const { X, xTicks, categories, bandW } = xScale(spec, lang, pw);

  // plot background and bands
  out.push(`<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="#ffffff" stroke="#c8c8c8" stroke-width="0.8"/>`);
  for (const b of spec.bands ?? []) {
    const bx0 = Math.max(M.left, X(b.fromMs));
    const bx1 = Math.min(M.left + pw, X(b.toMs));
    if (!(bx1 > bx0)) continue;
    out.push(`<rect class="band" x="${f1(bx0)}" y="${M.top}" width="${f1(bx1 - bx0)}" height="${ph}" fill="${BAND_FILL[b.tone]}"/>`);
    const label = reportText(b.label, lang);
    if (bx1 - bx0 > label.length * 5.6) out.push(text((bx0 + bx1) / 2, M.top - 6, label, `text-anchor="middle" fill="#444" font-size="10"`));
  }
  // grid and y axis
  for (const v of yTicks) {
    const y = Y(v);
    out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${f1(y)}" y2="${f1(y)}" stroke="#e3e3e3" stroke-width="0.7"/>`);
    out.push(text(M.left - 6, y + 3.5, tickLabel(lang, v), 'text-anchor="end" fill="#333"'));
  }
  // a long axis title gets a smaller font so that it fits the plot's height
  const yLabel = reportText(spec.y.label, lang);
  const yFont = Math.max(7, Math.min(11, Math.floor((ph / Math.max(1, yLabel.length * 0.58)) * 10) / 10));
  out.push(text(14, M.top + ph / 2, yLabel, `text-anchor="middle" fill="#222" transform="rotate(-90 14 ${f1(M.top + ph / 2)})"${yFont < 11 ? ` font-size="${yFont}"` : ''}`));
  // x axis
  const maxLabels = Math.max(1, Math.floor(pw / 58));
  const every = Math.max(1, Math.ceil(xTicks.length / maxLabels));
  const catLabels = categoryLabels(xTicks, categories, bandW);
  xTicks.forEach((t, i) => {
    out.push(`<line x1="${f1(t.x)}" x2="${f1(t.x)}" y1="${M.top + ph}" y2="${M.top + ph + 4}" stroke="#888" stroke-width="0.8"/>`);
    if (catLabels !== null) {
      (catLabels.lines[i] ?? []).forEach((l, k) => out.push(text(t.x, M.top + ph + 14 + (catLabels.px + 1) * k, l, `text-anchor="middle" fill="#333" font-size="${catLabels.px}"`)));
      return;
    }
    if (i % every !== 0) return;
    const label = t.label.length > 22 ? `${t.label.slice(0, 21)}…` : t.label;
    // Labels near the plot's edges are anchored inwards so that they stay inside the drawing.
    const half = label.length * 2.9;
    const anchor = t.x + half > W - 2 ? 'end' : t.x - half < 2 ? 'start' : 'middle';
    out.push(text(anchor === 'end' ? Math.min(t.x, W - 2) : t.x, M.top + ph + 16, label, `text-anchor="${anchor}" fill="#333" font-size="10"`));
  });
  out.push(text(M.left + pw / 2, H - 8, reportText(spec.x.label, lang), 'text-anchor="middle" fill="#222"'));

  // data
  if (!hasData) {
    out.push(text(M.left + pw / 2, M.top + ph / 2, reportText({ key: 'x.noData' }, lang), 'text-anchor="middle" fill="#666" font-size="13"'));
  } else if (spec.kind === 'line') out.push(...lineSeries(spec, X, Y));
  else out.push(...barSeries(spec, lang, { X, Y, yTicks, bandW, pw }));
  for (const r of spec.refLines ?? []) {
    const y = Y(r.y);
    out.push(`<line class="ref" x1="${M.left}" x2="${M.left + pw}" y1="${f1(y)}" y2="${f1(y)}" stroke="${TARGET_LINE}" stroke-width="1" stroke-dasharray="6 4"/>`);
  }
  for (const l of refLabelsOf(spec, lang)) out.push(text(l.x, l.y, l.text, `text-anchor="end" fill="${TARGET_LINE}" font-size="${REF_LABEL_PX}"`));
  out.push('</svg>');
  return out.join('');
}

/** Where {@link chartSvg} prints the labels of a chart's reference lines (none over another: chart-ref-labels.ts). */
export function refLabelsOf(spec: ChartSpec, lang: Lang): RefLabel[] {
  const refs = spec.refLines ?? [];
  if (refs.length === 0) return [];
  const { Y } = yScale(spec);
  return refLabels(refs.map((r) => ({ y: Y(r.y), text: reportText(r.label, lang) })), M.left + (CHART_WIDTH - M.left - M.right) - 4);
}

/** The legend items of a chart (name and colour), drawn by the HTML as text with a swatch. */
export function legendItems(spec: ChartSpec, lang: Lang): { name: string; color: string; dashed: boolean }[] {
  return spec.series.map((s) => ({ name: formatVal(s.name as Val, lang), color: s.rgb ?? color(s.color), dashed: s.dashed === true }));
}

/** The x scale of a chart: its pixel function, its ticks with labels, the categories and their band width. */
function xScale(spec: ChartSpec, lang: Lang, pw: number): { X: (v: number) => number; xTicks: { x: number; label: string }[]; categories: NonNullable<ChartSpec['x']['categories']>; bandW: number } {
  let X: (v: number) => number;
  let xTicks: { x: number; label: string }[] = [];
  const categories = spec.x.categories ?? [];
  const bandW = categories.length > 0 ? pw / categories.length : pw;
  if (spec.x.kind === 'time' || spec.x.kind === 'year' || spec.x.kind === 'number') {
    const xs = spec.series.flatMap((s) => s.points.map((p) => p[0]));
    for (const b of spec.bands ?? []) xs.push(b.fromMs, b.toMs);
    const x0 = xs.length ? Math.min(...xs) : 0;
    const x1 = xs.length ? Math.max(...xs) : 1;
    const span = x1 > x0 ? x1 - x0 : 1;
    const log = spec.x.kind === 'number' && spec.x.log === true && x0 > 0;
    X = log ? (v: number): number => M.left + ((Math.log(v) - Math.log(x0)) / (Math.log(x1) - Math.log(x0) || 1)) * pw : (v: number): number => M.left + ((v - x0) / span) * pw;
    if (spec.x.kind === 'time') {
      const ticks = timeTicks(x0, x1);
      const label = timeAxisLabel(lang, x0, x1, ticks.length <= 7);
      xTicks = ticks.map((t) => ({ x: X(t), label: label(t) }));
    } else if (spec.x.kind === 'number' && spec.x.ticks !== undefined) {
      xTicks = spec.x.ticks.filter((t) => t.v >= x0 && t.v <= x1 && (!log || t.v > 0)).map((t) => ({ x: X(t.v), label: t.label }));
    } else if (spec.x.kind === 'number') {
      xTicks = niceTicks(x0, x1, 7).filter((v) => v >= x0 - span * 1e-9 && v <= x1 + span * 1e-9).map((v) => ({ x: X(v), label: tickLabel(lang, v) }));
    } else {
      const step = Math.max(1, Math.ceil(span / 10));
      for (let v = Math.ceil(x0); v <= x1; v += step) xTicks.push({ x: X(v), label: String(v) });
    }
  } else {
    X = (i: number): number => M.left + bandW * (i + 0.5);
    xTicks = categories.map((c, i) => ({ x: X(i), label: formatVal(c, lang) }));
  }
  return { X, xTicks, categories, bandW };
}

/** Category names longer than their band, wrapped (null: drawn as they are). */
function categoryLabels(xTicks: { x: number; label: string }[], categories: readonly unknown[], bandW: number): { px: number; lines: string[][] } | null {
  // Category names longer than their band wrap on two lines, in the largest of 10, 9 and 8 px at
  // which every name fits (then the last line is cut): "Cache drive or RAM price" never runs into
  // its neighbour.
  const wrapAt = (label: string, chars: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of label.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > chars) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
    return lines;
  };
  if (categories.length === 0) return null;
  const names = xTicks.map((t) => t.label);
  const fits = (n: string): boolean => n.length * 5.8 <= bandW - 4;
  // names that fit, or one word too long for its band (hours: every other label is drawn, below)
  if (names.every(fits) || names.some((n) => !fits(n) && !n.includes(' '))) return null;
  for (const px of [10, 9, 8]) {
    const chars = Math.max(4, Math.floor((bandW - 4) / (px * 0.58)));
    const wrapped = names.map((n) => wrapAt(n, chars));
    if (px === 8 || wrapped.every((w) => w.length <= 2 && w.every((l) => l.length <= chars))) {
      return { px, lines: wrapped.map((w) => (w.length <= 2 ? w : [w[0] as string, `${w.slice(1).join(' ').slice(0, chars - 1)}…`]).map((l) => (l.length > chars ? `${l.slice(0, chars - 1)}…` : l))) };
    }
  }
  return null;
}

/** The paths (or a lone point's circle) of a line chart's series, wider lines first. */
function lineSeries(spec: ChartSpec, X: (v: number) => number, Y: (v: number) => number): string[] {
  const out: string[] = [];
  // wider lines first, underneath: a backing line that coincides with the front's shows on both sides of it
  [...spec.series].sort((a, b) => (b.width ?? LINE_WIDTH) - (a.width ?? LINE_WIDTH)).forEach((s) => {
    let d = '';
    let pen = false;
    let n = 0;
    for (const [x, y] of s.points) {
      if (y === null || !Number.isFinite(y)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${f1(X(x))} ${f1(Y(y))}`;
      pen = true;
      n++;
    }
    if (n === 1) {
      const p = s.points.find((q) => q[1] !== null);
      if (p) out.push(`<circle class="series" cx="${f1(X(p[0]))}" cy="${f1(Y(p[1] as number))}" r="2.5" fill="${esc(s.rgb ?? color(s.color))}"/>`);
    } else if (n > 1) out.push(`<path class="series" d="${d}" fill="none" stroke="${esc(s.rgb ?? color(s.color))}" stroke-width="${f1(s.width ?? LINE_WIDTH)}" stroke-linejoin="round"${s.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`);
  });
  return out;
}

/** The bars of a bar or stacked-bar chart, with their value labels where there is room. */
function barSeries(spec: ChartSpec, lang: Lang, o: { X: (v: number) => number; Y: (v: number) => number; yTicks: number[]; bandW: number; pw: number }): string[] {
  const { Y, yTicks, bandW } = o;
  const out: string[] = [];
  const categories = spec.x.categories ?? [];
  const groups = categories.length;
  const stacked = spec.kind === 'stacked-bar';
  const nSeries = spec.series.length;
  const inner = Math.min(bandW * 0.72, (stacked ? 1 : Math.max(1, nSeries)) * 90);
  const barW = stacked ? inner : inner / Math.max(1, nSeries);
  const labels = !stacked && groups * nSeries <= 16;
  const bars: Parameters<typeof barLabels>[0][number][] = [];
  for (let g = 0; g < groups; g++) {
    let acc = 0;
    spec.series.forEach((s, si) => {
      const v = s.points[g]?.[1] ?? null;
      if (v === null) return;
      const x = M.left + bandW * g + (bandW - inner) / 2 + (stacked ? 0 : si * barW);
      const top = stacked ? Y(acc + v) : Y(Math.max(0, v));
      const bottom = stacked ? Y(acc) : Y(Math.min(0, v));
      acc += stacked ? v : 0;
      const h = Math.max(0.5, bottom - top);
      out.push(`<rect class="series" x="${f1(x)}" y="${f1(top)}" width="${f1(Math.max(1, barW - 1.5))}" height="${f1(h)}" fill="${esc(s.rgb ?? color(s.color))}"/>`);
      // a value of rounding noise (3.6e-12 of a swing of dollars) is printed as the 0 it is
      const shown = Math.abs(v) < (Math.abs(yTicks[yTicks.length - 1] as number) + Math.abs(yTicks[0] as number)) * 1e-9 ? 0 : v;
      if (labels) bars.push({ x: x + barW / 2, top, bottom, rises: v >= 0, text: fmtSig(lang, shown) });
    });
  }
  for (const l of barLabels(bars)) out.push(text(l.x, l.y, l.text, `text-anchor="middle" fill="#222" font-size="${BAR_LABEL_PX}"`));
  return out;
}
