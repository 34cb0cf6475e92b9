/**
 * Loads a CommonJS bundle through a V8 code cache (node:vm `cachedData`), as Node 22's
 * `module.enableCompileCache` would: Node 20 compiles the 3 MB `cacheproof` bundle, and each
 * function it runs, again on every start (about 60 ms of CPU of an `analyze` of a small capture).
 *
 * The cache is V8's compiled code of the bundle taken when a command has run (so it holds the
 * functions that command compiled), one file per command in a folder beside the bundle. Its name
 * carries the bundle's SHA-256 and Node's, V8's versions and the architecture: V8 itself checks
 * only the source's length, and would run the code of another bundle of the same length. A cache
 * V8 refuses (other flags, a damaged file) is replaced; a folder that cannot be written (a
 * read-only install) leaves the command running as before, without a cache.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What a CommonJS module body is called with (Node's own module wrapper). */
export interface ModuleScope {
  readonly exports: unknown;
  readonly require: NodeJS.Require;
  readonly module: NodeJS.Module;
}

export interface LoadedBundle {
  /** The cache file this bundle, this command and this Node use. */
  readonly cacheFile: string;
  /** Whether V8 ran the bundle from that cache (false: compiled from source). */
  readonly cacheUsed: boolean;
  /** Writes the cache (atomically) when it was not used; call it once the command has run. Never throws. */
  save(): void;
}

/** `KEY-SHA256(bundle)[0..16]-nodeVERSION-v8VERSION-ARCH.v8cache`: another bundle, Node or machine never finds it. */
export function cacheFileName(source: string | Uint8Array, key: string): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return `${key}-${hash}-node${process.versions.node}-v8${process.versions.v8}-${process.arch}.v8cache`.replace(/[^\w.-]/g, '_');
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file and a rename: a concurrent reader finds the whole cache or none. */
function writeAtomically(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // a folder that cannot be written: the next start compiles from source again, as without a cache
    try {
      unlinkSync(temp);
    } catch { /* never written */ }
  }
}

/**
 * Runs the CommonJS bundle at `bundlePath` with `scope` as its `exports`, `require` and `module`,
 * from the cache `cacheDir/cacheFileName(source, key)` when there is a valid one.
 */
export function loadBundle(bundlePath: string, cacheDir: string, key: string, scope: ModuleScope): LoadedBundle {
  const bytes = readFileSync(bundlePath);
  const cacheFile = join(cacheDir, cacheFileName(bytes, key));
  // the build writes the bundle in ASCII (scripts/build.mjs): read as Latin-1, the same text without decoding UTF-8
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cachedData = readIfPresent(cacheFile);
  // Node's module wrapper, on the source's first line: line numbers in stack traces stay the bundle's
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename: bundlePath, cachedData });
  const cacheUsed = cachedData !== undefined && script.cachedDataRejected !== true;
  const body = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: NodeJS.Module, f: string, d: string) => void;
  body.call(scope.exports, scope.exports, scope.require, scope.module, bundlePath, dirname(bundlePath));
  return {
    cacheFile,
    cacheUsed,
    save: () => {
      if (!cacheUsed) writeAtomically(cacheFile, script.createCachedData());
    },
  };
}
