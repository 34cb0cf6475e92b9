/**
 * What `cacheproof` writes, through the real built command (node app/dist/cli.cjs): an output
 * that is one of the command's inputs is refused (exit 6, the input untouched), and outputs are
 * written atomically: on a full disk (a real 64 KiB tmpfs) the command exits 6 and the file it
 * would have replaced is byte-identical, with no temporary or 0-byte file left.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../src/host/report/csv.ts';
import { ensureBuiltCli, runBuiltCli } from './support/built-cli.ts';
import { writeSyntheticCapture } from './support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-cli-out-'));
const capture = join(dir, 'x.capture');
const scenario = join(dir, 'x.tco.json');
const cover = join(dir, 'cover.json');
let captureBytes: Buffer;

beforeAll(() => {
  ensureBuiltCli();
  writeSyntheticCapture({ path: capture, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 10_000, backingDevices: 2, missShare: 0.05 });
  captureBytes = readFileSync(capture);
  const r = runBuiltCli(['tco', '--from-capture', capture, '--out', scenario]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  writeFileSync(cover, JSON.stringify({ title: 'Cover', customer: 'ACME' }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command and checks the refusal: exit 6, one sentence naming the output, the input byte-identical, nothing new in the folder. */
function expectRefused(args: string[], input: string, inputBytes: Buffer, cwd?: string): string {
  const before = readdirSync(dir).sort();
  const r = runBuiltCli(args, cwd === undefined ? {} : { cwd });
  expect(r.code, `${args.join(' ')}\n${r.err}`).toBe(6);
  expect(r.out).toBe('');
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/Refusing to write .*which this command reads; choose another output file name\./);
  expect(readFileSync(input).equals(inputBytes), `${input} changed`).toBe(true);
  expect(readdirSync(dir).sort()).toEqual(before);
  return r.err;
}

describe('an output that is an input is refused (exit 6), the input untouched', () => {
  it('report --out the capture itself, by the same name and by another spelling of it', () => {
    expect(expectRefused(['report', capture, '--format', 'csv', '--out', capture], capture, captureBytes)).toContain('is the CAPTURE file');
    expectRefused(['report', capture, '--format', 'html', '--out', `${dir}//./x.capture`], capture, captureBytes);
    expectRefused(['report', 'x.capture', '--format', 'html', '--out', './x.capture'], capture, captureBytes, dir);
  });

  it('report --out a hard link or a symbolic link to the capture, or the capture through a linked folder', () => {
    const hard = join(dir, 'hard.html');
    linkSync(capture, hard);
    const soft = join(dir, 'soft.html');
    symlinkSync(capture, soft);
    const folder = join(dir, 'linked-folder');
    symlinkSync(dir, folder);
    try {
      expect(expectRefused(['report', capture, '--format', 'html', '--out', hard], capture, captureBytes)).toContain(`is the same file as the CAPTURE ${capture}`);
      expectRefused(['report', capture, '--format', 'html', '--out', soft], capture, captureBytes);
      expectRefused(['report', capture, '--format', 'xlsx', '--out', join(folder, 'x.capture')], capture, captureBytes);
    } finally {
      rmSync(hard);
      rmSync(soft);
      rmSync(folder);
    }
  });

  it('report --format csv whose second file (FILE-intervals.csv) would be the capture', () => {
    const link = join(dir, 'rep-intervals.csv');
    linkSync(capture, link);
    try {
      expectRefused(['report', capture, '--format', 'csv', '--out', join(dir, 'rep.csv')], capture, captureBytes);
    } finally {
      rmSync(link);
    }
  });

  it('report --out the --scenario or the --cover file', () => {
    const scenarioBytes = readFileSync(scenario);
    const coverBytes = readFileSync(cover);
    expect(expectRefused(['report', capture, '--format', 'html', '--scenario', scenario, '--out', scenario], scenario, scenarioBytes)).toContain('--scenario');
    expect(expectRefused(['report', capture, '--format', 'csv', '--cover', cover, '--out', cover], cover, coverBytes)).toContain('--cover');
  });

  it('tco --from-capture --out the capture, directly or through a symbolic link', () => {
    expect(expectRefused(['tco', '--from-capture', capture, '--out', capture], capture, captureBytes)).toContain('is the CAPTURE file');
    const soft = join(dir, 'soft.tco.json');
    symlinkSync(capture, soft);
    try {
      expectRefused(['tco', '--from-capture', capture, '--out', soft], capture, captureBytes);
    } finally {
      rmSync(soft);
    }
  });

  it('a different output beside the inputs is still written (the check does not refuse everything)', () => {
    const out = join(dir, 'fine.html');
    const r = runBuiltCli(['report', capture, '--format', 'html', '--scenario', scenario, '--cover', cover, '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<html');
    rmSync(out);
  });
});

/** A 64 KiB tmpfs (root only); null with the reason when it cannot be mounted here. */
function smallTmpfs(): { dir: string; unmount: () => void } | string {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  const mnt = mkdtempSync(join(tmpdir(), 'cacheproof-fulldisk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(mnt, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${r.stderr.trim()}`;
  }
  return {
    dir: mnt,
    unmount: () => {
      execFileSync('umount', [mnt]);
      rmSync(mnt, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `folder` with `filler` until no byte is left. */
function fill(folder: string): void {
  const chunk = Buffer.alloc(4096, 0x61);
  let n = 0;
  try {
    for (;;) {
      writeFileSync(join(folder, 'filler'), chunk, { flag: 'a' });
      n++;
    }
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
  expect(n).toBeGreaterThan(0);
}

describe('outputs on a full disk (a real 64 KiB tmpfs): exit 6, the previous file byte-identical, nothing left behind', () => {
  const mount = smallTmpfs();
  const reason = typeof mount === 'string' ? mount : null;
  afterAll(() => {
    if (typeof mount !== 'string') mount.unmount();
  });

  it.skipIf(reason !== null)(`tco --from-capture --out an existing scenario${reason === null ? '' : ` (skipped: ${reason})`}`, () => {
    if (typeof mount === 'string') return;
    const target = join(mount.dir, 'plan.tco.json');
    // an older scenario the person edited, 1 KiB shorter than the new one would be
    const previous = Buffer.from(readFileSync(scenario, 'utf8').replace('"title": "', '"title": "edited: ').slice(0, 1024));
    writeFileSync(target, previous);
    fill(mount.dir);
    const r = runBuiltCli(['tco', '--from-capture', capture, '--out', target]);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toContain(target);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(target).equals(previous)).toBe(true);
    expect(readdirSync(mount.dir).sort()).toEqual(['filler', 'plan.tco.json']);
    rmSync(join(mount.dir, 'filler'));
    rmSync(target);
  });

  it.skipIf(reason !== null)(`report --out a new file and over an existing one${reason === null ? '' : ` (skipped: ${reason})`}`, () => {
    if (typeof mount === 'string') return;
    const old = join(mount.dir, 'old.html');
    writeFileSync(old, 'the previous report\n');
    fill(mount.dir);
    for (const [format, out] of [['html', old], ['html', join(mount.dir, 'new.html')], ['csv', join(mount.dir, 'new.csv')], ['xlsx', join(mount.dir, 'new.xlsx')]] as const) {
      const r = runBuiltCli(['report', capture, '--format', format, '--out', out]);
      expect(r.code, `${format} ${out}: ${r.err}`).toBe(6);
      expect(r.err).toMatch(/Cannot write the report to .*(no space left|ENOSPC)/);
      expect(readdirSync(mount.dir).sort()).toEqual(['filler', 'old.html']);
    }
    expect(readFileSync(old, 'utf8')).toBe('the previous report\n');
    expect(existsSync(join(mount.dir, 'new.csv-intervals.csv'))).toBe(false);
    rmSync(join(mount.dir, 'filler'));
    // with space again, the same file system takes a write (the refusals above were the full disk's)
    mkdirSync(join(mount.dir, 'ok'));
    const r = runBuiltCli(['tco', '--from-capture', capture, '--out', join(mount.dir, 'ok', 'plan.tco.json')]);
    expect(r.code, r.err).toBe(0);
  });
});

/** RFC 4180 rows of a CSV file (BOM dropped). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const t = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    if (quoted) {
      if (c === '"' && t[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && t[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('CSV export of hostile device names (OWASP CSV injection)', () => {
  it('prefixes text cells that start with =, +, -, @, tab or CR with a quote; numbers (negative ones too) stay numbers', () => {
    const cap = join(dir, 'formula.capture');
    writeSyntheticCapture({ path: cap, windowSeconds: 900, warmupSeconds: 60, intervalMs: 10_000, backingDevices: 3, missShare: 0.2 });
    const names: Record<string, string> = { front0: '=HYPERLINK("http://x","y")', back0: '-2+3', back1: '@SUM(A1)', back2: '\tcmd' };
    const db = new Database(cap);
    for (const [from, to] of Object.entries(names)) db.prepare('UPDATE devices SET name = ? WHERE name = ?').run(to, from);
    db.close();
    const out = join(dir, 'formula.csv');
    const r = runBuiltCli(['report', cap, '--format', 'csv', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const summary = parseCsv(readFileSync(out, 'utf8'));
    const intervals = parseCsv(readFileSync(join(dir, 'formula-intervals.csv'), 'utf8'));
    for (const name of Object.values(names)) {
      expect(intervals.some((row) => row[0] === `'${name}`), name).toBe(true);
      expect(intervals.some((row) => row[0] === name), name).toBe(false);
    }
    // no cell of either file starts with a formula character, except numbers (a leading minus)
    for (const row of [...summary, ...intervals].slice(1)) {
      for (const cell of row) if (/^[=+\-@\t\r]/.test(cell)) expect(Number.isFinite(Number(cell)), JSON.stringify(cell)).toBe(true);
    }
    const devicesCell = summary.find((row) => row[0] === 'iosToBacking')?.[8] ?? '';
    expect(devicesCell.startsWith("'")).toBe(true);
    rmSync(cap);
    rmSync(out);
    rmSync(join(dir, 'formula-intervals.csv'));
  });

  it('csvField: the rule cell by cell', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-sda')).toBe("'-sda");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('=a,"b"')).toBe(`"'=a,""b"""`);
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField('sda-1')).toBe('sda-1');
    expect(csvField('2026-11-02T00:00:00.000Z')).toBe('2026-11-02T00:00:00.000Z');
  });
});
