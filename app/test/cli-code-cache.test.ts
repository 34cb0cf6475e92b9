/**
 * `cacheproof` starts its bundle through a V8 code cache (app/src/cli/code-cache.ts, start.ts):
 * the cache is used only for the bundle, Node and command it was made by, a damaged or foreign
 * one is replaced, and what the command prints is the same with and without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheFileName, loadBundle, type ModuleScope } from '../src/cli/code-cache.ts';
import { CACHE_KEYS, cacheKey } from '../src/cli/start.ts';
import { COMMAND_DECLS } from '../src/cli/declarations.ts';
import { builtCli, ensureBuiltCli, ROOT } from './support/built-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two bundles of the same length (V8 checks only the length of the source a cache was made from). */
const bundleOf = (which: 'A' | 'B'): string =>
  `module.exports.which = '${which}';\nmodule.exports.twice = (n) => n * 2;\nmodule.exports.file = __filename;\nmodule.exports.main = require.main === module;\n`;

/** A real module to run a bundle as (what start.ts passes: its own exports, require and module). */
function scopeFor(file: string): ModuleScope & { module: NodeJS.Module } {
  const module = new Module(file) as NodeJS.Module;
  return { exports: module.exports, require: createRequire(file), module };
}

function load(bundle: string, cacheDir: string, key = 'analyze') {
  const scope = scopeFor(bundle);
  const loaded = loadBundle(bundle, cacheDir, key, scope);
  return { loaded, exports: scope.module.exports as { which: string; twice: (n: number) => number; file: string; main: boolean } };
}

describe('the code cache of a bundle', () => {
  it('is written by save(), then used by the next start, which runs the same code', () => {
    const bundle = join(dir, 'one.cjs');
    const cacheDir = join(dir, 'cache-one');
    writeFileSync(bundle, bundleOf('A'));
    const first = load(bundle, cacheDir);
    expect(first.loaded.cacheUsed).toBe(false);
    expect(first.exports.which).toBe('A');
    expect(first.exports.file).toBe(bundle);
    expect(first.exports.main).toBe(false);
    first.loaded.save();
    expect(existsSync(first.loaded.cacheFile)).toBe(true);
    expect(readdirSync(cacheDir)).toEqual([first.loaded.cacheFile.slice(cacheDir.length + 1)]);
    const second = load(bundle, cacheDir);
    expect(second.loaded.cacheFile).toBe(first.loaded.cacheFile);
    expect(second.loaded.cacheUsed).toBe(true);
    expect(second.exports.which).toBe('A');
    expect(second.exports.twice(21)).toBe(42);
  });

  it('of another bundle (a rebuild), even of the same length, is not used: the new bundle runs', () => {
    const bundle = join(dir, 'rebuilt.cjs');
    const cacheDir = join(dir, 'cache-rebuilt');
    writeFileSync(bundle, bundleOf('A'));
    const old = load(bundle, cacheDir);
    old.loaded.save();
    writeFileSync(bundle, bundleOf('B'));
    expect(bundleOf('B')).toHaveLength(bundleOf('A').length);
    const now = load(bundle, cacheDir);
    expect(now.exports.which).toBe('B');
    expect(now.loaded.cacheUsed).toBe(false);
    expect(now.loaded.cacheFile).not.toBe(old.loaded.cacheFile);
  });

  it('is one per command, and named by the bundle\'s hash, Node\'s and V8\'s versions and the architecture', () => {
    const a = cacheFileName(bundleOf('A'), 'analyze');
    expect(a).toContain(process.versions.node);
    expect(a).toContain(process.versions.v8);
    expect(a).toContain(process.arch);
    expect(a.startsWith('analyze-')).toBe(true);
    expect(cacheFileName(bundleOf('A'), 'report')).not.toBe(a);
    expect(cacheFileName(bundleOf('B'), 'analyze')).not.toBe(a);
    expect(cacheFileName(bundleOf('A'), 'analyze')).toBe(a);
  });

  it('damaged is refused by V8 and replaced by save(); the bundle runs from source meanwhile', () => {
    const bundle = join(dir, 'damaged.cjs');
    const cacheDir = join(dir, 'cache-damaged');
    writeFileSync(bundle, bundleOf('A'));
    mkdirSync(cacheDir);
    const file = join(cacheDir, cacheFileName(bundleOf('A'), 'analyze'));
    writeFileSync(file, Buffer.alloc(4096, 0x5a));
    const damaged = load(bundle, cacheDir);
    expect(damaged.loaded.cacheUsed).toBe(false);
    expect(damaged.exports.which).toBe('A');
    damaged.loaded.save();
    expect(readFileSync(file).equals(Buffer.alloc(4096, 0x5a))).toBe(false);
    expect(load(bundle, cacheDir).loaded.cacheUsed).toBe(true);
  });

  it('runs a bundle that is not ASCII (not built by scripts/build.mjs) with its text intact, from source and from its cache', () => {
    const bundle = join(dir, 'utf8.cjs');
    const cacheDir = join(dir, 'cache-utf8');
    writeFileSync(bundle, "module.exports.which = 'café — кэш';\n");
    const first = load(bundle, cacheDir);
    expect(first.exports.which).toBe('café — кэш');
    first.loaded.save();
    const second = load(bundle, cacheDir);
    expect(second.loaded.cacheUsed).toBe(true);
    expect(second.exports.which).toBe('café — кэш');
  });

  it('in a folder that cannot be made: save() writes nothing and throws nothing', () => {
    const bundle = join(dir, 'readonly.cjs');
    writeFileSync(bundle, bundleOf('A'));
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, 'x');
    const r = load(bundle, join(notAFolder, 'cache'));
    expect(() => r.loaded.save()).not.toThrow();
    expect(existsSync(r.loaded.cacheFile)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('cacheproof\'s start', () => {
  it('keeps a cache per command of cacheproof, and one for everything else (help, version, usage errors)', () => {
    expect([...CACHE_KEYS].sort()).toEqual(Object.keys(COMMAND_DECLS).sort());
    expect(cacheKey(['analyze', 'x.capture'])).toBe('analyze');
    expect(cacheKey(['report', '--help'])).toBe('report');
    for (const argv of [[], ['--help'], ['help', 'analyze'], ['nope'], ['toString'], ['__proto__']]) expect(cacheKey(argv), argv.join(' ')).toBe('cacheproof');
  });

  describe('the built cacheproof (app/dist/cli.cjs)', () => {
    const cacheDir = join(ROOT, 'app', 'dist', 'cli-cache');
    const capture = join(ROOT, 'samples', 'lab', 'lab-sample.capture');
    beforeAll(() => ensureBuiltCli());

    it('writes its command\'s cache on a first run that ends well, named by the bundle it runs, and prints the same from it', async () => {
      const bundle = readFileSync(join(ROOT, 'app', 'dist', 'cli-bundle.cjs'), 'utf8');
      const file = join(cacheDir, cacheFileName(bundle, 'analyze'));
      rmSync(file, { force: true });
      const fromSource = await builtCli('analyze', capture, '--json');
      expect(fromSource.err).toBe('');
      expect(fromSource.code).toBe(0);
      expect(existsSync(file)).toBe(true);
      const fromCache = await builtCli('analyze', capture, '--json');
      expect(fromCache).toEqual(fromSource);
      const helpCache = join(cacheDir, cacheFileName(bundle, 'cacheproof'));
      rmSync(helpCache, { force: true });
      const help = await builtCli('help', 'analyze');
      expect(help.code).toBe(0);
      expect(existsSync(helpCache)).toBe(true);
    });

    it('writes no cache for a command that failed', async () => {
      const bundle = readFileSync(join(ROOT, 'app', 'dist', 'cli-bundle.cjs'), 'utf8');
      const file = join(cacheDir, cacheFileName(bundle, 'verify'));
      rmSync(file, { force: true });
      const r = await builtCli('verify', capture);
      expect(r.code).toBe(2);
      expect(existsSync(file)).toBe(false);
    });
  });
});
