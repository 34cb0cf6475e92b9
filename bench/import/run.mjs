// Benchmark (not a test): importing a large Windows Performance Monitor log. A ~500 MB PerfMon
// CSV is built by repeating the data rows of a real file (../shared/realdata/perfmon_csv/
// reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv: typeperf, LogicalDisk and PhysicalDisk,
// 5 s interval) with times advancing by the file's interval, then
//   cacheproof-probe import perfmon FILE --out CAPTURE   (parse, convert, write the SQLite capture)
// runs against pandas doing the same work on the same file in the same run: `pandas.read_csv(FILE)`
// then `DataFrame.to_sql` of every row into a table of a new SQLite file (chunked, 10,000 rows a
// chunk, one transaction; pandas from PyPI, installed by this script into bench/import/.venv).
// Runs alternate (import, pandas, import, pandas, …) so that both see the same machine. Prints
// both times, both peak RSS (/usr/bin/time) and the ratio, in wall time and in CPU time (user +
// system: the machines are shared, and the CPU seconds say what each costs whatever else runs),
// pandas' two phases (read_csv, to_sql), and the import's phases (CACHEPROOF_IMPORT_TIMING=1,
// docs/import.md "Speed"). Target (restated by the CEO, 2026-11-27): the import at least as fast
// as pandas doing the same work (ratio pandas / import ≥ 1 in wall time); PASS/FAIL printed.
// Usage: node bench/import/run.mjs [--mb 500] [--runs 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from '../../scripts/args.mjs';
import { buildProbe } from '../../scripts/probe-build.mjs';
import { pythonWith } from '../lib/pyenv.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { values: opts } = commandLine('node bench/import/run.mjs', {
  mb: { type: 'string', default: '500', number: true },
  runs: { type: 'string', default: '3', number: true },
});
const targetMb = opts.mb;
const runs = opts.runs;
const TARGET_RATIO = 1;
const real = join(root, '..', 'shared', 'realdata', 'perfmon_csv', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');
if (!existsSync(real)) {
  console.log(`SKIP bench/import: ${real} is absent (../shared/realdata is needed)`);
  process.exit(0);
}
if (!buildProbe()) throw new Error('the native probe did not build (scripts/probe-build.mjs); see the cargo output above');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// ---- the big file (kept between runs: same source, same size, same bytes) -------------------
const cacheDir = join(root, 'node_modules', '.cache', 'cacheproof-bench');
mkdirSync(cacheDir, { recursive: true });
const big = join(cacheDir, `import-perfmon-${targetMb}MB.csv`);
if (!existsSync(big)) {
  const lines = readFileSync(real, 'latin1').split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0];
  const rows = lines.slice(1).map((l) => l.slice(l.indexOf(',')));
  const stamp = (l) => {
    const m = /^"(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)\.(\d{3})"/.exec(l);
    return Date.UTC(+m[3], +m[1] - 1, +m[2], +m[4], +m[5], +m[6], +m[7]);
  };
  const first = stamp(lines[1]);
  const stepMs = Math.round((stamp(lines.at(-1)) - first) / (lines.length - 2));
  const p2 = (n) => String(n).padStart(2, '0');
  const fmt = (ms) => {
    const d = new Date(ms);
    return `"${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}"`;
  };
  const tmp = `${big}.partial`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${header}\r\n`);
    let bytes = 0, i = 0, chunk = [];
    while (bytes < targetMb * 1e6) {
      const line = `${fmt(first + i * stepMs)}${rows[i % rows.length]}\r\n`;
      chunk.push(line);
      bytes += line.length;
      i++;
      if (chunk.length === 10_000) {
        writeSync(fd, chunk.join(''));
        chunk = [];
      }
    }
    writeSync(fd, chunk.join(''));
    console.log(`built ${big}: ${i.toLocaleString('en')} rows of ${rows.length} real rows repeated, every ${stepMs} ms`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, big);
}
const sizeMb = statSync(big).size / 1e6;
const cols = readFileSync(real, 'latin1').split(/\r?\n/)[0].split('","').length;
console.log(`file: ${big} (${sizeMb.toFixed(0)} MB, ${cols} columns)`);

// ---- pandas in the benchmark's own virtual environment ---------------------------------------
const pandasEnv = pythonWith(join(here, '.venv'), ['pandas']);
if ('error' in pandasEnv) {
  console.log(pandasEnv.error);
  process.exit(0);
}
const { py } = pandasEnv;
const pandasVersion = pandasEnv.versions.pandas;

// ---- timing ------------------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'cacheproof-bench-import-'));
const timesFile = join(work, 'time.txt');
/** Runs a command: wall seconds, CPU seconds (user + system) and peak RSS in MB (null without /usr/bin/time), its stdout and stderr. */
function time(cmd, args, env = {}) {
  const t = performance.now();
  const opts = { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, ...env } };
  const r = timeBin === null
    ? spawnSync(cmd, args, opts)
    : spawnSync(timeBin, ['-f', '%M %U %S', '-o', timesFile, cmd, ...args], opts);
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [rss, user, sys] = timeBin === null ? [] : readFileSync(timesFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: timeBin === null ? null : user + sys, rssMb: timeBin === null ? null : rss / 1024, out: r.stdout, err: r.stderr };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// pandas doing the import's work: parse the CSV, write every row into SQLite (a new file).
const PANDAS = [
  'import sys, time, sqlite3, pandas',
  't0 = time.perf_counter()',
  'df = pandas.read_csv(sys.argv[1])',
  't1 = time.perf_counter()',
  'con = sqlite3.connect(sys.argv[2])',
  "df.to_sql('perfmon', con, index=False, chunksize=10000)",
  'con.commit()',
  'n = con.execute("SELECT count(*) FROM perfmon").fetchone()[0]',
  'con.close()',
  't2 = time.perf_counter()',
  'print(len(df), len(df.columns), n, f"{t1 - t0:.3f}", f"{t2 - t1:.3f}")',
].join('\n');
try {
  const I = [], P = [];
  let imported = null, parsed = null, schema = '';
  for (let k = 0; k < runs; k++) {
    const out = join(work, `run${k}.capture`);
    const i = time(probe, ['import', 'perfmon', big, '--out', out, '--json'], { CACHEPROOF_IMPORT_TIMING: '1' });
    imported = JSON.parse(i.out);
    if (k === 0) schema = execFileSync('sqlite3', [out, '.schema intervals', '.schema samples']).toString();
    for (const x of ['', '-wal', '-shm']) rmSync(`${out}${x}`, { force: true });
    I.push(i);
    const db = join(work, `pandas${k}.sqlite`);
    const p = time(py, ['-c', PANDAS, big, db]);
    const [rowsRead, colsRead, rowsWritten, readS, writeS] = p.out.trim().split(' ');
    if (rowsWritten !== rowsRead) throw new Error(`pandas wrote ${rowsWritten} rows of ${rowsRead}`);
    parsed = `${rowsRead} rows × ${colsRead} columns read and written to SQLite`;
    p.readS = Number(readS);
    p.writeS = Number(writeS);
    p.dbMb = statSync(db).size / 1e6;
    for (const x of ['', '-journal', '-wal']) rmSync(`${db}${x}`, { force: true });
    P.push(p);
  }
  const iw = median(I.map((x) => x.wall)), pw = median(P.map((x) => x.wall));
  const mb = (xs) => (xs.some((x) => x.rssMb === null) ? 'n/a' : `${median(xs.map((x) => x.rssMb)).toFixed(0)} MB`);
  const cpu = (xs) => (xs.some((x) => x.cpu === null) ? null : median(xs.map((x) => x.cpu)));
  const ic = cpu(I), pc = cpu(P);
  const cs = (c) => (c === null ? 'n/a' : `${c.toFixed(2)} s`);
  console.log(`imported: ${imported.intervals?.toLocaleString?.('en') ?? '?'} intervals of ${imported.devices ?? '?'} devices from ${imported.samples?.toLocaleString?.('en') ?? '?'} samples; pandas ${pandasVersion}: ${parsed}`);
  console.log('');
  console.log(`| what (median of ${runs}) | wall time | CPU time (user + sys) | MB/s (wall) | peak RSS |`);
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| cacheproof-probe import perfmon (parse + write the capture) | ${iw.toFixed(2)} s | ${cs(ic)} | ${(sizeMb / iw).toFixed(0)} | ${mb(I)} |`);
  console.log(`| pandas read_csv + to_sql into SQLite (same work; peer) | ${pw.toFixed(2)} s | ${cs(pc)} | ${(sizeMb / pw).toFixed(0)} | ${mb(P)} |`);
  const met = (r) => (r >= TARGET_RATIO ? 'met' : 'NOT met');
  console.log(`| ratio pandas / import | ${(pw / iw).toFixed(2)}× (target ≥ ${TARGET_RATIO}×: ${met(pw / iw)}) | ${ic === null ? 'n/a' : `${(pc / ic).toFixed(2)}× (${met(pc / ic)})`} | | |`);
  const pr = median(P.map((x) => x.readS)), pwr = median(P.map((x) => x.writeS));
  console.log(`\npandas' phases (median of ${runs}): read_csv ${pr.toFixed(2)} s, to_sql ${pwr.toFixed(2)} s (a ${P[0].dbMb.toFixed(0)} MB SQLite file); the import alone against read_csv alone: ${(pr / iw).toFixed(2)}×`);
  console.log(`TARGET (b) import at least as fast as pandas doing the same work (read_csv + to_sql into SQLite), wall time in the same run: ${pw / iw >= TARGET_RATIO ? 'PASS' : 'FAIL'} — import ${iw.toFixed(2)} s, pandas ${pw.toFixed(2)} s, ${(pw / iw).toFixed(2)}× (CPU time: import ${cs(ic)}, pandas ${cs(pc)}${ic === null ? '' : `, ${(pc / ic).toFixed(2)}×`})`);
  // the import's phases of the last run (wall seconds; sha256 runs beside decode and parse)
  const phases = I.at(-1).err.split('\n').filter((l) => l.startsWith('import phase ')).map((l) => l.replace('import phase ', ''));
  if (phases.length > 0) console.log(`\nimport phases (last run): ${phases.join('; ')}`);
  // The floor under any import into this capture format: SQLite alone inserting as many interval
  // and sample rows (the sqlite3 shell, no parsing, no binding, no journal, device by device).
  if (schema !== '' && imported?.intervals > 0) {
    const n = Math.round(imported.intervals / imported.devices);
    const db = join(work, 'floor.sqlite');
    const rows = (dev) => `WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x+1 FROM c WHERE x < ${n - 1})
      INSERT INTO intervals SELECT ${dev}, x*5000, x*5000+5000, 5000.0, 'ok', x%100, x%50, NULL, NULL, x*4096, x*2048, x%300, x%200, x%5000, x%9000, x%3, NULL, NULL, NULL, NULL, NULL FROM c;`;
    const sql = ['PRAGMA journal_mode=OFF;', 'PRAGMA cache_size=-65536;', schema, 'BEGIN;',
      ...Array.from({ length: imported.devices }, (_, d) => rows(d + 1)),
      `WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x+1 FROM c WHERE x < ${imported.samples - 1}) INSERT INTO samples(mono_ns, utc_ms, boot_id) SELECT x*5000000000, x*5000, 'import' FROM c;`,
      'COMMIT;'].join('\n');
    const t = performance.now();
    const r = spawnSync('sqlite3', [db], { input: sql, encoding: 'utf8' });
    const wall = (performance.now() - t) / 1000;
    rmSync(db, { force: true });
    if (r.status === 0) {
      console.log(`\nSQLite alone (the sqlite3 shell inserting the same ${imported.intervals.toLocaleString('en')} interval rows and ${imported.samples.toLocaleString('en')} sample rows, nothing parsed): ${wall.toFixed(2)} s`);
    }
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`\nload average during the run: ${load} (2 cores; times stretch on a busy machine)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
