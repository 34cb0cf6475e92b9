/**
 * The one atomic writer (app/src/host/atomic-write.ts) on the real file system: content, mode,
 * refusal of a symlinked target, and nothing left behind when the fill fails.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, SymlinkTargetError, writeAtomicWith, writeFileAtomic, writeFileAtomicSync } from '../src/host/atomic-write.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes new files and replaces existing ones, keeping the replaced file\'s mode unless one is given', async () => {
    const f = join(dir, 'a.json');
    await writeFileAtomic(f, '{"a":1}\n');
    expect(readFileSync(f, 'utf8')).toBe('{"a":1}\n');
    writeFileSync(f, 'old');
    chmodSync(f, 0o640);
    await writeFileAtomic(f, Buffer.from('new bytes'));
    expect(readFileSync(f, 'utf8')).toBe('new bytes');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    writeFileAtomicSync(f, 'private', { mode: 0o600 });
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
    rmSync(f);
  });

  it('refuses a symlinked target when asked (the link and what it points to untouched), replaces the link itself otherwise', () => {
    const real = join(dir, 'real.txt');
    const link = join(dir, 'link.txt');
    writeFileSync(real, 'secret');
    symlinkSync(real, link);
    expect(() => writeFileAtomicSync(link, 'url', { mode: 0o600, refuseSymlink: true })).toThrow(SymlinkTargetError);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('secret');
    writeFileAtomicSync(link, 'replaced');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(real, 'utf8')).toBe('secret');
    expect(readdirSync(dir).sort()).toEqual(['link.txt', 'real.txt']);
    rmSync(real);
    rmSync(link);
  });

  it('leaves the previous file and no temporary file when the fill fails half-way', async () => {
    const f = join(dir, 'b.csv');
    writeFileSync(f, 'previous');
    await expect(writeAtomicWith(f, async (tmp) => {
      writeFileSync(tmp, 'half a fi');
      throw new Error('disk pulled');
    })).rejects.toThrow('disk pulled');
    expect(readFileSync(f, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['b.csv']);
    rmSync(f);
  });

  it('names the errno of a target it cannot write (missing folder, a folder as target)', () => {
    expect(() => writeFileAtomicSync(join(dir, 'nope', 'x'), 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => AtomicFile.create(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir)).toEqual([]);
  });
});
