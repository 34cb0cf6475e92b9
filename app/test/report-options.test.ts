/**
 * Reports from the app use the analysis options their analysis was opened with (a run's roles
 * and latency targets), and a scenario's `measuredFrom` ties it to its capture exactly:
 * - a run opened with swapped roles and SQL Server targets exports a report (preview and job)
 *   whose headline figures are that view's, not the default analysis' ones; the Planner's prefill
 *   uses the same options and names the capture;
 * - `tco --from-capture` writes `measuredFrom`; the report accepts it on that capture (whatever the
 *   analysis options), refuses it on another capture or on the same file changed since, in one
 *   sentence naming both files; scenarios without it keep the value-based check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parseScenario } from '@cacheproof/engine/plan';
import type { AnalysisView, ReportProgress } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { reportFileOf } from '../src/host/report/jobs.ts';
import { probePath } from '../src/host/paths.ts';
import { newRunId, RunRegistry } from '../src/host/runs/registry.ts';
import { runCli } from '../src/cli/main.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-options-'));
const probe = probePath(root);
const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

/** RFC 4180 rows (the summary CSV: no field spans lines). */
function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => {
      const out: string[] = [];
      let cur = '';
      let q = false;
      for (let i = 0; i < l.length; i++) {
        const c = l[i] as string;
        if (q) {
          if (c === '"' && l[i + 1] === '"') {
            cur += '"';
            i++;
          } else if (c === '"') q = false;
          else cur += c;
        } else if (c === '"') q = true;
        else if (c === ',') {
          out.push(cur);
          cur = '';
        } else cur += c;
      }
      out.push(cur);
      return out;
    });
}

const pct = (v: number): string => new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v / 100);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The headline figures of an analysis, as the summary CSV holds them (id → [before, after, value, low, high, devices]). */
function headline(result: Json): Record<string, (number | string | null)[]> {
  const b = result.benefit;
  return {
    iosToBacking: [b.iosToBacking.before, b.iosToBacking.after, null, null, null, result.devices.backing.join(', ')],
    iosSavedPercent: [null, null, b.iosSavedPercent.value, b.iosSavedPercent.ci95.low, b.iosSavedPercent.ci95.high, result.devices.backing.join(', ')],
    latencyMs: [b.latencyMs.before, b.latencyMs.after, null, null, null, result.devices.front.join(', ')],
    latencyReductionPercent: [null, null, b.latencyMs.reductionPercent, b.latencyMs.reductionPercentCi95.low, b.latencyMs.reductionPercentCi95.high, result.devices.front.join(', ')],
    normalizedIops: [b.normalizedIops.before, b.normalizedIops.after, null, null, null, result.devices.front.join(', ')],
    cacheServedReads: [null, null, b.cacheServedPercent.reads, null, null, `${result.devices.front.join(', ')} / ${result.devices.backing.join(', ')}`],
  };
}

function summaryOf(csv: string): Record<string, (number | string | null)[]> {
  const out: Record<string, (number | string | null)[]> = {};
  for (const row of csvRows(csv).slice(1)) {
    const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));
    out[row[0] as string] = [num(row[2]), num(row[3]), num(row[4]), num(row[5]), num(row[6]), row[8] ?? ''];
  }
  return out;
}

function host(dataDir: string): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

async function exportCsv(d: Dispatch, analysisId: string, scenario: unknown = null): Promise<{ summary: string } | { code: string; message: string }> {
  const started = await d('report.start', { analysisId, format: 'csv', lang: 'en', paper: 'a4', cover: {}, scenario });
  if (!started.ok) return { code: started.error.code, message: started.error.message };
  const { jobId } = started.value as { jobId: string };
  let last = '';
  return waitFor(`the CSV export ${jobId} to end`, 45_000, async () => {
    const p = await d('report.progress', { jobId });
    last = JSON.stringify(p).slice(0, 300);
    if (!p.ok) return { code: p.error.code, message: p.error.message };
    const s = p.value as ReportProgress;
    if (!s.done) return undefined;
    // the file stays on the host's disk (the bytes never cross the contract): read it where the browser host serves it from
    const file = reportFileOf(jobId, s.files?.[0]?.index ?? -1);
    if (file === null) throw new Error(`report ${jobId}: no file 0`);
    expect(s.files?.[0]?.sizeBytes).toBe(statSync(file.path).size);
    return { summary: readFileSync(file.path, 'utf8') };
  }, () => last);
}

const noProbe = probe === null ? `run.open asks the probe for the run's state, and ${join(root, 'native/target/release/cacheproof-probe')} is missing: build it with 'cd native && cargo build --release'` : null;

describe.skipIf(skipped('report-options', noProbe))('the app\'s report uses the options its analysis was opened with', () => {
  let d: Dispatch;
  let view: AnalysisView;
  let defaults: Json;
  let captureName = '';
  beforeAll(async () => {
    const dataDir = join(dir, 'data');
    const runs = new RunRegistry(join(dataDir, 'runs'));
    const id = newRunId(Date.UTC(2026, 0, 5, 10, 0, 0));
    runs.ensureDir();
    copyFileSync(sample, runs.capturePath(id));
    captureName = `${id}.capture`;
    // A run whose wizard plan names the roles the other way round and grades against SQL Server targets.
    runs.save({
      format: 'cacheproof-run', version: 1, id, name: 'swapped roles', captureFile: runs.capturePath(id), createdMs: Date.UTC(2026, 0, 5),
      plan: { name: 'swapped roles', front: 'loop0', backing: ['loop1'], baselineSeconds: 90, warmupSeconds: 10, measureSeconds: 90, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'sqlserver-data' },
      headline: null,
    });
    d = host(dataDir);
    view = await call<AnalysisView>(d, 'run.open', { runId: id });
    const r = await cli('analyze', sample, '--json');
    defaults = JSON.parse(r.out);
  });

  it('the view really differs from the default analysis (so the comparison below can fail)', () => {
    const v = view.result as Json;
    expect(v.devices.front).toEqual(['loop0']);
    expect(defaults.devices.front).toEqual(['loop1']);
    expect(v.benefit.iosSavedPercent.value).not.toBeCloseTo(defaults.benefit.iosSavedPercent.value, 0);
    expect(v.health.targets).toMatchObject({ readMs: 10, writeMs: 5 });
  });

  it('report.start exports the view\'s headline figures (summary CSV), not the default ones', async () => {
    const r = await exportCsv(d, view.id);
    if (!('summary' in r)) throw new Error(`${r.code}: ${r.message}`);
    const got = summaryOf(r.summary);
    const want = headline(view.result);
    for (const [k, v] of Object.entries(want)) expect(got[k], k).toEqual(v);
    expect(got['iosSavedPercent']?.[2]).not.toBe(defaults.benefit.iosSavedPercent.value);
  });

  it('report.preview shows the view\'s figures and targets', async () => {
    const r = await call<{ html: string }>(d, 'report.preview', { analysisId: view.id, lang: 'en', paper: 'a4', cover: {}, scenario: null });
    const v = view.result as Json;
    const text = r.html.replace(/<[^>]+>/g, ' ').replace(/[\s\u00a0\u202f]+/gu, ' ').replace(/\u2212/g, '-');
    expect(text).toContain(`I/Os saved from the drives ${pct(v.benefit.iosSavedPercent.value)}`);
    expect(text).not.toContain(`I/Os saved from the drives ${pct(defaults.benefit.iosSavedPercent.value)}`);
    expect(text).toContain('Devices and roles front: loop0; backing: loop1');
    // the preset by its name in the report's language, not its id (sqlserver-data)
    expect(text).toContain('Latency targets used SQL Server data files');
  });

  it('the Planner\'s prefill uses the same options and names the capture; the report accepts it', async () => {
    const { scenario } = await call<{ scenario: Json }>(d, 'plan.fromAnalysis', { analysisId: view.id });
    expect(Object.keys(scenario).slice(0, 4)).toEqual(['format', 'version', 'title', 'measuredFrom']);
    expect(scenario.measuredFrom).toEqual({ captureFile: captureName, captureSha256: sha256(sample) });
    // The workload is the view's: p95 IOPS of its application-facing (here loop0) baseline.
    const v = view.result as Json;
    expect(scenario.workload.iops.p95).toBe(v.groups.front.baseline.percentiles.iops.p95);
    const r = await exportCsv(d, view.id, scenario);
    expect('summary' in r ? null : r).toBeNull();
    // The same prefill against another capture is refused by its hash.
    const other = join(dir, 'other.capture');
    writeSyntheticCapture({ path: other, windowSeconds: 120, warmupSeconds: 10, intervalMs: 1000, backingDevices: 1, missShare: 0.3 });
    const otherView = await call<AnalysisView>(d, 'analysis.openCapture', { path: other });
    const refused = await exportCsv(d, otherView.id, scenario);
    expect('code' in refused ? refused.code : null).toBe('report-scenario-mismatch');
  });
});

describe('measuredFrom: a scenario names the capture it was measured from', () => {
  let prefilled = '';
  let scenario: Json;
  beforeAll(async () => {
    prefilled = join(dir, 'prefilled.tco.json');
    const r = await cli('tco', '--from-capture', sample, '--out', prefilled);
    expect(r.code).toBe(0);
    scenario = JSON.parse(readFileSync(prefilled, 'utf8'));
  });

  it('tco --from-capture writes the capture\'s file name and the SHA-256 of its bytes, after the title; the scenario parses', () => {
    expect(scenario.measuredFrom).toEqual({ captureFile: 'lab-sample.capture', captureSha256: sha256(sample) });
    expect(Object.keys(scenario).indexOf('measuredFrom')).toBe(Object.keys(scenario).indexOf('title') + 1);
    const parsed = parseScenario(scenario);
    expect(parsed.ok && parsed.value.measuredFrom).toEqual(scenario.measuredFrom);
  });

  it('is checked by format: 64 hex digits (upper case accepted, read as lower case), no unknown field', () => {
    const upper = parseScenario({ ...scenario, measuredFrom: { captureFile: 'x.capture', captureSha256: sha256(sample).toUpperCase() } });
    expect(upper.ok && upper.value.measuredFrom?.captureSha256).toBe(sha256(sample));
    const short = parseScenario({ ...scenario, measuredFrom: { captureFile: 'x.capture', captureSha256: 'abc123' } });
    expect(short.ok ? null : short.error.message).toBe('measuredFrom.captureSha256: expected the 64 hexadecimal digits of a SHA-256.');
    const extra = parseScenario({ ...scenario, measuredFrom: { ...scenario.measuredFrom, capturePath: '/x' } });
    expect(extra.ok ? null : extra.error.path).toBe('measuredFrom.capturePath');
    const noFile = parseScenario({ ...scenario, measuredFrom: { captureSha256: sha256(sample) } });
    expect(noFile.ok ? null : noFile.error.path).toBe('measuredFrom.captureFile');
  });

  it('the report accepts it on its capture, even with analysis options that change the measured hit shares', async () => {
    const out = join(dir, 'same.csv');
    const r = await cli('report', sample, '--format', 'csv', '--out', out, '--scenario', prefilled, '--front', 'loop0', '--backing', 'loop1');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // Without measuredFrom the same pair is refused by the value check (the swapped roles measure other hit shares).
    const bare = join(dir, 'bare.tco.json');
    const { measuredFrom: _drop, ...rest } = scenario;
    writeFileSync(bare, JSON.stringify(rest));
    const r2 = await cli('report', sample, '--format', 'csv', '--out', join(dir, 'bare.csv'), '--scenario', bare, '--front', 'loop0', '--backing', 'loop1');
    expect(r2.code).toBe(5);
    expect(r2.err).toMatch(/bare\.tco\.json: configurations\[\d\]\.cache\.readHitShare is [\d.]+ "measured", but lab-sample\.capture measures/);
    // …and accepted on the default analysis, whose figures it holds.
    const r3 = await cli('report', sample, '--format', 'csv', '--out', join(dir, 'bare-ok.csv'), '--scenario', bare);
    expect(r3.code).toBe(0);
  });

  it('another capture: refused in one sentence naming both files and what to do, nothing written', async () => {
    const other = join(dir, 'db01.capture');
    writeSyntheticCapture({ path: other, windowSeconds: 120, warmupSeconds: 10, intervalMs: 1000, backingDevices: 2, missShare: 0.2 });
    const folder = join(dir, 'refused');
    mkdirSync(folder);
    const r = await cli('report', other, '--format', 'pdf', '--out', join(folder, 'r.pdf'), '--scenario', prefilled);
    expect(r.code).toBe(5);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `cacheproof report: prefilled.tco.json: measuredFrom says the scenario was measured from lab-sample.capture (SHA-256 ${sha256(sample).slice(0, 12)}…), not from db01.capture (SHA-256 ${sha256(other).slice(0, 12)}…): ` +
        `report on lab-sample.capture instead, or prefill a scenario from db01.capture with 'cacheproof tco --from-capture db01.capture --out FILE' (or in the Planner).`,
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it('the same file changed since: refused, saying it changed', async () => {
    const copy = join(dir, 'changed', 'lab-sample.capture');
    mkdirSync(join(dir, 'changed'));
    copyFileSync(sample, copy);
    const db = new Database(copy);
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('note', 'edited after the scenario was written')").run();
    db.close();
    expect(sha256(copy)).not.toBe(sha256(sample));
    const r = await cli('report', copy, '--format', 'html', '--out', join(dir, 'changed', 'r.html'), '--scenario', prefilled);
    expect(r.code).toBe(5);
    expect(r.err).toContain('lab-sample.capture has changed since the scenario was measured from it');
    expect(existsSync(join(dir, 'changed', 'r.html'))).toBe(false);
  });

  it('a typed scenario (no measuredFrom, nothing "measured") goes with any capture', async () => {
    const typed = JSON.parse(readFileSync(join(root, 'samples', 'scenarios', 'example.tco.json'), 'utf8')) as Json;
    for (const c of typed.configurations) if (c.cache !== undefined) c.cache.hitShareSource = 'assumed';
    const file = join(dir, 'typed.tco.json');
    writeFileSync(file, JSON.stringify(typed));
    const r = await cli('report', sample, '--format', 'csv', '--out', join(dir, 'typed.csv'), '--scenario', file);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});
