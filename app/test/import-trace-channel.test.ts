/**
 * The `import.*` channels with a block trace (issue 25), through the real dispatch and the real
 * probe: the contract takes one trace file and the cache to predict; the preview is the probe's
 * `import-trace` summary (the generated WPA export's own counts, test/support/wpa-export.ts) and
 * leaves nothing; the import writes one capture whose stored prediction is `cacheproof-probe
 * predict`'s for that cache, and which opens as a workload profile carrying it; the real WPA
 * "Utilization by Disk" export (no Offset column) is `import-refused` with the probe's sentence.
 * Without the probe or the real file: skipped with a message, a failure in CI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { importTraceArgs } from '../src/host/probe-argv.ts';
import { ImportRequest } from '../src/shared/contract.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped, waitFor } from '../../test/support/testenv.ts';
import { writeWpaExport } from '../../test/support/wpa-export.ts';

const SIEMENS = realdata('etw', 'Siemens-Healthineers_ETWAnalyzer__Disk_Usage_Utilization_by_Disk.csv');
const skip = skipped('import-trace-channel', probeAbsent() ?? realdataAbsent(SIEMENS));
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-import-trace-channel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CHOICE = { cacheBytes: 1 << 20, cacheDevice: { preset: 'nvme' as const } };

function dispatch(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe: releaseProbe, dataDir: join(dir, 'data') }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

type Reply = Awaited<ReturnType<ReturnType<typeof createDispatch>>>;

/** Polls `import.progress` of `jobId` until the job is done or fails, handing each reply to `each`; returns the last reply. */
async function finish(d: ReturnType<typeof createDispatch>, jobId: string, each: (r: Reply) => void = () => undefined): Promise<Reply> {
  let last = '';
  return waitFor(`the import ${jobId} to end`, 45_000, async () => {
    const r = await d('import.progress', { jobId });
    last = JSON.stringify(r).slice(0, 300);
    each(r);
    return !r.ok || (r.value as { done: boolean }).done ? r : undefined;
  }, () => last);
}

describe('a block trace in the import contract', () => {
  it('takes one file and the cache to predict, nothing of a log; a log takes no cache to predict', () => {
    expect(ImportRequest.safeParse({ kind: 'wpa', files: ['/t.csv'], prediction: CHOICE }).success).toBe(true);
    // a trace's preview needs no cache size (issue 37): the host refuses only its import without one
    expect(ImportRequest.safeParse({ kind: 'wpa', files: ['/t.csv'] }).success).toBe(true);
    expect(ImportRequest.safeParse({ kind: 'wpa', files: ['/a.csv', '/b.csv'], prediction: CHOICE }).success).toBe(false);
    expect(ImportRequest.safeParse({ kind: 'xperf', files: ['/t.txt'], prediction: CHOICE, switchAtMs: 0 }).success).toBe(false);
    expect(ImportRequest.safeParse({ kind: 'perfmon', files: ['/l.csv'], prediction: CHOICE }).success).toBe(false);
    expect(importTraceArgs({ kind: 'tracerpt', files: ['/x/out.csv'], prediction: CHOICE }, '/d/o.capture')).toEqual(['import-trace', 'tracerpt', '/x/out.csv', '--out', '/d/o.capture', '--json']);
    // the trace's start, for a format that counts from it: the probe's --start in epoch seconds
    expect(importTraceArgs({ kind: 'wpa', files: ['/t.csv'], prediction: CHOICE, traceStartMs: 1_795_158_000_250 }, '/d/o.capture')).toEqual(['import-trace', 'wpa', '/t.csv', '--out', '/d/o.capture', '--start', '1795158000.250', '--json']);
    expect(ImportRequest.safeParse({ kind: 'perfmon', files: ['/l.csv'], traceStartMs: 0 }).success).toBe(false);
  });
});

describe.skipIf(skip)('import.* with a block trace, on the real probe', () => {
  it('previews the probe\'s summary, imports and predicts, and the capture opens as a profile with that prediction', async () => {
    const d = dispatch();
    const wpa = join(dir, 'Disk_Usage.csv');
    const counts = writeWpaExport(wpa);
    const req = { kind: 'wpa', files: [wpa], prediction: CHOICE };
    // the preview without the cache to predict: the trace's facts do not depend on it
    const pv = await d('import.preview', { kind: 'wpa', files: [wpa] });
    if (!pv.ok) throw new Error(pv.error.message);
    const p = pv.value as { ready: boolean; files: { samples: number; format: string }[]; trace: { records: number; imported: number; skipped: number; flushes: number; devices: string[] } };
    expect(p.ready).toBe(true);
    expect(p.trace).toEqual({ records: counts.records, imported: counts.reads + counts.writes, skipped: 0, skippedByReason: {}, skippedExamples: [], devices: ['disk0', 'disk1'], flushes: counts.flushes, spanMs: expect.closeTo(counts.spanMs, 2) as number, firstUtcMs: null, lastUtcMs: null });
    // importing needs the cache to predict
    const none = await d('import.start', { kind: 'wpa', files: [wpa] });
    expect(none.ok ? '' : none.error.code).toBe('bad-request');
    expect(p.files.map((f) => [f.format, f.samples])).toEqual([['wpa', counts.records]]);
    expect(existsSync(join(dir, 'data', 'imports'))).toBe(false);

    const start = await d('import.start', req);
    if (!start.ok) throw new Error(start.error.message);
    const jobId = (start.value as { jobId: string }).jobId;
    const stages = new Set<string>();
    const percents: number[] = [];
    const r = await finish(d, jobId, (p) => {
      if (!p.ok) return;
      const v = p.value as { stage: string; percent: number };
      stages.add(v.stage);
      percents.push(v.percent);
    });
    if (!r.ok) throw new Error(r.error.message);
    const done = r.value as { capturePath: string; percent: number };
    expect(done.percent).toBe(100);
    expect(stages.has('done')).toBe(true);
    // the import's estimate stays below the prediction's share, then the probe's own progress: never backwards
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(readdirSync(join(dir, 'data', 'imports'))).toEqual([done.capturePath.split('/').pop()]);

    const fresh = spawnSync(releaseProbe, ['predict', done.capturePath, '--size', `${CHOICE.cacheBytes}B`, '--cache-device', 'nvme', '--policy', 'lru,fifo,clock,arc,2q,s3fifo', '--json', '--quiet'], { encoding: 'utf8' });
    expect(fresh.status, fresh.stderr).toBe(0);
    const f = JSON.parse(fresh.stdout) as { iosSavedPercent: number; readHitRatio: number; reads: number; writesCount: number; backingIos: { perSecond: number } };
    const view = await d('analysis.openProfile', { path: done.capturePath });
    if (!view.ok) throw new Error(view.error.message);
    const prof = (view.value as { profile: { appFacing: { totals: { ios: number } }; devices: { front: string[] }; prediction: { fromTrace: { iosSavedPercent: number; readHitRatio: number; reads: number; writesCount: number; cacheBytes: number; backingIos: { perSecond: number } | null; measuredIosSavedPercent: number | null } | null } } }).profile;
    const q = prof.prediction.fromTrace;
    if (q === null) throw new Error('the profile has no prediction');
    expect([q.iosSavedPercent, q.readHitRatio, q.reads, q.writesCount, q.cacheBytes, q.backingIos?.perSecond]).toEqual([f.iosSavedPercent, f.readHitRatio, f.reads, f.writesCount, CHOICE.cacheBytes, f.backingIos.perSecond]);
    expect(q.measuredIosSavedPercent).toBeNull();
    // the trace's own counters: every request kept, its disks the front
    expect(prof.appFacing.totals.ios).toBe(counts.reads + counts.writes);
    expect(prof.devices.front).toEqual(['disk0', 'disk1']);
  });

  it('a trace with its start given opens on that day, not on 1 January 1970; a start for a trace with its own times is import-choice-refused', async () => {
    const d = dispatch();
    const wpa = join(dir, 'Disk_Usage_start.csv');
    writeWpaExport(wpa);
    const at = Date.UTC(2026, 10, 20, 7, 0, 0);
    const run = async (req: Record<string, unknown>): Promise<{ ok: true; path: string } | { ok: false; code: string; message: string }> => {
      const start = await d('import.start', req);
      if (!start.ok) return { ok: false, code: start.error.code, message: start.error.message };
      const p = await finish(d, (start.value as { jobId: string }).jobId);
      if (!p.ok) return { ok: false, code: p.error.code, message: p.error.message };
      return { ok: true, path: (p.value as { capturePath: string }).capturePath };
    };
    const r = await run({ kind: 'wpa', files: [wpa], prediction: CHOICE, traceStartMs: at });
    if (!r.ok) throw new Error(r.message);
    const view = await d('analysis.openProfile', { path: r.path });
    if (!view.ok) throw new Error(view.error.message);
    const win = (view.value as { profile: { window: { startMs: number; endMs: number } } }).profile.window;
    expect(win.startMs).toBeGreaterThanOrEqual(at);
    expect(win.endMs).toBeLessThan(at + 86_400_000);
    // an MSR trace carries its own UTC times: the probe refuses a start (exit 2), said as a choice to change
    const msr = join(dir, 'hm_0.csv');
    writeFileSync(msr, '128166372003061629,hm,0,Read,3633614848,65536,6512\n128166372016382155,hm,0,Write,3741927424,4096,1547\n');
    const refused = await run({ kind: 'msr', files: [msr], prediction: CHOICE, traceStartMs: at });
    expect(refused).toMatchObject({ ok: false, code: 'import-choice-refused' });
    expect(refused.ok ? '' : refused.message).toContain('msr traces carry their own UTC times; --start is for exports');
  });

  it('the real Utilization by Disk export is import-refused with the probe\'s sentence, and nothing is written', async () => {
    const d = dispatch();
    const before = existsSync(join(dir, 'data', 'imports')) ? readdirSync(join(dir, 'data', 'imports')) : [];
    for (const channel of ['import.preview', 'import.start'] as const) {
      const r = await d(channel, { kind: 'wpa', files: [SIEMENS], prediction: CHOICE });
      let err = r.ok ? null : r.error;
      if (r.ok) {
        const p = await finish(d, (r.value as { jobId: string }).jobId);
        if (!p.ok) err = p.error;
      }
      expect(err?.code, channel).toBe('import-refused');
      expect(err?.message).toContain(`${SIEMENS} is a WPA Disk Usage table without an Offset column`);
      expect(err?.message).toContain('export the Disk Usage graph with the Offset column');
    }
    expect(existsSync(join(dir, 'data', 'imports')) ? readdirSync(join(dir, 'data', 'imports')) : []).toEqual(before);
  });
});
