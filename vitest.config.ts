import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The same version the esbuild bundles get (scripts/build.mjs), so tests see what users see.
const version = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

export default defineConfig({
  define: { __CACHEPROOF_VERSION__: JSON.stringify(version) },
  test: {
    include: ['engine/**/*.test.ts', 'app/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
