// Installs what a fresh clone is missing, using only the package registries:
// JS dependencies (npm ci), the native probe's release build (cargo), the app build (esbuild),
// and — for the test suite — Debian packages through apt-get when run as root.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProbe } from './probe-build.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Debian packages the test suite needs, with the command that proves each is there. This is the
 * whole list of what the tests take from the machine as programs (README, "What npm test
 * installs"); fonts are not on it but one: the app ships its own (`@fontsource/dejavu-sans`),
 * and the slide checks lay out the PowerPoint export's Arial with its metrics (Liberation Sans).
 */
export const TEST_PACKAGES = [
  { pkg: 'chromium', cmd: '/usr/bin/chromium', why: 'end-to-end tests and PDF export' },
  { pkg: 'fio', cmd: 'fio', why: 'probe accuracy tests and lab workloads' },
  { pkg: 'poppler-utils', cmd: 'pdffonts', why: 'report checks (pdftotext, pdfinfo, pdftoppm, pdffonts)' },
  { pkg: 'xvfb', cmd: 'xvfb-run', why: 'desktop window checks' },
  { pkg: 'sysstat', cmd: '/usr/lib/sysstat/sadc', why: 'probe overhead benchmark' },
  { pkg: 'sqlite3', cmd: 'sqlite3', why: 'capture inspection in tests and benchmarks' },
  { pkg: 'e2fsprogs', cmd: 'mkfs.ext4', why: 'the loop-device lab (a filesystem on the backing device)' },
  { pkg: 'mount', cmd: 'losetup', why: 'the loop-device lab' },
  { pkg: 'util-linux', cmd: 'chrt', why: 'probe accuracy tests (real-time priority)' },
  { pkg: 'prometheus', cmd: 'prometheus', why: 'the Prometheus import test (a real server scraping node_exporter)' },
  { pkg: 'prometheus', cmd: 'promtool', why: 'the fleet import test (promtool tsdb create-blocks-from openmetrics backfills 100 hosts)' },
  { pkg: 'victoria-metrics', cmd: 'victoria-metrics', why: 'the fleet e2e on VictoriaMetrics (a real single-node server fed through its import API)' },
  { pkg: 'prometheus-node-exporter', cmd: 'prometheus-node-exporter', why: 'the Prometheus import test (node_disk_* counters)' },
  { pkg: 'strace', cmd: 'strace', why: 'the fault-injection tests (strace -e inject=SYSCALL:error=ENOSPC|EIO makes a write, fsync or rename fail)' },
  { pkg: 'openssl', cmd: 'openssl', why: 'the https Prometheus import test (a CA and a server certificate made by the test)' },
  { pkg: 'libreoffice-impress', cmd: 'soffice', why: 'the PowerPoint export rendered to pages by LibreOffice (slide overflow checks)' },
  // no program of its own: present when fontconfig lists it (Arial's metrics, the font the slides name)
  { pkg: 'fonts-liberation2', cmd: 'fc-list', test: "fc-list | grep -q 'Liberation Sans'", why: 'the slide checks: Liberation Sans has the metrics of Arial, the PowerPoint export\'s font' },
];

/** What the native module better-sqlite3 needs to build from source (no prebuilt binary here). */
export const BUILD_PACKAGES = [
  { pkg: 'build-essential', cmd: 'g++', why: 'building better-sqlite3 from source' },
  { pkg: 'build-essential', cmd: 'make', why: 'building better-sqlite3 from source' },
  { pkg: 'python3', cmd: 'python3', why: 'building better-sqlite3 from source (node-gyp)' },
];

/** What `npm run bench` needs beyond the test packages. */
export const BENCH_PACKAGES = [
  { pkg: 'time', cmd: '/usr/bin/time', why: 'peak memory (RSS) of benchmarked commands' },
  // no program of its own: present when Python's ensurepip (what `python3 -m venv` needs) imports
  { pkg: 'python3-venv', cmd: 'python3', test: "python3 -c 'import ensurepip'", why: 'the virtual environments of the PyPI peers (libcachesim, pandas)' },
  // bench/cachesim builds libCacheSim's mrcProfiler (its SHARDS estimator) from the libcachesim sdist on PyPI
  { pkg: 'cmake', cmd: 'cmake', why: "building libCacheSim's mrcProfiler (bench/cachesim)" },
  { pkg: 'build-essential', cmd: 'g++', why: "building libCacheSim's mrcProfiler (bench/cachesim)" },
  { pkg: 'pkg-config', cmd: 'pkg-config', why: "building libCacheSim's mrcProfiler (bench/cachesim)" },
  { pkg: 'libglib2.0-dev', cmd: 'pkg-config', test: 'pkg-config --exists glib-2.0', why: "building libCacheSim's mrcProfiler (bench/cachesim)" },
  { pkg: 'libzstd-dev', cmd: 'pkg-config', test: 'pkg-config --exists libzstd', why: "building libCacheSim's mrcProfiler (bench/cachesim)" },
];

export function say(line) {
  process.stdout.write(`[cacheproof] ${line}\n`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  return r.status ?? 1;
}

function has(cmd) {
  if (cmd.startsWith('/')) return existsSync(cmd);
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** True when a process with this pid runs. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Runs `fn` holding the checkout's install lock (the folder `.install.lock`, made atomically, with
 * the holder's pid): two `npm start`s or test workers starting at once must not run `npm ci` side by
 * side (one deletes node_modules under the other: EEXIST, then an empty node_modules). A waiter
 * polls every 0.5 s; a lock whose holder is gone is taken over; after 15 minutes it gives up saying so.
 */
function withInstallLock(fn) {
  const dir = join(root, '.install.lock');
  const deadline = Date.now() + 15 * 60_000;
  let said = false;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let pid = NaN;
    try {
      pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    } catch {
      // the holder has not written its pid yet
    }
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another install has held ${dir} for 15 minutes; if no npm runs in this checkout, remove that folder and try again.`);
    if (!said) say(`Waiting for the JavaScript dependencies another process is installing (${dir})…`);
    said = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
  writeFileSync(join(dir, 'pid'), String(process.pid));
  try {
    return fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function ensureJsDeps() {
  if (!existsSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))) ensureDebianPackages(BUILD_PACKAGES);
  // the staleness is judged again once the lock is held: a process that waited finds the install done
  withInstallLock(installIfStale);
}

function installIfStale() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
  if (stale) {
    // `npm ci` from the lock file: it never rewrites package-lock.json and refuses one that has
    // drifted from package.json, so a drift fails here, loudly, instead of being written over. The
    // lock file carries every platform's optional packages (rollup's, esbuild's, fsevents); a lock
    // pruned to one platform breaks macOS, Windows and ARM installs (test/lockfile.test.ts checks).
    const hasLock = existsSync(lock);
    const args = hasLock ? ['ci', '--no-audit', '--no-fund', '--loglevel=error'] : ['install', '--no-audit', '--no-fund', '--loglevel=error'];
    say(`Installing JavaScript dependencies (npm ${args[0]}${hasLock ? ' from package-lock.json' : ''}; better-sqlite3 builds from source, about a minute)…`);
    if (run('npm', args) !== 0) {
      throw new Error(hasLock
        ? 'npm ci failed; if it says package.json and package-lock.json are out of sync, run `npm install` once, check that package-lock.json still names every platform\'s optional packages (npm test checks it), and commit it.'
        : 'npm install failed; see the output above.');
    }
  }
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: join(root, 'app'), stdio: 'pipe' });
  if (probe.status !== 0) {
    say('Rebuilding better-sqlite3 for this Node version…');
    if (run('npm', ['rebuild', 'better-sqlite3']) !== 0) throw new Error('better-sqlite3 could not be built; install a C++ toolchain (build-essential, python3) and try again.');
  }
}

export function ensureProbe() {
  if (!has('cargo')) throw new Error('cargo (Rust) is needed to build the native probe; install Rust stable (rustup) and try again.');
  say('Building the native probe (cargo build --release, and its recorder linked statically: scripts/probe-build.mjs; incremental)…');
  if (!buildProbe()) {
    throw new Error('the native probe did not build; see the cargo output above.');
  }
}

export async function ensureAppBuild() {
  const { buildAll, isStale } = await import('./build.mjs');
  if (isStale()) {
    say('Building the app (esbuild)…');
    await buildAll();
  }
}

export function ensureDebianPackages(packages = TEST_PACKAGES) {
  const missing = packages.filter((p) => !has(p.cmd) || (p.test !== undefined && spawnSync('sh', ['-c', p.test], { stdio: 'ignore' }).status !== 0));
  if (missing.length === 0) return;
  const names = [...new Set(missing.map((p) => p.pkg))];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !has('apt-get')) {
    throw new Error(`missing Debian packages: ${missing.map((p) => `${p.pkg} (${p.why})`).join(', ')}. Install them with: sudo apt-get install ${names.join(' ')}`);
  }
  say(`Installing Debian packages: ${names.join(' ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update', '-q'], { env }) !== 0) throw new Error('apt-get update failed.');
  if (run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-q', '--no-install-recommends', ...names], { env }) !== 0) {
    throw new Error(`apt-get install ${names.join(' ')} failed.`);
  }
}

/**
 * What the tests take from the machine that no package install gives: root (loop devices,
 * tracefs, real-time priority), the loop driver, tracefs, and Node's full ICU (numbers and dates
 * in four languages). Returns one sentence per missing thing, each saying what to do; empty when
 * everything is there. The tests that need these skip with the same reason outside CI and fail
 * in CI (CI=true), where they must run.
 */
export function machineProblems() {
  const problems = [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) problems.push('not running as root: the probe, loop-device lab and block-trace tests need root (run npm test as root, e.g. in a VM or container with --privileged).');
  if (isRoot && !existsSync('/dev/loop-control')) problems.push('/dev/loop-control is missing: the loop driver is not loaded; run `modprobe loop` (in a container: start it with --privileged).');
  if (isRoot && !existsSync('/sys/kernel/tracing/events') && !existsSync('/sys/kernel/debug/tracing/events') && !existsSync('/sys/kernel/tracing')) {
    problems.push('tracefs is not available (/sys/kernel/tracing): block tracing tests need a kernel with CONFIG_FTRACE; the probe mounts tracefs itself when the kernel has it.');
  }
  if (has('strace') && spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-e', 'trace=getpid', '-e', 'inject=getpid:retval=42', 'true'], { stdio: 'ignore' }).status !== 0) {
    problems.push('strace cannot trace here (ptrace is refused: a container without CAP_SYS_PTRACE, or kernel.yama.ptrace_scope=3): the fault-injection tests need it; start the container with --cap-add SYS_PTRACE (or --privileged).');
  }
  const icu = Intl.NumberFormat.supportedLocalesOf(['fr-FR', 'es-ES', 'ru-RU']);
  if (icu.length !== 3) problems.push(`this Node has no full ICU (supports only ${icu.join(', ') || 'English'}): install Node 20+ built with full-icu (the official builds and Debian's nodejs are).`);
  return problems;
}

/** Says each machine problem; in CI, where every test must run, a problem stops the run. */
export function checkMachine() {
  const problems = machineProblems();
  for (const p of problems) say(`Machine check: ${p}`);
  if (problems.length > 0 && process.env.CI) throw new Error(`the machine lacks what the tests need (${problems.length} problem${problems.length === 1 ? '' : 's'} above); CI runs every test, so fix them first.`);
}
