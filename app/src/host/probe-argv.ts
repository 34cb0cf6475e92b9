/**
 * Every command line the app gives `cacheproof-probe` (docs/probe.md, docs/import.md,
 * docs/simulate.md), built here and nowhere else: the host's modules ask this one for the argv and
 * run it. app/test/probe-argv.test.ts gives each to the real probe and checks every flag against
 * the options the probe's `--help` declares for its command (issue 38).
 */
import { resolve } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { CACHE_POLICIES, type EngineChoice, type ImportRequest, type PredictionChoice, type PrometheusRange, type RunPlan, type RunSwitch } from '../shared/contract.ts';
import { TRACE_DEFAULT_BUDGET_BYTES } from '../shared/estimate.ts';
import { HostError } from './errors.ts';

/** `devices --json`: the block devices. */
export function devicesArgs(): string[] {
  return ['devices', '--json'];
}

/** `status CAPTURE --json`: a capture's recorder state. */
export function statusArgs(capture: string): string[] {
  return ['status', capture, '--json'];
}

/** `stop CAPTURE`: ends the recorder of a capture. */
export function stopArgs(capture: string): string[] {
  return ['stop', capture];
}

/** `mark CAPTURE switch`: the manual switch, marked in a recording capture. */
export function markSwitchArgs(capture: string): string[] {
  return ['mark', capture, 'switch'];
}

/** `record --resume CAPTURE --detach`: a stopped run continued with its own settings. */
export function resumeArgs(capture: string): string[] {
  return ['record', '--resume', capture, '--detach'];
}

/**
 * The trace flags of `record` for a plan's budget (docs/probe.md § Trace budget): the budget in
 * bytes per 24 h (absent: the default, passed explicitly so the command line says it), or every
 * request for null.
 */
export function traceArgs(budgetBytes: number | null | undefined): string[] {
  return budgetBytes === null ? ['--trace', '--trace-sample', '1'] : ['--trace', '--trace-budget', `${budgetBytes ?? TRACE_DEFAULT_BUDGET_BYTES}B`];
}

/** A device name as `record --devices` takes it (no /dev/ prefix); a name that is not a block device's is `bad-request`. */
function deviceArg(name: string): string {
  const n = name.replace(/^\/dev\//, '');
  if (!/^[A-Za-z0-9!._:+/-]+$/.test(n) || n.startsWith('-')) throw new HostError('bad-request', `'${name.slice(0, 64)}' is not a block device name.`);
  return n;
}

/**
 * `cacheproof-probe record …` for a run plan (docs/probe.md): the devices with the roles the
 * person chose (they go into the capture, so analyze and report need no role flags), the
 * interval, the phases, the switch, detached, and the trace flags. Throws `no-devices-chosen` for a
 * plan naming no device.
 */
export function recordArgs(plan: RunPlan, captureFile: string): string[] {
  const chosen = (n: string | null): n is string => n !== null && n.length > 0;
  const names = [...new Set([plan.front, ...plan.backing].filter(chosen).map(deviceArg))];
  const front = chosen(plan.front) ? deviceArg(plan.front) : null;
  const backing = [...new Set(plan.backing.filter(chosen).map(deviceArg))].filter((n) => n !== front);
  const roleArgs = [...(front === null ? [] : ['--role', `${front}=front`]), ...backing.flatMap((n) => ['--role', `${n}=backing`])];
  if (names.length === 0) throw new HostError('no-devices-chosen', 'The plan names no device to record: choose the front device or the backing devices.');
  return [
    'record', '--out', captureFile, '--devices', names.join(','), ...roleArgs, '--interval', `${plan.intervalMs}ms`,
    '--plan', `baseline=${plan.baselineSeconds}s,warmup=${plan.warmupSeconds}s,measure=${plan.measureSeconds}s`,
    ...switchArgs(plan.switch), '--detach',
    ...(plan.trace === true ? traceArgs(plan.traceBudgetBytes) : []),
  ];
}

/** The adapter argument of `engine …` and `record --switch`: `command:FILE` for the command adapter. */
function adapterArg(adapter: EngineChoice['adapter'], config: string | null): string {
  if (adapter === 'command') {
    if (config === null) throw new HostError('engine-config-invalid', 'The command adapter needs its config file (docs/adapters.md § Config file): give its path.');
    return `command:${config}`;
  }
  return adapter;
}

/** The `record` arguments of a run's switch: `--switch manual`, or the adapter, its device and `--restore`. */
export function switchArgs(sw: RunSwitch): string[] {
  if (sw.kind === 'manual') return ['--switch', 'manual'];
  return ['--switch', adapterArg(sw.adapter, sw.config), '--engine-device', sw.device, ...(sw.restore ? ['--restore'] : [])];
}

/** `engine detect --json`: the engines on this machine. */
export function engineDetectArgs(): string[] {
  return ['engine', 'detect', '--json'];
}

/** `engine plan ADAPTER --device DEV [--config FILE] --json` for a choice (the command adapter needs its config). */
export function enginePlanArgs(choice: EngineChoice): string[] {
  const args = ['engine', 'plan', choice.adapter, '--device', choice.device, '--json'];
  if (choice.adapter === 'command') {
    if (choice.config === null) adapterArg('command', null);
    args.push('--config', choice.config as string);
  }
  return args;
}

/** `import prometheus`'s arguments for a range (docs/import.md): the secrets' files, never the secrets. */
export function prometheusArgs(p: PrometheusRange): string[] {
  const iso = (ms: number): string => new Date(ms).toISOString();
  return [
    '--url', p.url,
    ...(p.hosts !== undefined && p.hosts.trim() !== '' ? ['--hosts', p.hosts] : []),
    '--from', iso(p.fromMs), '--to', iso(p.toMs),
    ...(p.stepS === undefined ? [] : ['--step', String(p.stepS)]),
    ...(p.caFile === undefined ? [] : ['--ca-file', resolve(p.caFile)]),
    ...(p.insecure === true ? ['--insecure'] : []),
    ...(p.user === undefined ? [] : ['--user', p.user]),
    ...(p.passwordFile === undefined ? [] : ['--password-file', resolve(p.passwordFile)]),
    ...(p.tokenFile === undefined ? [] : ['--bearer-token-file', resolve(p.tokenFile)]),
  ];
}

/** The probe's arguments after `import` (and `--preview`) for a request. */
export function importArgs(r: ImportRequest): string[] {
  const args: string[] = [r.kind];
  if (r.kind === 'prometheus') {
    if (r.prometheus === undefined) throw new HostError('bad-request', 'A Prometheus import needs its range.');
    args.push(...prometheusArgs(r.prometheus));
    if (r.switchAtMs !== undefined) args.push('--switch-at', new Date(r.switchAtMs).toISOString());
    for (const { device, role } of r.roles ?? []) args.push('--role', `${device}=${role}`);
    return args;
  }
  const after = r.after ?? [];
  if (after.length > 0) {
    if (r.switchAtMs !== undefined) throw new HostError('bad-request', 'Give either after files or a switch time, not both.');
    args.push('--baseline', ...r.files.map((f) => resolve(f)), '--measure', ...after.map((f) => resolve(f)));
  } else {
    args.push(...r.files.map((f) => resolve(f)));
    if (r.switchAtMs !== undefined) args.push('--switch-at', new Date(r.switchAtMs).toISOString());
  }
  for (const { device, role } of r.roles ?? []) args.push('--role', `${device}=${role}`);
  // what the files do not say about their times, typed by the person (docs/import.md)
  if (r.utcOffsetMin !== undefined) args.push('--utc-offset', String(r.utcOffsetMin));
  if (r.intervalS !== undefined) args.push('--interval', String(r.intervalS));
  if (r.startMs !== undefined) args.push('--start', new Date(r.startMs).toISOString());
  return args;
}

/** `import --preview … --json`: what a request would import, nothing written. */
export function importPreviewArgs(r: ImportRequest): string[] {
  return ['import', '--preview', ...importArgs(r), '--json'];
}

/** `import … --out CAPTURE --json`, or a Prometheus range per host: `--out-dir DIR`. */
export function importCommand(r: ImportRequest, out: string): string[] {
  const target = r.prometheus?.perHost === true ? ['--out-dir', out] : ['--out', out];
  return ['import', ...importArgs(r), ...target, '--json'];
}

/** `import prometheus … --fleet-summary FILE --json`: the fleet's figures computed by the server. */
export function fleetSummaryArgs(p: PrometheusRange, out: string): string[] {
  return ['import', 'prometheus', ...prometheusArgs(p), '--fleet-summary', out, '--json'];
}

/** The probe's arguments for importing the request's trace into `out`. */
export function importTraceArgs(r: ImportRequest, out: string): string[] {
  const file = r.files[0];
  if (file === undefined || r.files.length !== 1) throw new HostError('bad-request', 'A block trace import takes one file.');
  // the start as epoch seconds (ms kept): the probe's --start takes ISO or epoch seconds
  const start = r.traceStartMs === undefined ? [] : ['--start', (r.traceStartMs / 1000).toFixed(3)];
  return ['import-trace', r.kind, resolve(file), '--out', out, ...start, '--json'];
}

/** The probe's arguments after `predict CAPTURE` for a choice (`--store` and `--json` added by {@link predictCommand}). */
function predictArgs(c: PredictionChoice): string[] {
  const device = 'preset' in c.cacheDevice ? c.cacheDevice.preset : `${c.cacheDevice.latencyUs}us`;
  return ['--size', `${c.cacheBytes}B`, '--cache-device', device, '--policy', (c.policies ?? CACHE_POLICIES).join(',')];
}

/**
 * The probe's arguments for a prediction on a capture: the size, device and policies, the
 * analysis's front devices when it names them. `threads`: how many cores its replays may take
 * (left out: every core, for a prediction the person asked for; the supervisor's, during the
 * measure window, takes one so as not to load the server it measures).
 */
export function predictCommand(capture: string, choice: PredictionChoice, front: AnalyzeOptions['front'], threads?: number): string[] {
  const devices = front === undefined ? [] : typeof front === 'string' ? [front] : [...front];
  return ['predict', capture, ...predictArgs(choice), ...(devices.length > 0 ? ['--devices', devices.join(',')] : []), ...(threads === undefined ? [] : ['--threads', String(threads)]), '--store', '--json'];
}
