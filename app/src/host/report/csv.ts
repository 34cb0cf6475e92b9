/**
 * CSV export: two RFC 4180 files in UTF-8 (with a byte-order mark, so spreadsheet programs read
 * Cyrillic and accents correctly): the summary (one row per headline figure, as the XLSX Summary
 * sheet) and the per-interval data of every device. Headers are in the report's language with
 * their units; values stay machine-readable in every language: numbers at full precision with a
 * dot, times in ISO 8601 UTC, an absent value as an empty field.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { INTERVAL_COLUMNS, intervalRow, type ReportModel } from '@cacheproof/engine/report';
import { recordAt, type DeviceColumns } from '@cacheproof/engine';
import { countRecords } from './rows.ts';
import { headWithUnit, reportText, rt } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';

const BOM = '\uFEFF';

/**
 * Text that a spreadsheet program would run as a formula (OWASP "CSV injection"): a cell starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: quoted when it holds a comma, quote, CR or LF; null → empty. A text cell that a
 * spreadsheet would take for a formula (a device or host named `=cmd|…`, `-sda`, `@x`) gets a
 * leading `'`, which spreadsheet programs read as "this is text" and do not show; numbers are
 * never prefixed (a negative number stays a number).
 * Example: `csvField('=1+1')` → `'=1+1`; `csvField(-3)` → `-3`.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: (string | number | null)[]): string => `${fields.map(csvField).join(',')}\r\n`;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/**
 * `new Date(ms).toISOString()` for many times in order, about five times faster: the date part
 * is formatted once per UTC day. Example: `isoTimes()(0)` → `1970-01-01T00:00:00.000Z`.
 */
export function isoTimes(): (ms: number) => string {
  let dayStart = NaN;
  let prefix = '';
  return (ms: number): string => {
    const inDay = ms - dayStart;
    if (!(inDay >= 0 && inDay < 86_400_000) || !Number.isInteger(ms)) {
      if (!Number.isInteger(ms) || Math.abs(ms) > 8.64e15) return new Date(ms).toISOString();
      dayStart = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
      prefix = new Date(dayStart).toISOString().slice(0, 11);
      return isoTimesAt(prefix, ms - dayStart);
    }
    return isoTimesAt(prefix, inDay);
  };
}

function isoTimesAt(prefix: string, inDay: number): string {
  const h = Math.floor(inDay / 3_600_000);
  const m = Math.floor((inDay % 3_600_000) / 60_000);
  const sec = Math.floor((inDay % 60_000) / 1000);
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(inDay % 1000)}Z`;
}

/** The summary CSV as a string. */
export function summaryCsv(model: ReportModel, lang: Lang): string {
  let out = BOM + line(['xl.id', 'xl.figure', 'xl.before', 'xl.after', 'xl.value', 'xl.low', 'xl.high', 'xl.unit', 'xl.devices', 'xl.path'].map((k) => rt(k as 'xl.id', lang)));
  for (const s of model.summary) {
    out += line([s.id, reportText(s.label, lang), s.before, s.after, s.value, s.low, s.high, s.unit === null ? '' : rt(`unit.${s.unit}`, lang), s.devices, s.path]);
  }
  return out;
}

/**
 * Streams the per-interval CSV of every device (in the model's device order) to `path`, row by
 * row from the capture's columns (a record exists only while its row is written), in chunks of
 * 5 000 rows, waiting for the stream to drain. The caller owns `path` (the atomic writer's
 * temporary file) and commits it.
 */
export async function writeIntervalsCsv(path: string, model: ReportModel, lang: Lang, cols: readonly DeviceColumns[], progress: (fraction: number) => void = () => {}): Promise<void> {
  // r+: the reserved temporary file is never created again (a stop that removed it stays removed).
  const stream = createWriteStream(path, { encoding: 'utf8', flags: 'r+' });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  const write = async (s: string): Promise<void> => {
    if (!stream.write(s)) await Promise.race([once(stream, 'drain'), failed]);
  };
  const order = model.intervalDevices.map((d) => d.device);
  const byName = new Map(cols.map((c) => [c.device, c]));
  await write(BOM + line(INTERVAL_COLUMNS.map((c) => headWithUnit(rt(c.head, lang), c.unit ?? undefined, lang))));
  const total = Math.max(1, countRecords(cols, order));
  const kinds = INTERVAL_COLUMNS.map((c) => c.kind);
  const iso = isoTimes();
  // text cells repeat (the device, a few statuses): each is escaped once
  const textCells = new Map<string, string>();
  const text = (v: string): string => {
    let f = textCells.get(v);
    if (f === undefined) textCells.set(v, (f = csvField(v)));
    return f;
  };
  let done = 0;
  let chunk = '';
  for (const name of order) {
    const c = byName.get(name);
    if (c === undefined) continue;
    for (let i = 0; i < c.n; i++) {
      const row = intervalRow(recordAt(c, i));
      let out = '';
      for (let j = 0; j < row.length; j++) {
        const v = row[j] as string | number | null;
        if (j > 0) out += ',';
        if (v === null) continue;
        if (typeof v === 'number') out += kinds[j] === 'time' ? iso(v) : Number.isFinite(v) ? String(v) : '';
        else out += text(v);
      }
      chunk += `${out}\r\n`;
      if (++done % 5000 === 0) {
        await write(chunk);
        chunk = '';
        progress(done / total);
      }
    }
  }
  await write(chunk);
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
  progress(1);
}
