/**
 * The report as one self-contained HTML document, drawn from the report model: inline CSS,
 * optional embedded fonts (data: URLs), charts as inline SVG, no script at all and a CSP that
 * forbids any (`script-src` falls back to `default-src 'none'`) and any network request.
 * The PDF is this document printed by Chromium. Every text goes through {@link esc}.
 */
import type { Block, Card, ChartSpec, Column, Msg, ReportModel, Section, Table, Val } from '@cacheproof/engine/report';
import { formatVal, headWithUnit, reportText, rt } from '../../shared/i18n/report.ts';
import { fmtNumber } from '../../shared/i18n/numbers.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { esc } from '../../shared/escape.ts';
import { chartSvg, legendItems } from '../../shared/chart-svg.ts';
import { CARD_VALUE_SIZES, CARD_VALUE_WIDTH_MM, cardValueSize, textWidthMm } from './card-fit.ts';
import { heatClass, heatRules } from './heat.ts';

export type Paper = 'a4' | 'letter';

/** Printable width per paper at 15 mm side margins, in CSS px (96 per inch). */
export const CONTENT_WIDTH_PX: Record<Paper, number> = { a4: ((210 - 30) / 25.4) * 96, letter: ((215.9 - 30) / 25.4) * 96 };
/** Printable height per paper (15 mm top, 18 mm bottom margin), CSS px. */
export const CONTENT_HEIGHT_PX: Record<Paper, number> = { a4: ((297 - 33) / 25.4) * 96, letter: ((279.4 - 33) / 25.4) * 96 };

/** A font embedded as a data: URL (regular and bold of one family). */
export interface EmbeddedFont {
  family: string;
  weight: 400 | 700;
  /** WOFF2 bytes, base64. */
  base64: string;
}

export interface HtmlOptions {
  /** `inline`: a <style> element (export); `none`: no styles (the app's preview adopts {@link REPORT_CSS} itself). */
  css: 'inline' | 'none';
  fonts?: EmbeddedFont[];
  /**
   * The page each section starts on (by `sec-<id>`), read from a first printing
   * ({@link namedDestinationPages}): printed in the contents page. Without it the contents page
   * keeps the numbers' place empty, so adding them moves nothing.
   */
  tocPages?: ReadonlyMap<string, number>;
}

/** The report's stylesheet: print-first (A4/Letter), readable on screen. */
export const REPORT_CSS = `
:root { --ink: #1b1f24; --muted: #5a6270; --rule: #d4d8de; --accent: #0b5394; --soft: #f3f6f9; --warn: #8a4b00; }
* { box-sizing: border-box; }
html { font-family: 'DejaVu Sans', Verdana, sans-serif; color: var(--ink); font-size: 9.5pt; line-height: 1.4; background: #fff; }
body { margin: 0; }
.report { max-width: 190mm; margin: 0 auto; padding: 8mm 5mm; }
@media print { .report { max-width: none; padding: 0; } }
h1, h2, h3 { color: var(--accent); line-height: 1.2; margin: 0; }
h2 { font-size: 16pt; margin: 0 0 4mm; padding-bottom: 1.5mm; border-bottom: 1.5pt solid var(--accent); }
h3 { font-size: 11.5pt; margin: 5mm 0 2mm; break-after: avoid; }
h3 .sub { color: var(--ink); font-weight: normal; }
p { margin: 0 0 2.5mm; }
.cover { min-height: 240mm; display: flex; flex-direction: column; justify-content: center; break-after: page; }
.cover .brand { color: var(--muted); letter-spacing: 0.2em; text-transform: uppercase; font-size: 9pt; margin-bottom: 6mm; }
.cover h1 { font-size: 26pt; margin-bottom: 3mm; overflow-wrap: anywhere; }
.cover .subtitle { font-size: 12pt; color: var(--muted); margin-bottom: 12mm; }
.cover dl { border-top: 1pt solid var(--rule); }
.cover .prepared { margin-top: 10mm; color: var(--muted); font-size: 8.5pt; }
.toc { margin-top: 10mm; }
.toc h2 { font-size: 13pt; margin-bottom: 2mm; }
.toc ol { padding-left: 6mm; font-size: 10.5pt; line-height: 1.8; margin: 0; }
.toc li { padding-left: 1mm; }
.toc a { color: var(--ink); text-decoration: none; display: flex; align-items: baseline; gap: 2mm; }
.toc .leader { flex: 1; border-bottom: 0.75pt dotted var(--muted); min-width: 8mm; }
.toc .pg { flex: none; min-width: 10mm; text-align: right; font-variant-numeric: tabular-nums; }
/* The summary opens the page after the cover; every other section follows on: a section that opened a
   page of its own left the page before it mostly empty (a health table alone above the TCO). Its
   heading never ends a page (h2, h3: break-after avoid). */
section.section { break-before: auto; margin-top: 9mm; }
section.section[data-section="summary"] { margin-top: 0; }
h2 { break-after: avoid; }
.facts { display: grid; grid-template-columns: 52mm 1fr; margin: 0 0 3mm; }
.facts dt, .facts dd { margin: 0; padding: 1.4mm 2mm 1.4mm 0; border-bottom: 0.5pt solid var(--rule); overflow-wrap: anywhere; }
.facts dt { color: var(--muted); font-weight: bold; }
.facts > div { display: contents; }
.facts .row { break-inside: avoid; }
/* A SHA-256 (64 hex digits) on one line of the value column, not 63 and a lone last digit. */
.facts .row[data-fact="a.sha256"] dd { font-size: 8pt; letter-spacing: -0.01em; }
.sentences { margin: 2mm 0 3mm; padding-left: 5mm; }
.sentences li { margin-bottom: 2mm; }
/* Two cards to a row, so that each value fits on one line (card-fit.ts picks its size). */
.cards { display: grid; grid-template-columns: repeat(2, 1fr); gap: 2.5mm; margin: 0 0 4mm; }
.card { border: 0.75pt solid var(--rule); border-left: 2.5pt solid var(--accent); border-radius: 1.5mm; padding: 2mm 2.5mm; background: var(--soft); break-inside: avoid; min-width: 0; }
.card h4 { margin: 0 0 1mm; font-size: 8.5pt; color: var(--muted); text-transform: uppercase; letter-spacing: 0.03em; }
.card .value { font-size: 13.5pt; font-weight: bold; margin-bottom: 1mm; white-space: nowrap; }
.card .value.wraps { white-space: normal; overflow-wrap: anywhere; }
.card .sub { font-size: 7.5pt; color: var(--muted); overflow-wrap: anywhere; }
figure.chart { margin: 3mm 0 5mm; break-inside: avoid; }
figure.chart figcaption { font-weight: bold; margin-bottom: 1.5mm; font-size: 10pt; }
figure.chart svg.chart { display: block; width: 100%; height: auto; }
.legend { display: flex; flex-wrap: wrap; gap: 1mm 5mm; margin: 1.5mm 0 1mm; padding: 0; list-style: none; font-size: 8.5pt; }
.legend li { display: flex; align-items: center; gap: 1.5mm; overflow-wrap: anywhere; }
.legend svg { width: 5mm; height: 2.5mm; flex: none; display: inline-block; }
.chart-note { font-size: 7.5pt; color: var(--muted); margin: 0.5mm 0 0; }
.chart-summary { font-size: 7.5pt; color: var(--muted); margin: 0.5mm 0 0; }
table.data { width: 100%; border-collapse: collapse; margin: 1mm 0 1.5mm; font-size: 8pt; table-layout: auto; }
table.data caption { text-align: left; font-weight: bold; font-size: 10pt; padding-bottom: 1.5mm; caption-side: top; }
table.data th, table.data td { padding: 1.1mm 1.4mm; border-bottom: 0.5pt solid var(--rule); vertical-align: top; overflow-wrap: break-word; }
table.data th { background: var(--soft); color: var(--muted); font-weight: bold; text-align: left; border-bottom: 1pt solid #aab2bd; hyphens: auto; }
table.data td.r, table.data th.r { text-align: right; }
/* The imports table: file names and SHA-256s are single words; they break anywhere rather than widen the table past the page. */
table.data[data-table="imports"] td { overflow-wrap: anywhere; }
table.data td.r { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.data tr.strong td { font-weight: bold; border-top: 0.75pt solid #aab2bd; }
table.data thead { display: table-header-group; }
table.data tr { break-inside: avoid; }
/* A short table (12 rows at most) is never cut: its title and header never end a page without its rows. */
table.data.whole { break-inside: avoid; }
table.data caption, table.data thead { break-after: avoid; }
.table-caption { font-size: 7.5pt; color: var(--muted); margin: 0 0 4mm; break-before: avoid; }
ul.notes { margin: 2mm 0 4mm; padding-left: 5mm; }
ul.notes li { margin-bottom: 1.8mm; overflow-wrap: anywhere; }
ul.notes.warning li::marker { color: var(--warn); }
ul.notes.warning { background: #fff7ec; border: 0.75pt solid #f0c890; border-radius: 1.5mm; padding: 2mm 3mm 1mm 8mm; }
.footer-note { margin-top: 8mm; font-size: 7.5pt; color: var(--muted); }
.short-form .short-head { margin-bottom: 4mm; }
.short-form .short-head .brand { color: var(--muted); letter-spacing: 0.2em; text-transform: uppercase; font-size: 8pt; }
.short-form .short-head h1 { font-size: 18pt; margin: 1mm 0 0.5mm; overflow-wrap: anywhere; }
.short-form .short-head .subtitle { color: var(--muted); font-size: 10.5pt; margin-bottom: 2mm; }
.short-form .short-head .facts { grid-template-columns: 30mm 1fr 30mm 1fr; font-size: 8pt; }
.short-form .short-head .facts dt, .short-form .short-head .facts dd { padding: 0.6mm 2mm 0.6mm 0; }
.short-form h2 { font-size: 13pt; margin-bottom: 2.5mm; }
.short-form .cards { gap: 2mm; margin-bottom: 2mm; }
.short-form .card { padding: 1.5mm 2mm; }
.short-form .card .value { font-size: 12pt; margin-bottom: 0.5mm; }
.short-form .card .sub { font-size: 6.8pt; }
.short-form figure.chart { margin: 2mm 0 2mm; }
.short-form ul.notes { margin: 1mm 0 2mm; }
.short-form section.section { break-before: auto; }
.short-form section.section[data-section="tco"] { break-before: page; }
/* with the decision block on page one, the TCO table follows the cards and chart on page two */
.short-form section[data-section="decision"] ~ section.section[data-section="tco"] { break-before: auto; }
.short-form section[data-section="decision"] > p:first-of-type { font-weight: bold; }
.short-form section[data-section="decision"] p, .short-form section[data-section="decision"] li { font-size: 8.3pt; line-height: 1.3; margin: 0 0 1mm; }
.short-form section[data-section="summary"] > p:first-of-type { font-size: 11pt; font-weight: bold; }
.short-form .footer-note { margin-top: 4mm; }
${[...new Set([...CARD_VALUE_SIZES.full, ...CARD_VALUE_SIZES.short])].map((pt) => `.report .card .value.${fitClass(pt)} { font-size: ${pt}pt; }`).join('\n')}
${heatRules()}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:; base-uri 'none'; form-action 'none'";

function fontFaces(fonts: EmbeddedFont[]): string {
  return fonts.map((f) => `@font-face { font-family: '${f.family.replace(/[^A-Za-z0-9 ]/g, '')}'; font-weight: ${f.weight}; font-style: normal; src: url(data:font/woff2;base64,${f.base64}) format('woff2'); }`).join('\n');
}

function val(v: Val, lang: Lang): string {
  return esc(formatVal(v, lang));
}

function vals(vs: Val[], lang: Lang): string {
  return esc(vs.map((v) => formatVal(v, lang)).filter((s) => s !== '').join(' '));
}

function tableHtml(t: Table, lang: Lang): string {
  const right = (c: Column): boolean => c.align === 'right';
  const head = t.columns.map((c) => `<th${right(c) ? ' class="r"' : ''} scope="col">${esc(headWithUnit(reportText(c.head, lang), c.unit, lang))}</th>`).join('');
  const rows = t.rows
    .map((r) => `<tr${r.strong === true ? ' class="strong"' : ''}>${r.cells.map((cell, i) => { const c = t.columns[i]; const h = r.heat?.[i]; const cls = [...(c !== undefined && right(c) ? ['r'] : []), ...(h === null || h === undefined ? [] : [heatClass(h)])]; return `<td${cls.length === 0 ? '' : ` class="${cls.join(' ')}"`}>${esc(formatVal(cell, lang, c?.unit !== undefined))}</td>`; }).join('')}</tr>`)
    .join('');
  const caption = t.caption === undefined ? '' : `<p class="table-caption">${esc(reportText(t.caption, lang))}</p>`;
  return `<table class="data${t.rows.length <= 12 ? ' whole' : ''}" data-table="${esc(t.id)}"><caption>${esc(reportText(t.title, lang))}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>${caption}`;
}

function chartHtml(c: ChartSpec, lang: Lang): string {
  const legend = legendItems(c, lang)
    // a dashed series gets a dashed swatch: colour is never the only thing that tells two series apart
    .map((l) => `<li${l.dashed ? ' data-dashed="true"' : ''}><svg viewBox="0 0 20 10" aria-hidden="true">${l.dashed
      ? [0, 8, 16].map((x) => `<rect x="${x}" y="3" width="${x === 16 ? 4 : 5}" height="4" fill="${esc(l.color)}"/>`).join('')
      : `<rect x="0" y="2" width="20" height="6" fill="${esc(l.color)}"/>`}</svg>${esc(l.name)}</li>`)
    .join('');
  const note = c.note === undefined ? '' : `<p class="chart-note">${esc(reportText(c.note, lang))}${c.bands !== undefined ? ` ${esc(rt('x.legendNote', lang))}` : ''}</p>`;
  return `<figure class="chart" data-figure="${esc(c.id)}"><figcaption>${esc(reportText(c.title, lang))}</figcaption>${chartSvg(c, lang)}<ul class="legend">${legend}</ul>${note}<p class="chart-summary">${esc(reportText(c.summary, lang))}</p></figure>`;
}

/** The class of a card value's font size (`fit-135` for 13.5 pt). */
function fitClass(pt: number): string {
  return `fit-${String(pt).replace('.', '')}`;
}

function cardHtml(c: Card, lang: Lang, fit: string): string {
  return `<div class="card" data-card="${esc(c.id)}"><h4>${esc(reportText(c.title, lang))}</h4><div class="value ${fit}">${vals(c.value, lang)}</div>${c.subs.map((s) => `<div class="sub">${esc(reportText(s, lang))}</div>`).join('')}</div>`;
}

/**
 * The cards of a block, their values in the one size at which each fits its card on one line. A
 * value too long even at the smallest size (a long reason in a language with long words) wraps
 * rather than running out of its card.
 */
function cardsHtml(cards: readonly Card[], lang: Lang, form: 'full' | 'short'): string {
  const texts = cards.map((c) => c.value.map((v) => formatVal(v, lang)).filter((x) => x !== '').join(' '));
  const pt = cardValueSize(texts, form);
  return `<div class="cards">${cards.map((c, i) => cardHtml(c, lang, fitClass(pt) + (textWidthMm(texts[i] ?? '', pt) > CARD_VALUE_WIDTH_MM ? ' wraps' : ''))).join('')}</div>`;
}

function factsHtml(rows: { label: Msg; value: Val[] }[], lang: Lang): string {
  return `<dl class="facts">${rows.map((r) => `<div class="row" data-fact="${esc(r.label.key)}"><dt>${esc(reportText(r.label, lang))}</dt><dd>${vals(r.value, lang)}</dd></div>`).join('')}</dl>`;
}

function blockHtml(b: Block, lang: Lang, form: 'full' | 'short'): string {
  switch (b.type) {
    case 'paragraph':
      return `<p>${esc(reportText(b.text, lang))}</p>`;
    case 'cards':
      return cardsHtml(b.cards, lang, form);
    case 'sentences':
      return `<ul class="sentences">${b.items.map((m) => `<li>${esc(reportText(m, lang))}</li>`).join('')}</ul>`;
    case 'facts':
      return factsHtml(b.rows, lang);
    case 'table':
      return tableHtml(b.table, lang);
    case 'chart':
      return chartHtml(b.chart, lang);
    case 'notes':
      return `<ul class="notes ${b.tone}">${b.items.map((v) => `<li>${val(v, lang)}</li>`).join('')}</ul>`;
    case 'subheading':
      return `<h3>${esc(reportText(b.text, lang))}${b.sub === undefined ? '' : `: <span class="sub">${val(b.sub, lang)}</span>`}</h3>`;
  }
}

function sectionHtml(s: Section, lang: Lang, form: 'full' | 'short'): string {
  return `<section class="section" id="sec-${esc(s.id)}" data-section="${esc(s.id)}"><h2>${esc(reportText(s.title, lang))}</h2>${s.blocks.map((b) => blockHtml(b, lang, form)).join('\n')}</section>`;
}

/** A page number as the contents page prints it (`data-page-of` spans). */
export function tocPageText(page: number, lang: Lang): string {
  return fmtNumber(lang, page);
}

/** The whole report as one HTML document (UTF-8 string). */
export function renderHtml(model: ReportModel, lang: Lang, options: HtmlOptions, appVersion: string): string {
  const title = formatVal(model.cover.title, lang);
  const style = options.css === 'inline' ? `<style>${fontFaces(options.fonts ?? [])}\n${REPORT_CSS}</style>` : '';
  if (model.form === 'short') {
    // The short form: a heading block instead of a cover page and a contents page; one page of
    // verdict, cards and chart, then the TCO bottom line on a page of its own.
    const keep = new Set(['cover.customer', 'cover.server', 'cover.prepared', 'cover.baseline', 'cover.measure', 'pr.cover.window']);
    const head = `<header class="short-head" data-section="cover"><div class="brand">CacheProof</div><h1>${esc(title)}</h1><div class="subtitle">${esc(reportText(model.cover.subtitle, lang))}</div>${factsHtml(model.cover.rows.filter((r) => keep.has(r.label.key)), lang)}</header>`;
    return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(`${title} — ${rt('x.docTitle', lang)}`)}</title>${style}</head>
<body><main class="report short-form">${head}
${model.sections.map((s) => sectionHtml(s, lang, 'short')).join('\n')}
<p class="footer-note">${esc(rt('x.preparedWith', lang, { version: appVersion }))}</p>
</main></body></html>
`;
  }
  const page = (id: string): string => {
    const n = options.tocPages?.get(`sec-${id}`);
    return n === undefined ? '' : esc(tocPageText(n, lang));
  };
  const toc = `<nav class="toc" aria-label="${esc(rt('x.contents', lang))}"><h2>${esc(rt('x.contents', lang))}</h2><ol>${model.sections.map((s) => `<li><a href="#sec-${esc(s.id)}"><span class="t">${esc(reportText(s.title, lang))}</span><span class="leader" aria-hidden="true"></span><span class="pg" data-page-of="sec-${esc(s.id)}">${page(s.id)}</span></a></li>`).join('')}</ol></nav>`;
  // The contents sit on the cover page, under the facts: no page of its own that would be mostly empty.
  const cover = `<section class="cover" data-section="cover"><div class="brand">CacheProof</div><h1>${esc(title)}</h1><div class="subtitle">${esc(reportText(model.cover.subtitle, lang))}</div>${factsHtml(model.cover.rows, lang)}${toc}<p class="prepared">${esc(rt('x.preparedWith', lang, { version: appVersion }))}</p></section>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(`${title} — ${rt('x.docTitle', lang)}`)}</title>${style}</head>
<body><main class="report">${cover}
${model.sections.map((s) => sectionHtml(s, lang, 'full')).join('\n')}
</main></body></html>
`;
}
