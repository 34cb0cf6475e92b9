/**
 * PowerPoint export: a few slides to take into a meeting — the cover, the verdict with the
 * headline figures (the dashboard's cards), the before/after chart, or a workload profile's
 * IOPS, MB/s and response time over time (native, editable PowerPoint line charts of the same
 * series as the PDF's, in the same colours), and the TCO
 * bottom line with its comparison table when the report has a TCO section. Drawn from the
 * report model like every other format (nothing is computed here), through pptxgenjs
 * (https://gitbrent.github.io/PptxGenJS/), written into the atomic writer's reserved file.
 */
import PptxGenJS from 'pptxgenjs';
import { COLOR, type Block, type Card, type ChartSpec, type ReportModel, type Table } from '@cacheproof/engine/report';
import { formatVal, headWithUnit, reportText } from '../../shared/i18n/report.ts';
import { timeAxisLabel } from '../../shared/chart-svg.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { paletteColor } from '../../shared/palette.ts';
import { heatHex } from './heat.ts';
import { decisionTexts } from '../../shared/i18n/decision-text.ts';

/** A font every PowerPoint and LibreOffice has. */
const FONT = 'Arial';
const ACCENT = '0B5394';
const GREY = '555555';
/** Slide size of LAYOUT_WIDE, inches. */
const W = 13.333;

const hex = (c: string): string => c.replace('#', '').toUpperCase();

function blocksOf(model: ReportModel, section: string): Block[] {
  return model.sections.find((s) => s.id === section)?.blocks ?? [];
}

function footer(slide: PptxGenJS.Slide, model: ReportModel, lang: Lang): void {
  slide.addText(formatVal(model.footer, lang), { x: 0.4, y: 7.05, w: W - 0.8, h: 0.3, fontFace: FONT, fontSize: 9, color: GREY });
}

function title(slide: PptxGenJS.Slide, text: string): void {
  slide.addText(text, { x: 0.4, y: 0.3, w: W - 0.8, h: 0.7, fontFace: FONT, fontSize: 26, bold: true, color: ACCENT });
}

function coverSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const s = pres.addSlide();
  s.addText('CacheProof', { x: 0.6, y: 0.6, w: 6, h: 0.4, fontFace: FONT, fontSize: 14, bold: true, color: GREY });
  s.addText(formatVal(model.cover.title, lang), { x: 0.6, y: 1.3, w: W - 1.2, h: 1.2, fontFace: FONT, fontSize: 36, bold: true, color: ACCENT });
  // two lines' room: a workload profile's subtitle runs to two in Russian
  s.addText(reportText(model.cover.subtitle, lang), { x: 0.6, y: 2.5, w: W - 1.2, h: 0.85, fontFace: FONT, fontSize: 18, color: GREY, valign: 'top' });
  const rows = model.cover.rows.map((r) => [
    { text: reportText(r.label, lang), options: { bold: true } },
    { text: r.value.map((v) => formatVal(v, lang)).join(' ') },
  ]);
  s.addTable(rows, { x: 0.6, y: 3.4, w: W - 1.2, colW: [3, W - 4.2], fontFace: FONT, fontSize: 12, color: '222222', border: { type: 'none' } });
  footer(s, model, lang);
}

function cardText(c: Card, lang: Lang): PptxGenJS.TextProps[] {
  return [
    { text: reportText(c.title, lang), options: { fontSize: 12, bold: true, color: GREY, breakLine: true } },
    { text: c.value.map((v) => formatVal(v, lang)).join(' '), options: { fontSize: 22, bold: true, color: '111111', breakLine: true } },
    ...c.subs.map((m, i) => ({ text: reportText(m, lang), options: { fontSize: 10, color: GREY, breakLine: i < c.subs.length - 1 } })),
  ];
}

function verdictSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const s = pres.addSlide();
  const summary = model.sections.find((x) => x.id === 'summary');
  title(s, summary === undefined ? '' : reportText(summary.title, lang));
  const blocks = blocksOf(model, 'summary');
  const verdict = blocks.find((b) => b.type === 'paragraph');
  if (verdict?.type === 'paragraph') s.addText(reportText(verdict.text, lang), { x: 0.4, y: 1.1, w: W - 0.8, h: 1.3, fontFace: FONT, fontSize: 18, color: '111111', valign: 'top' });
  // a workload profile's busiest hour, under its verdict
  const busiest = blocks.find((b) => b.type === 'paragraph' && b.text.key === 'pr.busiest');
  if (busiest?.type === 'paragraph') s.addText(reportText(busiest.text, lang), { x: 0.4, y: 2.7, w: W - 0.8, h: 0.8, fontFace: FONT, fontSize: 16, color: '111111', valign: 'top' });
  // …and its capacity
  const capacity = blocks.find((b) => b.type === 'paragraph' && b.text.key === 'pr.capSummary');
  if (capacity?.type === 'paragraph') s.addText(reportText(capacity.text, lang), { x: 0.4, y: 3.6, w: W - 0.8, h: 0.9, fontFace: FONT, fontSize: 16, color: '111111', valign: 'top' });
  const cards = blocks.find((b) => b.type === 'cards');
  if (cards?.type === 'cards') {
    const n = cards.cards.length;
    const gap = 0.2;
    const w = (W - 0.8 - gap * (n - 1)) / Math.max(1, n);
    cards.cards.forEach((c, i) => {
      s.addText(cardText(c, lang), { x: 0.4 + i * (w + gap), y: 2.7, w, h: 4.1, fontFace: FONT, valign: 'top', margin: 8, fill: { color: 'F2F5F9' }, line: { color: 'C9D3DF', width: 1 } });
    });
  }
  footer(s, model, lang);
}

/**
 * Slide 2, the decision block (engine decision.ts) as every format words it: the verdict with its
 * basis, what it rests on, pays back or not, the measured figures, drive life, then the three caveats.
 * The font steps down with the length of the words (Russian runs about a third longer than English).
 */
function decisionSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  if (model.decision === undefined) return;
  const t = decisionTexts(model.decision, lang);
  const s = pres.addSlide();
  title(s, t.title);
  const chars = [...t.lines, ...t.caveats].reduce((n, x) => n + x.length, 0);
  const size = chars > 2900 ? 9 : chars > 2400 ? 10 : chars > 1900 ? 11 : 12;
  const para = (x: string, i: number, all: string[], opts: PptxGenJS.TextPropsOptions = {}): PptxGenJS.TextProps => ({ text: x, options: { ...opts, breakLine: i < all.length - 1, paraSpaceAfter: 4 } });
  const body: PptxGenJS.TextProps[] = t.lines.map((x, i) => para(x, i, t.lines, i === 0 ? { bold: true } : {}));
  const split = 4.6;
  s.addText(body, { x: 0.4, y: 1.0, w: W - 0.8, h: split - 1.0, fontFace: FONT, fontSize: size, color: '111111', valign: 'top', fit: 'shrink' });
  const cav: PptxGenJS.TextProps[] = [
    { text: t.caveatsTitle, options: { bold: true, color: ACCENT, breakLine: true } },
    ...t.caveats.map((x, i) => para(x, i, t.caveats, { bullet: true })),
  ];
  s.addText(cav, { x: 0.4, y: split + 0.05, w: W - 0.8, h: 6.95 - split, fontFace: FONT, fontSize: Math.max(9, size - 1), color: '333333', valign: 'top', fit: 'shrink' });
  footer(s, model, lang);
}

/** The last slide: the caveats, the decision block's three first, then the report's warnings (the caveats section's), every one. */
function caveatsSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const section = model.sections.find((x) => x.id === 'caveats');
  // a deck with a decision block (a before/after report); a workload profile's deck keeps its slides until it has one
  if (model.decision === undefined) return;
  const first = decisionTexts(model.decision, lang).caveats;
  const warnings = (section?.blocks ?? []).flatMap((b) => (b.type === 'notes' && b.tone === 'warning' ? b.items.map((v) => formatVal(v, lang)) : []));
  const items = [...first, ...warnings].filter((x) => x !== '');
  if (section === undefined || items.length === 0) return;
  const s = pres.addSlide();
  title(s, reportText(section.title, lang));
  const size = items.join('').length > 2200 ? 10 : 12;
  s.addText(items.map((x, i) => ({ text: x, options: { bullet: true, breakLine: i < items.length - 1, paraSpaceAfter: 6 } })), { x: 0.4, y: 1.1, w: W - 0.8, h: 5.8, fontFace: FONT, fontSize: size, color: '111111', valign: 'top', fit: 'shrink' });
  footer(s, model, lang);
}

/**
 * The time charts a deck draws, a slide each: the before/after IOPS, the fleet's IOPS over time
 * (fleet-chart.ts), and a workload profile's IOPS, MB/s and response time over time (profile-charts.ts).
 */
const SLIDE_CHARTS = ['iops-time', 'fleet-iops-time', 'profile-iops-time', 'profile-mbps-time', 'profile-latency-time'];
/** The charts whose note (what a point is: a bucket's figure) the slide prints under the summary, as the PDF does. */
const NOTED_CHARTS = new Set(['fleet-iops-time', 'profile-iops-time', 'profile-mbps-time', 'profile-latency-time']);

function chartSlide(pres: PptxGenJS, model: ReportModel, chart: ChartSpec, lang: Lang): void {
  const s = pres.addSlide();
  title(s, reportText(chart.title, lang));
  const times = chart.series[0]?.points.map(([t]) => t) ?? [];
  // the times as the PDF's axis writes them (the day only across days, seconds only under 20 minutes; the axis title says UTC)
  const label = timeAxisLabel(lang, times[0] ?? 0, times.at(-1) ?? 0);
  const labels = times.map(label);
  const data = chart.series.map((ser) => ({
    name: formatVal(ser.name, lang),
    labels,
    // PowerPoint draws a gap for an empty point
    values: ser.points.map(([, y]) => (y === null ? Number.NaN : y)),
  }));
  const colour = (ser: ChartSpec['series'][number]): string => hex(paletteColor(ser.color));
  // a wider series (the backing drives', which lies under the front's before the switch) is a line
  // chart of its own drawn first, underneath, as in the PDF; widths in points
  const width = (ser: ChartSpec['series'][number]): number => Math.max(1.5, ser.width ?? 0);
  const widths = [...new Set(chart.series.map(width))].sort((a, b) => b - a);
  const layers: { type: 'line'; data: typeof data; options: Record<string, unknown> }[] = widths.map((lw) => {
    const idx = chart.series.flatMap((ser, i) => (width(ser) === lw ? [i] : []));
    return { type: 'line' as const, data: idx.map((i) => data[i] as (typeof data)[number]), options: { chartColors: idx.map((i) => colour(chart.series[i] as ChartSpec['series'][number])), lineSize: lw } };
  });
  // a reference line (the fleet's p95) is a dashed series of its value at every point, on top, as in the PDF
  const refs = (chart.refLines ?? []).map((r) => ({ name: reportText(r.label, lang), labels, values: labels.map(() => r.y) }));
  if (refs.length > 0) layers.push({ type: 'line', data: refs, options: { chartColors: refs.map(() => hex(paletteColor(COLOR.other))), lineSize: 1.5, lineDash: 'dash' } });
  // a bucketed chart says so under it, with its summary (the note is the PDF's)
  const note = chart.note !== undefined && NOTED_CHARTS.has(chart.id) ? reportText(chart.note, lang) : null;
  const chartH = note === null ? 5.2 : 4.75;
  const opts: PptxGenJS.IChartOpts = {
    x: 0.4, y: 1.1, w: W - 0.8, h: chartH,
    chartColors: chart.series.map(colour),
    lineSize: 1.5, lineDataSymbol: 'none',
    // an empty point (no data: the hours between a before and an after file) is a gap, never a line drawn across it (pptxgenjs' default is 'span')
    displayBlanksAs: 'gap',
    showLegend: true, legendPos: 'b', legendFontFace: FONT, legendFontSize: 11,
    showValAxisTitle: true, valAxisTitle: headWithUnit(reportText(chart.y.label, lang), chart.y.unit, lang), valAxisTitleFontSize: 11,
    showCatAxisTitle: true, catAxisTitle: reportText(chart.x.label, lang), catAxisTitleFontSize: 11,
    catAxisLabelFontSize: 9, valAxisLabelFontSize: 10, catAxisLabelFrequency: String(Math.max(1, Math.ceil(labels.length / 8))),
    ...(chart.y.min === undefined ? {} : { valAxisMinVal: chart.y.min }),
  };
  // pptxgenjs takes a multi-type chart's options in place of its data (its typings say data)
  if (layers.length > 1) s.addChart(layers as unknown as PptxGenJS.IChartMulti[], opts as unknown as unknown[]);
  else s.addChart(pres.ChartType.line, data, opts);
  const textY = 1.1 + chartH + 0.05;
  s.addText(reportText(chart.summary, lang) + (note === null ? '' : `\n${note}`), { x: 0.4, y: textY, w: W - 0.8, h: 7.0 - textY, fontFace: FONT, fontSize: note === null ? 10 : 9, color: GREY, valign: 'top', fit: 'shrink' });
  footer(s, model, lang);
}

function tableRows(t: Table, lang: Lang): PptxGenJS.TableRow[] {
  const head = t.columns.map((c) => ({ text: headWithUnit(reportText(c.head, lang), c.unit, lang), options: { bold: true, fill: { color: 'E8EEF5' } } }));
  return [head, ...t.rows.map((r) => r.cells.map((v, i) => ({ text: formatVal(v, lang), options: { bold: r.strong === true, align: t.columns[i]?.align ?? 'left' } })))];
}

function tcoSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const blocks = blocksOf(model, 'tco');
  if (blocks.length === 0) return;
  const s = pres.addSlide();
  const section = model.sections.find((x) => x.id === 'tco');
  title(s, section === undefined ? '' : reportText(section.title, lang));
  // the bottom line: the engine's verdict with its sizing basis (the TCO section's paragraph, the words of the PDF,
  // the Planner and `cacheproof tco`), then the summary's TCO sentence (the same text as the PDF's executive summary)
  const verdict = blocks.find((b) => b.type === 'paragraph' && b.text.key === 'tco.verdict');
  if (verdict?.type === 'paragraph') s.addText(reportText(verdict.text, lang), { x: 0.4, y: 1.0, w: W - 0.8, h: 1.5, fontFace: FONT, fontSize: 14, bold: true, color: '111111', valign: 'top', fit: 'shrink' });
  const sentences = blocksOf(model, 'summary').find((b) => b.type === 'sentences');
  const line = sentences?.type === 'sentences' ? sentences.items.find((m) => m.key === 'sum.tco' || m.key === 'sum.tcoRef') : undefined;
  if (line !== undefined) s.addText(reportText(line, lang), { x: 0.4, y: 2.5, w: W - 0.8, h: 0.5, fontFace: FONT, fontSize: 13, color: '111111', valign: 'top', fit: 'shrink' });
  // example prices: the full report's warning, above the totals it speaks of
  const prices = blocks.find((b) => b.type === 'paragraph' && b.text.key === 'tco.examplePrices');
  if (prices?.type === 'paragraph') s.addText(reportText(prices.text, lang), { x: 0.4, y: 3.0, w: W - 0.8, h: 0.45, fontFace: FONT, fontSize: 11, bold: true, color: 'A61C00', valign: 'top', fit: 'shrink' });
  const table = blocks.find((b) => b.type === 'table');
  if (table?.type === 'table') {
    s.addText(reportText(table.table.title, lang), { x: 0.4, y: 3.5, w: W - 0.8, h: 0.4, fontFace: FONT, fontSize: 14, bold: true, color: ACCENT });
    s.addTable(tableRows(table.table, lang), { x: 0.4, y: 3.95, w: W - 0.8, fontFace: FONT, fontSize: 11, border: { type: 'solid', pt: 0.5, color: 'C9D3DF' }, autoPage: false });
  }
  footer(s, model, lang);
}

/**
 * A workload profile's or a fleet's sizing (sizing-section.ts), a slide: the basis it was sized on
 * (with the peak beside it), then per configuration the drives for IOPS, for capacity, to buy, what decides and the cache.
 */
function sizingSlide(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const section = model.sections.find((x) => x.id === 'sizing');
  if (section === undefined) return;
  const s = pres.addSlide();
  title(s, reportText(section.title, lang));
  const basis = section.blocks.find((b) => b.type === 'paragraph');
  if (basis?.type === 'paragraph') s.addText(reportText(basis.text, lang), { x: 0.4, y: 1.0, w: W - 0.8, h: 1.1, fontFace: FONT, fontSize: 13, color: '111111', valign: 'top', fit: 'shrink' });
  const table = section.blocks.find((b) => b.type === 'table');
  if (table?.type === 'table') {
    s.addText(reportText(table.table.title, lang), { x: 0.4, y: 2.15, w: W - 0.8, h: 0.4, fontFace: FONT, fontSize: 14, bold: true, color: ACCENT });
    s.addTable(tableRows(table.table, lang), { x: 0.4, y: 2.6, w: W - 0.8, fontFace: FONT, fontSize: 10, border: { type: 'solid', pt: 0.5, color: 'C9D3DF' }, autoPage: false });
  }
  footer(s, model, lang);
}

/** A workload profile's tables (profile-report.ts), a slide each: its figures, its busiest-hours heatmap (shaded as in the PDF) and its capacity. */
const PROFILE_SLIDES = ['profile-figures', 'profile-hours', 'profile-capacity'];

function profileSlides(pres: PptxGenJS, model: ReportModel, lang: Lang): void {
  const tables = model.sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'table' && PROFILE_SLIDES.includes(b.table.id) ? [b.table] : []));
  for (const t of tables) {
    const s = pres.addSlide();
    title(s, reportText(t.title, lang));
    const rows = tableRows(t, lang).map((r, i) => r.map((c, j) => {
      const h = t.rows[i - 1]?.heat?.[j];
      return h === null || h === undefined ? c : { ...c, options: { ...c.options, fill: { color: heatHex(h) } } };
    }));
    s.addTable(rows, { x: 0.4, y: 1.1, w: W - 0.8, fontFace: FONT, fontSize: t.rows.length > 14 ? 8 : 11, rowH: t.rows.length > 14 ? 0.21 : 0.3, border: { type: 'solid', pt: 0.5, color: 'C9D3DF' }, autoPage: false });
    footer(s, model, lang);
  }
}

/** The deck as bytes. */
export async function pptxBytes(model: ReportModel, lang: Lang): Promise<Uint8Array> {
  const pres = new PptxGenJS();
  pres.layout = 'LAYOUT_WIDE';
  pres.author = 'CacheProof';
  pres.company = 'CacheProof';
  pres.title = formatVal(model.cover.title, lang);
  coverSlide(pres, model, lang);
  decisionSlide(pres, model, lang);
  verdictSlide(pres, model, lang);
  for (const b of model.sections.flatMap((s) => s.blocks)) if (b.type === 'chart' && SLIDE_CHARTS.includes(b.chart.id)) chartSlide(pres, model, b.chart, lang);
  profileSlides(pres, model, lang);
  sizingSlide(pres, model, lang);
  tcoSlide(pres, model, lang);
  caveatsSlide(pres, model, lang);
  const out = await pres.write({ outputType: 'uint8array', compression: true });
  return out as Uint8Array;
}
