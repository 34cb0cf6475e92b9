// After a prediction only the stored prediction is read back (issue 38), with the real probe, the
// real dispatch and the analysis on this thread (so that every read of the capture is counted
// here, `captureReads`): on a traced capture (test/support/traced-capture.ts) the view the job
// returns equals, figure for figure, a fresh full analysis of the changed capture — its prediction,
// its warnings, every figure and chart line — while the capture is opened once (its meta row) and
// hashed once instead of read whole and analysed; the session serves the new view to the next
// open without reading the file, and the on-disk cache holds it under the file's new stamp only.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisView, PredictProgress } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { loadAnalysisView, publicView, type HostView } from '../src/host/analysis.ts';
import { captureReads } from '../src/host/capture/reader.ts';
import { writeTracedCapture } from '../../test/support/traced-capture.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = join(import.meta.dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const reason = existsSync(probe) ? null : `${probe} is missing: build it with 'cargo build --release --manifest-path native/Cargo.toml'`;

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-readback-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Runs a prediction job to its end and returns its view. */
async function predicted(d: Dispatch, analysisId: string, choice: unknown): Promise<AnalysisView> {
  const { jobId } = await call<{ jobId: string }>(d, 'predict.start', { analysisId, choice });
  const done = await waitFor(`the prediction ${jobId} to end`, 45_000, async () => {
    const p = await call<PredictProgress>(d, 'predict.progress', { jobId });
    return p.done ? p : undefined;
  }, () => jobId, 25);
  if (done.view === null) throw new Error('no view once done');
  return done.view;
}

const reads = (): typeof captureReads => ({ ...captureReads });
const spent = (from: typeof captureReads): { opens: number; hashes: number } => ({ opens: captureReads.opens - from.opens, hashes: captureReads.hashes - from.hashes });

/** The cache's entries (one JSON file per analysis), once the writes queued for the next turn are made. */
async function cacheEntries(cacheDir: string): Promise<{ view: HostView }[]> {
  await new Promise((r) => setImmediate(r));
  return readdirSync(cacheDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(cacheDir, f), 'utf8')) as { view: HostView });
}

describe.skipIf(skipped('prediction-readback', reason))('the stored prediction read back into the open analysis', () => {
  it('equals a fresh full analysis of the changed capture, reading its meta row and hashing it instead of analysing it again', async () => {
    const work = join(dir, 'dash');
    mkdirSync(work);
    const { capture } = writeTracedCapture(work, sample, probe, '1MiB');
    const dataDir = join(work, 'data');
    const cacheDir = join(dataDir, 'analysis-cache');
    const d = createDispatch(createHandlers({ shell: 'browser', sample, probe, dataDir }), (channel, err) => {
      throw new Error(`bug in ${channel}: ${String(err)}`);
    });
    const view = await call<AnalysisView>(d, 'analysis.openCapture', { path: capture });
    expect(view.result.prediction.fromTrace?.cacheBytes).toBe(1 << 20);

    for (const choice of [{ cacheBytes: 99 * 4096, cacheDevice: { latencyUs: 50 }, policies: ['lru', 'fifo'] }, { cacheBytes: 2 << 20, cacheDevice: { preset: 'ram' } }]) {
      const before = reads();
      const back = await predicted(d, view.id, choice);
      const readBack = spent(before);
      expect(back.result.prediction.fromTrace?.cacheBytes).toBe(choice.cacheBytes);

      // the same capture analysed again from scratch (what the job did before), counted the same way
      const full = reads();
      const fresh = publicView(await loadAnalysisView(capture, { id: back.id, name: back.name, isSample: false }, {}, null));
      const analysed = spent(full);
      expect(back.result.prediction).toEqual(fresh.result.prediction);
      expect(back.result.warnings).toEqual(fresh.result.warnings);
      expect(back).toEqual(fresh);
      // one open (the meta row) and one hash, against a full read (ten opens here: its info and columnar blocks) and a hash: the capture not analysed again
      expect(readBack).toEqual({ opens: 1, hashes: 1 });
      expect(analysed.hashes).toBe(1);
      expect(analysed.opens).toBeGreaterThan(readBack.opens);

      // the next open is the session's new view: nothing read
      const next = reads();
      const reopened = await call<AnalysisView>(d, 'analysis.openCapture', { path: capture });
      expect(spent(next)).toEqual({ opens: 0, hashes: 0 });
      expect({ ...reopened, fromCache: false }).toEqual(fresh);
      // and the cache of finished analyses holds the new view alone, under the changed file's key
      const entries = await cacheEntries(cacheDir);
      expect(entries.map((e) => e.view.captureSha256)).toEqual([fresh.captureSha256]);
      const cached = await loadAnalysisView(capture, { id: back.id, name: back.name, isSample: false }, {}, cacheDir, () => Promise.reject(new Error('analysed again')));
      expect(publicView({ ...cached, fromCache: false })).toEqual(fresh);
    }
  }, 120_000);
});
