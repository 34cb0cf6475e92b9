// `npm run fuzz [-- --minutes N] [-- --seed S] [-- --input-seconds B]`: the fuzz suite, for N
// minutes (default 3): every importer parser, the Prometheus host selector, the import's preview
// and writer, and the block-trace readers, on mutated seeds and random bytes, each input under a
// time bound (native/probe/tests/fuzz_minutes.rs; docs/import.md "Fuzzing"). Not part of
// `npm test`, which replays the corpus. Findings go to native/target/fuzz-findings/.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, say } from './ensure.mjs';
import { commandLine } from './args.mjs';

const { values: opts } = commandLine('npm run fuzz --', {
  // as given (a seed the run printed is a 64-bit number): checked, not converted
  minutes: { type: 'string', default: '3', number: 'positive', asText: true },
  seed: { type: 'string', value: 'S', number: 'positive', asText: true },
  'input-seconds': { type: 'string', value: 'B', number: 'positive', asText: true },
});
const minutes = opts.minutes;
const env = { ...process.env, CACHEPROOF_FUZZ_MINUTES: minutes, CARGO_BUILD_JOBS: process.env.CARGO_BUILD_JOBS ?? '2' };
if (opts.seed !== undefined) env.CACHEPROOF_FUZZ_SEED = opts.seed;
if (opts['input-seconds'] !== undefined) env.CACHEPROOF_FUZZ_INPUT_SECONDS = opts['input-seconds'];
say(`fuzzing every parser for ${minutes} minute(s) (findings: native/target/fuzz-findings/)`);
const r = spawnSync('cargo', ['test', '--release', '--manifest-path', join(root, 'native', 'Cargo.toml'), '--test', 'fuzz_minutes', '--', '--ignored', '--nocapture'], { stdio: 'inherit', cwd: root, env });
process.exit(r.status ?? 1);
