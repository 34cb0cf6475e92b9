/**
 * The runs this installation knows: one small JSON file per run beside its capture,
 * `<dataDir>/runs/<runId>.json`, so that after the app (or the machine) restarts, `run.list`
 * finds every run again and re-attaches to the recorders still running. The capture itself
 * stays the source of truth for what was measured; this file only holds what the wizard
 * asked for (the plan and its name) and the headline once the run has been analysed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../atomic-write.ts';
import { join } from 'node:path';
import { z } from 'zod';
import { RunPlan, RunPrediction } from '../../shared/contract.ts';

/** What `<runId>.json` holds (format version 1). */
export const RunRecord = z.object({
  format: z.literal('cacheproof-run'),
  version: z.literal(1),
  id: z.string(),
  name: z.string(),
  captureFile: z.string(),
  plan: RunPlan,
  /** When the app started the probe (UTC ms). */
  createdMs: z.number(),
  /** Headline I/Os saved (percent) once the finished run was analysed; null when it could not be. */
  headline: z.object({ iosSavedPercent: z.number().nullable(), analysedMs: z.number() }).nullable(),
  /** The plan's prediction once the probe ran it (done or failed); absent before, and in runs without one. */
  prediction: RunPrediction.optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;

/** Run ids are made here and checked on every request: they name files, so nothing else gets through. */
export const RUN_ID = /^r-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/;

/** A new run id: `r-YYYYMMDD-HHMMSS-xxxxxx` (UTC, then 24 random bits). */
export function newRunId(nowMs: number): string {
  const iso = new Date(nowMs).toISOString(); // 2026-11-20T22:17:00.000Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  return `r-${stamp}-${randomBytes(3).toString('hex')}`;
}

export class RunRegistry {
  constructor(readonly dir: string) {}

  /** The capture file of a run. */
  capturePath(id: string): string {
    return join(this.dir, `${id}.capture`);
  }

  private recordPath(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Writes a record atomically (host/atomic-write.ts: temp file, fsync, rename, fsync folder): a crash or a full disk never leaves half a file. */
  save(rec: RunRecord): void {
    this.ensureDir();
    writeFileAtomicSync(this.recordPath(rec.id), `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
  }

  /** One run by id, or null when there is no such (readable) record. */
  get(id: string): RunRecord | null {
    if (!RUN_ID.test(id)) return null;
    const p = this.recordPath(id);
    if (!existsSync(p)) return null;
    try {
      const parsed = RunRecord.safeParse(JSON.parse(readFileSync(p, 'utf8')));
      return parsed.success && parsed.data.id === id ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Every readable run record (unreadable ones are left on disk untouched). */
  all(): RunRecord[] {
    if (!existsSync(this.dir)) return [];
    const out: RunRecord[] = [];
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.json')) continue;
      const rec = this.get(f.slice(0, -'.json'.length));
      if (rec) out.push(rec);
    }
    return out;
  }
}
