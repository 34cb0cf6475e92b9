/**
 * The app's command lines for the probe against the probe's own declaration (issue 38, "the app
 * builds the probe's argv through one module tested against the probe's own --help"): every
 * command line the host builds (host/probe-argv.ts) — record with each switch and trace
 * choice, status, stop, mark, resume, devices, engine detect and plan, import of every log kind,
 * preview and fleet summary, import-trace of every trace kind and predict with every cache
 * device and policy — is given to the real probe followed by `--help`. clap
 * parses every argument before `--help` against the subcommand's declaration (an undeclared
 * flag, a value outside its allowed values, a value its parser refuses), so exit 0 means the
 * probe declares every flag and value the app passes; and each option is found among those the
 * `--help` of its command declares (app/src/host/probe-argv.ts is the one module that builds
 * them). Each enumerated option's allowed values are shown by `--help`. Skipped with a message when the probe is not built (a failure in CI).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as argv from '../src/host/probe-argv.ts';
import { CACHE_DEVICE_IDS, CACHE_POLICIES, ENGINE_ADAPTERS, LOG_KINDS, TRACE_KINDS, type ImportRequest, type PrometheusRange, type RunPlan } from '../src/shared/contract.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const skip = skipped('probe-argv', probeAbsent());

/** The probe parsing `argv --help`: exit 0 and its help, or the refusal. */
function declared(argv: readonly string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(releaseProbe, [...argv, '--help'], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The command a command line runs: its first word, and its verb when the command has verbs (`engine plan`). */
function commandOf(args: readonly string[]): string[] {
  const first = args.slice(0, 1);
  return /^Commands:$/mu.test(declared(first).out) ? args.slice(0, 2) : first;
}

/** The long options (and their aliases) the probe's `--help` declares for a command. */
const helpOptions = new Map<string, Set<string>>();
function optionsOf(command: readonly string[]): Set<string> {
  const key = command.join(' ');
  let known = helpOptions.get(key);
  if (known === undefined) {
    known = new Set(declared(command).out.match(/--[a-z][a-z0-9-]*/gu) ?? []);
    helpOptions.set(key, known);
  }
  return known;
}

/** The probe accepts the command line, and each of its options is one `--help` declares for its command. */
function expectDeclared(args: readonly string[]): void {
  const r = declared(args);
  expect(r.code, `cacheproof-probe ${args.join(' ')} --help: ${r.err}`).toBe(0);
  const command = commandOf(args);
  const known = optionsOf(command);
  for (const flag of args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0] as string)) {
    expect(known.has(flag), `cacheproof-probe ${command.join(' ')} --help does not declare ${flag} (argv: ${args.join(' ')})`).toBe(true);
  }
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
  it('an option its command\'s --help does not declare is found out (the check can fail)', () => {
    expect(optionsOf(['record']).has('--out')).toBe(true);
    expect(optionsOf(['engine', 'plan']).has('--device')).toBe(true);
    // --curve is simulate's, not predict's
    expect(optionsOf(['predict']).has('--curve')).toBe(false);
    expect(commandOf(argv.enginePlanArgs({ adapter: 'bcache', device: 'bcache0', config: null }))).toEqual(['engine', 'plan']);
  });

  it('the status, devices, stop, mark, resume and engine detect command lines', () => {
    for (const args of [argv.devicesArgs(), argv.statusArgs('/tmp/run.capture'), argv.stopArgs('/tmp/run.capture'), argv.markSwitchArgs('/tmp/run.capture'), argv.resumeArgs('/tmp/run.capture'), argv.engineDetectArgs()]) {
      expectDeclared(args);
    }
  });

  it('a flag the probe does not declare is refused (the check can fail)', () => {
    expect(declared(['record', '--out', 'x.capture', '--no-such-flag']).code).not.toBe(0);
    // values too: clap parses them with the option's own parser before --help
    expect(declared(['predict', 'x.capture', '--policy', 'lru,nonsense']).code).not.toBe(0);
    expect(declared(['record', '--out', 'x.capture', '--role', 'sda=fast']).code).not.toBe(0);
  });

  it('record: every switch and trace choice', () => {
    for (const trace of [{}, { trace: true, traceBudgetBytes: null }, { trace: true, traceBudgetBytes: 2 ** 30 }, { trace: true }] as Partial<RunPlan>[]) {
      expectDeclared(argv.recordArgs(plan(trace), '/tmp/run.capture'));
    }
    for (const adapter of ENGINE_ADAPTERS) {
      const sw = { kind: 'adapter' as const, adapter, device: 'bcache0', config: adapter === 'command' ? '/etc/engine.json' : null, restore: true };
      expectDeclared(argv.recordArgs(plan({ switch: sw, intervalMs: 250_000 }), '/tmp/run.capture'));
      expectDeclared(argv.enginePlanArgs({ adapter, device: 'bcache0', config: adapter === 'command' ? '/etc/engine.json' : null }));
    }
  });

  it('import: every log kind, its preview, and a Prometheus range by fleet capture, per host and server-side summary', () => {
    for (const kind of LOG_KINDS.filter((k) => k !== 'prometheus')) {
      const r: ImportRequest = { kind, files: ['/tmp/a.log'], after: ['/tmp/b.log'], roles: [{ device: 'sda', role: 'backing' }], utcOffsetMin: -480, intervalS: 10, startMs: Date.UTC(2026, 10, 1) };
      expectDeclared(argv.importCommand(r, '/tmp/x.capture'));
      expectDeclared(argv.importPreviewArgs({ kind, files: ['/tmp/a.log'], switchAtMs: Date.UTC(2026, 10, 1, 12) }));
    }
    const prom: ImportRequest = { kind: 'prometheus', files: [], prometheus: range, switchAtMs: Date.UTC(2026, 10, 1, 12), roles: [{ device: 'node1:9100/sda', role: 'backing' }] };
    expectDeclared(argv.importCommand(prom, '/tmp/x.capture'));
    expectDeclared(argv.importCommand({ ...prom, prometheus: { ...range, perHost: true } }, '/tmp/fleet'));
    expectDeclared(argv.importPreviewArgs(prom));
    expectDeclared(argv.fleetSummaryArgs(range, '/tmp/summary.json'));
  });

  it('import-trace: every trace kind, with and without its start', () => {
    for (const kind of TRACE_KINDS) {
      const base = { kind, files: ['/tmp/t.trace'], prediction: { cacheBytes: 2 ** 30, cacheDevice: { preset: 'ram' as const } } };
      expectDeclared(argv.importTraceArgs(base, '/tmp/t.capture'));
      expectDeclared(argv.importTraceArgs({ ...base, traceStartMs: Date.UTC(2026, 10, 1) }, '/tmp/t.capture'));
    }
  });

  it('predict: every cache device (and a typed latency) and every policy list', () => {
    for (const preset of CACHE_DEVICE_IDS) expectDeclared(argv.predictCommand('/tmp/t.capture', { cacheBytes: 2 ** 30, cacheDevice: { preset } }, ['loop1', 'loop2'], 2));
    expectDeclared(argv.predictCommand('/tmp/t.capture', { cacheBytes: 3 * 2 ** 30 + 5, cacheDevice: { latencyUs: 85.5 }, policies: [...CACHE_POLICIES] }, undefined));
    for (const p of CACHE_POLICIES) expectDeclared(argv.predictCommand('/tmp/t.capture', { cacheBytes: 2 ** 20, cacheDevice: { preset: 'nvme' }, policies: [p] }, 'loop1'));
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
