// `npm run bench`: runs every benchmark under bench/ (each folder's run.mjs or run.sh), or the
// ones named: `npm run bench -- analyze`. Benchmarks print figures beside their peer; they are
// not tests and never fail the build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_PACKAGES, TEST_PACKAGES, ensureDebianPackages, root } from './ensure.mjs';

ensureDebianPackages([...TEST_PACKAGES, ...BENCH_PACKAGES]);

// the benchmarks' names (bench/<name>/), no options
const { positionals: only } = parseArgs({ allowPositionals: true });
const benches = readdirSync(join(root, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'lib' && (only.length === 0 || only.includes(d.name)))
  .map((d) => d.name)
  .sort();
for (const name of benches) {
  const dir = join(root, 'bench', name);
  const [cmd, args] = existsSync(join(dir, 'run.mjs')) ? [process.execPath, [join(dir, 'run.mjs')]] : existsSync(join(dir, 'run.sh')) ? ['bash', [join(dir, 'run.sh')]] : [null, []];
  if (!cmd) continue;
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) console.log(`bench/${name} exited with ${r.status}`);
}
