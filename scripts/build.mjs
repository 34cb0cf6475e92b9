// Builds the app with esbuild: the renderer for the browser (one IIFE, no Node), and the
// Node entry points (browser host, Electron main and preload, CLI) as CommonJS bundles.
// Usage: node scripts/build.mjs [--if-stale]
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'app', 'dist');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

function newest(dir) {
  let max = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    max = Math.max(max, st.isDirectory() ? newest(p) : st.mtimeMs);
  }
  return max;
}

export function isStale() {
  const marker = join(out, 'cli.cjs');
  if (!existsSync(marker) || !existsSync(join(out, 'cli-bundle.cjs'))) return true;
  const built = statSync(marker).mtimeMs;
  return [join(root, 'app', 'src'), join(root, 'engine', 'src')].some((d) => newest(d) > built) ||
    statSync(join(root, 'package.json')).mtimeMs > built;
}

/**
 * Escapes the non-ASCII characters esbuild leaves in a bundle (its output is ASCII but for
 * comments) as \uXXXX, which means the same character in a comment, string, regular expression
 * or identifier. Node reads an ASCII file into a one-byte string, and V8 compiles and hashes it
 * faster: `cacheproof analyze` starts about 20 ms of CPU sooner.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

export async function buildAll() {
  mkdirSync(join(out, 'renderer'), { recursive: true });
  const define = { __CACHEPROOF_VERSION__: JSON.stringify(version) };
  await build({
    entryPoints: [join(root, 'app/src/renderer/main.ts')],
    outfile: join(out, 'renderer', 'renderer.js'),
    bundle: true, platform: 'browser', format: 'iife', target: 'chrome120', sourcemap: true, minify: true,
    define, logLevel: 'warning',
  });
  for (const f of ['index.html', 'styles.css']) cpSync(join(root, 'app/src/renderer', f), join(out, 'renderer', f));
  // The UI's font ships with the app (the same files the reports embed: app/src/host/report/fonts.ts).
  const fonts = join(dirname(createRequire(join(root, 'app', 'package.json')).resolve('@fontsource/dejavu-sans/package.json')), 'files');
  mkdirSync(join(out, 'renderer', 'fonts'), { recursive: true });
  for (const w of [400, 700]) cpSync(join(fonts, `dejavu-sans-latin-${w}-normal.woff2`), join(out, 'renderer', 'fonts', `dejavu-sans-${w}.woff2`));
  rmSync(join(out, 'cli-cache'), { recursive: true, force: true });
  const node = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, define, logLevel: 'warning', external: ['better-sqlite3', 'electron', 'exceljs', 'playwright-core'] };
  await Promise.all([
    // `cacheproof`: a small executable that runs the commands' bundle through a V8 code cache
    // (app/src/cli/start.ts, code-cache.ts); the cache of an earlier build goes. A script run by
    // node:vm cannot import() without an experimental flag: the bundle's import() of a package
    // or a Node module (playwright-core, pptxgenjs's node:fs) is written as require().
    build({ ...node, entryPoints: [join(root, 'app/src/cli/start.ts')], outfile: join(out, 'cli.cjs'), banner: { js: '#!/usr/bin/env node' } }),
    build({ ...node, entryPoints: [join(root, 'app/src/cli/main.ts')], outfile: join(out, 'cli-bundle.cjs'), supported: { 'dynamic-import': false } }),
    build({ ...node, entryPoints: [join(root, 'app/src/browser-host/main.ts')], outfile: join(out, 'browser-host.cjs') }),
    build({ ...node, entryPoints: [join(root, 'app/src/main/main.ts')], outfile: join(out, 'main.cjs') }),
    build({ ...node, entryPoints: [join(root, 'app/src/preload/preload.ts')], outfile: join(out, 'preload.cjs') }),
    // the host's analysis worker (host/session.ts runs each capture's analysis on a worker thread)
    build({ ...node, entryPoints: [join(root, 'app/src/host/analysis-worker.ts')], outfile: join(out, 'analysis-worker.cjs') }),
  ]);
  asciiOnly(join(out, 'cli-bundle.cjs'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean', default: false } } });
  if (values['if-stale'] && !isStale()) process.exit(0);
  const t0 = Date.now();
  await buildAll();
  console.log(`Built the app into app/dist in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}
