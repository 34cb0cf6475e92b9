/**
 * PDF: the report's HTML printed by Chromium. The host prints through a {@link PdfPrinter}: the
 * CLI and the browser host use headless Chromium via playwright-core ({@link chromiumPrinter});
 * the Electron shell can inject its own printer built on `webContents.printToPDF` (the host
 * never imports Electron). Before printing, the layout is measured at the paper's printable
 * width: every chart and table must fit inside it ({@link Overflow}).
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HostError } from '../errors.ts';
import { CONTENT_HEIGHT_PX, CONTENT_WIDTH_PX, type Paper } from './html.ts';
import { REPORT_FONT_FAMILY } from './fonts.ts';
import { reportTime } from './timing.ts';

/** An element wider than the printable width, an element whose content runs out of it, or a chart taller than a page. */
export interface Overflow {
  kind: string;
  id: string;
  /** Right edge of the element from the column's left edge, px. */
  width: number;
  height: number;
  limitWidth: number;
  /** How far the element's content runs past its own box, px (0: it does not). */
  contentOver: number;
  limitHeight: number;
}

/** What went wrong with one element, in a sentence (the CLI's warning). */
export function overflowSentence(o: Overflow): string {
  const what = `${o.kind} "${o.id}"`;
  if (o.width > o.limitWidth + 0.5) return `${what} is ${o.width}px wide, wider than the page's ${o.limitWidth}px.`;
  if (o.contentOver > 1) return `${what}: its content runs ${o.contentOver}px past its box.`;
  return `${what} is ${o.height}px tall, taller than the page's ${o.limitHeight}px.`;
}

export interface PrintJob {
  html: string;
  paper: Paper;
  /** Footer ({@link footerCss}): left text and the "Page {page} of {pages}" pattern. */
  footerLeft: string;
  pageOf: string;
  lang: string;
}

export interface PrintResult {
  pdf: Buffer;
  overflow: Overflow[];
  /** Messages of any JavaScript dialog the document tried to open (must stay empty: the report has no script). */
  dialogs: string[];
  /** The font faces the document had loaded when it was printed, as `family weight` (`DejaVu Sans 700`). */
  fonts: string[];
}

/** Evaluated in the printed page after `document.fonts.ready`: its loaded faces, as {@link PrintResult.fonts}. */
export const LOADED_FONTS_EXPRESSION = `[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/["']/g, '') + ' ' + f.weight)`;

/**
 * A report loaded once and printed more than once: a quick draft tells where each section
 * starts (its named destinations), the contents page's numbers are then written into the loaded
 * page, in the place reserved for them, and the report is printed for real. One load, one layout,
 * and a draft that costs a fraction of a printing.
 */
export interface PrintDocument {
  /** The same layout printed without backgrounds, tags or outline (none moves a page): where each named destination lands. */
  draft(): Promise<Buffer>;
  /** Sets the text of each contents-page number (`[data-page-of="sec-…"]`, by that name; absent: empty). */
  number(texts: ReadonlyMap<string, string>): Promise<void>;
  /** The printing itself, as {@link PdfPrinter.print} gives it. */
  print(): Promise<PrintResult>;
  close(): Promise<void>;
}

/** Something that turns report HTML into a PDF (Chromium here; Electron's printToPDF in the app). */
export interface PdfPrinter {
  /** Optional: start the browser now (it boots while the capture is read). */
  warmUp?(): void;
  print(job: PrintJob): Promise<PrintResult>;
  /** Optional: loads a report to print it more than once ({@link PrintDocument}); without it the report is loaded again for each printing. */
  open?(job: PrintJob): Promise<PrintDocument>;
  close(): Promise<void>;
}

/** Evaluated in a loaded report: sets the contents page's numbers (the texts by `data-page-of`; the others empty). */
export function numberExpression(texts: ReadonlyMap<string, string>): string {
  return `((texts) => { for (const el of document.querySelectorAll('[data-page-of]')) el.textContent = texts[el.getAttribute('data-page-of')] ?? ''; })(${JSON.stringify(Object.fromEntries(texts))})`;
}

/** Chromium's launch arguments (the same as e2e/playwright.config.ts). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The Chromium binary: $CACHEPROOF_CHROMIUM, else the usual Linux locations; null when none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [env['CACHEPROOF_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
  for (const c of candidates) if (c !== undefined && c !== '' && existsSync(c)) return c;
  return null;
}

/** Page margins of every printed report, millimetres (the bottom one holds the footer). */
export const PDF_MARGINS_MM = { top: 15, bottom: 18, left: 15, right: 15 } as const;

const MM_PER_INCH = 25.4;
const CSS_PX_PER_INCH = 96;

/**
 * A text as a CSS string literal: backslashes, quotes, control characters and `<` `>` `&` as hex
 * escapes, so that nothing in it can end the string, the rule or the `<style>` element holding it.
 *
 * @example cssString('a "b" </style>') // '"a \\22 b\\22  \\3c /style\\3e "'
 */
export function cssString(s: string): string {
  const escaped = Array.from(s, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f || '\\"<>&'.includes(c) ? `\\${code.toString(16)} ` : c;
  });
  return `"${escaped.join('')}"`;
}

/** The "Page {page} of {pages}" pattern as a CSS `content` value: its texts as strings, the numbers as the page counters. */
function pageOfContent(pageOf: string): string {
  return pageOf
    .split(/(\{pages?\})/u)
    .filter((part) => part !== '')
    .map((part) => (part === '{page}' ? 'counter(page)' : part === '{pages}' ? 'counter(pages)' : cssString(part)))
    .join(' ');
}

/**
 * How much wider than the PDF page it writes Chromium lays a page out, CSS px, as measured on
 * headless Chromium 156: Playwright's A4 (8.27 × 11.7 in) has its page area end 0.24 pt right of
 * the PDF page's width less the margin; Letter none. The right margin box ends with the page
 * area, where the footer template (laid out on the PDF page) did not.
 */
const LAID_OUT_WIDER_PX: Record<Paper, number> = { a4: 0.32, letter: 0 };

/**
 * Footer of every page: the report's name on the left, "Page n of N" on the right, as the
 * document's own CSS paged-media margin boxes (`@page { @bottom-left … @bottom-right … }`,
 * Chromium 131 and later). They are drawn in the document's already loaded DejaVu Sans regular,
 * 7.5 px, the baseline 15 pt + the descent above the paper's foot, the texts 15 mm from the
 * paper's left and right edges. (A `footerTemplate` is a document of its own, laid out for every
 * page, that needed the whole font inlined: it doubled the printing's time.) A name too long to
 * sit beside the page number wraps within the footer rather than running under it.
 */
export function footerCss(left: string, pageOf: string, paper: Paper): string {
  const box = `font-family: '${REPORT_FONT_FAMILY}', Verdana, sans-serif; font-size: 7.5px; font-weight: normal; font-style: normal; color: #5a6270; line-height: normal; letter-spacing: normal; vertical-align: bottom; padding-bottom: 15pt;`;
  // Chromium lays the page area out at margins cut to whole CSS px (15 mm = 56.69 px: 56 px); the
  // rest, as padding, keeps the footer 15 mm from the paper's edges, where the template drew it.
  const inset = (mm: number, wider = 0): string => `calc(${mm}mm - ${Math.floor((mm / MM_PER_INCH) * CSS_PX_PER_INCH)}px + ${wider}px)`;
  return `@page { @bottom-left { content: ${cssString(left)}; ${box} text-align: left; padding-left: ${inset(PDF_MARGINS_MM.left)}; padding-right: 8mm; overflow-wrap: anywhere; } @bottom-right { content: ${pageOfContent(pageOf)}; ${box} text-align: right; white-space: nowrap; padding-right: ${inset(PDF_MARGINS_MM.right, LAID_OUT_WIDER_PX[paper])}; } }`;
}

/** The HTML a printer loads for a job: the report with its page footer ({@link footerCss}) in a `<style>` at the end of its head. */
export function printableHtml(job: Pick<PrintJob, 'html' | 'footerLeft' | 'pageOf' | 'paper'>): string {
  const style = `<style>${footerCss(job.footerLeft, job.pageOf, job.paper)}</style>`;
  const head = job.html.indexOf('</head>');
  return head < 0 ? `${job.html}${style}` : `${job.html.slice(0, head)}${style}${job.html.slice(head)}`;
}

/** Measured in the page: tables, charts, cards and facts wider than the column, charts taller than a page. */
const MEASURE = `(([limit, pageH]) => {
  const out = [];
  const left = document.querySelector('main.report').getBoundingClientRect().left;
  for (const el of document.querySelectorAll('table.data, figure.chart, figure.chart svg, .card, dl.facts, ul.notes, h1, h2, h3, p')) {
    const r = el.getBoundingClientRect();
    const right = r.right - left;
    const inner = el.scrollWidth - el.clientWidth;
    const tooTall = el.matches('figure.chart') && r.height > pageH;
    if (right > limit + 0.5 || inner > 1 || tooTall) out.push({ kind: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''), id: el.getAttribute('data-table') || el.getAttribute('data-figure') || el.getAttribute('data-chart') || el.getAttribute('data-card') || (el.textContent || '').slice(0, 40), width: Math.round(right), height: Math.round(r.height), limitWidth: Math.round(limit), contentOver: Math.max(0, Math.round(inner)), limitHeight: Math.round(pageH) });
  }
  return out;
})`;

/**
 * The expression that measures a loaded report at the paper's printable width: evaluated by the
 * printer through DevTools (Playwright's `page.evaluate`, Electron's `webContents.debugger`),
 * which runs even though the page itself has JavaScript disabled. Its value is an {@link Overflow} array.
 */
export function measureExpression(paper: Paper): string {
  return `${MEASURE}([${CONTENT_WIDTH_PX[paper]}, ${CONTENT_HEIGHT_PX[paper]}])`;
}

/**
 * Chromium's options for the printing of a report: the paper, its margins, and (not for a draft)
 * backgrounds, tags and outline, none of which moves a page (a draft is read for its named
 * destinations only). The footer is the document's own ({@link printableHtml}).
 */
function pdfOptions(job: PrintJob, draft: boolean): Parameters<Page['pdf']>[0] {
  const paper = { format: job.paper === 'a4' ? 'A4' : 'Letter', printBackground: !draft, margin: { top: `${PDF_MARGINS_MM.top}mm`, bottom: `${PDF_MARGINS_MM.bottom}mm`, left: `${PDF_MARGINS_MM.left}mm`, right: `${PDF_MARGINS_MM.right}mm` } };
  return { ...paper, displayHeaderFooter: false, tagged: !draft, outline: !draft };
}

/** An empty page of its own, ready for a report: its context, and the dialogs the document tries to open. */
interface BlankPage {
  context: BrowserContext;
  page: Page;
  dialogs: string[];
}

/** Opens a {@link BlankPage}: JavaScript off, network cut (any request other than data:/about: is aborted), print media, `paper`'s printable width. */
async function blankPage(b: Browser, paper: Paper): Promise<BlankPage> {
  const context = await b.newContext({ javaScriptEnabled: false, offline: true, viewport: { width: Math.floor(CONTENT_WIDTH_PX[paper]), height: 1100 } });
  try {
    await context.route('**/*', (route) => {
      const url = route.request().url();
      return url.startsWith('data:') || url.startsWith('about:') ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.emulateMedia({ media: 'print' });
    return { context, page, dialogs };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/** Loads a report in a {@link BlankPage} (at its paper's printable width), waits for its fonts and measures its layout. */
async function loadReport(blank: BlankPage, job: PrintJob): Promise<PrintDocument> {
  const { context, page, dialogs } = blank;
  try {
    await page.setViewportSize({ width: Math.floor(CONTENT_WIDTH_PX[job.paper]), height: 1100 });
    reportTime('page opened');
    await page.setContent(printableHtml(job), { waitUntil: 'load' });
    reportTime('page loaded');
    await page.evaluate('document.fonts.ready.then(() => undefined)').catch(() => undefined);
    const overflow = (await page.evaluate(measureExpression(job.paper))) as Overflow[];
    const fonts = (await page.evaluate(LOADED_FONTS_EXPRESSION)) as string[];
    reportTime('fonts ready, layout measured');
    return {
      draft: async () => {
        const pdf = await page.pdf(pdfOptions(job, true));
        reportTime('draft printed');
        return pdf;
      },
      number: async (texts) => {
        await page.evaluate(numberExpression(texts));
      },
      print: async () => {
        const pdf = await page.pdf(pdfOptions(job, false));
        reportTime('printed');
        return { pdf, overflow, dialogs, fonts };
      },
      close: () => context.close(),
    };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/**
 * A printer on headless Chromium (one browser for all the jobs of this printer; close it when
 * done). Network is cut: any request other than data:/about: is aborted.
 */
export function chromiumPrinter(executablePath: string | null = findChromium()): PdfPrinter {
  let browser: Promise<Browser> | null = null;
  const launch = async (): Promise<Browser> => {
    if (executablePath === null) throw new HostError('report-no-browser', 'Printing a PDF needs Chromium, and none was found. Install it (Debian: apt-get install chromium) or set CACHEPROOF_CHROMIUM to its path.');
    const { chromium } = await import('playwright-core');
    const b = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    reportTime('chromium launched');
    return b;
  };
  const started = async (): Promise<Browser> => {
    browser ??= launch();
    try {
      return await browser;
    } catch (err) {
      browser = null;
      if (err instanceof HostError) throw err;
      throw new HostError('report-no-browser', `Chromium (${executablePath ?? '?'}) could not be started: ${(err as Error).message.split('\n')[0]}`);
    }
  };
  // warmUp opens one blank page ahead (while the capture is analysed); the next report loads into it
  let spare: Promise<BlankPage> | null = null;
  const open = async (job: PrintJob): Promise<PrintDocument> => {
    const taken = spare;
    spare = null;
    const ready = taken === null ? null : await taken.catch(() => null);
    return loadReport(ready ?? (await blankPage(await started(), job.paper)), job);
  };
  return {
    warmUp(): void {
      if (browser === null) {
        const b = launch();
        b.catch(() => undefined);
        browser = b;
      }
      if (spare === null) {
        spare = browser.then((b) => blankPage(b, 'a4'));
        spare.catch(() => undefined);
      }
    },
    open,
    async print(job: PrintJob): Promise<PrintResult> {
      const doc = await open(job);
      try {
        return await doc.print();
      } finally {
        await doc.close();
      }
    },
    async close(): Promise<void> {
      const taken = spare;
      spare = null;
      const unused = taken === null ? null : await taken.catch(() => null);
      await unused?.context.close();
      if (browser !== null) {
        const b = await browser.catch(() => null);
        browser = null;
        await b?.close();
      }
    },
  };
}
