/**
 * `cacheproof verify CAPTURE FIO.json --device DEV [--window FROM..TO] [--json]` (declared as
 * VERIFY in declarations.ts): fio's totals
 * beside the capture's for the same device, the way an independent lab checks an analyzer
 * against its load generator (docs/cli.md). The comparison is the engine's (`compareWithFio`);
 * the capture's totals are the engine's window summary (`summarizeSeries`) of the device.
 */
import { readFileSync } from 'node:fs';
import { buildSeriesFromColumns, columnsFromRecords, compareWithFio, FioJsonError, parseFioJson, summarizeSeries, type VerifyRow } from '@cacheproof/engine';
import { openCapture } from '../host/capture/reader.ts';
import { HostError } from '../host/errors.ts';
import { fmtNumber, fmtSignedPercent } from '../shared/i18n/numbers.ts';
import { parseWindow, UsageError } from './args.ts';
import { parseCommand, renderHelp, usageExit, wantsHelp } from './command-line.ts';
import { VERIFY } from './declarations.ts';
import { exitFor } from './exit-codes.ts';
import { EXIT, type CliIO, type Command } from './io.ts';
import { table } from './analyze.ts';

const FIGURE_TEXT: Record<VerifyRow['figure'], string> = { reads: 'reads (I/Os)', writes: 'writes (I/Os)', readBytes: 'bytes read', writeBytes: 'bytes written' };
const SOURCE_TEXT: Record<VerifyRow['source'], string> = { disk_util: 'fio disk_util (its diskstats sample)', jobs: 'fio jobs (its own counts)' };

export const verifyCommand: Command = async (args: string[], io: CliIO) => {
  if (wantsHelp(args)) {
    io.stdout(renderHelp(VERIFY));
    return EXIT.ok;
  }
  let capturePath: string, fioPath: string, device: string, window: { startMs: number; endMs: number } | null = null;
  let json = false;
  try {
    const { values, positionals } = parseCommand(VERIFY, args);
    if (positionals.length !== 2) throw new UsageError('give a CAPTURE and a fio JSON file.');
    [capturePath, fioPath] = positionals as [string, string];
    if (values.device === '') throw new UsageError('--device DEV is required: the device fio ran on, as the capture names it.');
    device = values.device;
    if (values.window !== undefined) window = parseWindow(values.window, '--window');
    json = values.json === true;
  } catch (err) {
    return usageExit(VERIFY, err, io);
  }
  let fio;
  try {
    fio = parseFioJson(readFileSync(fioPath, 'utf8'), fioPath);
  } catch (err) {
    if (err instanceof FioJsonError) {
      io.stderr(`cacheproof verify: ${err.message}\n`);
      return EXIT.badInput;
    }
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string') {
      io.stderr(`cacheproof verify: ${fioPath} cannot be read (${e.code}): check the path.\n`);
      return EXIT.badInput;
    }
    throw err;
  }
  let data;
  try {
    data = openCapture(capturePath).data;
  } catch (err) {
    if (err instanceof HostError) {
      io.stderr(`cacheproof verify: ${err.message}\n`);
      return exitFor(err.code);
    }
    throw err;
  }
  const columns = (data.columns ?? columnsFromRecords(data.intervals)).find((c) => c.device === device && c.n > 0);
  if (columns === undefined) {
    const names = (data.columns ?? columnsFromRecords(data.intervals)).filter((c) => c.n > 0).map((c) => c.device);
    io.stderr(`cacheproof verify: ${capturePath} has no interval of device '${device}' (it has ${names.join(', ') || 'none'}).\n`);
    return EXIT.mismatch;
  }
  const span = window ?? { startMs: columns.startMs[0] as number, endMs: columns.endMs[columns.n - 1] as number };
  const summary = summarizeSeries(buildSeriesFromColumns([columns], span));
  if (summary.okIntervals === 0) {
    io.stderr(`cacheproof verify: ${capturePath}: device '${device}' has no interval with numbers inside the window ${new Date(span.startMs).toISOString()}..${new Date(span.endMs).toISOString()}.\n`);
    return EXIT.mismatch;
  }
  const t = summary.totals;
  const rows = compareWithFio(fio, device, { reads: t.reads, writes: t.writes, readBytes: t.readBytes, writeBytes: t.writeBytes });
  const notOk = Object.values(summary.notOk).reduce((a, b) => a + b, 0);
  if (json) {
    io.stdout(JSON.stringify({
      format: 'cacheproof-verify', version: 1, capture: capturePath, fioFile: fioPath, fioVersion: fio.version, device,
      window: { start: new Date(span.startMs).toISOString(), end: new Date(span.endMs).toISOString(), okIntervals: summary.okIntervals, notOkIntervals: notOk },
      fioRun: { end: fio.endMs === null ? null : new Date(fio.endMs).toISOString(), elapsedS: fio.elapsedS, ioBytesInKiB: fio.ioBytesInKiB },
      rows,
    }, null, 2) + '\n');
    return EXIT.ok;
  }
  const n = (v: number | null): string => (v === null ? 'n/a' : fmtNumber('en', v, 0));
  const lines = [
    `fio ${fio.version} (${fioPath})${fio.endMs === null ? '' : `, run ended ${new Date(fio.endMs).toISOString()}${fio.elapsedS === null ? '' : ` after ${fio.elapsedS} s`}`}`,
    `capture ${capturePath}, device ${device}, ${new Date(span.startMs).toISOString()} → ${new Date(span.endMs).toISOString()}: ${summary.okIntervals} intervals with numbers${notOk > 0 ? `, ${notOk} without (left out)` : ''}`,
    '',
    table([['figure', 'fio', 'capture', 'difference', 'source'],
      ...rows.map((r) => [FIGURE_TEXT[r.figure], n(r.fio), n(r.capture), r.diffPercent === null ? 'n/a' : fmtSignedPercent('en', r.diffPercent, 2), SOURCE_TEXT[r.source]])]).trimEnd(),
  ];
  if (!rows.some((r) => r.source === 'disk_util')) lines.push('', `fio's JSON has no disk_util entry for '${device}' (fio names the device it found under the files it used): only its job totals are compared.`);
  io.stdout(lines.join('\n') + '\n');
  return EXIT.ok;
};
