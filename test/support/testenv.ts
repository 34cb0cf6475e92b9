/**
 * The rule of skipped tests for the vitest files and the Playwright specs, as
 * native/crates/core/src/testenv.rs gives it to the Rust tests: a test whose environment is missing (root, a tool, the built probe, the shared real
 * data) prints `SKIP <test>: <reason>` and is skipped; where every test must run — CI (the `CI`
 * variable set, as CI services set `CI=true`) or `CACHEPROOF_REQUIRE_ALL=1` — the same sentence
 * is an error instead, so a CI run that could not run a test cannot pass. And a poll that gives
 * up fails, saying what it waited for.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether every test must run here (CI, or CACHEPROOF_REQUIRE_ALL=1). */
export function requireAll(): boolean {
  const ci = process.env['CI'];
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  return inCi || process.env['CACHEPROOF_REQUIRE_ALL'] === '1';
}

/**
 * Whether `test` is skipped because of `reason` (null: it can run). Prints `SKIP test: reason`
 * and returns true, or throws that sentence where every test must run ({@link requireAll}).
 *
 * @example
 * const skip = skipped('fio-json', realdataAbsent(dir)); // false when the folder is there
 * describe.skipIf(skip)('fio JSON, real files', () => { ... });
 */
export function skipped(test: string, reason: string | null): boolean {
  if (reason === null) return false;
  const sentence = `SKIP ${test}: ${reason}`;
  if (requireAll()) throw new Error(`${sentence} (CI or CACHEPROOF_REQUIRE_ALL=1: this test must run here, so a skip is a failure)`);
  console.log(sentence);
  return true;
}

/** The repository's root (this file is test/support/testenv.ts). */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A path in the shared real-data folder: `CACHEPROOF_REALDATA` when set (another copy, or a path
 * that does not exist to see the rule at work), else `../shared/realdata` beside the checkout.
 */
export function realdata(...parts: string[]): string {
  const dir = process.env['CACHEPROOF_REALDATA'];
  return resolve(dir !== undefined && dir !== '' ? dir : resolve(repoRoot, '..', 'shared', 'realdata'), ...parts);
}

/** Why a real-data test cannot run: the first of `paths` that is absent, in a sentence; null when all are there. */
export function realdataAbsent(...paths: string[]): string | null {
  const missing = paths.find((p) => !existsSync(p));
  return missing === undefined ? null : `${missing} is absent (the shared real-data folder beside the checkout, or CACHEPROOF_REALDATA)`;
}

/** The release probe, built by `cargo build --release --manifest-path native/Cargo.toml`. */
export const releaseProbe = resolve(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');

/** Why a test that runs the release probe cannot run (null: it is built). */
export function probeAbsent(): string | null {
  return existsSync(releaseProbe) ? null : `the probe is not built (${releaseProbe}): cargo build --release --manifest-path native/Cargo.toml`;
}

/**
 * Polls `check` every `everyMs` until it gives a value other than undefined, and returns it; after
 * `timeoutMs` it fails with `timed out after N s waiting for <what>` and the last thing `check`
 * saw (`last`).
 */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => T | undefined | Promise<T | undefined>, last: () => string = () => '', everyMs = 50): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) {
      const seen = last();
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${seen === '' ? '' : `; last seen: ${seen}`}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
