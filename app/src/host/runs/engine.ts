/**
 * The cache-engine adapters as the wizard and the run supervisor use them (docs/adapters.md):
 * `cacheproof-probe engine detect --json`, `engine plan --json` (the dry run), the arguments
 * `record --switch` takes, the engine part of `status --json`, and the probe's refusals mapped
 * to one contract error each (the probe's own sentence kept as the message).
 */
import { z } from 'zod';
import { DetectedEngine, EnginePlan, type EngineChoice, type ErrorCode } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { engineDetectArgs, enginePlanArgs } from '../probe-argv.ts';
import { probeError, runProbe, type ProbeOutput } from './probe.ts';

/**
 * The contract error of a probe refusal about an adapter setting, from the probe's sentence
 * (docs/adapters.md): a shell string in the config, a program not installed, a device that is
 * not the engine's or not part of the analysis, any other config problem; null when the
 * sentence is about something else.
 *
 * @example
 * engineErrorCode("adapter config /etc/c.json: field 'enable' is a shell string (…)") // 'engine-shell-string'
 */
export function engineErrorCode(sentence: string): ErrorCode | null {
  if (/is a shell string|holds spaces/.test(sentence)) return 'engine-shell-string';
  if (/not installed \(not found on PATH\)|cannot run '/.test(sentence)) return 'engine-not-installed';
  if (/is not (a|an) [\w-]+ device here|is not part of this analysis|is not one of the devices|no [\w-]+ (device|engine) found here|not in 'devices'/.test(sentence)) return 'engine-wrong-device';
  if (/adapter config|config file|--config/.test(sentence)) return 'engine-config-invalid';
  if (/unknown adapter|adapter/.test(sentence)) return 'engine-refused';
  return null;
}

/** A failed engine command as the HostError the wizard shows: the mapped code, the probe's sentence. */
export function engineError(what: string, out: ProbeOutput): HostError {
  const code = engineErrorCode(out.error);
  if (code === null) return probeError(what, out);
  return new HostError(code, `${what}: ${out.error || `exit code ${out.code}`}`);
}

function parseJson<T>(out: ProbeOutput, schema: z.ZodType<T>, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    throw new HostError('probe-failed', `cacheproof-probe ${what} printed something that is not JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new HostError('probe-failed', `cacheproof-probe ${what} printed an unexpected report: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}.`);
  return parsed.data;
}

/** `cacheproof-probe engine detect --json`: the engines on this machine. */
export async function detectEngines(probe: string): Promise<DetectedEngine[]> {
  const out = await runProbe(probe, engineDetectArgs(), 30_000);
  if (out.code !== 0) throw engineError('The cache engines could not be listed', out);
  return parseJson(out, z.array(DetectedEngine), 'engine detect --json');
}

/** `cacheproof-probe engine plan ADAPTER --device DEV [--config FILE] --json`: the dry run; nothing is changed. */
export async function planEngine(probe: string, choice: EngineChoice): Promise<EnginePlan> {
  const args = enginePlanArgs(choice);
  const out = await runProbe(probe, args, 60_000);
  if (out.code !== 0) throw engineError(`The dry run of ${choice.adapter} on ${choice.device} failed`, out);
  return parseJson(out, EnginePlan, 'engine plan --json');
}

/** `status --json` `engine` (docs/probe.md), checked at the boundary. */
export const ProbeEngineStatus = z.object({
  adapter: z.string(),
  device: z.string(),
  originalMode: z.string().nullable().optional(),
  mode: z.string().nullable().optional(),
  switch: z.enum(['planned', 'pending', 'done', 'failed']),
  restore: z.enum(['planned', 'pending', 'done', 'failed']).nullable().optional(),
  error: z.string().nullable().optional(),
}).loose();
export type ProbeEngineStatus = z.infer<typeof ProbeEngineStatus>;
