/**
 * Analysis sessions (host/session.ts): a capture is analysed once, on a worker thread, while the
 * host keeps answering; progress, cancel, and the same view as the analysis on this thread.
 * The real browser host (HTTP on loopback) with the real handlers and dispatch, the worker
 * bundle built from the sources, and a synthetic capture of 2 × 8 h × 16 devices at 1 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBrowserHost, type RunningHost } from '../src/browser-host/server.ts';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { computeView } from '../src/host/analysis.ts';
import { AnalysisSessions } from '../src/host/session.ts';
import { HostError } from '../src/host/errors.ts';
import { openCaptureColumnar, openCaptureColumnarParallel } from '../src/host/capture/columnar.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { analyze } from '@cacheproof/engine';
import Database from 'better-sqlite3';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import { waitFor } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-session-test-'));
const TOKEN = 's'.repeat(40);
const big = join(dir, 'big.capture');
// inside the checkout, so that the bundle's require('better-sqlite3') finds node_modules
const workerFile = join(root, 'node_modules', '.cache', 'cacheproof-test', `analysis-worker-${process.pid}.cjs`);
let host: RunningHost;
let rows = 0;

function call(channel: string, body: unknown): Promise<{ ms: number; reply: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }> {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    // a connection of its own per call (agent false): Node's default agent keeps sockets alive and
    // reuses one the host may be closing after its 5 s keep-alive timeout (a call after a long
    // analysis then fails with ECONNRESET; Chromium retries such a request, Node does not)
    const req = request({
      agent: false, host: '127.0.0.1', port: host.port, path: `/api/${channel}`, method: 'POST',
      headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-cacheproof': '1' },
    }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => ok({ ms: performance.now() - t0, reply: JSON.parse(data) as never }));
    });
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  // the worker bundle, built from the sources under test (as scripts/build.mjs builds app/dist/analysis-worker.cjs)
  await build({
    entryPoints: [join(root, 'app/src/host/analysis-worker.ts')], outfile: workerFile, bundle: true, platform: 'node', format: 'cjs',
    target: 'node20', external: ['better-sqlite3'], define: { __CACHEPROOF_VERSION__: '"test"' }, logLevel: 'warning',
  });
  process.env['CACHEPROOF_ANALYSIS_WORKER'] = workerFile;
  // 1 front, 14 backing, 1 other device; 2 × 8 h + 10 min at 1 s
  rows = writeSyntheticCapture({ path: big, windowSeconds: 8 * 3600, warmupSeconds: 600, intervalMs: 1000, backingDevices: 14, extraDevices: 1, missShare: 0.1 });
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  const handlers = createHandlers({ shell: 'browser', sample: null, probe: null, dataDir: join(dir, 'data') });
  host = await startBrowserHost({ staticDir, token: TOKEN, dispatch: createDispatch(handlers, (ch, err) => { throw new Error(`${ch}: ${String(err)}`); }) });
}, 120_000);
afterAll(async () => {
  delete process.env['CACHEPROOF_ANALYSIS_WORKER'];
  rmSync(workerFile, { force: true });
  rmSync(`${workerFile}.map`, { force: true });
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the host keeps answering while a large capture opens', () => {
  it('app.info keeps answering during analysis.openCapture of 2 × 8 h × 16 devices: no answer waits for the open', async () => {
    expect(rows).toBeGreaterThan(900_000);
    let done = false;
    const t0 = performance.now();
    const opening = call('analysis.openCapture', { path: big }).finally(() => { done = true; });
    const latencies: number[] = [];
    while (!done) {
      const { ms, reply } = await call('app.info', {});
      expect(reply.ok).toBe(true);
      latencies.push(ms);
      // not a synchronisation: the pace of the questions asked while the open runs (the loop ends on its state, done)
      await new Promise((r) => setTimeout(r, 20));
    }
    const open = await opening;
    const openMs = performance.now() - t0;
    expect(open.reply.ok, JSON.stringify(open.reply.error)).toBe(true);
    // Not a number of milliseconds (a loaded machine stretches every answer: one took 186 ms
    // there), but the state that matters: the open runs beside the host's thread. A host that
    // opened the capture on its own thread would answer once or twice, the first answer waiting
    // for most of the open; here it answers all along, none waiting a quarter of the open.
    const said = `app.info latencies (ms): ${latencies.map((x) => x.toFixed(0)).join(' ')}; the open took ${openMs.toFixed(0)} ms`;
    expect(latencies.length, said).toBeGreaterThanOrEqual(10);
    expect(Math.max(...latencies), said).toBeLessThan(openMs / 4);
    // the view the worker made is the one this thread makes
    const here = await computeView(big, { id: 'x', name: 'x', isSample: false }, {});
    const view = open.reply.value as { id: string; result: unknown; series: unknown; groupSeries: unknown; captureSha256: string | null };
    // (the reply went through the contract's schema, which orders keys its own way: compare values)
    expect(view.result).toEqual(JSON.parse(JSON.stringify(here.view.result)));
    expect([view.series, view.groupSeries]).toEqual(JSON.parse(JSON.stringify([here.view.series, here.view.groupSeries])));
    // the reply does not wait for the file's hash (null until the host has it); a service that needs
    // it waits: the Planner's prefill names the capture by its SHA-256
    expect([null, here.view.captureSha256]).toContain(view.captureSha256);
    const prefill = await call('plan.fromAnalysis', { analysisId: view.id, lang: 'en' });
    expect(prefill.reply.ok, JSON.stringify(prefill.reply.error)).toBe(true);
    expect((prefill.reply.value as { scenario: { measuredFrom: { captureSha256: string } } }).scenario.measuredFrom.captureSha256).toBe(here.view.captureSha256);
  }, 120_000);
});

describe('progress and cancel through the contract (analysis.progress, analysis.cancel)', () => {
  it('a capture being opened says where it is, stops when asked (its open fails with analysis-cancelled), and opens again after', async () => {
    // a modification time this host has not seen: a new session and no cached view
    const later = new Date(Date.now() + 60_000);
    utimesSync(big, later, later);
    const idle = await call('analysis.progress', { path: big });
    expect(idle.reply).toEqual({ ok: true, value: { progress: null } });
    // The open takes about 0.6 s here: on a machine fast enough to finish it between the progress
    // seen and the cancel, the file gets a new modification time (a new session) and it is tried again.
    let cancelled = false;
    for (let attempt = 1; attempt <= 3 && !cancelled; attempt++) {
      if (attempt > 1) {
        const t = new Date(Date.now() + attempt * 60_000);
        utimesSync(big, t, t);
      }
      let settled = false;
      const opening = call('analysis.openCapture', { path: big }).finally(() => { settled = true; });
      // the first progress the open reports, or its end (a machine fast enough to finish first)
      let seen: { stage: string; done: number; total: number } | null = null;
      await waitFor('the open\'s first progress, or its end', 60_000, async () => {
        const p = await call('analysis.progress', { path: big });
        expect(p.reply.ok).toBe(true);
        seen = (p.reply.value as { progress: typeof seen }).progress;
        return seen !== null || settled ? true : undefined;
      }, () => `progress ${JSON.stringify(seen)}`, 20);
      const stop = await call('analysis.cancel', { path: big });
      const open = await opening;
      if (seen === null && open.reply.ok && attempt < 3) continue;
      expect(seen, 'no progress was reported while the capture was read').not.toBeNull();
      const first = seen as unknown as { stage: string; done: number; total: number };
      expect(['read', 'analyze']).toContain(first.stage);
      if (first.stage === 'read') expect(first.total).toBeGreaterThan(900_000);
      expect(first.done).toBeLessThanOrEqual(first.total);
      if (stop.reply.ok && (stop.reply.value as { cancelled: boolean }).cancelled === false && open.reply.ok && attempt < 3) continue;
      expect(stop.reply).toEqual({ ok: true, value: { cancelled: true } });
      expect(open.reply.ok).toBe(false);
      expect(open.reply.error?.code).toBe('analysis-cancelled');
      cancelled = true;
    }
    expect((await call('analysis.cancel', { path: big })).reply).toEqual({ ok: true, value: { cancelled: false } });
    expect((await call('analysis.progress', { path: big })).reply).toEqual({ ok: true, value: { progress: null } });
    // a bad target names the field
    const bad = await call('analysis.progress', { path: big, runId: 'x' });
    expect(bad.reply.error?.code).toBe('bad-request');
    const again = await call('analysis.openCapture', { path: big });
    expect(again.reply.ok, JSON.stringify(again.reply.error)).toBe(true);
  }, 120_000);
});

describe('sessions', () => {
  it('one analysis per capture and options: a second open while the first runs shares it; progress goes from reading to analysing', async () => {
    const sessions = new AnalysisSessions(null, workerFile);
    const stages = new Set<string>();
    const a = sessions.open(big, { id: 'a', name: 'a', isSample: false });
    const b = sessions.open(big, { id: 'b', name: 'b', isSample: false });
    // an observer, not a wait: samples the stage every 5 ms while the opens run (the wait is Promise.all)
    const poll = setInterval(() => { const p = sessions.progress(big); if (p !== null) stages.add(p.stage); }, 5);
    const [va, vb] = await Promise.all([a, b]);
    clearInterval(poll);
    expect(JSON.stringify(va.result)).toBe(JSON.stringify(vb.result));
    expect([va.id, vb.id]).toEqual(['a', 'b']);
    expect([...stages]).toContain('read');
    // a third open is the session's finished view, not a new analysis
    expect((await sessions.open(big, { id: 'c', name: 'c', isSample: false })).fromCache).toBe(true);
  }, 120_000);

  it('cancel stops the worker, says so, leaves no columnar files, and the next open starts again', async () => {
    const sessions = new AnalysisSessions(null, workerFile);
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('cacheproof-analysis-')).length;
    const opening = sessions.open(big, { id: 'a', name: 'a', isSample: false }, { seed: 3 });
    // the worker runs once it reports progress: cancel that, not a session still starting
    await waitFor('the worker to report progress', 60_000, () => sessions.progress(big, { seed: 3 }) ?? undefined, () => 'no progress', 5);
    expect(sessions.cancel(big, { seed: 3 })).toBe(true);
    const err = await opening.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect((err as HostError).code).toBe('analysis-cancelled');
    expect((err as HostError).message).toMatch(/cancelled/);
    const columnar = (): number => readdirSync(tmpdir()).filter((f) => f.startsWith('cacheproof-analysis-')).length;
    await waitFor(`the cancelled worker's columnar files to be removed (${before} cacheproof-analysis-* folders before it)`, 10_000, () => (columnar() === before ? true : undefined), () => `${columnar()} folders`);
    const view = await sessions.open(big, { id: 'a', name: 'a', isSample: false }, { seed: 3 });
    expect((view.result as unknown as { uncertainty: { seed: number } }).uncertainty.seed).toBe(3);
  }, 120_000);

  it('a capture in WAL mode (as the probe writes it) is analysed once: the empty write-ahead log a reader leaves is no change', async () => {
    const path = join(dir, 'wal.capture');
    writeSyntheticCapture({ path, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, missShare: 0.2 });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const sessions = new AnalysisSessions(null, workerFile);
    expect((await sessions.open(path, { id: 'w', name: 'w', isSample: false })).fromCache).toBe(false);
    // reading it read-only left a 0-byte write-ahead log beside it
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect((await sessions.open(path, { id: 'w', name: 'w', isSample: false })).fromCache).toBe(true);
  });

  it('an expected failure in the worker comes back as the same HostError', async () => {
    const sessions = new AnalysisSessions(null, workerFile);
    const missing = join(dir, 'absent.capture');
    const err = await sessions.open(missing, { id: 'm', name: 'm', isSample: false }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect((err as HostError).code).toBe('capture-not-found');
    expect(existsSync(missing)).toBe(false);
  });
});

describe('the parallel read (two rowid halves, the upper one on a worker thread)', () => {
  it('gives the same analysis as the one-thread read, in two parts', async () => {
    const one = openCaptureColumnar(big, dir);
    const two = await openCaptureColumnarParallel(big, workerFile, dir);
    try {
      expect(readdirSync(two.dir).sort()).toEqual(['lower', 'upper']);
      expect(two.intervalCount).toBe(one.intervalCount);
      expect(JSON.stringify(analyze(two.data, { seed: 2 }))).toBe(JSON.stringify(analyze(one.data, { seed: 2 })));
    } finally {
      one.close();
      two.close();
    }
  }, 120_000);

  it('a device whose rows are out of order across the halves is sorted like the in-memory reader sorts it', async () => {
    const path = join(dir, 'shuffled.capture');
    writeSyntheticCapture({ path, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 1, missShare: 0.2 });
    const db = new Database(path);
    // the first 100 rows moved to the end of the table: their starts come after later ones
    db.exec('CREATE TEMP TABLE t AS SELECT * FROM intervals WHERE rowid <= 100; DELETE FROM intervals WHERE rowid <= 100; INSERT INTO intervals SELECT * FROM t;');
    db.close();
    const two = await openCaptureColumnarParallel(path, workerFile, dir, undefined, 10);
    try {
      expect(readdirSync(two.dir).sort()).toEqual(['lower', 'upper']);
      expect(JSON.stringify(analyze(two.data))).toBe(JSON.stringify(analyze(openCapture(path).data)));
    } finally {
      two.close();
    }
  });

  it('a capture that is not a capture fails with the same code through the parallel read', async () => {
    const path = join(dir, 'not.capture');
    writeFileSync(path, 'not sqlite at all, just text that is long enough to have a header');
    const err = await openCaptureColumnarParallel(path, workerFile, dir, undefined, 10).then(() => null, (e: unknown) => e);
    expect((err as HostError).code).toBe('capture-not-sqlite');
  });
});
