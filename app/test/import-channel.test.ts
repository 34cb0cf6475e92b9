/**
 * The `import.*` channels through the real dispatch and the real probe on a real PerfMon log
 * (../shared/realdata/perfmon_csv; skipped with a message when it or the probe is absent, a failure in CI): the
 * preview is the probe's, checked against the contract; an import job writes one capture in
 * `<dataDir>/imports/` that opens as an analysis; a bad file is `import-refused` with the probe's
 * sentence naming the file and line, and leaves nothing behind. A fleet summary (`summary`: the
 * server computes the fleet) off the step is `fleet-summary-refused` with the probe's sentence.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { importArgs } from '../src/host/probe-argv.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped, waitFor } from '../../test/support/testenv.ts';

const real = realdata('perfmon_csv', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');
const probe = releaseProbe;
// without the file or the probe: skipped with a message, and a failure in CI
const skip = skipped('import-channel', realdataAbsent(real) ?? probeAbsent());

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-import-channel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dispatch(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir: join(dir, 'data') }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function finish(d: ReturnType<typeof createDispatch>, jobId: string): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  let last = '';
  return waitFor(`the import ${jobId} to end`, 45_000, async () => {
    const p = await d('import.progress', { jobId });
    last = JSON.stringify(p).slice(0, 300);
    return !p.ok || (p.value as { done: boolean }).done ? p : undefined;
  }, () => last);
}

describe('importArgs', () => {
  it('puts before/after files behind --baseline/--measure, a switch time as ISO 8601, roles as --role', () => {
    expect(importArgs({ kind: 'perfmon', files: ['/a.csv'], after: ['/b.csv'], roles: [{ device: 'LogicalDisk(C:)', role: 'other' }] }))
      .toEqual(['perfmon', '--baseline', '/a.csv', '--measure', '/b.csv', '--role', 'LogicalDisk(C:)=other']);
    expect(importArgs({ kind: 'iostat', files: ['/x.txt'], switchAtMs: Date.UTC(2022, 9, 9, 18, 40) }))
      .toEqual(['iostat', '/x.txt', '--switch-at', '2022-10-09T18:40:00.000Z']);
  });
});

describe.skipIf(skip)('import.* on a real PerfMon log', () => {
  it('previews what the probe recognized, imports with progress into <dataDir>/imports and the capture opens', async () => {
    const d = dispatch();
    const req = { kind: 'perfmon', files: [real], switchAtMs: Date.UTC(2022, 9, 9, 18, 40) };
    const pv = await d('import.preview', req);
    if (!pv.ok) throw new Error(pv.error.message);
    const p = pv.value as { ready: boolean; intervalMs: number; devices: { name: string; role: string; on: string | null }[]; counters: { source: string; field: string }[]; files: { samples: number }[]; phases: { name: string }[] };
    expect(p.ready).toBe(true);
    expect(p.intervalMs).toBe(5000);
    expect(p.devices.map((x) => [x.name, x.role, x.on])).toEqual([['LogicalDisk(C:)', 'other', 'PhysicalDisk(1 C: E:)'], ['PhysicalDisk(1 C: E:)', 'backing', null]]);
    expect(p.counters).toContainEqual({ source: 'Disk Reads/sec', field: 'reads_per_s' });
    // Samples: the file's data rows.
    const rows = readFileSync(real, 'utf8').split(/\r?\n/u).filter((l) => l.startsWith('"1')).length;
    expect(p.files[0]?.samples).toBe(rows);
    expect(p.phases.map((x) => x.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    expect(readdirSync(dir)).toEqual([]);

    const start = await d('import.start', req);
    if (!start.ok) throw new Error(start.error.message);
    const done = await finish(d, (start.value as { jobId: string }).jobId);
    if (!done.ok) throw new Error(done.error?.message);
    const path = (done.value as { capturePath: string; percent: number }).capturePath;
    expect((done.value as { percent: number }).percent).toBe(100);
    expect(readdirSync(join(dir, 'data', 'imports'))).toEqual([path.split('/').pop()]);
    const view = await d('analysis.openCapture', { path });
    if (!view.ok) throw new Error(view.error.message);
    expect((view.value as { host: { hostname: string } }).host.hostname).toBe('DESKTOP-5GTCQEM');
  });

  it('a truncated log is import-refused with the probe sentence naming the file and line; nothing is written', async () => {
    const d = dispatch();
    const bad = join(dir, 'cut.csv');
    const lines = readFileSync(real, 'utf8').split(/\r\n/u);
    // The third row cut in the middle of its cells.
    writeFileSync(bad, `${lines.slice(0, 3).join('\r\n')}\r\n${(lines[3] ?? '').slice(0, 60)}`);
    const before = existsSync(join(dir, 'data', 'imports')) ? readdirSync(join(dir, 'data', 'imports')) : [];
    const pv = await d('import.preview', { kind: 'perfmon', files: [bad] });
    expect(pv.ok).toBe(false);
    if (pv.ok) return;
    expect(pv.error.code).toBe('import-refused');
    expect(pv.error.message).toContain(bad);
    expect(pv.error.message).toMatch(/line 4/u);
    const start = await d('import.start', { kind: 'perfmon', files: [bad] });
    if (!start.ok) throw new Error(start.error.message);
    const done = await finish(d, (start.value as { jobId: string }).jobId);
    expect(done.ok).toBe(false);
    expect(done.error?.code).toBe('import-refused');
    expect(readdirSync(join(dir, 'data', 'imports'))).toEqual(before);
  });
});

describe.skipIf(skipped('import-channel (fleet summary)', probeAbsent()))('import.start of a fleet summary (the server computes the fleet)', () => {
  const summary = (fromMs: number, url = 'http://127.0.0.1:9'): unknown => ({ kind: 'prometheus', files: [], prometheus: { url, fromMs, toMs: Date.UTC(2024, 2, 15), stepS: 60, perHost: false, summary: true } });
  it('a range off the step is fleet-summary-refused with the probe\'s sentence, and nothing is written', async () => {
    const d = dispatch();
    const started = await d('import.start', summary(Date.UTC(2024, 2, 14, 0, 0, 30)));
    if (!started.ok) throw new Error(started.error.message);
    const done = await finish(d, (started.value as { jobId: string }).jobId);
    expect(done.ok).toBe(false);
    expect(done.error?.code).toBe('fleet-summary-refused');
    expect(done.error?.message).toContain('--fleet-summary needs --from and --to on multiples of --step (60 s)');
    expect(readdirSync(join(dir, 'data', 'imports')).filter((f) => f.endsWith('.json') || f.endsWith('.part'))).toEqual([]);
  });
  it('a server that cannot be reached is import-unreachable', async () => {
    const d = dispatch();
    const started = await d('import.start', summary(Date.UTC(2024, 2, 14)));
    if (!started.ok) throw new Error(started.error.message);
    const done = await finish(d, (started.value as { jobId: string }).jobId);
    expect(done.error?.code).toBe('import-unreachable');
  });
});
