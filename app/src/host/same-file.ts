/**
 * Whether an output path would overwrite one of the command's inputs: the same file by another
 * name, a hard link (same device and inode), a symbolic link to it, or a path through a
 * symbolically linked folder. Commands check every output before writing anything, so that
 * `cacheproof report X.capture --format csv --out X.capture` is refused instead of replacing the
 * capture it reads.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** An input of a command: how the command names it (`CAPTURE`, `--scenario`, …) and its path. */
export interface NamedInput {
  what: string;
  path: string;
}

function identity(path: string): { dev: number; ino: number } | null {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return null;
  }
}

/** The canonical absolute path: existing folders' symlinks resolved, the last part kept when it does not exist yet. */
function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/**
 * The input that `output` would overwrite, or null. Existing files are compared by device and
 * inode (catches hard links and symlinks); otherwise by canonical path (symlinked folders).
 * Example: `clashingInput('x.capture', [{ what: 'CAPTURE', path: './x.capture' }])` → the CAPTURE input.
 */
export function clashingInput(output: string, inputs: readonly NamedInput[]): NamedInput | null {
  const outId = identity(output);
  const outPath = canonical(output);
  for (const input of inputs) {
    const inId = identity(input.path);
    if (outId !== null && inId !== null && outId.dev === inId.dev && outId.ino === inId.ino) return input;
    if (canonical(input.path) === outPath) return input;
  }
  return null;
}

/** One sentence saying why an output is refused, naming both paths and what to do. */
export function clashSentence(output: string, outputWhat: string, input: NamedInput): string {
  const same = resolve(output) === resolve(input.path) ? `${output} is the ${input.what} file` : `${output} is the same file as the ${input.what} ${input.path}`;
  return `Refusing to write ${outputWhat} ${output}: ${same}, which this command reads; choose another output file name.`;
}
