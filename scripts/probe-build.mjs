// The native probe's release build, the one the app, the tests of app/ and e2e/, and the
// benchmarks run (native/target/release): `cacheproof-probe`, and beside it the recorder that
// `cacheproof-probe record` execs for the hours a recording runs (`cacheproof-probe-recorder`,
// native/crates/recorder/src/handoff.rs), linked statically (glibc's static-pie, `crt-static`).
// Statically linked, the recorder maps only the C library code it calls, where the shared libc,
// libm, libgcc_s and ld.so cost it 1.9 MiB of resident file pages: 3.8 MiB in all instead of
// 5.0 (bench/probe-overhead). Cargo cannot set `crt-static` for one binary of a package, so the
// recorder is linked by `cargo rustc` with that flag; `cargo build --release` builds only the
// probe, so the two never relink each other's output. A plain `cargo build --release` of the
// whole workspace still works (it links the recorder dynamically: the same recording, with more
// memory mapped); this script, run again, links it statically again.
//
// Usage: `node scripts/probe-build.mjs` (or `buildProbe()` from another script).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = ['--manifest-path', join(root, 'native', 'Cargo.toml')];

/** The cargo commands of the build, in order (arguments after `cargo`). */
export const PROBE_BUILD_STEPS = [
  ['build', '--release', '--quiet', ...manifest, '--bin', 'cacheproof-probe'],
  ['rustc', '--release', '--quiet', ...manifest, '-p', 'cacheproof-probe', '--bin', 'cacheproof-probe-recorder', '--', '-C', 'target-feature=+crt-static'],
];

/** Build the probe and its recorder (incremental); true when both built. Cargo's output is shown. */
export function buildProbe() {
  for (const args of PROBE_BUILD_STEPS) {
    const r = spawnSync('cargo', args, { stdio: 'inherit', cwd: root });
    if (r.error || r.status !== 0) return false;
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(buildProbe() ? 0 : 1);
}
