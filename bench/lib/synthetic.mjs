// Bundles the test suite's synthetic-capture writer (test/support/synthetic-capture.ts) so
// benchmarks generate captures with the same code the tests use.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProbe } from '../../scripts/probe-build.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function loadSynthetic() {
  const outDir = join(root, 'node_modules', '.cache', 'cacheproof-bench');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'synthetic.cjs');
  await build({ entryPoints: [join(root, 'test/support/synthetic-capture.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', external: ['better-sqlite3'], logLevel: 'warning',
    // The writer finds the capture's migrations beside its source, not beside this bundle.
    define: { __dirname: JSON.stringify(join(root, 'test', 'support')) } });
  return createRequire(import.meta.url)(outfile);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Writes a generated capture's columnar blocks with `cacheproof-probe index` (the probe's own
 * writer, the one a recording or an import runs as it ends: docs/capture-schema.md,
 * `interval_blocks`), so that the benchmark opens the capture as the app opens a finished one.
 * Builds the probe first when needed. Returns the probe's summary (rows, blocks, bytes).
 */
export function indexCapture(path) {
  const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
  if (!buildProbe()) throw new Error('the native probe did not build (scripts/probe-build.mjs); see the cargo output above');
  return JSON.parse(execFileSync(probe, ['index', path, '--json']).toString());
}

/** Whether a capture already holds columnar blocks (meta `interval_blocks`), read with the sqlite3 shell. */
export function hasBlocks(path) {
  try {
    return execFileSync('sqlite3', [path, "SELECT count(*) FROM meta WHERE key = 'interval_blocks'"]).toString().trim() === '1';
  } catch {
    return false;
  }
}

/**
 * Gives a generated capture the state a finished recording or import has: its columnar blocks
 * (`indexCapture`), or, with `noBlocks` (a benchmark's `--no-blocks`), none, as a capture of an
 * older probe (its rows are then read). Prints what it did; returns a label for the report.
 */
export function prepareBlocks(capture, noBlocks) {
  if (noBlocks) {
    if (hasBlocks(capture)) execFileSync('sqlite3', [capture, "DELETE FROM interval_blocks; DELETE FROM meta WHERE key = 'interval_blocks'; VACUUM;"]);
    return 'without columnar blocks (--no-blocks): its rows are read through SQLite';
  }
  if (!hasBlocks(capture)) {
    const s = indexCapture(capture);
    console.log(`columnar blocks written by 'cacheproof-probe index' (as a recording or an import writes them when it ends): ${s.blocks} blocks, ${(s.bytes / 1e6).toFixed(1)} MB`);
  }
  return 'with its columnar blocks';
}
