// Bundles the test suite's synthetic-capture writer (test/support/synthetic-capture.ts) so
// benchmarks generate captures with the same code the tests use.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
