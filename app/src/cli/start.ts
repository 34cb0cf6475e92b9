/**
 * The `cacheproof` executable (app/dist/cli.cjs, a few kilobytes): runs the command's bundle
 * (app/dist/cli-bundle.cjs, built from main.ts) through a V8 code cache kept beside it in
 * app/dist/cli-cache/ (code-cache.ts), so that a command does not compile the bundle again on
 * every start. What the command prints, writes and returns is the bundle's alone.
 */
import { join } from 'node:path';
import { loadBundle } from './code-cache.ts';

/** The commands with a cache of their own (main.ts's commands; a test compares them); any other start shares `cacheproof`'s. */
export const CACHE_KEYS = ['analyze', 'tco', 'report', 'verify'] as const;

/** The cache a command line starts from: its command's, or `cacheproof` (help, version, a usage error). */
export function cacheKey(argv: readonly string[]): string {
  const [name] = argv;
  return CACHE_KEYS.find((k) => k === name) ?? 'cacheproof';
}

if (require.main === module) {
  const loaded = loadBundle(join(__dirname, 'cli-bundle.cjs'), join(__dirname, 'cli-cache'), cacheKey(process.argv.slice(2)), { exports: module.exports, require, module });
  // a command that ended well compiled what such a command needs: that is the cache worth keeping
  process.once('exit', (code) => {
    if (code === 0) loaded.save();
  });
}
