// The dashboard's analysis (host/analysis.ts): the columnar path gives exactly what the record
// path gives, and the cache of finished analyses answers only for an unchanged, finished capture.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { analyze } from '@cacheproof/engine';
import { openCapture, sha256File } from '../src/host/capture/reader.ts';
import { buildAnalysisView, loadAnalysisView, publicView } from '../src/host/analysis.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const meta = { id: 'x', name: 'x', isSample: false };

function capture(name: string, gapRow = false): string {
  const path = join(dir, name);
  writeSyntheticCapture({ path, windowSeconds: 900, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, extraDevices: 1, missShare: 0.1 });
  if (gapRow) {
    const db = new Database(path);
    db.prepare(`UPDATE intervals SET status = 'gap', reads = NULL, writes = NULL WHERE rowid IN (50, 51, 400)`).run();
    db.close();
  }
  return path;
}

describe('analysis view', () => {
  it('analyzes the reader’s columns exactly as the same capture’s records', async () => {
    const path = capture('same.capture', true);
    const c = openCapture(path);
    expect(c.data.columns).toBeDefined();
    const fromColumns = analyze(c.data, { seed: 7 });
    const records = { ...c.data, intervals: c.data.intervals, columns: undefined };
    expect(analyze(records, { seed: 7 })).toEqual(fromColumns);
    const sha = await sha256File(path);
    const viaColumns = buildAnalysisView(openCapture(path), { ...meta, sha256: sha });
    const opened = openCapture(path);
    opened.data.intervals = [...opened.data.intervals]; // assigning records drops the columns
    expect(opened.data.columns).toBeUndefined();
    expect(buildAnalysisView(opened, { ...meta, sha256: sha })).toEqual(viaColumns);
    expect(viaColumns.series.map((s) => s.device)).toEqual(['front0', 'back0', 'back1']);
  });

  it('hands the analysis over before the file is hashed, then gives the hash with the view and the cache (onAnalysed)', async () => {
    const path = capture('early.capture');
    const cache = join(dir, 'early-cache');
    const sha = await sha256File(path);
    const early: { sha: string; fromCache: boolean | undefined }[] = [];
    const first = await loadAnalysisView(path, meta, {}, cache, undefined, (v) => early.push({ sha: v.captureSha256, fromCache: v.fromCache }));
    // the analysis came first, without the hash (hashed beside it); the view returned has it
    expect(early).toEqual([{ sha: '', fromCache: false }]);
    expect(first.captureSha256).toBe(sha);
    expect(publicView(first).captureSha256).toBe(sha);
    expect(publicView({ ...first, captureSha256: '' }).captureSha256).toBeNull();
    // the cache holds the hashed view: a re-open hands over the whole view at once
    await new Promise((r) => setImmediate(r));
    const again: string[] = [];
    const second = await loadAnalysisView(path, meta, {}, cache, undefined, (v) => again.push(v.captureSha256));
    expect(second.fromCache).toBe(true);
    expect(again).toEqual([sha]);
  });

  it('answers a re-open of an unchanged capture from the cache, and recomputes when the file changes', async () => {
    const path = capture('cached.capture');
    const cache = join(dir, 'cache');
    // the cache file is written on the event loop's next turn, after the caller has the view
    const written = (): Promise<void> => new Promise((r) => setImmediate(r));
    const first = await loadAnalysisView(path, meta, {}, cache);
    expect(first.fromCache).toBe(false);
    await written();
    expect(readdirSync(cache).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const second = await loadAnalysisView(path, { id: 'y', name: 'other name', isSample: true }, {}, cache);
    expect(second.fromCache).toBe(true);
    expect({ ...second, id: 'x', name: 'x', isSample: false, fromCache: false }).toEqual(first);
    expect(second.captureSha256).toBe(await sha256File(path));

    // other options: another analysis
    const windowed = await loadAnalysisView(path, meta, { warmupMs: 120_000 }, cache);
    expect(windowed.fromCache).toBe(false);
    expect(windowed.result).not.toEqual(first.result);

    // the file changes (here: its modification time): recomputed, never the stale view
    const db = new Database(path);
    db.prepare(`UPDATE intervals SET reads = reads + 1000 WHERE rowid = 100`).run();
    db.close();
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const changed = await loadAnalysisView(path, meta, {}, cache);
    expect(changed.fromCache).toBe(false);
    expect(changed.captureSha256).not.toBe(first.captureSha256);
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(true);

    // a damaged cache file is recomputed
    await written();
    for (const f of readdirSync(cache)) writeFileSync(join(cache, f), '{"key": "trunc');
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(false);
    // no cache folder: no cache
    expect((await loadAnalysisView(path, meta, {}, null)).fromCache).toBe(false);
  });

  it('never caches a capture that is still being recorded', async () => {
    const path = capture('recording.capture');
    const db = new Database(path);
    db.exec(`INSERT INTO recorder VALUES ('state', 'running');`);
    db.close();
    const cache = join(dir, 'cache-recording');
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(false);
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(false);
    const db2 = new Database(path);
    db2.prepare(`UPDATE recorder SET value = 'done' WHERE key = 'state'`).run();
    db2.close();
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(false);
    expect((await loadAnalysisView(path, meta, {}, cache)).fromCache).toBe(true);
  });
});
