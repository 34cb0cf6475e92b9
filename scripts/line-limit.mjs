// No Rust source file over 500 lines (issue 24; ESLint's max-lines holds the TypeScript to the
// same limit): every .rs file under native/**/src, tests excepted (files under a tests/ folder,
// `tests.rs`, `*_test.rs`). Lists every file over the limit, largest first, and exits 1 if any.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = 500;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const native = join(root, 'native');

/** Lines as `wc -l` and ESLint's max-lines count them (a final newline ends the last line). */
function lineCount(text) {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

const isTest = (path) => path.split(sep).includes('tests') || /(^|[/\\])tests\.rs$|_test\.rs$/.test(path);

/** The .rs files below `dir` (build output and dependencies skipped). */
function* rustFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'target' && e.name !== 'node_modules' && !e.name.startsWith('.')) yield* rustFiles(p);
    } else if (e.isFile() && e.name.endsWith('.rs')) {
      yield p;
    }
  }
}

const over = [];
let checked = 0;
for (const p of rustFiles(native)) {
  const rel = relative(root, p);
  // only sources: below a src/ folder of a crate under native/
  if (!relative(native, p).split(sep).includes('src') || isTest(relative(native, p))) continue;
  checked += 1;
  const n = lineCount(readFileSync(p, 'utf8'));
  if (n > LIMIT) over.push([rel, n]);
}
// Issue 38: the same limit for every other product file in any language: the app's CSS and HTML,
// the scripts, the benches (their .mjs, .py, .sh and .ts), the CI script. (TypeScript under
// app/src and engine/src is ESLint's max-lines; the i18n catalogs, one table per language, and
// tests are exempt there and here.)
const OTHER = /\.(css|html|mjs|cjs|js|py|sh|ts)$/;
function* otherFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'dist', '.venv', 'target', 'fixtures', 'i18n'].includes(e.name) && !e.name.startsWith('.')) yield* otherFiles(p);
    } else if (e.isFile() && OTHER.test(e.name) && !/\.test\.ts$|\.d\.m?ts$/.test(e.name)) {
      yield p;
    }
  }
}
for (const dir of ['app/src', 'scripts', 'bench', '.ci']) {
  for (const p of otherFiles(join(root, dir))) {
    if (p.endsWith('.ts') && dir === 'app/src') continue; // ESLint's max-lines
    checked += 1;
    const n = lineCount(readFileSync(p, 'utf8'));
    if (n > LIMIT) over.push([relative(root, p), n]);
  }
}
for (const p of ['eslint.config.mjs', 'vitest.config.ts']) {
  checked += 1;
  const n = lineCount(readFileSync(join(root, p), 'utf8'));
  if (n > LIMIT) over.push([p, n]);
}

over.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
for (const [rel, n] of over) console.log(`${rel}: ${n} lines (limit ${LIMIT}): split it along its seams`);
if (over.length > 0) {
  console.log(`line limit: ${over.length} of ${checked} source files over ${LIMIT} lines`);
  process.exit(1);
}
console.log(`line limit: all ${checked} source files (Rust, CSS, HTML, scripts, benches) within ${LIMIT} lines`);
