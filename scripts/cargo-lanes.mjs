// The Rust tests of `npm test`, in three lanes run side by side. `cargo test` runs its test
// binaries one after another, and most of its four minutes are spent waiting: on Prometheus to
// start and scrape, on loop devices, fio and the recorder's one-second samples. The binaries are
// the ones `cargo test --no-run` builds; each runs as cargo would run it (in its package's folder,
// with `--show-output`), in the lane its source says:
//   machine:    every test binary that uses loop devices, fio, tracefs, strace, the recorder, or
//               `common::serial()`, and the crates' unit tests: one at a time, as before, so
//               that none of them shares the devices or the clock with another;
//   prometheus: the binaries that start a real Prometheus (or a scrape server): one at a time;
//   files:      the rest (importers, the CLI, the simulator over files): one at a time.
// A lane's binaries print their whole output when they end, never interleaved with another's.
// A lane starts a binary as soon as cargo has built it: scripts/test.mjs passes the binaries of
// its background build as they appear in the build's messages (streamBinaries), so that the
// lanes run while the build finishes the rest.
// Usage: const r = await runLanes(streamBinaries(file, build), ['--show-output']); r.ok, r.stdout, r.failed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
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

/** The test binary one line of cargo's JSON messages announces, or null for any other line. */
export function binaryOf(line) {
  if (!line.startsWith('{')) return null;
  const m = JSON.parse(line);
  if (m.reason !== 'compiler-artifact' || !m.profile?.test || m.executable === null || m.executable === undefined) return null;
  const label = m.target.kind.includes('test') ? `tests/${basename(m.target.src_path)}` : `unittests ${m.target.name}`;
  return { label, executable: m.executable, cwd: dirname(m.manifest_path), lane: laneOf(m.target) };
}

/** The test executables `cargo test --no-run` built (building what is missing), with their package folders. */
export function testBinaries(root, manifest) {
  const r = spawnSync('cargo', ['test', '--profile', 'release-tests', '--no-run', '--message-format=json-render-diagnostics', ...manifest], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 << 20,
  });
  if (r.status !== 0) return { ok: false, why: `cargo test --no-run: exit ${r.status ?? r.signal}`, binaries: [] };
  return { ok: true, why: '', binaries: r.stdout.split('\n').map(binaryOf).filter((b) => b !== null) };
}

/**
 * The test binaries a running `cargo test --no-run --message-format=json…` announces in `file`
 * (its standard output), each as soon as its line is written; ends once `ended` (the build's
 * end) has resolved and the file is read to its end. Reads the file every `pollMs`.
 */
export async function* streamBinaries(file, ended, pollMs = 250) {
  let done = false;
  void ended.then(() => (done = true), () => (done = true));
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1 << 16);
  let rest = '';
  try {
    for (;;) {
      const last = done; // read once more after the build ended: its last lines
      let n;
      while ((n = readSync(fd, buf, 0, buf.length, null)) > 0) {
        const lines = (rest + buf.toString('utf8', 0, n)).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          const b = binaryOf(line);
          if (b !== null) yield b;
        }
      }
      if (last) break;
      await new Promise((r) => setTimeout(r, pollMs));
    }
    const b = binaryOf(rest);
    if (b !== null) yield b;
  } finally {
    closeSync(fd);
  }
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
 * Runs every test binary of `binaries` (an array, or an async iterable such as
 * {@link streamBinaries}) in its lane, the lanes side by side, each lane's binaries one at a time
 * in the order they came; `args` go to each binary (the test harness's, e.g. `--show-output`).
 * Returns whether all passed, the binaries' standard output in the order they ended (the whole
 * output is written as each ends), and the failed binaries' labels.
 */
export async function runLanes(binaries, args, write = (s) => process.stdout.write(s)) {
  const lanes = new Map(); // lane → { count, tail: the promise of its last binary }
  let stdout = '';
  const failed = [];
  const seen = new Set();
  for await (const b of binaries) {
    if (seen.has(b.executable)) continue; // cargo announces a binary once; a re-read never runs it twice
    seen.add(b.executable);
    const lane = lanes.get(b.lane) ?? { count: 0, tail: Promise.resolve() };
    lane.count += 1;
    lane.tail = lane.tail.then(async () => {
      const r = await runOne(b, args);
      stdout += r.stdout;
      write(`     Running ${b.label} (lane ${b.lane}, ${r.seconds.toFixed(1)} s${r.ok ? '' : `, FAILED: ${r.why}`})\n${r.out}`);
      if (!r.ok) failed.push(b.label);
    });
    lanes.set(b.lane, lane);
  }
  await Promise.all([...lanes.values()].map((l) => l.tail));
  const sums = [...lanes].map(([lane, l]) => `${lane} ${l.count}`).join(', ');
  write(`cargo test lanes: ${sums} binaries; ${failed.length === 0 ? 'all passed' : `FAILED: ${failed.join(', ')}`}\n`);
  return { ok: failed.length === 0, stdout, failed };
}
