/**
 * Runs the real built `cacheproof` (app/dist/cli.cjs, written by `node scripts/build.mjs`, which
 * `npm test` runs first) as a child process: what a user types, exit code and streams included.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..', '..');
export const CLI = join(root, 'app', 'dist', 'cli.cjs');

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `node app/dist/cli.cjs ...args`; throws, saying how to build it, when the bundle is missing. */
export function builtCli(...args: string[]): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with 'node scripts/build.mjs' (npm test does) and run the test again.`);
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
