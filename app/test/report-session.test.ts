/**
 * One capture session (issue 38): through the host's report handlers over a real analysis session
 * (host/session.ts, analysed in this process so that every read is counted here), a capture is
 * analysed, then exported as PDF, as CSV, as CSV again and previewed — and the exports read its
 * info once and its columnar data once, and never hash it again (the analysis hashed it). Counted
 * through the capture reader (`captureReads`: every database open, every hash), not timed. And the
 * report's kind comes from the capture's session: before/after for a capture with a switch, the
 * workload profile for a baseline alone (no `analysis-no-measure` caught), a fleet for a folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AnalysisSessions } from '../src/host/session.ts';
import { captureReads } from '../src/host/capture/reader.ts';
import { reportHandlers } from '../src/host/report/jobs.ts';
import { exportReport } from '../src/host/report/export.ts';
import { openReportSession } from '../src/host/report/session.ts';
import type { ReportProgress } from '../src/shared/contract.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const capture = join(dir, 'run.capture');
const baselineOnly = join(dir, 'baseline.capture');

beforeAll(() => {
  writeSyntheticCapture({ path: capture, windowSeconds: 1800, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, missShare: 0.2 });
  copyFileSync(capture, baselineOnly);
  // a run stopped before the switch: its baseline alone
  const db = new Database(baselineOnly);
  db.prepare("DELETE FROM phases WHERE name = 'measure'").run();
  db.close();
});

/** Polls an export job until it is done (the handlers run it in the background). */
async function finished(progress: (r: { jobId: string }) => Promise<ReportProgress>, jobId: string): Promise<ReportProgress> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const p = await progress({ jobId });
    if (p.done) return p;
    if (Date.now() > deadline) throw new Error(`export ${jobId} not done: ${JSON.stringify(p)}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('one capture session for the analysis, its preview and its exports', () => {
  it('reads the capture info and columnar data once and hashes it once, across PDF, CSV, CSV and preview', async () => {
    const sessions = new AnalysisSessions(null, null);
    const start = { ...captureReads };
    // the dashboard opens the capture: read, analysed and hashed once
    await sessions.openHost(capture, { id: 'a1', name: 'run.capture', isSample: false }, {});
    const analysed = { ...captureReads };
    expect(analysed.hashes - start.hashes).toBe(1);
    const h = reportHandlers({
      analysisOf: (id) => (id === 'a1' ? { path: capture, options: {} } : undefined),
      viewOf: (path, options, host) => sessions.openHost(path, { id: 'report', name: 'run.capture', isSample: false, host }, options),
      appVersion: 'test', probeVersion: null, now: () => Date.UTC(2026, 10, 29),
    });
    const request = { analysisId: 'a1', lang: 'en' as const, paper: 'a4' as const, cover: {}, scenario: null, form: 'full' as const };
    const pdf = await finished(h['report.progress'], (await h['report.start']({ ...request, format: 'pdf' })).jobId);
    expect(pdf.files?.[0]?.sizeBytes ?? 0).toBeGreaterThan(10_000);
    const afterPdf = { ...captureReads };
    // the PDF: the capture's info, once; no hash (the session's analysis has it)
    expect(afterPdf.opens - analysed.opens).toBe(1);
    expect(afterPdf.hashes).toBe(analysed.hashes);
    const csv = await finished(h['report.progress'], (await h['report.start']({ ...request, format: 'csv' })).jobId);
    expect(csv.files?.length).toBe(2);
    const afterCsv = { ...captureReads };
    expect(afterCsv.hashes).toBe(analysed.hashes);
    // the rows: one columnar read of the capture (however many opens it takes), kept by the session
    const columnarOpens = afterCsv.opens - afterPdf.opens;
    expect(columnarOpens).toBeGreaterThan(0);
    const again = await finished(h['report.progress'], (await h['report.start']({ ...request, format: 'csv' })).jobId);
    expect(again.files?.[1]?.sizeBytes).toBe(csv.files?.[1]?.sizeBytes);
    await h['report.preview']({ ...request });
    // a second CSV and the preview read nothing and hash nothing
    expect({ ...captureReads }).toEqual(afterCsv);
  }, 240_000);

  it('takes the report kind from the session: before/after, a baseline alone as its profile, a folder as a fleet', async () => {
    const fleetDir = join(dir, 'fleet');
    mkdirSync(fleetDir);
    copyFileSync(baselineOnly, join(fleetDir, 'a.capture'));
    const kinds = [capture, baselineOnly, fleetDir].map((p) => {
      const s = openReportSession(p);
      s.close();
      return s.kind;
    });
    expect(kinds).toEqual(['before-after', 'profile', 'fleet']);
    expect(openReportSession(capture, { profile: true }).kind).toBe('profile');
    // and the export says which report it wrote, reading and hashing the baseline-alone capture once
    const before = { ...captureReads };
    const r = await exportReport({ format: 'html', lang: 'en', paper: 'a4', out: join(dir, 'baseline.html'), load: { capturePath: baselineOnly, cover: {}, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: 0 } });
    expect(r.kind).toBe('profile');
    expect(captureReads.hashes - before.hashes).toBe(1);
    const ba = await exportReport({ format: 'html', lang: 'en', paper: 'a4', out: join(dir, 'run.html'), load: { capturePath: capture, cover: {}, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: 0 } });
    expect(ba.kind).toBe('before-after');
  }, 120_000);
});
