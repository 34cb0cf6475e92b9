/**
 * The lock file installs on every platform the desktop app targets (issue: "A lockfile that
 * installs on every platform…"). npm, run with node_modules of one platform present, can prune
 * other platforms' optional packages from the lock it writes (the known npm failure behind
 * "Cannot find module @rollup/rollup-darwin-arm64" and `npm ci` refusing the lock on macOS,
 * Windows and ARM). scripts/ensure.mjs installs with `npm ci`, which never writes the lock.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipped } from './support/testenv.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockEntry> };

/** The lock's entry a dependency `name` of the package at `from` resolves to (node's lookup: nearest node_modules up the tree). */
function resolveIn(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const at = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock.packages[at] !== undefined) return at;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/** Every entry of the lock that is built for one platform (os and cpu given). */
const platformEntries = Object.entries(lock.packages).filter(([, e]) => e.os !== undefined && e.cpu !== undefined);

/** Whether some entry of `family` (a path prefix) installs on `os`/`cpu`. */
function covers(family: string, os: string, cpu: string): boolean {
  return platformEntries.some(([path, e]) => path.startsWith(family) && e.os?.includes(os) === true && e.cpu?.includes(cpu) === true);
}

const TARGETS: Array<[string, string]> = [['win32', 'x64'], ['darwin', 'arm64'], ['darwin', 'x64'], ['linux', 'x64'], ['linux', 'arm64']];

describe('package-lock.json', () => {
  it('is a lockfile npm ci takes (version 3, every package resolved with its version)', () => {
    expect(lock.lockfileVersion).toBe(3);
    const unversioned = Object.entries(lock.packages).filter(([path, e]) => path !== '' && !path.startsWith('engine') && !path.startsWith('app') && !path.startsWith('e2e') && e.version === undefined && !('link' in e));
    expect(unversioned.map(([p]) => p)).toEqual([]);
  });

  it('names every optional dependency each package declares, for every platform (nothing pruned)', () => {
    const missing: string[] = [];
    for (const [path, e] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(e.optionalDependencies ?? {})) {
        if (resolveIn(path, dep) === undefined) missing.push(`${path || '(root)'} → ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has the native optional packages (rollup, esbuild) for win32-x64, darwin-arm64, darwin-x64, linux-x64 and linux-arm64', () => {
    const families = ['node_modules/@rollup/rollup-', 'node_modules/@esbuild/'];
    for (const family of families) {
      // the family is in the tree at all (a rename upstream must not make this pass on nothing)
      expect(platformEntries.filter(([p]) => p.startsWith(family)).length, family).toBeGreaterThan(5);
      for (const [os, cpu] of TARGETS) expect(covers(family, os, cpu), `${family}* for ${os}-${cpu}`).toBe(true);
    }
    // every native package family the lock holds with builds for several platforms (vite's own
    // esbuild too) covers the five targets, not just the two named; fsevents is macOS' one package
    const PLATFORM = /(^|-)(aix|android|darwin|freebsd|linux|netbsd|openbsd|openharmony|sunos|win32)-.*$/;
    const byFamily = new Map<string, LockEntry[]>();
    for (const [p, e] of platformEntries) {
      const fam = p.replace(PLATFORM, '');
      byFamily.set(fam, [...(byFamily.get(fam) ?? []), e]);
    }
    for (const [fam, entries] of byFamily) {
      if (entries.length < TARGETS.length) continue;
      for (const [os, cpu] of TARGETS) expect(entries.some((e) => e.os?.includes(os) === true && e.cpu?.includes(cpu) === true), `${fam}* for ${os}-${cpu}`).toBe(true);
    }
  });
});

describe('the install leaves the lock as committed', () => {
  const git = existsSync(join(root, '.git')) ? null : `${root} is not a git checkout`;
  it.skipIf(skipped('lockfile unchanged', git))('git status --porcelain package-lock.json is empty after npm ci (scripts/ensure.mjs)', () => {
    const r = spawnSync('git', ['status', '--porcelain', '--', 'package-lock.json'], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout, 'package-lock.json was changed by the install: commit a lock made by `npm install` on a clean checkout').toBe('');
  });
});
