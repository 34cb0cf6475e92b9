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
over.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
for (const [rel, n] of over) console.log(`${rel}: ${n} lines (limit ${LIMIT}): split it along its seams`);
if (over.length > 0) {
  console.log(`line limit: ${over.length} of ${checked} Rust source files over ${LIMIT} lines`);
  process.exit(1);
}
console.log(`line limit: all ${checked} Rust source files within ${LIMIT} lines`);
