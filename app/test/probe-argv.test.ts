/**
 * The app's command lines for the probe against the probe's own declaration (issue 38, "the app
 * builds the probe's argv through one module tested against the probe's own --help"): every
 * command line the host builds — record (runs/supervisor.ts recordArgs, with each switch and
 * trace choice), engine plan (runs/engine.ts), import of every log kind, preview and fleet
 * summary (import.ts), import-trace of every trace kind (import-trace.ts) and predict with every
 * cache device and policy (predict.ts) — is given to the real probe followed by `--help`. clap
 * parses every argument before `--help` against the subcommand's declaration (an undeclared
 * flag, a value outside its allowed values, a value its parser refuses), so exit 0 means the
 * probe declares every flag and value the app passes. Each enumerated option's allowed values
 * are shown by `--help`. Skipped with a message when the probe is not built (a failure in CI).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { recordArgs } from '../src/host/runs/supervisor.ts';
import { enginePlanArgs } from '../src/host/runs/engine.ts';
import { importArgs, prometheusArgs } from '../src/host/import.ts';
import { importTraceArgs } from '../src/host/import-trace.ts';
import { predictCommand } from '../src/host/predict.ts';
import { CACHE_DEVICE_IDS, CACHE_POLICIES, ENGINE_ADAPTERS, LOG_KINDS, TRACE_KINDS, type ImportRequest, type PrometheusRange, type RunPlan } from '../src/shared/contract.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const skip = skipped('probe-argv', probeAbsent());

/** The probe parsing `argv --help`: exit 0 and its help, or the refusal. */
function declared(argv: readonly string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(releaseProbe, [...argv, '--help'], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function expectDeclared(argv: readonly string[]): void {
  const r = declared(argv);
  expect(r.code, `cacheproof-probe ${argv.join(' ')} --help: ${r.err}`).toBe(0);
}

const plan = (o: Partial<RunPlan>): RunPlan => ({
  name: 'run', front: 'loop1', backing: ['loop0', '/dev/sdb'], baselineSeconds: 3600, warmupSeconds: 600, measureSeconds: 3600, intervalMs: 1000,
  switch: { kind: 'manual' }, targets: 'generic', ...o,
});

const range: PrometheusRange = {
  url: 'https://prom.example:9090', hosts: '{job="node"}', fromMs: Date.UTC(2026, 10, 1), toMs: Date.UTC(2026, 10, 2), stepS: 15, perHost: false,
  caFile: '/etc/ca.pem', insecure: true, user: 'ops', passwordFile: '/etc/pw', tokenFile: '/etc/token',
};

describe.skipIf(skip)('the probe declares every flag and value the app passes it', () => {
  it('a flag the probe does not declare is refused (the check can fail)', () => {
    expect(declared(['record', '--out', 'x.capture', '--no-such-flag']).code).not.toBe(0);
    // values too: clap parses them with the option's own parser before --help
    expect(declared(['predict', 'x.capture', '--policy', 'lru,nonsense']).code).not.toBe(0);
    expect(declared(['record', '--out', 'x.capture', '--role', 'sda=fast']).code).not.toBe(0);
  });

  it('record: every switch and trace choice', () => {
    for (const trace of [{}, { trace: true, traceBudgetBytes: null }, { trace: true, traceBudgetBytes: 2 ** 30 }, { trace: true }] as Partial<RunPlan>[]) {
      expectDeclared(recordArgs(plan(trace), '/tmp/run.capture'));
    }
    for (const adapter of ENGINE_ADAPTERS) {
      const sw = { kind: 'adapter' as const, adapter, device: 'bcache0', config: adapter === 'command' ? '/etc/engine.json' : null, restore: true };
      expectDeclared(recordArgs(plan({ switch: sw, intervalMs: 250_000 }), '/tmp/run.capture'));
      expectDeclared(enginePlanArgs({ adapter, device: 'bcache0', config: adapter === 'command' ? '/etc/engine.json' : null }));
    }
  });

  it('import: every log kind, its preview, and a Prometheus range by fleet capture, per host and server-side summary', () => {
    for (const kind of LOG_KINDS.filter((k) => k !== 'prometheus')) {
      const r: ImportRequest = { kind, files: ['/tmp/a.log'], after: ['/tmp/b.log'], roles: [{ device: 'sda', role: 'backing' }], utcOffsetMin: -480, intervalS: 10, startMs: Date.UTC(2026, 10, 1) };
      expectDeclared(['import', ...importArgs(r), '--out', '/tmp/x.capture', '--json']);
      expectDeclared(['import', '--preview', ...importArgs({ kind, files: ['/tmp/a.log'], switchAtMs: Date.UTC(2026, 10, 1, 12) }), '--json']);
    }
    const prom: ImportRequest = { kind: 'prometheus', files: [], prometheus: range, switchAtMs: Date.UTC(2026, 10, 1, 12), roles: [{ device: 'node1:9100/sda', role: 'backing' }] };
    expectDeclared(['import', ...importArgs(prom), '--out', '/tmp/x.capture', '--json']);
    expectDeclared(['import', ...importArgs(prom), '--out-dir', '/tmp/fleet', '--json']);
    expectDeclared(['import', '--preview', ...importArgs(prom), '--json']);
    expectDeclared(['import', 'prometheus', ...prometheusArgs(range), '--fleet-summary', '/tmp/summary.json', '--json']);
  });

  it('import-trace: every trace kind, with and without its start', () => {
    for (const kind of TRACE_KINDS) {
      const base = { kind, files: ['/tmp/t.trace'], prediction: { cacheBytes: 2 ** 30, cacheDevice: { preset: 'ram' as const } } };
      expectDeclared(importTraceArgs(base, '/tmp/t.capture'));
      expectDeclared(importTraceArgs({ ...base, traceStartMs: Date.UTC(2026, 10, 1) }, '/tmp/t.capture'));
    }
  });

  it('predict: every cache device (and a typed latency) and every policy list', () => {
    for (const preset of CACHE_DEVICE_IDS) expectDeclared(predictCommand('/tmp/t.capture', { cacheBytes: 2 ** 30, cacheDevice: { preset } }, ['loop1', 'loop2'], 2));
    expectDeclared(predictCommand('/tmp/t.capture', { cacheBytes: 3 * 2 ** 30 + 5, cacheDevice: { latencyUs: 85.5 }, policies: [...CACHE_POLICIES] }, undefined));
    for (const p of CACHE_POLICIES) expectDeclared(predictCommand('/tmp/t.capture', { cacheBytes: 2 ** 20, cacheDevice: { preset: 'nvme' }, policies: [p] }, 'loop1'));
  });

  it('--help names the allowed values of the enumerated options the app passes', () => {
    const predict = declared(['predict']).out;
    for (const p of CACHE_POLICIES) expect(predict, `predict --help: policy ${p}`).toContain(p);
    for (const d of CACHE_DEVICE_IDS) expect(predict, `predict --help: cache device ${d}`).toContain(d);
    const imp = declared(['import']).out;
    for (const k of LOG_KINDS) expect(imp, `import --help: kind ${k}`).toContain(k);
    const trace = declared(['import-trace']).out;
    for (const k of TRACE_KINDS) expect(trace, `import-trace --help: kind ${k}`).toContain(k);
    const record = declared(['record']).out;
    expect(record, 'record --help: the roles --role takes').toMatch(/front.*backing|backing.*front/su);
  });
});
