// Installs what a fresh clone is missing, using only the package registries:
// JS dependencies (npm ci), the native probe's release build (cargo), the app build (esbuild),
// and — for the test suite — Debian packages through apt-get when run as root.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages the test suite needs, with the command that proves each is there. */
export const TEST_PACKAGES = [
  { pkg: 'chromium', cmd: '/usr/bin/chromium', why: 'end-to-end tests and PDF export' },
  { pkg: 'fio', cmd: 'fio', why: 'probe accuracy tests and lab workloads' },
  { pkg: 'poppler-utils', cmd: 'pdftotext', why: 'report checks' },
  { pkg: 'xvfb', cmd: 'xvfb-run', why: 'desktop window checks' },
  { pkg: 'sysstat', cmd: '/usr/lib/sysstat/sadc', why: 'probe overhead benchmark' },
  { pkg: 'sqlite3', cmd: 'sqlite3', why: 'capture inspection in tests and benchmarks' },
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

export function ensureJsDeps() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
  if (stale) {
    // `npm install` from the lock file, not `npm ci`: npm 11 prunes other platforms' optional
    // packages (rollup's) from the lock it writes, and `npm ci` then refuses the lock as out of sync.
    say('Installing JavaScript dependencies (npm install from package-lock.json; better-sqlite3 builds from source, about a minute)…');
    if (run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error']) !== 0) throw new Error('npm install failed; see the output above.');
  }
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: join(root, 'app'), stdio: 'pipe' });
  if (probe.status !== 0) {
    say('Rebuilding better-sqlite3 for this Node version…');
    if (run('npm', ['rebuild', 'better-sqlite3']) !== 0) throw new Error('better-sqlite3 could not be built; install a C++ toolchain (build-essential, python3) and try again.');
  }
}

export function ensureProbe() {
  if (!has('cargo')) throw new Error('cargo (Rust) is needed to build the native probe; install Rust stable (rustup) and try again.');
  say('Building the native probe (cargo build --release; incremental)…');
  if (run('cargo', ['build', '--release', '--quiet', '--manifest-path', join(root, 'native', 'Cargo.toml')]) !== 0) {
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
  const missing = packages.filter((p) => !has(p.cmd));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.pkg);
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
