/**
 * The sign-in link's file: it holds the session token, so it is readable by its owner only,
 * whatever was there before, and it is never written through a symlink (another user could
 * point one at a file of theirs, or at a place they can read). Written by the app's one atomic
 * writer (host/atomic-write.ts) with mode 0600 and symlinks refused.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SymlinkTargetError, writeFileAtomicSync } from '../host/atomic-write.ts';

/** Refused: the sign-in file's path is a symlink or not a regular file. The message says what to do. */
export class SignInFileError extends Error {}

/**
 * Writes `url` (plus a newline) to `path` with mode 0600 on every write: a pre-existing 0644 file
 * is replaced by the 0600 one; a symlink at `path` is refused with {@link SignInFileError} and
 * left as it is.
 */
export function writeSignInFile(path: string, url: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new SignInFileError(`${path} exists and is not a regular file; give --url-file another path.`);
  }
  try {
    writeFileAtomicSync(path, url + '\n', { mode: 0o600, refuseSymlink: true });
  } catch (err) {
    if (err instanceof SymlinkTargetError) throw new SignInFileError(`${path} is a symbolic link; CacheProof does not write its sign-in link through one. Remove it, or give --url-file another path.`);
    throw err;
  }
}
