// The Rust tests of `npm test`, in three lanes run side by side. `cargo test` runs its test
// binaries one after another, and most of its four minutes are spent waiting: on Prometheus to
// start and scrape, on loop devices, fio and the recorder's one-second samples. The binaries are
// the ones `cargo test --no-run` built; each runs as cargo would run it (in its package's folder,
// with `--show-output`), in the lane its source says:
//   machine:    every test binary that uses loop devices, fio, tracefs, strace, the recorder, or
//               `common::serial()`, and the crates' unit tests: one at a time, as before, so
//               that none of them shares the devices or the clock with another;
//   prometheus: the binaries that start a real Prometheus (or a scrape server): one at a time;
//   files:      the rest (importers, the CLI, the simulator over files): one at a time.
// A lane's binaries print their whole output when they end, never interleaved with another's.
// Usage: const r = await runCargoLanes(root, manifest, ['--show-output']); r.ok, r.stdout, r.failed.
// (scripts/test.mjs calls testBinaries, then runLanes, to start clippy between the two.)
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const PROMETHEUS = /start_prometheus|promtool|prom::playback|playback\(|common::prom::/;
const MACHINE = /\bserial\(\)|losetup|raw_loop|loop_dev|"fio"|fio_job|strace|tracing|record_detached|recorder|"record"|chrt/;

/** Which lane a test binary runs in (see the head of this file). */
export function laneOf(target) {
  if (!target.kind.includes('test')) return 'machine';
  const src = readFileSync(target.src_path, 'utf8');
  if (PROMETHEUS.test(src)) return 'prometheus';
  if (MACHINE.test(src)) return 'machine';
  return 'files';
}

/** The test executables `cargo test --no-run` built (building what is missing), with their package folders. */
export function testBinaries(root, manifest) {
  const r = spawnSync('cargo', ['test', '--profile', 'release-tests', '--no-run', '--message-format=json-render-diagnostics', ...manifest], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 << 20,
  });
  if (r.status !== 0) return { ok: false, why: `cargo test --no-run: exit ${r.status ?? r.signal}`, binaries: [] };
  const binaries = [];
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line);
    if (m.reason !== 'compiler-artifact' || !m.profile?.test || m.executable === null || m.executable === undefined) continue;
    const label = m.target.kind.includes('test') ? `tests/${basename(m.target.src_path)}` : `unittests ${m.target.name}`;
    binaries.push({ label, executable: m.executable, cwd: dirname(m.manifest_path), lane: laneOf(m.target) });
  }
  return { ok: true, why: '', binaries };
}

function runOne(b, args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    // the whole output to show, and standard output alone, which the caller counts (as it counted cargo's)
    let out = '', stdout = '';
    const child = spawn(b.executable, args, { cwd: b.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { out += d; stdout += d; });
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => resolve({ ok: false, out: `${out}\n${err.message}\n`, stdout, seconds: 0, why: err.message }));
    child.on('close', (code, signal) => resolve({ ok: code === 0, out, stdout, seconds: (Date.now() - t0) / 1000, why: code === null ? `signal ${signal}` : `exit ${code}` }));
  });
}

/**
 * Runs every test binary in its lane, the lanes side by side; `args` go to each binary (the test
 * harness's, e.g. `--show-output`). Returns whether all passed, the binaries' standard output in the
 * order they ended (the whole output is written as each ends), and the failed binaries' labels.
 */
export async function runCargoLanes(root, manifest, args, write = (s) => process.stdout.write(s)) {
  const built = testBinaries(root, manifest);
  if (!built.ok) return { ok: false, stdout: '', failed: [built.why] };
  return runLanes(built.binaries, args, write);
}

/** Runs the binaries testBinaries found, each in its lane, the lanes side by side (as runCargoLanes). */
export async function runLanes(binaries, args, write = (s) => process.stdout.write(s)) {
  const lanes = new Map();
  for (const b of binaries) lanes.set(b.lane, [...(lanes.get(b.lane) ?? []), b]);
  let stdout = '';
  const failed = [];
  await Promise.all([...lanes].map(async ([lane, list]) => {
    for (const b of list) {
      const r = await runOne(b, args);
      const text = `     Running ${b.label} (lane ${lane}, ${r.seconds.toFixed(1)} s${r.ok ? '' : `, FAILED: ${r.why}`})\n${r.out}`;
      stdout += r.stdout;
      write(text);
      if (!r.ok) failed.push(b.label);
    }
  }));
  const sums = [...lanes].map(([lane, list]) => `${lane} ${list.length}`).join(', ');
  write(`cargo test lanes: ${sums} binaries; ${failed.length === 0 ? 'all passed' : `FAILED: ${failed.join(', ')}`}\n`);
  return { ok: failed.length === 0, stdout, failed };
}
