/**
 * The Planner's edited scenario, saved with the analysis: one scenario file per capture in
 * `<dataDir>/plans/<captureSha256>.tco.json` (the capture's content hash, so that the same
 * capture opened again, from any path or after a reload, finds its scenario, and a changed
 * capture does not). The file is a plain TCO scenario (docs/tco-scenario.md) that
 * `cacheproof tco FILE` reads. Only a scenario the engine's parseScenario accepts is saved;
 * writes are atomic, so a failed save leaves the previous scenario.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseScenario } from '@cacheproof/engine/plan';
import { writeFileAtomic } from './atomic-write.ts';
import { HostError } from './errors.ts';

/** The file holding the saved scenario of the capture with this SHA-256. */
export function savedPlanPath(dir: string, captureSha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(captureSha256)) throw new Error(`savedPlanPath: not a SHA-256: ${captureSha256}`);
  return join(dir, `${captureSha256}.tco.json`);
}

/** The saved scenario's JSON, or null when none is saved (or the file no longer parses as a scenario). */
export async function loadSavedPlan(dir: string, captureSha256: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(savedPlanPath(dir, captureSha256), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const json = JSON.parse(text) as unknown;
    return parseScenario(json).ok && json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Saves the scenario (as written, defaults not filled in) for the capture, or removes it when
 * `scenario` is null. An invalid scenario throws HostError `plan-scenario-invalid` naming the field.
 */
export async function savePlan(dir: string, captureSha256: string, scenario: unknown): Promise<void> {
  const file = savedPlanPath(dir, captureSha256);
  if (scenario === null) {
    await rm(file, { force: true });
    return;
  }
  const parsed = parseScenario(scenario);
  if (!parsed.ok) throw new HostError('plan-scenario-invalid', `The scenario was not saved: ${parsed.error.message}`);
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(scenario, null, 2)}\n`);
}

/**
 * The capture changed from `beforeSha256` to `afterSha256` through the app itself (a prediction
 * stored in its `meta`, nothing measured changed): its saved scenario moves to the new hash, and
 * a `measuredFrom` naming the old hash names the new one, so the Planner and the report keep it.
 */
export async function carrySavedPlan(dir: string, beforeSha256: string, afterSha256: string): Promise<void> {
  if (beforeSha256 === afterSha256) return;
  const saved = await loadSavedPlan(dir, beforeSha256);
  if (saved === null) return;
  const from = saved['measuredFrom'] as { captureSha256?: unknown } | undefined;
  const scenario = from !== undefined && from.captureSha256 === beforeSha256 ? { ...saved, measuredFrom: { ...from, captureSha256: afterSha256 } } : saved;
  await savePlan(dir, afterSha256, scenario);
  await savePlan(dir, beforeSha256, null);
}
