/**
 * The report exporters' front door (CLI and app alike): loads the capture and the scenario,
 * builds the model, draws it in the chosen format and language, and writes the file(s)
 * atomically through the one writer (host/atomic-write.ts): everything goes to a temporary file
 * next to the target, fsynced and renamed only when complete; on any failure the temporary files
 * are removed, so no partial report is left. An output that is one of the inputs (the capture,
 * the scenario, the cover…, by any name, hard link or symlink) is refused before anything is read.
 */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { shortForm, type ReportModel } from '@cacheproof/engine/report';
import { formatVal, rt } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { AtomicFile } from '../atomic-write.ts';
import { HostError } from '../errors.ts';
import { clashingInput, clashSentence, type NamedInput } from '../same-file.ts';
import { summaryCsv, writeIntervalsCsv } from './csv.ts';
import { reportFonts } from './fonts.ts';
import { renderHtml, tocPageText, type Paper } from './html.ts';
import type { LoadOptions } from './input.ts';
import { loadReportOrProfile } from './profile.ts';
import { chromiumPrinter, type Overflow, type PdfPrinter, type PrintDocument, type PrintJob, type PrintResult } from './pdf.ts';
import { namedDestinationPages } from './pdf-dests.ts';
import { reportTime } from './timing.ts';

export const REPORT_FORMATS = ['pdf', 'html', 'xlsx', 'csv', 'pptx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const PAPERS = ['a4', 'letter'] as const;
/** `full`: the whole report; `short`: the two pages for managers (engine shortForm), PDF and HTML. */
export const REPORT_FORMS = ['full', 'short'] as const;
export type ReportForm = (typeof REPORT_FORMS)[number];

export function isReportFormat(s: string): s is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(s);
}

/** Report stages, in order (the progress bar names them). */
export type ReportStage = 'open' | 'hash' | 'analyze' | 'model' | 'render' | 'print' | 'write' | 'done';

export type Progress = (percent: number, stage: ReportStage) => void;

export interface ExportRequest {
  format: ReportFormat;
  /** Default `full`; `short` only for PDF and HTML. */
  form?: ReportForm;
  lang: Lang;
  paper: Paper;
  /** Target file. For CSV it is the summary; the intervals go to `<name>-intervals.csv` beside it. */
  out: string;
  /** `profile`: the workload-profile report (profile.ts), which a capture with a baseline alone gets anyway. */
  load: LoadOptions & { profile?: boolean };
  /** XLSX: write the per-interval sheets even above XLSX_INTERVAL_ROWS_LIMIT rows (xlsx.ts). */
  allIntervals?: boolean;
  /** The command's other input files (scenario, cover, targets): no output may be one of them (nor the capture). */
  inputs?: NamedInput[];
  /** PDF printer; default a headless Chromium started for this export and closed after. */
  printer?: PdfPrinter;
}

export interface ExportResult {
  files: string[];
  overflow: Overflow[];
  /** Dialogs the document tried to open while printing (none expected). */
  dialogs: string[];
  /** PDF only: the font faces loaded when it was printed (the shipped DejaVu Sans, regular and bold). */
  fonts: string[];
  /** PDF only: the page each section starts on, as its contents page prints it (null: not numbered). */
  tocPages?: ReadonlyMap<string, number> | null;
  model: ReportModel;
  /** Which report was written: the before/after one, the workload profile (asked for, or a capture with a baseline alone), or a fleet's (a folder, a fleet capture with no switch). */
  kind: 'before-after' | 'profile' | 'fleet';
}

/** The second file of a CSV export: `report.csv` → `report-intervals.csv`. */
export function intervalsCsvPath(out: string): string {
  const base = basename(out);
  const stem = base.toLowerCase().endsWith('.csv') ? base.slice(0, -4) : base;
  return join(dirname(out), `${stem}-intervals.csv`);
}

/** The file system's refusals of a write, a sync or a rename (`report-cannot-write`, exit 6); any other error is a bug. */
const WRITE_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EACCES', 'EPERM', 'EROFS', 'EISDIR']);

/** Why a target cannot be written, in words (errno code → cause). */
function cannotWriteWhy(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'the folder does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left on the device';
    case 'EFBIG':
      return 'the file is larger than the file system allows';
    case 'EIO':
      return 'the disk reported an I/O error (EIO)';
    default:
      return e.message;
  }
}

/** Reserves a temporary file beside `target` (proves the folder is writable); HostError `report-cannot-write` otherwise. */
function reserve(target: string): AtomicFile {
  try {
    return AtomicFile.create(target);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EISDIR') throw new HostError('report-cannot-write', `Cannot write the report to ${target}: it is a folder. Give a file name, e.g. ${join(target, 'report.pdf')}.`);
    throw new HostError('report-cannot-write', `Cannot write the report to ${target}: ${cannotWriteWhy(e)}. Choose a folder you can write to.`);
  }
}

/** Fills a reserved temporary file (the commit fsyncs and renames it). */
async function writeInto(tmp: string, data: string | Uint8Array): Promise<void> {
  // r+: the temporary file exists (reserved); never create it again, so a stop that removed it
  // (SIGTERM, host/atomic-write.ts removePendingTemps) is not undone by a write still in flight.
  await writeFile(tmp, data, { flag: 'r+', ...(typeof data === 'string' ? { encoding: 'utf8' as const } : {}) });
}

/** Draws the report HTML (also the PDF's source). */
export function reportHtml(model: ReportModel, lang: Lang, appVersion: string, embedFonts = true, tocPages?: ReadonlyMap<string, number>): string {
  const html = renderHtml(model, lang, { css: 'inline', fonts: embedFonts ? reportFonts() : [], ...(tocPages === undefined ? {} : { tocPages }) }, appVersion);
  reportTime(`html drawn (${html.length} chars)`);
  return html;
}

/** Same keys and values. */
function samePages(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/** A printed report with the page each section starts on, as its contents page prints it (null: not numbered). */
type NumberedPrint = PrintResult & { tocPages: ReadonlyMap<string, number> | null };

/**
 * Prints the report with its contents page numbered. A first printing tells where each section
 * starts (its named destination, {@link namedDestinationPages}); the report is printed again with
 * those numbers in the contents page, and the numbers are read back from that second PDF: they
 * must be the pages printed (a third printing settles a contents page that moved a section, which
 * its reserved space is there to prevent). A PDF whose destinations cannot be read is kept as
 * printed, without numbers (`tocPages` null). A printer that can keep a report loaded
 * ({@link PdfPrinter.open}) loads it once: the first printing is its quick draft, and the numbers
 * are written into the loaded page ({@link printNumberedInPlace}).
 */
export async function printNumbered(printer: PdfPrinter, model: ReportModel, lang: Lang, appVersion: string, paper: Paper): Promise<NumberedPrint> {
  const job = (html: string): PrintJob => ({ html, paper, footerLeft: formatVal(model.footer, lang), pageOf: rt('x.pageOf', lang), lang });
  if (printer.open !== undefined) {
    const doc = await printer.open(job(reportHtml(model, lang, appVersion)));
    try {
      return await printNumberedInPlace(doc, lang);
    } finally {
      await doc.close();
    }
  }
  let printed = await printer.print(job(reportHtml(model, lang, appVersion)));
  let pages = namedDestinationPages(printed.pdf);
  if (pages === null || pages.size === 0) return { ...printed, tocPages: null };
  for (let pass = 0; pass < 2; pass++) {
    const numbered = await printer.print(job(reportHtml(model, lang, appVersion, true, pages)));
    const after = namedDestinationPages(numbered.pdf);
    if (after === null) return { ...printed, tocPages: null };
    printed = numbered;
    if (samePages(after, pages)) return { ...printed, tocPages: pages };
    pages = after;
  }
  return { ...printed, tocPages: null };
}

/**
 * {@link printNumbered} on a loaded report: its draft tells where each section starts, the
 * numbers are written into the contents page in place, and the report is printed; the numbers
 * read back from that PDF must be the pages printed (else numbered again with what it says, at
 * most twice, as {@link printNumbered}).
 */
async function printNumberedInPlace(doc: PrintDocument, lang: Lang): Promise<NumberedPrint> {
  let pages = namedDestinationPages(await doc.draft());
  if (pages === null || pages.size === 0) return { ...(await doc.print()), tocPages: null };
  let printed: PrintResult | null = null;
  for (let pass = 0; pass < 2; pass++) {
    await doc.number(new Map([...pages].map(([id, n]) => [id, tocPageText(n, lang)])));
    const numbered = await doc.print();
    const after = namedDestinationPages(numbered.pdf);
    if (after === null) {
      // as printNumbered: the PDF without numbers
      await doc.number(new Map());
      return { ...(printed === null ? await doc.print() : printed), tocPages: null };
    }
    printed = numbered;
    if (samePages(after, pages)) return { ...printed, tocPages: pages };
    pages = after;
  }
  return { ...(printed as PrintResult), tocPages: null };
}

/** Exports one report. Throws HostError for expected failures, after removing anything half-written. */
export async function exportReport(req: ExportRequest, report: Progress = () => {}): Promise<ExportResult> {
  let stage: ReportStage | null = null;
  const progress: Progress = (percent, s) => {
    if (s !== stage) reportTime(`${stage ?? 'start'} → ${s}`);
    stage = s;
    report(percent, s);
  };
  if (req.form === 'short' && req.format !== 'pdf' && req.format !== 'html') throw new HostError('bad-request', `The short form is a PDF or HTML report, not ${req.format}.`);
  const targets = req.format === 'csv' ? [req.out, intervalsCsvPath(req.out)] : [req.out];
  const inputs: NamedInput[] = [{ what: 'CAPTURE', path: req.load.capturePath }, ...(req.inputs ?? [])];
  for (const t of targets) {
    const clash = clashingInput(t, inputs);
    if (clash !== null) throw new HostError('report-cannot-write', clashSentence(t, 'the report', clash));
  }
  const files: AtomicFile[] = [];
  let ownPrinter: PdfPrinter | null = null;
  try {
    for (const t of targets) files.push(reserve(t));
    const temps = files.map((f) => f.tmp);
    if (req.format === 'pdf') {
      // Chromium boots in its own process while this one reads and analyses the capture.
      ownPrinter = req.printer === undefined ? chromiumPrinter() : null;
      (req.printer ?? ownPrinter)?.warmUp?.();
    }
    // a PDF analyses its capture on a worker thread: this thread's event loop drives Chromium's start meanwhile
    const loaded = await loadReportOrProfile({ ...req.load, rows: req.format === 'csv' || req.format === 'xlsx', offThread: req.format === 'pdf' }, (p, s) => progress(p, s as ReportStage));
    const model = req.form === 'short' ? shortForm(loaded.model) : loaded.model;
    let printed: { overflow: Overflow[]; dialogs: string[]; fonts: string[]; tocPages?: ReadonlyMap<string, number> | null } = { overflow: [], dialogs: [], fonts: [] };
    try {
      const tmp = temps[0] as string;
      if (req.format === 'html' || req.format === 'pdf') {
        progress(45, 'render');
        if (req.format === 'html') {
          await writeInto(tmp, reportHtml(model, req.lang, req.load.appVersion));
        } else {
          progress(55, 'print');
          const printer = req.printer ?? ownPrinter ?? (ownPrinter = chromiumPrinter());
          const r = await printNumbered(printer, model, req.lang, req.load.appVersion, req.paper);
          printed = { overflow: r.overflow, dialogs: r.dialogs, fonts: r.fonts, tocPages: r.tocPages };
          progress(95, 'write');
          await writeInto(tmp, r.pdf);
          reportTime('written');
        }
      } else if (req.format === 'pptx') {
        progress(45, 'render');
        // the PPTX and XLSX writers load pptxgenjs and exceljs (about 40 ms and 0.25 s of CPU): only for their format
        const { pptxBytes } = await import('./pptx.ts');
        const bytes = await pptxBytes(model, req.lang);
        progress(95, 'write');
        await writeInto(tmp, bytes);
      } else if (req.format === 'xlsx') {
        progress(45, 'write');
        const { writeXlsx } = await import('./xlsx.ts');
        await writeXlsx(tmp, model, req.lang, loaded.rows, (f) => progress(45 + Math.round(54 * f), 'write'), { allIntervals: req.allIntervals === true });
      } else {
        progress(45, 'write');
        await writeInto(tmp, summaryCsv(model, req.lang));
        await writeIntervalsCsv(temps[1] as string, model, req.lang, loaded.rows, (f) => progress(45 + Math.round(54 * f), 'write'));
      }
    } finally {
      loaded.close();
    }
    AtomicFile.commitAll(files);
    files.length = 0;
    progress(100, 'done');
    return { files: targets, ...printed, model, kind: loaded.kind };
  } catch (err) {
    for (const f of files) f.abort();
    if (err instanceof HostError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code !== undefined && WRITE_FAULTS.has(e.code)) {
      throw new HostError('report-cannot-write', `Cannot write the report to ${req.out}: ${cannotWriteWhy(e)}; nothing was written. ${e.code === 'EIO' ? 'Check the disk (dmesg), or choose another folder.' : 'Choose a folder you can write to, with free space.'}`);
    }
    throw err;
  } finally {
    await ownPrinter?.close();
  }
}
