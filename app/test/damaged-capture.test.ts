/**
 * A truncated or overwritten capture is an expected failure, not a bug: exit 3 and one sentence
 * naming the file and where a copy may be, in `analyze`, `report` and `tco --from-capture`
 * (the real built CLI), and the `capture-damaged` code through the host's services. The damaged
 * files are made here from the bundled lab sample: cut at several sizes, a page overwritten with
 * garbage, empty, not SQLite, and one with the write-ahead log a recorder leaves beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCapture, openCaptureDb } from '../src/host/capture/reader.ts';
import { readCaptureWindow } from '../src/host/capture/window.ts';
import { HostError } from '../src/host/errors.ts';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { builtCli, root } from './support/built-cli.ts';

const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const damaged: Record<string, string> = {};
let pageSize = 0;
let leafPages: number[] = [];

/** A deterministic page of garbage (xorshift), so a failure reproduces. */
function garbage(bytes: number, seed: number): Buffer {
  const b = Buffer.alloc(bytes);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}

function overwrite(path: string, offset: number, data: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, data, 0, data.length, offset);
  } finally {
    closeSync(fd);
  }
}

beforeAll(() => {
  const db = new Database(sample, { readonly: true });
  pageSize = db.pragma('page_size', { simple: true }) as number;
  leafPages = (db.prepare("SELECT pageno FROM dbstat WHERE name = 'intervals' AND pagetype = 'leaf' ORDER BY pageno").pluck().all() as number[]);
  db.close();
  expect(leafPages.length).toBeGreaterThan(2);
  const size = statSync(sample).size;
  const cut = (name: string, bytes: number): void => {
    const p = join(dir, name);
    copyFileSync(sample, p);
    truncateSync(p, bytes);
    damaged[name] = p;
  };
  cut('cut-10.capture', 10); // inside the SQLite header's magic
  cut('cut-100.capture', 100); // the header, no page
  cut('cut-1-page.capture', pageSize);
  cut('cut-half.capture', Math.floor(size / 2 / pageSize) * pageSize);
  cut('cut-last-page.capture', size - pageSize);
  cut('cut-odd.capture', size - 1234);
  const over = join(dir, 'garbage-leaf.capture');
  copyFileSync(sample, over);
  overwrite(over, ((leafPages[Math.floor(leafPages.length / 2)] as number) - 1) * pageSize, garbage(pageSize, 7));
  damaged['garbage-leaf.capture'] = over;
  const schema = join(dir, 'garbage-schema.capture');
  copyFileSync(sample, schema);
  overwrite(schema, 100, garbage(pageSize - 100, 11)); // page 1 after the file header: the schema
  damaged['garbage-schema.capture'] = schema;
  const empty = join(dir, 'empty.capture');
  writeFileSync(empty, '');
  damaged['empty.capture'] = empty;
});

describe('a damaged capture', () => {
  it('is found even when SQLite only notices during the scan (a garbage page in the middle of intervals)', () => {
    const path = damaged['garbage-leaf.capture'] as string;
    const db = openCaptureDb(path); // opening reads only the header and the schema: it succeeds
    db.close();
    let caught: unknown;
    try {
      openCapture(path);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HostError);
    expect((caught as HostError).code).toBe('capture-damaged');
    expect(() => readCaptureWindow(path, { window: () => ({ sinceMs: 0, untilMs: Number.MAX_SAFE_INTEGER }), include: () => true }))
      .toThrow(/is damaged: SQLite cannot read it \(database disk image is malformed, SQLITE_CORRUPT\)/);
  });

  it('cacheproof analyze: exit 3 and one sentence naming the file and where a copy may be, for every damage', async () => {
    for (const [name, path] of Object.entries(damaged)) {
      const r = await builtCli('analyze', path);
      expect(r.code, `${name}: ${r.err}`).toBe(3);
      expect(r.out, name).toBe('');
      expect(r.err, name).not.toMatch(/internal error|at \w+ \(|SqliteError/);
      const lines = r.err.trim().split('\n');
      expect(lines, name).toHaveLength(1);
      expect(r.err, name).toContain(`cacheproof analyze: ${path} is damaged: `);
      expect(r.err, name).toContain(`a copy of the file as it was recorded may be in a backup you made (there is no write-ahead log ${name}-wal beside it to recover from): restore that copy, or record the run again.`);
    }
    expect((await builtCli('analyze', damaged['empty.capture'] as string)).err).toContain('is damaged: it is empty (0 bytes)');
    expect((await builtCli('analyze', damaged['cut-10.capture'] as string)).err).toContain('is damaged: it holds only 10 bytes of an SQLite header');
  });

  it('cacheproof report and tco --from-capture: the same exit 3 and sentence, and nothing written', async () => {
    for (const name of ['cut-half.capture', 'garbage-leaf.capture', 'empty.capture']) {
      const path = damaged[name] as string;
      const out = join(dir, `out-${name}`);
      mkdirSync(out);
      const rep = await builtCli('report', path, '--format', 'csv', '--out', join(out, 'r.csv'));
      expect(rep.code, `${name}: ${rep.err}`).toBe(3);
      expect(rep.err.trim().split('\n'), name).toHaveLength(1);
      expect(rep.err, name).toMatch(new RegExp(`^cacheproof report: .*${name.replace('.', '\\.')} is damaged: .*; a copy of the file as it was recorded may be in a backup you made`));
      const tco = await builtCli('tco', '--from-capture', path, '--out', join(out, 's.tco.json'));
      expect(tco.code, `${name}: ${tco.err}`).toBe(3);
      expect(tco.err.trim().split('\n'), name).toHaveLength(1);
      expect(tco.err, name).toContain(`${path} is damaged: `);
      expect(readdirSync(out), name).toEqual([]);
    }
  });

  it('names the write-ahead log beside it when the recorder left one', async () => {
    // A real write-ahead log: a committed write that was not checkpointed, copied while the writer is open.
    const src = join(dir, 'live.capture');
    copyFileSync(sample, src);
    const w = new Database(src);
    w.pragma('journal_mode = WAL');
    w.pragma('wal_autocheckpoint = 0');
    w.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('note', 'written after the last checkpoint')").run();
    const copy = join(dir, 'walled.capture');
    copyFileSync(src, copy);
    copyFileSync(`${src}-wal`, `${copy}-wal`);
    w.close();
    const walBytes = statSync(`${copy}-wal`).size;
    expect(walBytes).toBeGreaterThan(0);
    truncateSync(copy, pageSize * 3);
    const r = await builtCli('analyze', copy);
    expect(r.code, r.err).toBe(3);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`${copy} is damaged: `);
    expect(r.err).toContain(`a copy of the samples recorded last may be in its write-ahead log ${copy}-wal (${walBytes} bytes) beside it, and the whole file in a backup you made: keep walled.capture-wal next to the capture`);
    expect(existsSync(`${copy}-wal`)).toBe(true); // reading never removes it
  });

  it('a file that is not SQLite stays "not a capture" (exit 3), and the intact sample still opens', async () => {
    const text = join(dir, 'notes.capture');
    writeFileSync(text, 'these are notes, not a capture\n'.repeat(20));
    const r = await builtCli('analyze', text);
    expect(r.code).toBe(3);
    expect(r.err).toBe(`cacheproof analyze: ${text} is not a CacheProof capture (not an SQLite file). Open a .capture file written by cacheproof-probe.\n`);
    expect((await builtCli('analyze', sample)).code).toBe(0);
    expect(readFileSync(sample).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
  });

  it('the app: opening a damaged capture is the expected failure capture-damaged, not internal', async () => {
    const bugs: string[] = [];
    const d = createDispatch(createHandlers({ shell: 'browser', sample: null, probe: null, dataDir: join(dir, 'app-data') }), (channel, err) => bugs.push(`${channel}: ${String(err)}`));
    for (const name of ['cut-half.capture', 'garbage-leaf.capture', 'empty.capture', 'cut-100.capture']) {
      const r = await d('analysis.openCapture', { path: damaged[name] });
      expect(r.ok, name).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, `${name}: ${r.error.message}`).toBe('capture-damaged');
      expect(r.error.message, name).toContain('is damaged: ');
    }
    expect(bugs).toEqual([]);
  });
});
