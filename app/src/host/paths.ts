/**
 * Where things are on disk: the repository (when run from a checkout), the bundled sample,
 * the probe binary, and the user's data folder where captures and analyses live.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

/** The checkout's root: the first parent of `from` holding samples/ and native/. */
export function findRepoRoot(from: string): string | null {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'samples')) && existsSync(join(dir, 'native'))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The bundled sample capture that `npm start` opens. */
export function samplePath(root: string): string {
  return join(root, 'samples', 'lab', 'lab-sample.capture');
}

/** The user's data folder: $CACHEPROOF_DATA_DIR, else $XDG_DATA_HOME/cacheproof, else ~/.local/share/cacheproof. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['CACHEPROOF_DATA_DIR']) return resolve(env['CACHEPROOF_DATA_DIR']);
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'cacheproof');
}

/** The probe: $CACHEPROOF_PROBE, else the checkout's release build, else on PATH. */
export function probePath(root: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env['CACHEPROOF_PROBE'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (root) {
    const built = join(root, 'native', 'target', 'release', 'cacheproof-probe');
    if (existsSync(built)) return built;
  }
  for (const dir of (env['PATH'] ?? '').split(':')) {
    const p = join(dir, 'cacheproof-probe');
    if (dir && existsSync(p)) return p;
  }
  return null;
}

/** `cacheproof-probe --version`, or null when the probe is missing or fails. */
export function probeVersion(probe: string | null): string | null {
  if (!probe) return null;
  try {
    return execFileSync(probe, ['--version'], { encoding: 'utf8', timeout: 5000 }).trim().replace(/^cacheproof-probe\s+/, '');
  } catch {
    return null;
  }
}
