/**
 * Bugs are reported, never swallowed: a background report export that fails with something
 * other than an expected failure reaches the process's one bug reporter (stderr and bugs.log)
 * and the UI gets the `internal` code; an expected failure (a HostError) is not logged as a bug.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { HostError } from '../src/host/errors.ts';
import { reportBug, setBugLog } from '../src/host/bugs.ts';
import type { PdfPrinter } from '../src/host/report/pdf.ts';
import { waitFor } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bugs-test-'));
afterAll(() => {
  setBugLog('cacheproof', null);
  rmSync(dir, { recursive: true, force: true });
});

function host(printer: PdfPrinter): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample, probe: null, dataDir: join(dir, 'data'), pdfPrinter: printer }), reportBug);
}

async function exportPdf(d: Dispatch): Promise<{ code: string; message: string } | null> {
  const opened = await d('analysis.openSample', {});
  if (!opened.ok) throw new Error(opened.error.message);
  const started = await d('report.start', { analysisId: (opened.value as { id: string }).id, format: 'pdf', lang: 'en', paper: 'a4', cover: {}, scenario: null });
  if (!started.ok) throw new Error(started.error.message);
  const { jobId } = started.value as { jobId: string };
  let last = '';
  return waitFor(`the PDF export ${jobId} to end`, 45_000, async () => {
    const p = await d('report.progress', { jobId });
    last = JSON.stringify(p).slice(0, 300);
    if (!p.ok) return { code: p.error.code, message: p.error.message };
    return (p.value as { done: boolean }).done ? null : undefined;
  }, () => last, 20);
}

describe('the host\'s one bug reporter', () => {
  it('a bug in a background export is logged with its stack, and the UI gets `internal`', async () => {
    const log = join(dir, 'bugs-1.log');
    setBugLog('test-host', log);
    const buggy: PdfPrinter = { print: () => Promise.reject(new TypeError('printer exploded')), close: async () => undefined };
    const r = await exportPdf(host(buggy));
    expect(r?.code).toBe('internal');
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/test-host: bug in report\.start \(background export\): TypeError: printer exploded/u);
    expect(text).toMatch(/\n\s+at /u);
  });

  it('an expected failure keeps its own code and is not a bug', async () => {
    const log = join(dir, 'bugs-2.log');
    setBugLog('test-host', log);
    const refusing: PdfPrinter = { print: () => Promise.reject(new HostError('report-no-browser', 'No Chromium here.')), close: async () => undefined };
    const r = await exportPdf(host(refusing));
    expect(r).toEqual({ code: 'report-no-browser', message: 'No Chromium here.' });
    expect(existsSync(log)).toBe(false);
  });
});
