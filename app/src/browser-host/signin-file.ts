/**
 * The sign-in link's file: it holds the session token, so it is readable by its owner only,
 * whatever was there before, and it is never written through a symlink (another user could
 * point one at a file of theirs, or at a place they can read).
 */
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';

/** Refused: the sign-in file's path is a symlink. The message says what to do. */
export class SignInFileError extends Error {}

/**
 * Writes `url` (plus a newline) to `path` with mode 0600 on every write: a new file in the same
 * folder, made with O_EXCL|O_NOFOLLOW, chmod 0600 (the umask cannot widen it), fsync, then
 * renamed over `path`. A pre-existing 0644 file is replaced by the 0600 one; a symlink at
 * `path` is refused with {@link SignInFileError} and left as it is.
 */
export function writeSignInFile(path: string, url: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing?.isSymbolicLink() === true) {
    throw new SignInFileError(`${path} is a symbolic link; CacheProof does not write its sign-in link through one. Remove it, or give --url-file another path.`);
  }
  if (existing !== undefined && !existing.isFile()) {
    throw new SignInFileError(`${path} exists and is not a regular file; give --url-file another path.`);
  }
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, url + '\n');
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
