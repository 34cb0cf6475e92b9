/**
 * What `cacheproof` writes, through the real built command (node app/dist/cli.cjs): an output
 * that is one of the command's inputs is refused (exit 6, the input untouched), and outputs are
 * written atomically: on a full disk (a real 64 KiB tmpfs) the command exits 6 and the file it
 * would have replaced is byte-identical, with no temporary or 0-byte file left.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../src/host/report/csv.ts';
import { XLSX_INTERVAL_ROWS_LIMIT } from '../src/host/report/limits.ts';
import { CLI, ensureBuiltCli, runBuiltCli } from './support/built-cli.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-cli-out-'));
const capture = join(dir, 'x.capture');
const scenario = join(dir, 'x.tco.json');
const cover = join(dir, 'cover.json');
let captureBytes: Buffer;

beforeAll(async () => {
  ensureBuiltCli();
  writeSyntheticCapture({ path: capture, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 10_000, backingDevices: 2, missShare: 0.05 });
  captureBytes = readFileSync(capture);
  const r = await runBuiltCli(['tco', '--from-capture', capture, '--out', scenario]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  writeFileSync(cover, JSON.stringify({ title: 'Cover', customer: 'ACME' }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command and checks the refusal: exit 6, one sentence naming the output, the input byte-identical, nothing new in the folder. */
async function expectRefused(args: string[], input: string, inputBytes: Buffer, cwd?: string): Promise<string> {
  const before = readdirSync(dir).sort();
  const r = await runBuiltCli(args, cwd === undefined ? {} : { cwd });
  expect(r.code, `${args.join(' ')}\n${r.err}`).toBe(6);
  expect(r.out).toBe('');
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/Refusing to write .*which this command reads; choose another output file name\./);
  expect(readFileSync(input).equals(inputBytes), `${input} changed`).toBe(true);
  expect(readdirSync(dir).sort()).toEqual(before);
  return r.err;
}

describe('an output that is an input is refused (exit 6), the input untouched', () => {
  it('report --out the capture itself, by the same name and by another spelling of it', async () => {
    expect((await expectRefused(['report', capture, '--format', 'csv', '--out', capture], capture, captureBytes))).toContain('is the CAPTURE file');
    await expectRefused(['report', capture, '--format', 'html', '--out', `${dir}//./x.capture`], capture, captureBytes);
    await expectRefused(['report', 'x.capture', '--format', 'html', '--out', './x.capture'], capture, captureBytes, dir);
  });

  it('report --out a hard link or a symbolic link to the capture, or the capture through a linked folder', async () => {
    const hard = join(dir, 'hard.html');
    linkSync(capture, hard);
    const soft = join(dir, 'soft.html');
    symlinkSync(capture, soft);
    const folder = join(dir, 'linked-folder');
    symlinkSync(dir, folder);
    try {
      expect((await expectRefused(['report', capture, '--format', 'html', '--out', hard], capture, captureBytes))).toContain(`is the same file as the CAPTURE ${capture}`);
      await expectRefused(['report', capture, '--format', 'html', '--out', soft], capture, captureBytes);
      await expectRefused(['report', capture, '--format', 'xlsx', '--out', join(folder, 'x.capture')], capture, captureBytes);
    } finally {
      rmSync(hard);
      rmSync(soft);
      rmSync(folder);
    }
  });

  it('report --format csv whose second file (FILE-intervals.csv) would be the capture', async () => {
    const link = join(dir, 'rep-intervals.csv');
    linkSync(capture, link);
    try {
      await expectRefused(['report', capture, '--format', 'csv', '--out', join(dir, 'rep.csv')], capture, captureBytes);
    } finally {
      rmSync(link);
    }
  });

  it('report --out the --scenario or the --cover file', async () => {
    const scenarioBytes = readFileSync(scenario);
    const coverBytes = readFileSync(cover);
    expect((await expectRefused(['report', capture, '--format', 'html', '--scenario', scenario, '--out', scenario], scenario, scenarioBytes))).toContain('--scenario');
    expect((await expectRefused(['report', capture, '--format', 'csv', '--cover', cover, '--out', cover], cover, coverBytes))).toContain('--cover');
  });

  it('tco --from-capture --out the capture, directly or through a symbolic link', async () => {
    expect((await expectRefused(['tco', '--from-capture', capture, '--out', capture], capture, captureBytes))).toContain('is the CAPTURE file');
    const soft = join(dir, 'soft.tco.json');
    symlinkSync(capture, soft);
    try {
      await expectRefused(['tco', '--from-capture', capture, '--out', soft], capture, captureBytes);
    } finally {
      rmSync(soft);
    }
  });

  it('a different output beside the inputs is still written (the check does not refuse everything)', async () => {
    const out = join(dir, 'fine.html');
    const r = await runBuiltCli(['report', capture, '--format', 'html', '--scenario', scenario, '--cover', cover, '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<html');
    rmSync(out);
  });
});

/** Why a 64 KiB tmpfs cannot be mounted here (checked before any test is collected), or null. */
function noTmpfs(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  if (spawnSync('sh', ['-c', 'command -v mount && command -v umount'], { stdio: 'ignore' }).status !== 0) return 'mount/umount not installed';
  return null;
}

/** Mounts a 64 KiB tmpfs on a fresh folder; the caller unmounts it (in afterAll). */
function mountTmpfs(): string {
  const mnt = mkdtempSync(join(tmpdir(), 'cacheproof-fulldisk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(mnt, { recursive: true, force: true });
    throw new Error(`mount -t tmpfs -o size=64k failed: ${r.stderr.trim()}`);
  }
  return mnt;
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

const tmpfsReason = noTmpfs();

describe.skipIf(skipped('cli-outputs on a full disk', tmpfsReason))(`outputs on a full disk (a real 64 KiB tmpfs): exit 6, the previous file byte-identical, nothing left behind${tmpfsReason === null ? '' : ` (skipped: ${tmpfsReason})`}`, () => {
  // mounted in beforeAll (not at collection), so that a filtered or skipped run mounts nothing
  const mount = { dir: '' };
  beforeAll(() => {
    mount.dir = mountTmpfs();
  });
  afterAll(() => {
    if (mount.dir === '') return;
    execFileSync('umount', [mount.dir]);
    rmSync(mount.dir, { recursive: true, force: true });
  });

  it('tco --from-capture --out an existing scenario', async () => {
    const target = join(mount.dir, 'plan.tco.json');
    // an older scenario the person edited, 1 KiB shorter than the new one would be
    const previous = Buffer.from(readFileSync(scenario, 'utf8').replace('"title": "', '"title": "edited: ').slice(0, 1024));
    writeFileSync(target, previous);
    fill(mount.dir);
    const r = await runBuiltCli(['tco', '--from-capture', capture, '--out', target]);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toContain(target);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(target).equals(previous)).toBe(true);
    expect(readdirSync(mount.dir).sort()).toEqual(['filler', 'plan.tco.json']);
    rmSync(join(mount.dir, 'filler'));
    rmSync(target);
  });

  it('report --out a new file and over an existing one', async () => {
    const old = join(mount.dir, 'old.html');
    writeFileSync(old, 'the previous report\n');
    fill(mount.dir);
    for (const [format, out] of [['html', old], ['html', join(mount.dir, 'new.html')], ['csv', join(mount.dir, 'new.csv')], ['xlsx', join(mount.dir, 'new.xlsx')]] as const) {
      const r = await runBuiltCli(['report', capture, '--format', format, '--out', out]);
      expect(r.code, `${format} ${out}: ${r.err}`).toBe(6);
      expect(r.err).toMatch(/Cannot write the report to .*(no space left|ENOSPC)/);
      expect(readdirSync(mount.dir).sort()).toEqual(['filler', 'old.html']);
    }
    expect(readFileSync(old, 'utf8')).toBe('the previous report\n');
    expect(existsSync(join(mount.dir, 'new.csv-intervals.csv'))).toBe(false);
    rmSync(join(mount.dir, 'filler'));
    // with space again, the same file system takes a write (the refusals above were the full disk's)
    mkdirSync(join(mount.dir, 'ok'));
    const r = await runBuiltCli(['tco', '--from-capture', capture, '--out', join(mount.dir, 'ok', 'plan.tco.json')]);
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
  it('prefixes text cells that start with =, +, -, @, tab or CR with a quote; numbers (negative ones too) stay numbers', async () => {
    const cap = join(dir, 'formula.capture');
    writeSyntheticCapture({ path: cap, windowSeconds: 900, warmupSeconds: 60, intervalMs: 10_000, backingDevices: 3, missShare: 0.2 });
    const names: Record<string, string> = { front0: '=HYPERLINK("http://x","y")', back0: '-2+3', back1: '@SUM(A1)', back2: '\tcmd' };
    const db = new Database(cap);
    for (const [from, to] of Object.entries(names)) db.prepare('UPDATE devices SET name = ? WHERE name = ?').run(to, from);
    db.close();
    const out = join(dir, 'formula.csv');
    const r = await runBuiltCli(['report', cap, '--format', 'csv', '--out', out]);
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

const EXAMPLE = join(__dirname, '..', '..', 'samples', 'scenarios', 'example.tco.json');

/** A copy of the example scenario with one field changed (path as keys), written to dir. */
function scenarioWith(name: string, path: (string | number)[], value: unknown): string {
  const s = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
  let at: Record<string | number, unknown> = s;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = value;
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(s));
  return file;
}

/** One sentence on standard error, no stack trace, the documented exit code, nothing on standard output. */
async function expectSentence(args: string[], code: number, message: RegExp): Promise<void> {
  const r = await runBuiltCli(args);
  expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(code);
  expect(r.out, args.join(' ')).toBe('');
  expect(r.err, args.join(' ')).toMatch(message);
  expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
  expect(r.err).not.toMatch(/internal error|RangeError|\n\s+at /);
}

describe('numbers and dates out of range: one sentence naming the field and its range', () => {
  it('CLI options: --warmup, --seed, --targets values, window dates that do not exist', async () => {
    const targets = join(dir, 'targets.json');
    writeFileSync(targets, JSON.stringify({ readMs: 1e308 }));
    for (const command of ['analyze', 'report']) {
      const extra = command === 'report' ? ['--format', 'csv', '--out', join(dir, 'never.csv')] : [];
      await expectSentence([command, capture, ...extra, '--warmup', '99999999999999999999h'], 2, /--warmup: '99999999999999999999h' is out of range; a duration from 0 to 30d is accepted\./);
      await expectSentence([command, capture, ...extra, '--warmup', '31d'], 2, /--warmup: .* from 0 to 30d/);
      await expectSentence([command, capture, ...extra, '--seed', '99999999999999999999'], 2, /--seed: .* from 0 to 4294967295\./);
      await expectSentence([command, capture, ...extra, '--targets', targets], 2, /--targets: .*readMs must be a number of milliseconds greater than 0 and at most 60000, got 1e\+308\./);
      await expectSentence([command, capture, ...extra, '--baseline', '2025-02-30T00:00:00Z..2025-03-02T00:00:00Z'], 2, /--baseline \(FROM\): '2025-02-30T00:00:00Z' is not a valid time; write a real calendar date and time from 1970-01-01 to 9999-12-31/);
      await expectSentence([command, capture, ...extra, '--measure', '2026-11-02T00:00:00Z..2026-13-45T00:00:00Z'], 2, /--measure \(TO\): .* not a valid time/);
    }
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
    // the top of each range is accepted (not a usage error)
    expect((await runBuiltCli(['analyze', capture, '--seed', '4294967295', '--json'])).code).toBe(0);
    expect((await runBuiltCli(['analyze', capture, '--warmup', '30d'])).code).not.toBe(2);
    rmSync(targets);
  });

  it('scenario fields: a price of 1e308, years 1e20, a negative or huge count, for tco and report --scenario', async () => {
    const cases: [string, (string | number)[], unknown, RegExp][] = [
      ['price.tco.json', ['drives', 0, 'priceUsd'], 1e308, /drives\[0\]\.priceUsd: must be at most 1,000,000,000,000, got 1e\+308\./],
      ['years.tco.json', ['years'], 1e20, /years: must be at most 30, got 100000000000000000000\./],
      ['half-year.tco.json', ['years'], 2.5, /years: expected int, got 2\.5\./],
      ['pue.tco.json', ['energy', 'pue'], 1e6, /energy\.pue: must be at most 10, got 1000000\./],
      ['growth.tco.json', ['workload', 'growth', 'capacityPerYear'], 1e3, /workload\.growth\.capacityPerYear: must be at most 10, got 1000\./],
      ['slots.tco.json', ['configurations', 0, 'enclosure', 'slots'], 1e12, /configurations\[0\]\.enclosure\.slots: must be at most 100,000, got 1000000000000\./],
    ];
    for (const [name, path, value, message] of cases) {
      const file = scenarioWith(name, path, value);
      await expectSentence(['tco', file], 3, message);
      const r = await runBuiltCli(['report', capture, '--format', 'html', '--scenario', file, '--out', join(dir, 'never.html')]);
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain(path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, ''));
      rmSync(file);
    }
    expect(existsSync(join(dir, 'never.html'))).toBe(false);
    // the top of a range is accepted and every total stays finite
    const top = scenarioWith('top.tco.json', ['drives', 0, 'priceUsd'], 1e12);
    const r = await runBuiltCli(['tco', top, '--json']);
    expect(r.code, r.err).toBe(0);
    const totals = (JSON.parse(r.out) as { result: { configurations: { totalUsd: number }[] } }).result.configurations.map((c) => c.totalUsd);
    expect(totals.every(Number.isFinite)).toBe(true);
    rmSync(top);
  });

  it('cover dates that do not exist are refused, naming the field (not silently today or 2 March)', async () => {
    for (const date of ['2026-13-45', '2025-02-30', '1969-12-31', '2026-00-10']) {
      const file = join(dir, 'bad-cover.json');
      writeFileSync(file, JSON.stringify({ title: 'T', date }));
      await expectSentence(['report', capture, '--format', 'html', '--cover', file, '--out', join(dir, 'never.html')], 3,
        new RegExp(`--cover: .*bad-cover\\.json: date: must be a real calendar date from 1970-01-01 to 9999-12-31, written YYYY-MM-DD\\.`));
      rmSync(file);
    }
    const leap = join(dir, 'leap-cover.json');
    writeFileSync(leap, JSON.stringify({ title: 'T', date: '2024-02-29' }));
    const out = join(dir, 'leap.html');
    const r = await runBuiltCli(['report', capture, '--format', 'html', '--cover', leap, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/29 February 2024|February 29, 2024|2024-02-29/);
    rmSync(out);
    rmSync(leap);
  });
});

describe('--help', () => {
  const commands: [string[], RegExp[]][] = [
    [['analyze', '--help'], [/^Usage: cacheproof analyze CAPTURE/, /--warmup DURATION/, /--seed N/, /--targets PRESET\|FILE/]],
    [['analyze', '-h'], [/^Usage: cacheproof analyze CAPTURE/]],
    [['report', '--help'], [/^Usage: cacheproof report CAPTURE/, /--format pdf\|html\|xlsx\|csv/, /--cover FILE/, /--paper a4\|letter/]],
    [['report', capture, '-h'], [/^Usage: cacheproof report CAPTURE/]],
    [['tco', '--help'], [/^Usage: cacheproof tco SCENARIO/, /--from-capture CAPTURE/, /--out SCENARIO/, /--json/]],
    [['tco', '--from-capture', capture, '--help'], [/^Usage: cacheproof tco SCENARIO/]],
    [['help', 'report'], [/^Usage: cacheproof report CAPTURE/]],
    [['--help'], [/^cacheproof \S+ — storage cache benefit analyzer/, /analyze CAPTURE/, /report CAPTURE/, /tco --from-capture/]],
    [['-h'], [/^cacheproof /]],
    [['help'], [/^cacheproof /]],
  ];
  for (const [args, patterns] of commands) {
    it(`cacheproof ${args.map((a) => (a === capture ? 'CAPTURE' : a)).join(' ')}: its options on standard output, exit 0`, async () => {
      const r = await runBuiltCli(args);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      for (const p of patterns) expect(r.out).toMatch(p);
      // option tables are aligned: every description of a block starts in the same column
      const blocks = r.out.split(/\n\n/).filter((b) => /^(Options|Commands):/.test(b));
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        const rows = b.split('\n').slice(1).filter((row) => row !== '');
        // an entry: two spaces, the option, 2+ spaces, the description; a continuation: spaces up to the description's column
        const columns = new Set(rows.map((row) => (/^ {2}\S/.test(row) ? /^ {2}\S.*?\S? {2,}(?=\S)/.exec(row)?.[0].length : /^ +(?=\S)/.exec(row)?.[0].length)));
        expect(columns.size, b).toBe(1);
        expect(columns.has(undefined), b).toBe(false);
        for (const row of rows) expect([...row].length, row).toBeLessThanOrEqual(100);
      }
    });
  }
  it('help for an unknown command is a usage error', async () => {
    await expectSentence(['help', 'nope'], 2, /unknown command 'nope'/);
  });
});

/** Each worksheet's name and its number of <row> elements, read from the workbook's own XML (workbook.xml, its relationships, each sheet part). */
async function sheetRowCounts(file: string): Promise<Map<string, number>> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const text = async (part: string): Promise<string> => {
    const f = zip.file(part);
    if (f === null) throw new Error(`${file}: no ${part}`);
    return f.async('string');
  };
  const rels = new Map([...(await text('xl/_rels/workbook.xml.rels')).matchAll(/<Relationship\b[^>]*>/gu)].map((m) => [/Id="([^"]+)"/u.exec(m[0])?.[1], /Target="([^"]+)"/u.exec(m[0])?.[1]]));
  const counts = new Map<string, number>();
  for (const m of (await text('xl/workbook.xml')).matchAll(/<sheet\b[^>]*>/gu)) {
    const name = /name="([^"]+)"/u.exec(m[0])?.[1] ?? '';
    const target = rels.get(/r:id="([^"]+)"/u.exec(m[0])?.[1]);
    if (target === undefined) throw new Error(`${file}: sheet ${name} has no part`);
    const xml = await text(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    counts.set(name.replace(/&amp;/gu, '&'), (xml.match(/<row\b/gu) ?? []).length);
  }
  return counts;
}

describe('XLSX of a large capture: the per-interval sheets are opt-in above the limit, the report tables always there', () => {
  it(`above ${XLSX_INTERVAL_ROWS_LIMIT.toLocaleString('en')} interval rows: a sheet says where the intervals are; --all-intervals writes them`, async () => {
    const cap = join(dir, 'large.capture');
    // 1 front + 3 backing devices, 2 × 24 800 s + 10 min at 1 s: 4 × 50 200 = 200 800 rows, just above the limit
    // (the --all-intervals half writes and reads back every row: the fewer above the limit, the shorter)
    writeSyntheticCapture({ path: cap, windowSeconds: 24_800, warmupSeconds: 600, intervalMs: 1000, backingDevices: 3, missShare: 0.1 });
    const db = new Database(cap, { readonly: true });
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM intervals').get() as { n: number }).n;
    db.close();
    expect(rows).toBeGreaterThan(XLSX_INTERVAL_ROWS_LIMIT);
    const out = join(dir, 'large.xlsx');
    const r = await runBuiltCli(['report', cap, '--format', 'xlsx', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const names = wb.worksheets.map((w) => w.name);
    expect(names).toContain('Intervals');
    expect(names.filter((n) => n.startsWith('Intervals '))).toEqual([]);
    expect(names).toContain('Per hour'); // the hourly table's sheet (a name that fits Excel's 31 characters whole)
    const note = String(wb.getWorksheet('Intervals')?.getRow(1).getCell(1).value);
    expect(note).toContain(`The ${rows.toLocaleString('en')} per-interval rows of this capture are not in this workbook (more than ${XLSX_INTERVAL_ROWS_LIMIT.toLocaleString('en')}`);
    expect(note).toContain('--all-intervals');

    const all = await runBuiltCli(['report', cap, '--format', 'xlsx', '--out', out, '--all-intervals']);
    expect(all.code, all.err).toBe(0);
    // the rows of each sheet, counted in its XML (<row> elements) as Excel reads them: ExcelJS's
    // reader took 10 s over these 200,000 rows, the zip's XML a second
    const counts = await sheetRowCounts(out);
    const intervalSheets = [...counts].filter(([n]) => n.startsWith('Intervals '));
    expect(intervalSheets).toHaveLength(4);
    expect(intervalSheets.reduce((s, [, n]) => s + n - 1, 0)).toBe(rows);
    rmSync(cap);
    rmSync(out);
  }, 240_000);
});

describe('a command stopped while it writes', () => {
  it('SIGTERM: exit 143, the temporary files removed, the existing target untouched', async () => {
    const cap = join(dir, 'stopped.capture');
    writeSyntheticCapture({ path: cap, windowSeconds: 12_000, warmupSeconds: 600, intervalMs: 1000, backingDevices: 3, missShare: 0.1 });
    const out = join(dir, 'stopped.csv');
    writeFileSync(out, 'the previous summary\n');
    const before = readdirSync(dir).sort();
    const child = spawn(process.execPath, [CLI, 'report', cap, '--format', 'csv', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // the temporary files are reserved first (before the capture is read): stop it as soon as they exist
    // (both of them: the summary's and the intervals', reserved one after the other)
    const partials = (): string[] => readdirSync(dir).filter((f) => f.startsWith('.stopped') && f.includes('.partial-'));
    await waitFor('the report\'s two temporary files (.stopped*.partial-*)', 30_000, () => {
      if (child.exitCode !== null) throw new Error(`the report ended (exit ${child.exitCode}) before its two temporary files were seen: ${err}`);
      return partials().length >= 2 ? true : undefined;
    }, () => `${partials().join(', ') || 'none'}`, 5);
    expect(readdirSync(dir).filter((f) => f.includes('.partial-')).length).toBe(2);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(err).toContain('stopped by SIGTERM; nothing was written.');
    const after = readdirSync(dir).sort();
    expect(after.filter((f) => !before.includes(f)), "left behind").toEqual([]);
    expect(after).toEqual(before);
    expect(readFileSync(out, 'utf8')).toBe('the previous summary\n');
    rmSync(cap);
    rmSync(out);
  });
});
