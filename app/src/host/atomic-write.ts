/**
 * The one way CacheProof writes a file (CLI outputs, report exports, app-data files such as the
 * run records and the analysis cache, and the browser host's sign-in file): the bytes go to a
 * temporary file in the target's own folder (created exclusively, with the requested mode), the
 * temporary file is fsynced, renamed over the target, and the folder is fsynced. On any failure
 * (full disk, permission, a write that throws half-way) the temporary file is removed and the
 * target is left exactly as it was: never a 0-byte or truncated file.
 *
 * Three shapes of the same mechanism:
 * - {@link writeFileAtomic} / {@link writeFileAtomicSync}: the whole content at once;
 * - {@link AtomicFile}: reserve the temporary file, let a streaming writer fill `tmp` (CSV rows,
 *   an exceljs workbook), then `commit()` or `abort()`; several files can be committed together
 *   (the two CSV files of a report).
 *
 * Example: `await writeFileAtomic('/srv/out/plan.tco.json', text)`; the browser host's sign-in
 * file: `writeFileAtomicSync(file, url, { mode: 0o600, refuseSymlink: true })`.
 */
import { closeSync, fsyncSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Permission bits of the written file (e.g. 0o600 for a file only its owner may read). Default:
   * the mode of the file being replaced, else 0o666 less the umask.
   */
  mode?: number;
  /** Refuse (EEXIST-like error, code `ESYMLINK`) when the target is a symbolic link, instead of replacing the link. */
  refuseSymlink?: boolean;
}

/** The error of a refused symlink target (`err.code === 'ESYMLINK'`). */
export class SymlinkTargetError extends Error {
  readonly code = 'ESYMLINK';
  constructor(readonly path: string) {
    super(`${path} is a symbolic link; refusing to write through it`);
  }
}

let counter = 0;

/** Temporary files reserved and not yet committed or aborted (removed by {@link removePendingTemps}). */
const pending = new Set<string>();

/**
 * Removes every temporary file this process reserved and has not committed: for a process that
 * is being stopped (the CLI's SIGINT/SIGTERM handler), so that Ctrl-C leaves no `.partial` file.
 */
export function removePendingTemps(): void {
  for (const tmp of pending) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  pending.clear();
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync of a folder, so that a rename in it survives a crash; file systems that refuse it (EINVAL, EISDIR on some) are ignored. */
function fsyncDir(dir: string): void {
  try {
    fsyncPath(dir, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES') throw err;
  }
}

/** A temporary file beside a target, committed (renamed over it) or aborted (removed) exactly once. */
export class AtomicFile {
  /** The temporary file to fill (same folder as the target, so the rename is atomic). */
  readonly tmp: string;
  private done = false;

  private constructor(readonly target: string, tmp: string) {
    this.tmp = tmp;
  }

  /**
   * Reserves the temporary file (exclusive create, with the mode). Throws the file system's
   * error (ENOENT for a missing folder, EACCES, EROFS, ENOSPC, EISDIR when the target is a
   * folder) or {@link SymlinkTargetError}.
   */
  static create(target: string, options: AtomicWriteOptions = {}): AtomicFile {
    let mode = options.mode;
    let existing: import('node:fs').Stats | null = null;
    try {
      existing = lstatSync(target);
    } catch {
      existing = null;
    }
    if (existing !== null) {
      if (existing.isSymbolicLink()) {
        if (options.refuseSymlink === true) throw new SymlinkTargetError(target);
        try {
          existing = statSync(target);
        } catch {
          existing = null;
        }
      }
      if (existing?.isDirectory() === true) {
        const e = new Error(`EISDIR: ${target} is a folder`) as NodeJS.ErrnoException;
        e.code = 'EISDIR';
        throw e;
      }
      if (mode === undefined && existing !== null) mode = existing.mode & 0o7777;
    }
    const tmp = join(dirname(target), `.${basename(target)}.partial-${process.pid}-${++counter}`);
    closeSync(openSync(tmp, 'wx', mode ?? 0o666));
    pending.add(tmp);
    return new AtomicFile(target, tmp);
  }

  /**
   * fsyncs the temporary file, renames it over the target, fsyncs the folder. On failure the
   * temporary file is removed, and so is the target when the folder's fsync failed after the
   * rename (a file whose name may not survive a crash is not left for a command that failed);
   * the error is thrown.
   */
  commit(): void {
    AtomicFile.commitAll([this]);
  }

  /**
   * Commits several files together (the two CSV files of a report): every temporary file is
   * fsynced, then each is renamed over its target, then their folders are fsynced. On any
   * failure none is left: the temporary files are removed, and the targets already renamed in
   * this call too (a summary without its intervals file is not a report). Throws the error.
   */
  static commitAll(files: readonly AtomicFile[]): void {
    for (const f of files) if (f.done) throw new Error(`AtomicFile ${f.target}: already committed or aborted`);
    const renamed: AtomicFile[] = [];
    try {
      for (const f of files) fsyncPath(f.tmp, 'r+');
      for (const f of files) {
        renameSync(f.tmp, f.target);
        f.done = true;
        pending.delete(f.tmp);
        renamed.push(f);
      }
      for (const dir of new Set(files.map((f) => dirname(f.target)))) fsyncDir(dir);
    } catch (err) {
      for (const f of files) f.abort();
      for (const f of renamed) removeQuietly(f.target);
      throw err;
    }
  }

  /** Removes the temporary file (safe to call more than once, and after a commit). */
  abort(): void {
    if (this.done) return;
    this.done = true;
    pending.delete(this.tmp);
    try {
      unlinkSync(this.tmp);
    } catch {
      // already gone
    }
  }
}

function writeAll(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, 'r+');
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` (UTF-8 for a string) to `target` atomically; see the module comment. */
export function writeFileAtomicSync(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const f = AtomicFile.create(target, options);
  try {
    writeAll(f.tmp, data);
  } catch (err) {
    f.abort();
    throw err;
  }
  f.commit();
}

/** Writes `data` to `target` atomically (the same as {@link writeFileAtomicSync}, as a promise). */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await writeAtomicWith(target, async (tmp) => {
    const fh = await open(tmp, 'r+');
    try {
      await fh.writeFile(data, typeof data === 'string' ? 'utf8' : undefined);
      await fh.sync();
    } finally {
      await fh.close();
    }
  }, options);
}

/**
 * Fills `target` through a temporary file written by `fill` (a stream, a library writing to a
 * path), then commits it; on any error from `fill` or the commit, nothing is left behind.
 */
export async function writeAtomicWith(target: string, fill: (tmp: string) => Promise<void>, options: AtomicWriteOptions = {}): Promise<void> {
  const f = AtomicFile.create(target, options);
  try {
    await fill(f.tmp);
  } catch (err) {
    f.abort();
    throw err;
  }
  f.commit();
}
