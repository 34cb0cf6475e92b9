// `npm run fuzz [-- --minutes N] [-- --seed S] [-- --input-seconds B]`: the fuzz suite, for N
// minutes (default 3): every importer parser, the Prometheus host selector, the import's preview
// and writer, and the block-trace readers, on mutated seeds and random bytes, each input under a
// time bound (native/probe/tests/fuzz_minutes.rs; docs/import.md "Fuzzing"). Not part of
// `npm test`, which replays the corpus. Findings go to native/target/fuzz-findings/.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, say } from './ensure.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  if (v === undefined || !Number.isFinite(Number(v)) || Number(v) <= 0) {
    console.error(`npm run fuzz: ${name} needs a positive number (got ${v ?? 'nothing'})`);
    process.exit(2);
  }
  return v;
};
const unknown = args.filter((a, i) => a.startsWith('--') && !['--minutes', '--seed', '--input-seconds'].includes(a) && !['--minutes', '--seed', '--input-seconds'].includes(args[i - 1]));
if (unknown.length > 0) {
  console.error(`npm run fuzz: unknown option ${unknown[0]} (use --minutes N, --seed S, --input-seconds B)`);
  process.exit(2);
}
const minutes = opt('--minutes', '3');
const env = { ...process.env, CACHEPROOF_FUZZ_MINUTES: minutes, CARGO_BUILD_JOBS: process.env.CARGO_BUILD_JOBS ?? '2' };
const seed = opt('--seed', null);
if (seed !== null) env.CACHEPROOF_FUZZ_SEED = seed;
const bound = opt('--input-seconds', null);
if (bound !== null) env.CACHEPROOF_FUZZ_INPUT_SECONDS = bound;
say(`fuzzing every parser for ${minutes} minute(s) (findings: native/target/fuzz-findings/)`);
const r = spawnSync('cargo', ['test', '--release', '--manifest-path', join(root, 'native', 'Cargo.toml'), '--test', 'fuzz_minutes', '--', '--ignored', '--nocapture'], { stdio: 'inherit', cwd: root, env });
process.exit(r.status ?? 1);
