/**
 * Runs the real, built `cacheproof` command (`node app/dist/cli.cjs`), as a person does: a child
 * process, its exit code, standard output and error. `ensureBuiltCli()` rebuilds app/dist first
 * when a source is newer (scripts/build.mjs --if-stale), so a test never runs a stale bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');
export const root = ROOT;
export const CLI = join(ROOT, 'app', 'dist', 'cli.cjs');

export function ensureBuiltCli(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node scripts/build.mjs --if-stale failed (exit ${r.status}): ${r.stderr}`);
}

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `node app/dist/cli.cjs ...args` in the repository root, with extra environment. */
export function runBuiltCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with 'node scripts/build.mjs' (npm test does) and run the test again.`);
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, encoding: 'utf8', env: { ...process.env, ...opts.env }, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `node app/dist/cli.cjs ...args`; throws, saying how to build it, when the bundle is missing. */
export function builtCli(...args: string[]): CliRun {
  return runBuiltCli(args);
}
