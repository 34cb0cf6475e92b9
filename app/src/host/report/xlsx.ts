/**
 * XLSX export (exceljs, streamed to the file so that a 2 × 24 h capture of 16 devices fits in
 * memory): a Summary sheet (every headline figure with before, after, value, 95% interval, unit,
 * devices and its JSON path), one sheet per report table (per device, latency percentiles,
 * health, hourly, TCO), and the per-interval data of each device. Numbers are stored as numbers
 * (never rounded: the number format only sets the digits shown), units are in the headers,
 * times are Excel dates in UTC.
 */
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { INTERVAL_COLUMNS, intervalRowInto, type ReportKey, type ReportModel, type Table, type Unit, type Val } from '@cacheproof/engine/report';
import { statusAt, type ColumnSource, type DeviceColumns } from '@cacheproof/engine';
import { countRecords } from './rows.ts';
import { formatVal, headWithUnit, reportText, rt } from '../../shared/i18n/report.ts';
import { LOCALE, type Lang } from '../../shared/i18n/types.ts';
import { XLSX_INTERVAL_ROWS_LIMIT } from './limits.ts';
import { heatHex } from './heat.ts';
import { decisionTexts } from '../../shared/i18n/decision-text.ts';

/** Rows per sheet before a device's intervals continue on the next sheet (Excel's limit is 1 048 576). */
export const MAX_SHEET_ROWS = 1_000_000;

export { XLSX_INTERVAL_ROWS_LIMIT } from './limits.ts';

export interface XlsxOptions {
  /** Write the per-interval sheets whatever their size. */
  allIntervals?: boolean;
}

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };

function numFmt(digits: number): string {
  return digits <= 0 ? '#,##0' : `#,##0.${'0'.repeat(digits)}`;
}

/** A model value as a cell: numbers stay numbers (with a display format), the rest is text. */
export function cellOf(v: Val, lang: Lang): { value: number | string | null; fmt?: string } {
  switch (v.k) {
    case 'num':
      return v.v === null ? { value: null } : { value: v.v, fmt: numFmt(v.d) };
    case 'pct':
      return v.v === null ? { value: null } : { value: v.v, fmt: numFmt(v.d) };
    case 'sig':
    case 'ms':
    case 'x':
      return v.v === null ? { value: null } : { value: v.v, fmt: '#,##0.000' };
    case 'empty':
      return { value: null };
    default:
      return { value: formatVal(v, lang) };
  }
}

/** Excel's longest sheet name. */
export const SHEET_NAME_MAX = 31;

// Excel refuses : in a sheet name: a drive letter's colon goes ("PhysicalDisk(0 C)"), a label's
// becomes a dash ("Items – HDD").
const clean = (name: string): string => name.replace(/\b([A-Za-z]):(?=[\s)\]]|$)/gu, '$1').replace(/\s*:\s*/gu, ' – ').replace(/[[\]*?/\\]/g, '-').replace(/^'+|'+$/g, '').replace(/\s+/g, ' ').trim();

/**
 * Excel sheet names: at most 31 characters, none of []:*?/\, unique (case-insensitive). The
 * first candidate that fits whole and is not taken yet wins (a short name per table, then a
 * numbered one), so no name is cut mid-word. Only when none fits is the last one shortened at a
 * word and numbered.
 */
export function sheetName(candidates: string | readonly string[], used: Set<string>): string {
  const list = (typeof candidates === 'string' ? [candidates] : candidates).map(clean).filter((c) => c.length > 0);
  let name = list.find((c) => c.length <= SHEET_NAME_MAX && !used.has(c.toLowerCase()));
  if (name === undefined) {
    const base = list.find((c) => c.length <= SHEET_NAME_MAX) ?? list.reduce((a, b) => (b.length < a.length ? b : a), list[0] ?? 'Sheet');
    for (let i = 1; name === undefined || used.has(name.toLowerCase()); i++) {
      const tail = i === 1 ? '' : ` ${i}`;
      let head = base;
      while (head.length + tail.length > SHEET_NAME_MAX) head = head.includes(' ') ? head.slice(0, head.lastIndexOf(' ')).replace(/[\s,–-]+$/u, '') : head.slice(0, SHEET_NAME_MAX - tail.length);
      name = `${head}${tail}`;
    }
  }
  used.add(name.toLowerCase());
  return name;
}

/** A report table's short sheet name (catalog `xl.sh.*`, words chosen to fit 31 characters), by table id. */
const SHEET_KEYS: Record<string, ReportKey> = {
  devices: 'xl.sh.devices', 'device-peaks': 'xl.sh.peaks', hourly: 'xl.sh.hourly', 'latency-distribution': 'xl.sh.distribution',
  health: 'xl.sh.health', 'read-write-queue': 'xl.sh.rwq', 'profile-figures': 'xl.sh.workload', 'profile-devices': 'xl.sh.devices',
  'profile-health': 'xl.sh.health', 'profile-spans': 'xl.sh.spans', 'tco-sources': 'xl.sh.tcoSources', 'tco-comparison': 'xl.sh.tcoComparison',
  'tco-sensitivity': 'xl.sh.tcoSensitivity', imports: 'xl.sh.imports', 'profile-hours': 'pr.xl.hours', 'profile-capacity': 'pr.xl.capacity',
  'fleet-moments': 'fl.xl.moments', 'sizing-drives': 'sz.xl.sheet',
};

/** The sheet names to try for a table, best first: its short name (with the configuration's label or a number for TCO line items), then its title. */
export function tableSheetNames(t: Table, lang: Lang, index: number): string[] {
  const title = reportText(t.title, lang);
  const key = SHEET_KEYS[t.id];
  if (key !== undefined) return [rt(key, lang), title];
  const sizes = /^request-sizes-(\w+)$/u.exec(t.id);
  if (sizes !== null) return [rt('xl.sh.sizes', lang, { role: rt(`role.${sizes[1] ?? 'other'}` as ReportKey, lang) }), title];
  if (t.id.startsWith('tco-lines-')) {
    const label = t.title.p?.['label'];
    return [...(label === undefined ? [] : [rt('xl.sh.tcoLines', lang, { label: formatVal(label, lang) })]), rt('xl.sh.tcoLinesN', lang, { n: index })];
  }
  return [title];
}

function unitHead(head: string, unit: Unit | null | undefined, lang: Lang): string {
  return headWithUnit(head, unit ?? undefined, lang);
}

function styleHeader(row: ExcelJS.Row): void {
  row.font = { bold: true };
  row.eachCell((c) => {
    c.fill = HEADER_FILL;
    c.alignment = { wrapText: true, vertical: 'top' };
  });
}

function writeTable(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Table, lang: Lang, used: Set<string>, index: number): void {
  const ws = wb.addWorksheet(sheetName(tableSheetNames(t, lang, index), used), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = t.columns.map((c) => ({ header: unitHead(reportText(c.head, lang), c.unit, lang), width: c.align === 'left' ? 28 : 16 }));
  styleHeader(ws.getRow(1));
  for (const r of t.rows) {
    const cells = r.cells.map((v) => cellOf(v, lang));
    const row = ws.addRow(cells.map((c) => c.value));
    cells.forEach((c, i) => {
      if (c.fmt !== undefined) row.getCell(i + 1).numFmt = c.fmt;
      // a heatmap cell (the profile's busiest hours), shaded as in the PDF
      const h = r.heat?.[i];
      if (h !== null && h !== undefined) row.getCell(i + 1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${heatHex(h)}` } };
    });
    if (r.strong === true) row.font = { bold: true };
    row.commit();
  }
  ws.commit();
}

/** Bytes of committed rows allowed to wait for the zip compressor before writing pauses. */
const QUEUE_LIMIT_BYTES = 8 << 20;

/**
 * Backpressure for exceljs's streaming writer, which has none: a committed row goes to the
 * sheet's buffer (before the zip entry is being read) or straight into the compressor's queue,
 * whatever their size, so a fast writer fills memory with millions of rows (2.7 GB for 2.8
 * million rows). This waits until the sheet's queued bytes are under {@link QUEUE_LIMIT_BYTES}
 * (at most 60 s, then goes on). It reads exceljs and archiver internals (`stream.pipes`,
 * `stream.buffers`, the PassThrough's queue) defensively: when they are not there it only
 * yields to the event loop.
 */
async function drained(sheet: ExcelJS.Worksheet): Promise<void> {
  type Pipe = { writableLength?: number; _writableState?: { length?: number } };
  const s = (sheet as unknown as { stream?: { pipes?: Pipe[]; buffers?: { length?: number }[] } }).stream;
  const queued = (): number => {
    if (s === undefined) return 0;
    const pipes = s.pipes ?? [];
    const buffered = (s.buffers ?? []).reduce((n, b) => n + (typeof b.length === 'number' ? b.length : 0), 0);
    // archiver's entry is a readable-stream PassThrough: its queue is `_writableState.length`
    return buffered + pipes.reduce((n, p) => n + (p.writableLength ?? p._writableState?.length ?? 0), 0);
  };
  const until = Date.now() + 60_000;
  await new Promise<void>((resolve) => setImmediate(resolve));
  while (queued() > QUEUE_LIMIT_BYTES && Date.now() < until) await new Promise<void>((resolve) => setTimeout(resolve, 2));
}

export interface XlsxProgress {
  (fraction: number): void;
}

/** The first sheet: the decision block's sentences, one a row, then its caveats (the words of every other format). */
function decisionSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, d: NonNullable<ReportModel['decision']>, lang: Lang, used: Set<string>): void {
  const t = decisionTexts(d, lang);
  const ws = wb.addWorksheet(sheetName(t.title, used));
  ws.columns = [{ key: 'text', width: 140 }];
  const add = (text: string, bold = false): void => {
    const row = ws.addRow({ text });
    row.getCell('text').alignment = { wrapText: true, vertical: 'top' };
    if (bold) row.getCell('text').font = { bold: true };
    row.commit();
  };
  add(t.title, true);
  for (const l of t.lines) add(l);
  add(t.caveatsTitle, true);
  for (const c of t.caveats) add(c);
  ws.commit();
}

/**
 * Writes the workbook to `path` (streamed: exceljs `stream.xlsx.WorkbookWriter`, every row
 * committed as written). `rows` gives the capture's intervals one device at a time (in time
 * order); a record exists only while its row is written.
 */
export async function writeXlsx(path: string, model: ReportModel, lang: Lang, rows: ColumnSource | null, progress: XlsxProgress = () => {}, options: XlsxOptions = {}): Promise<void> {
  // Into the reserved temporary file with r+ (never created again after a stop removed it).
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: createWriteStream(path, { flags: 'r+' }), useStyles: true, useSharedStrings: false });
  wb.creator = 'CacheProof';
  wb.created = new Date(model.generatedMs);
  const used = new Set<string>();

  // The decision block first (engine decision.ts): the sheet a manager opens on
  if (model.decision !== undefined) decisionSheet(wb, model.decision, lang, used);
  summarySheet(wb, model, lang, used);
  progress(0.05);

  // Report tables
  let tcoLines = 0;
  for (const s of model.sections) {
    for (const b of s.blocks) if (b.type === 'table' && b.table.sheet === true) writeTable(wb, b.table, lang, used, b.table.id.startsWith('tco-lines-') ? ++tcoLines : 0);
  }
  // the tables too long to print (the fleet's IOPS at each moment)
  for (const t of model.sheets ?? []) writeTable(wb, t, lang, used, 0);
  progress(0.1);

  // Per-interval data, one sheet per device (left out above the limit unless asked for)
  const order = model.intervalDevices.map((d) => d.device);
  const rowCount = countRecords(rows, order);
  if (options.allIntervals !== true && rowCount > XLSX_INTERVAL_ROWS_LIMIT) intervalsOmittedSheet(wb, model, lang, used, rowCount);
  else await intervalSheets(wb, lang, used, rows, order, rowCount, progress);
  await wb.commit();
  progress(1);
}

/** The Summary sheet: the model's summary figures, one row each. */
function summarySheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ReportModel, lang: Lang, used: Set<string>): void {
  const ws = wb.addWorksheet(sheetName(rt('xl.summarySheet', lang), used), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = [
    { header: rt('xl.id', lang), key: 'id', width: 26 },
    { header: rt('xl.figure', lang), key: 'figure', width: 44 },
    { header: rt('xl.before', lang), key: 'before', width: 16 },
    { header: rt('xl.after', lang), key: 'after', width: 16 },
    { header: rt('xl.value', lang), key: 'value', width: 16 },
    { header: rt('xl.low', lang), key: 'low', width: 14 },
    { header: rt('xl.high', lang), key: 'high', width: 14 },
    { header: rt('xl.unit', lang), key: 'unit', width: 10 },
    { header: rt('xl.devices', lang), key: 'devices', width: 22 },
    { header: rt('xl.path', lang), key: 'path', width: 40 },
  ];
  styleHeader(ws.getRow(1));
  for (const s of model.summary) {
    const row = ws.addRow({
      id: s.id, figure: reportText(s.label, lang), before: s.before, after: s.after, value: s.value, low: s.low, high: s.high,
      unit: s.unit === null ? '' : rt(`unit.${s.unit}`, lang), devices: s.devices, path: s.path,
    });
    for (const k of ['before', 'after', 'value', 'low', 'high']) row.getCell(k).numFmt = '#,##0.000';
    row.commit();
  }
  ws.commit();
}

/** The sheet that says the per-interval sheets were left out (more rows than the limit), pointing at the hourly table. */
function intervalsOmittedSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ReportModel, lang: Lang, used: Set<string>, rowCount: number): void {
  const hourly = model.sections.flatMap((sec) => sec.blocks).find((b) => b.type === 'table' && b.table.id === 'hourly');
  const note = wb.addWorksheet(sheetName(rt('xl.intervalsOmittedSheet', lang), used));
  note.columns = [{ width: 120 }];
  const fmt = new Intl.NumberFormat(LOCALE[lang]);
  const row = note.addRow([rt('xl.intervalsOmitted', lang, { rows: fmt.format(rowCount), limit: fmt.format(XLSX_INTERVAL_ROWS_LIMIT), hourly: hourly?.type === 'table' ? reportText(hourly.table.title, lang) : '' })]);
  row.alignment = { wrapText: true, vertical: 'top' };
  row.commit();
  note.commit();
}

/** Row `i` of a device's columns as its sheet's cells (the engine's `intervalRowInto`): times as dates, absent as an empty cell. */
function xlsxRow(c: DeviceColumns, i: number, values: Float64Array): (string | number | Date | null)[] {
  intervalRowInto(c, i, values);
  return INTERVAL_COLUMNS.map((col, j) => {
    if (col.id === 'device') return c.device;
    if (col.id === 'status') return statusAt(c, i);
    const v = values[j] as number;
    if (v !== v) return null;
    return col.kind === 'time' ? new Date(v) : v;
  });
}

/** The per-interval sheets, one per device (split at MAX_SHEET_ROWS), streamed row by row (progress 0.1 → 1). */
async function intervalSheets(wb: ExcelJS.stream.xlsx.WorkbookWriter, lang: Lang, used: Set<string>, rows: ColumnSource | null, order: string[], rowCount: number, progress: XlsxProgress): Promise<void> {
  const total = Math.max(1, rowCount);
  let done = 0;
  const heads = INTERVAL_COLUMNS.map((c) => unitHead(rt(c.head, lang), c.unit, lang));
  const fmts = INTERVAL_COLUMNS.map((c) => (c.kind === 'time' ? 'yyyy-mm-dd hh:mm:ss.000' : c.kind === 'number' ? numFmt(c.d) : undefined));
  const values = new Float64Array(INTERVAL_COLUMNS.length);
  for (const device of order) {
    const c = rows !== null && rows.devices.some((d) => d.device === device) ? rows.load(device) : null;
    const n = c?.n ?? 0;
    for (let part = 0; part * MAX_SHEET_ROWS < Math.max(1, n); part++) {
      const suffix = part > 0 ? ` (${part + 1})` : '';
      const names = [rt('xl.intervalsSheet', lang, { device }) + suffix, rt('xl.sh.intervalsN', lang, { n: order.indexOf(device) + 1 }) + suffix];
      const sheet = wb.addWorksheet(sheetName(names, used), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = heads.map((h, i) => ({ header: h, width: i === 0 ? 14 : INTERVAL_COLUMNS[i]?.kind === 'time' ? 24 : 13, ...(fmts[i] === undefined ? {} : { style: { numFmt: fmts[i] as string } }) }));
      styleHeader(sheet.getRow(1));
      const end = Math.min(n, (part + 1) * MAX_SHEET_ROWS);
      for (let i = part * MAX_SHEET_ROWS; i < end; i++) {
        sheet.addRow(xlsxRow(c as DeviceColumns, i, values)).commit();
        if (++done % 5000 === 0) {
          if (done % 20000 === 0) progress(0.1 + 0.9 * (done / total));
          await drained(sheet);
        }
      }
      sheet.commit();
    }
  }
}
