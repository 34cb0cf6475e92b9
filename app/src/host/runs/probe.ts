/**
 * The probe as the run supervisor drives it: one function per `cacheproof-probe` command
 * (docs/probe.md), each run as a child process with a time limit. The probe's one-line
 * error (stderr, prefixed `cacheproof-probe: `) becomes a HostError naming what to do next.
 */
import { execFile } from 'node:child_process';
import { z } from 'zod';
import { RUN_PHASES, type ErrorCode } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { devicesArgs, statusArgs } from '../probe-argv.ts';

/** Probe exit codes (docs/probe.md, "Exit codes"). */
export const PROBE_EXIT = { ok: 0, internal: 1, usage: 2, unknownDevice: 3, notWritable: 4, notCapture: 5, locked: 6, needsRoot: 7, diskFull: 8, tool: 9, notRunning: 10, traceUnavailable: 11, notImportable: 12, unreachable: 13, someHostsSkipped: 14 } as const;
export type ProbeExit = keyof typeof PROBE_EXIT;

/**
 * The contract error a failed probe command becomes, for each probe exit code: root and block
 * tracing are the person's to fix (their own sentences), every other failure is `probe-failed`
 * with the probe's sentence. Exhaustive: a new probe exit code without its error is a type error.
 * `ok` never reaches {@link probeError} (a zero exit is not a failure).
 */
export const PROBE_EXIT_ERROR = {
  ok: 'internal',
  internal: 'probe-failed',
  usage: 'probe-failed',
  unknownDevice: 'probe-failed',
  notWritable: 'probe-failed',
  notCapture: 'probe-failed',
  locked: 'probe-failed',
  needsRoot: 'needs-root',
  diskFull: 'probe-failed',
  tool: 'probe-failed',
  notRunning: 'probe-failed',
  traceUnavailable: 'trace-unavailable',
  // `import`, `import-trace`, `simulate`: the probe's sentence names the file, line and column.
  notImportable: 'probe-failed',
  // `import --prometheus`: the server cannot be reached or refuses the query.
  unreachable: 'probe-failed',
  someHostsSkipped: 'probe-failed',
} as const satisfies Record<ProbeExit, ErrorCode>;

/** The name of a probe exit code, or null for a status the probe does not document (a signal, 141 after SIGPIPE). */
export function probeExitName(code: number): ProbeExit | null {
  const hit = (Object.keys(PROBE_EXIT) as ProbeExit[]).find((k) => PROBE_EXIT[k] === code);
  return hit ?? null;
}

export interface ProbeOutput {
  code: number;
  stdout: string;
  /** The probe's error line without its `cacheproof-probe: ` prefix (empty when none). */
  error: string;
}

/** The probe's stderr as one sentence: its lines without the `cacheproof-probe: ` prefix, joined. */
export function probeErrorText(stderr: string): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => l.replace(/^cacheproof-probe:\s*/, ''))
    .join(' ');
}

/** Runs the probe and resolves with its exit code and output (never rejects for a non-zero exit). */
export function runProbe(probe: string, args: readonly string[], timeoutMs = 20_000): Promise<ProbeOutput> {
  return new Promise((resolve, reject) => {
    execFile(probe, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const error = probeErrorText(stderr);
      if (err === null) return resolve({ code: 0, stdout, error });
      const e = err as NodeJS.ErrnoException & { code?: unknown; killed?: boolean };
      if (e.code === 'ENOENT' || e.code === 'EACCES') {
        return reject(new HostError('probe-missing', `The probe ${probe} cannot be run (${String(e.code)}). Build it with 'cargo build --release' in native/.`));
      }
      if (e.killed) return reject(new HostError('probe-failed', `cacheproof-probe ${args[0] ?? ''} did not answer within ${Math.round(timeoutMs / 1000)} s.`));
      resolve({ code: typeof e.code === 'number' ? e.code : 1, stdout, error });
    });
  });
}

/** Turns a failed probe command into the HostError a person can act on. */
export function probeError(what: string, out: ProbeOutput): HostError {
  const detail = out.error || `exit code ${out.code}`;
  const name = probeExitName(out.code);
  return new HostError(name === null ? 'probe-failed' : PROBE_EXIT_ERROR[name], `${what}: ${detail}`);
}

/** Recorder states `status --json` reports (docs/probe.md): `stale` = says running but no process holds the lock; `unknown` = no recorder state in the capture. */
export const PROBE_STATES = ['starting', 'running', 'stopped', 'done', 'failed', 'stale', 'unknown'] as const;
export type ProbeState = (typeof PROBE_STATES)[number];

/** `status --json` (docs/probe.md), checked at the boundary. */
export const ProbeStatus = z.object({
  capture: z.string(),
  state: z.enum(PROBE_STATES),
  recorderAlive: z.boolean(),
  pid: z.string().nullable(),
  phase: z.enum(RUN_PHASES),
  percent: z.number().nullable(),
  etaS: z.number().nullable(),
  samples: z.number(),
  lastSampleUtcMs: z.number().nullable(),
  intervalMs: z.number().nullable(),
  devices: z.array(z.string()),
  plan: z.object({ baselineS: z.number(), warmupS: z.number(), measureS: z.number() }).loose().nullable(),
  warningCount: z.number(),
  warnings: z.array(z.object({ utcMs: z.number(), code: z.string(), device: z.string().nullable(), message: z.string() })),
  error: z.string().nullable(),
  hint: z.string().nullable(),
  /**
   * The block trace (`record --trace`): requests written, events the kernel dropped, the share
   * of block addresses kept now, the budget per 24 h (null: none) and the stored bytes (absent
   * from an older probe); null or absent when not tracing.
   */
  trace: z.object({
    requests: z.number(), lost: z.number(),
    sampleRate: z.number().optional(), budgetBytes: z.number().nullable().optional(), storedBytes: z.number().optional(),
  }).loose().nullable().optional(),
  /** The cache engine of a run with an adapter (host/runs/engine.ts); null or absent otherwise. */
  engine: z.unknown().optional(),
}).loose();
export type ProbeStatus = z.infer<typeof ProbeStatus>;

/** `cacheproof-probe status CAPTURE --json`. */
export async function probeStatus(probe: string, capture: string): Promise<ProbeStatus> {
  const out = await runProbe(probe, statusArgs(capture));
  if (out.code !== 0) throw probeError(`Cannot read the status of ${capture}`, out);
  let json: unknown;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    throw new HostError('probe-failed', `cacheproof-probe status ${capture} printed something that is not JSON.`);
  }
  const parsed = ProbeStatus.safeParse(json);
  if (!parsed.success) throw new HostError('probe-failed', `cacheproof-probe status ${capture} printed an unexpected report: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}.`);
  return parsed.data;
}

/** One device of `devices --json`. */
const ProbeDevice = z.object({
  name: z.string(),
  major: z.number(),
  minor: z.number(),
  sizeBytes: z.number().nullable(),
  rotational: z.boolean().nullable(),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  isPartition: z.boolean(),
  parent: z.string().nullable(),
  slaves: z.array(z.string()),
  holders: z.array(z.string()),
  backingFile: z.string().nullable(),
  backingFileDevice: z.string().nullable(),
  role: z.string(),
  roleReason: z.string().nullable(),
  dmName: z.string().nullable().optional(),
}).loose();
export type ProbeDevice = z.infer<typeof ProbeDevice>;

/** `cacheproof-probe devices --json`. */
export async function probeDevices(probe: string): Promise<ProbeDevice[]> {
  const out = await runProbe(probe, devicesArgs());
  if (out.code !== 0) throw probeError('Cannot list the block devices', out);
  let json: unknown;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    throw new HostError('probe-failed', 'cacheproof-probe devices --json printed something that is not JSON.');
  }
  const parsed = z.array(ProbeDevice).safeParse(json);
  if (!parsed.success) throw new HostError('probe-failed', `cacheproof-probe devices --json printed an unexpected list: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}.`);
  return parsed.data;
}
