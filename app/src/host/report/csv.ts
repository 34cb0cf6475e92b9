/**
 * CSV export: two RFC 4180 files in UTF-8 (with a byte-order mark, so spreadsheet programs read
 * Cyrillic and accents correctly): the summary (one row per headline figure, as the XLSX Summary
 * sheet) and the per-interval data of every device. Headers are in the report's language with
 * their units; values stay machine-readable in every language: numbers at full precision with a
 * dot, times in ISO 8601 UTC, an absent value as an empty field.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { appendRows, CSV_CHUNK_ROWS } from './csv-rows.ts';
import { analysisWorkerPath } from '../worker-path.ts';
import { INTERVAL_COLUMNS, type ReportModel } from '@cacheproof/engine/report';
import type { ColumnSource } from '@cacheproof/engine';
import { countRecords } from './rows.ts';
import { headWithUnit, reportText, rt } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';

const BOM = '\uFEFF';

export { csvField } from './csv-bytes.ts';
import { csvField } from './csv-bytes.ts';

const line = (fields: (string | number | null)[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** The summary CSV as a string. */
export function summaryCsv(model: ReportModel, lang: Lang): string {
  let out = BOM + line(['xl.id', 'xl.figure', 'xl.before', 'xl.after', 'xl.value', 'xl.low', 'xl.high', 'xl.unit', 'xl.devices', 'xl.path'].map((k) => rt(k as 'xl.id', lang)));
  for (const s of model.summary) {
    out += line([s.id, reportText(s.label, lang), s.before, s.after, s.value, s.low, s.high, s.unit === null ? '' : rt(`unit.${s.unit}`, lang), s.devices, s.path]);
  }
  return out;
}

/**
 * Writes the per-interval CSV of every device (in the model's device order) to `path`: the
 * header, then the rows in chunks formatted on this thread and a worker thread at once
 * (host/report/csv-rows.ts; the same text as {@link csvField}, `String(number)` and
 * `Date#toISOString` give), one device loaded at a time, written on the thread pool while the
 * next chunks are formatted (the host keeps answering between chunks). The caller owns `path`
 * (the atomic writer's temporary file) and commits it.
 */
export async function writeIntervalsCsv(path: string, model: ReportModel, lang: Lang, rows: ColumnSource | null, progress: (fraction: number) => void = () => {}, workerFile: string | null = analysisWorkerPath()): Promise<void> {
  // r+: the reserved temporary file is never created again (a stop that removed it stays removed).
  const fd = openSync(path, 'r+');
  try {
    const head = Buffer.from(BOM + line(INTERVAL_COLUMNS.map((c) => headWithUnit(rt(c.head, lang), c.unit ?? undefined, lang))), 'utf8');
    writeSync(fd, head, 0, head.length, 0);
    // a fleet report has no capture's intervals: the head alone
    if (rows !== null) {
      const present = new Set(rows.devices.map((d) => d.device));
      const order = model.intervalDevices.map((d) => d.device).filter((d) => present.has(d));
      const total = Math.max(1, countRecords(rows, order));
      await appendRows(fd, head.length, order, (d) => rows.load(d), total >= 2 * CSV_CHUNK_ROWS ? workerFile : null, (done) => progress(done / total));
    }
  } finally {
    closeSync(fd);
  }
  progress(1);
}
