// The prediction through the host (issue 15), with the real probe and the real dispatch: the
// dashboard's `predict.start` on an open traced capture runs `cacheproof-probe predict --store`,
// its progress reaches 100, the capture's meta.prediction is the new one, and the analysis the
// job returns — the same as `cacheproof analyze --json` on the file — carries it; the Planner's
// saved scenario follows the capture's new hash. A run whose plan asks for a prediction gets it
// from the supervisor once its baseline has ended (run.status, run.open). Refusals: the bundled
// sample (not-supported), a capture without a trace (predict-refused with the probe's sentence).
// Figures by hand on test/support/traced-capture.ts (2,000 reads cycling over 100 blocks, 200 µs
// each, spread over the 90 s baseline): the host predicts with the capture's own warm-up (15 s),
// so the reads counted are those after it (the first 334, the 100 first references among them,
// fill the cache uncounted): a cache of 100 blocks or more hits every counted read, one of 99 none.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AnalysisReport } from '@cacheproof/engine';
import type { AnalysisView, PredictProgress, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { runCli } from '../src/cli/main.ts';
import { writeTracedCapture } from '../../test/support/traced-capture.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = join(import.meta.dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const reason = existsSync(probe) ? null : `${probe} is missing: build it with 'cargo build --release --manifest-path native/Cargo.toml'`;

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-predict-channel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function host(dataDir: string): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample, probe, dataDir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Polls a prediction job to its end: every progress seen, and the last reply (done, or the error). */
async function finish(d: Dispatch, jobId: string): Promise<{ seen: PredictProgress[]; last: Awaited<ReturnType<Dispatch>> }> {
  const seen: PredictProgress[] = [];
  return waitFor(`the prediction ${jobId} to end`, 45_000, async () => {
    const r = await d('predict.progress', { jobId });
    if (!r.ok) return { seen, last: r };
    const p = r.value as PredictProgress;
    seen.push(p);
    return p.done ? { seen, last: r } : undefined;
  }, () => JSON.stringify(seen.at(-1) ?? null), 25);
}

async function analyzeJson(capture: string): Promise<AnalysisReport> {
  let out = '';
  expect(await runCli(['analyze', capture, '--json'], { stdout: (s) => (out += s), stderr: () => undefined })).toBe(0);
  return JSON.parse(out) as AnalysisReport;
}

describe.skipIf(skipped('predict-channel', reason))('predict.* through the host', () => {
  it('runs the probe on the open capture, with progress; the analysis (and analyze --json) carries the new prediction; the saved scenario follows', async () => {
    const work = join(dir, 'dash');
    mkdirSync(work);
    const { capture } = writeTracedCapture(work, sample, probe, '1MiB');
    const d = host(join(work, 'data'));
    const view = await call<AnalysisView>(d, 'analysis.openCapture', { path: capture });
    expect(view.result.prediction.fromTrace?.cacheBytes).toBe(1 << 20);
    // a scenario saved with the capture before the prediction changes its bytes
    const { scenario } = await call<{ scenario: Record<string, unknown> }>(d, 'plan.fromAnalysis', { analysisId: view.id });
    await call(d, 'plan.save', { analysisId: view.id, scenario: { ...scenario, title: 'kept across the prediction' } });

    // 99 blocks (one less than the cycle): LRU and FIFO hit nothing; every counted read reaches the backing at its own 200 µs
    const { jobId } = await call<{ jobId: string }>(d, 'predict.start', { analysisId: view.id, choice: { cacheBytes: 99 * 4096, cacheDevice: { latencyUs: 50 }, policies: ['lru', 'fifo'] } });
    const { seen, last } = await finish(d, jobId);
    if (!last.ok) throw new Error(`${last.error.code}: ${last.error.message}`);
    expect(seen.map((s) => s.percent)).toEqual([...seen.map((s) => s.percent)].sort((a, b) => a - b));
    const done = last.value as PredictProgress;
    expect([done.percent, done.stage, done.done]).toEqual([100, 'done', true]);
    const v = done.view;
    if (v === null) throw new Error('no view once done');
    expect(v.id).toBe(view.id);
    const p = v.result.prediction.fromTrace;
    if (p === null) throw new Error('no prediction');
    expect(p.cacheBytes).toBe(99 * 4096);
    expect(p.warmupS).toBe(15);
    expect(p.reads).toBe(2000 - 334);
    expect(p.iosSavedPercent).toBe(0);
    expect(p.policies.map((x) => x.policy)).toEqual(['lru', 'fifo']);
    expect(p.cacheDevice).toMatchObject({ preset: 'typed', readLatencyUs: 50 });
    expect(p.backingIos?.total).toBe(1666);
    expect(p.frontIos?.seconds).toBeCloseTo(90.001 - 15, 9);
    expect(p.backingIos?.perSecond).toBeCloseTo(1666 / 75.001, 9);
    expect(p.responseTime?.predictedUs).toBeCloseTo(200, 9);
    expect(p.responseTime?.baselineUs).toBeCloseTo(200, 9);
    // the file holds it, and the CLI reads the same analysis
    const db = new Database(capture, { readonly: true });
    const stored = JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'prediction'").pluck().get() as string) as { cacheBytes: number };
    db.close();
    expect(stored.cacheBytes).toBe(99 * 4096);
    expect((await analyzeJson(capture)).prediction).toEqual(v.result.prediction);
    // the saved scenario is found under the capture's new hash (the reopened view waits for it)
    const hashBefore = (scenario['measuredFrom'] as { captureSha256: string }).captureSha256;
    expect(hashBefore).toMatch(/^[0-9a-f]{64}$/);
    expect(v.captureSha256).toBe(createHash('sha256').update(readFileSync(capture)).digest('hex'));
    expect(v.captureSha256).not.toBe(hashBefore);
    const saved = await call<{ scenario: { title: string } | null }>(d, 'plan.saved', { analysisId: view.id });
    expect(saved.scenario?.title).toBe('kept across the prediction');

    // 1 MiB on RAM: every counted read hits, at 0.2 µs
    const again = await call<{ jobId: string }>(d, 'predict.start', { analysisId: view.id, choice: { cacheBytes: 1 << 20, cacheDevice: { preset: 'ram' } } });
    const r2 = await finish(d, again.jobId);
    if (!r2.last.ok) throw new Error(r2.last.error.message);
    const p2 = (r2.last.value as PredictProgress).view?.result.prediction.fromTrace;
    expect(p2?.iosSavedPercent).toBe(100);
    expect(p2?.policies.map((x) => [x.policy, x.iosSavedPercent])).toEqual([['lru', 100], ['fifo', 100], ['clock', 100], ['arc', 100], ['2q', 100], ['s3fifo', 100]]);
    expect(p2?.responseTime?.predictedUs).toBeCloseTo(0.2, 9);
    expect(p2?.responseTime?.baselineUs).toBeCloseTo(200, 9);
    expect(p2?.backingIos?.total).toBe(0);
    expect(p2?.cacheDevice?.preset).toBe('ram');
    // answered once: the job is forgotten after
    const gone = await d('predict.progress', { jobId: again.jobId });
    expect(gone.ok ? null : gone.error.code).toBe('predict-job-not-found');
  }, 60_000);

  it('refuses the bundled sample, and a capture without a trace with the probe\'s sentence', async () => {
    const work = join(dir, 'refused');
    mkdirSync(work);
    const d = host(join(work, 'data'));
    const s = await call<AnalysisView>(d, 'analysis.openSample', {});
    const r = await d('predict.start', { analysisId: s.id, choice: { cacheBytes: 1 << 20, cacheDevice: { preset: 'nvme' } } });
    expect(r.ok ? null : r.error.code).toBe('not-supported');
    const plain = join(work, 'plain.capture');
    copyFileSync(sample, plain);
    const v = await call<AnalysisView>(d, 'analysis.openCapture', { path: plain });
    const { jobId } = await call<{ jobId: string }>(d, 'predict.start', { analysisId: v.id, choice: { cacheBytes: 1 << 20, cacheDevice: { preset: 'nvme' } } });
    const { last } = await finish(d, jobId);
    expect(last.ok).toBe(false);
    if (last.ok) return;
    expect(last.error.code).toBe('predict-refused');
    expect(last.error.message).toContain('no traced read or write of loop1 in the baseline window');
    // a size the contract refuses never reaches the probe
    const bad = await d('predict.start', { analysisId: v.id, choice: { cacheBytes: 0, cacheDevice: { preset: 'nvme' } } });
    expect(bad.ok ? null : bad.error.code).toBe('bad-request');
  }, 60_000);

  it('a run whose plan asks for a prediction gets it from the supervisor once the baseline has ended', async () => {
    const work = join(dir, 'run');
    mkdirSync(work);
    const { capture } = writeTracedCapture(work, sample, probe, '1MiB', null);
    const dataDir = join(work, 'data');
    const runsDir = join(dataDir, 'runs');
    mkdirSync(runsDir, { recursive: true });
    const id = 'r-20260101-000000-abcdef';
    copyFileSync(capture, join(runsDir, `${id}.capture`));
    const plan: RunPlan = {
      name: 'traced run', front: 'loop1', backing: ['loop0'], baselineSeconds: 90, warmupSeconds: 15, measureSeconds: 90, intervalMs: 1000,
      switch: { kind: 'manual' }, targets: 'generic', trace: true, prediction: { cacheBytes: 2 << 20, cacheDevice: { preset: 'sata-ssd' } },
    };
    writeFileSync(join(runsDir, `${id}.json`), JSON.stringify({ format: 'cacheproof-run', version: 1, id, name: plan.name, captureFile: join(runsDir, `${id}.capture`), plan, createdMs: 0, headline: null }));
    const d = host(dataDir);
    const first = await call<RunStatus>(d, 'run.status', { runId: id });
    expect(first.prediction?.choice).toEqual(plan.prediction);
    expect(['waiting', 'running', 'done']).toContain(first.prediction?.state);
    // run.open waits for it: the analysis carries the plan's prediction
    const v = await call<AnalysisView>(d, 'run.open', { runId: id });
    const p = v.result.prediction.fromTrace;
    expect(p?.cacheBytes).toBe(2 << 20);
    expect(p?.cacheDevice?.preset).toBe('sata-ssd');
    // every counted read hits at the SATA SSD preset's 110 µs
    expect(p?.responseTime?.predictedUs).toBeCloseTo(110, 9);
    const after = await call<RunStatus>(d, 'run.status', { runId: id });
    expect(after.prediction).toMatchObject({ state: 'done', error: null, backingPerSecond: p?.backingIos?.perSecond ?? NaN, responseTimeUs: p?.responseTime?.predictedUs ?? NaN, baselineResponseUs: 200 });
    expect(after.prediction?.iosSavedPercent).toBe(100);
  }, 60_000);
});
