/**
 * Runs the real, built `cacheproof` command (`node app/dist/cli.cjs`), as a person does: a child
 * process, its exit code, standard output and error. `ensureBuiltCli()` rebuilds app/dist first
 * when a source is newer (scripts/build.mjs --if-stale), so a test never runs a stale bundle.
 */
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * `node app/dist/cli.cjs ...args` in the repository root, with extra environment. Asynchronous on
 * purpose: a test that ran several commands with spawnSync kept its worker's event loop blocked
 * for their whole time, and on a loaded machine past vitest's 60 s answer time for the worker's
 * progress messages ("Timeout calling onTaskUpdate", which fails the run).
 */
export function runBuiltCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with 'node scripts/build.mjs' (npm test does) and run the test again.`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    // a deadline, not a sleep: a command still running after 2 minutes is killed and the test fails saying so
    let killed = false;
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, 120_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killed) reject(new Error(`timed out after 120 s waiting for cacheproof ${args.join(' ')} to finish (killed); its stderr so far: ${err.slice(-500) || 'nothing'}`));
      else resolve({ code, out, err });
    });
  });
}

/** `node app/dist/cli.cjs ...args`; throws, saying how to build it, when the bundle is missing. */
export function builtCli(...args: string[]): Promise<CliRun> {
  return runBuiltCli(args);
}
