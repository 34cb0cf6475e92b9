import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The same version the esbuild bundles get (scripts/build.mjs), so tests see what users see.
const version = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

export default defineConfig({
  define: { __CACHEPROOF_VERSION__: JSON.stringify(version) },
  test: {
    include: ['engine/**/*.test.ts', 'app/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'e2e/**'],
    // Two test files at a time even on a 2-core machine (vitest's default there is one): the
    // lab and recorder tests spend most of their minute waiting on windows of real I/O, and the
    // CPU-bound files run beside them. Tests that share the machine (loop devices, tracefs,
    // ports) each take their own (`lab up --dir`, a per-pid tracefs instance, free ports).
    maxWorkers: 2,
    // One module graph per worker, not one per file: the files import the same engine and host
    // modules, and re-importing them for each of the 160 files cost about a third of the step's
    // CPU (323 -> 231 CPU-s, 254 -> 199 s quiet). No test stubs modules or globals (vi.mock,
    // vi.stubGlobal); the one environment variable a file sets it restores in afterAll. Checked
    // with the files shuffled (--sequence.shuffle.files). So that it stays safe: a mocked function,
    // a stubbed global or variable is undone after each test (the three options below), and lint
    // refuses vi.mock and its kin in test files (eslint.config.mjs, cacheproof/no-module-mock).
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
