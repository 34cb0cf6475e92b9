// Benchmark (not a test): `cacheproof analyze --json` on generated captures of two windows at
// 1 s for 16 devices, by default two 24-hour windows (2.8 M rows) and two 7-day windows (19.4 M
// rows: issue 38's row "analyze a week"), each against one sqlite3 aggregate scan over the same
// interval table. Targets (issue 38), on each capture: analyze's wall time ≤ 0.5× that single
// scan, analyze's peak resident memory ≤ 300 MB (issue 12 asked 1.0× and 500 MB). Prints both medians and the
// ratio, in wall time and in CPU time (user + system), and the peak RSS, from /usr/bin/time
// (Debian package `time`; on a machine shared with other jobs the CPU time is the steadier figure).
// Also times the app host's dashboard open of the first capture (host/analysis.ts
// loadAnalysisView: open, analyze, chart series, file hash) in a fresh process, without and
// with its cache of finished analyses (the dashboard's target: under 2 s).
// Usage: node bench/analyze/run.mjs [--hours 24,168] [--devices 16] [--runs 3] [--fresh] [--no-blocks]
// (`--hours`: the window lengths, one capture each.) The generated captures are kept in
// node_modules/.cache/cacheproof-bench/ (the 168-hour one is about 1.5 GB) and reused while the
// generator's source and the parameters are unchanged (--fresh regenerates them).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { loadSynthetic, median, prepareBlocks, root } from '../lib/synthetic.mjs';
import { commandLine } from '../../scripts/args.mjs';

const { values: opts } = commandLine('node bench/analyze/run.mjs', {
  hours: { type: 'string', default: '24,168' },
  devices: { type: 'string', default: '16', number: 'positive' },
  runs: { type: 'string', default: '3', number: 'positive' },
  fresh: { type: 'boolean', default: false },
  'no-blocks': { type: 'boolean', default: false },
});
const hoursList = opts.hours.split(',').map(Number);
const { devices, runs } = opts;
if (hoursList.some((h) => !(h > 0)) || !(devices >= 3)) {
  process.stderr.write(`node bench/analyze/run.mjs: --hours takes positive numbers, e.g. 24,168 (got '${opts.hours}'); --devices at least 3 (got ${devices})\n`);
  process.exit(2);
}

const cli = join(root, 'app', 'dist', 'cli.cjs');
if (!existsSync(cli)) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
const cacheDir = join(root, 'node_modules', '.cache', 'cacheproof-bench');
mkdirSync(cacheDir, { recursive: true });
const generator = readFileSync(join(root, 'test', 'support', 'synthetic-capture.ts'));
const captureOf = (hours) => {
  const tag = createHash('sha256').update(generator).update(JSON.stringify({ hours, devices })).digest('hex').slice(0, 12);
  return join(cacheDir, `analyze-${hours}h-${devices}d-${tag}.capture`);
};
const captures = hoursList.map(captureOf);
// captures of another generator or other parameters are removed (with their -wal and -shm files)
for (const f of readdirSync(cacheDir)) if (/^analyze-.*\.capture(-wal|-shm|-journal)?$/.test(f) && !captures.some((c) => join(cacheDir, f).startsWith(c))) rmSync(join(cacheDir, f), { force: true });
if (opts.fresh) for (const c of captures) rmSync(c, { force: true });

const viewBundle = join(cacheDir, 'view.cjs');
await build({
  entryPoints: [join(root, 'bench', 'analyze', 'view-entry.ts')], outfile: viewBundle, bundle: true, platform: 'node', format: 'cjs',
  target: 'node20', external: ['better-sqlite3'], logLevel: 'warning', define: { __CACHEPROOF_VERSION__: '"bench"' },
});

/** The capture of two `hours`-hour windows, generated when it is not cached, with its columnar blocks (`--no-blocks`: without, as a capture of an older probe). */
async function prepare(capture, hours) {
  if (existsSync(capture)) {
    console.log(`reusing ${capture} (${(statSync(capture).size / 1e6).toFixed(0)} MB)`);
  } else {
    const { writeSyntheticCapture } = await loadSynthetic();
    const t0 = performance.now();
    // 1 front device, 14 backing, 1 other = 16 devices.
    const rows = writeSyntheticCapture({ path: capture, windowSeconds: hours * 3600, warmupSeconds: 3600, intervalMs: 1000, backingDevices: devices - 2, extraDevices: 1, missShare: 0.1 });
    console.log(`generated ${rows.toLocaleString('en')} interval rows (${devices} devices, 2 × ${hours} h + 1 h warm-up at 1 s), ${(statSync(capture).size / 1e6).toFixed(0)} MB, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // as a finished recording or import has it (`--no-blocks`: as a capture of an older probe)
  console.log(`capture ${prepareBlocks(capture, opts['no-blocks'])}`);
}

const work = mkdtempSync(join(tmpdir(), 'cacheproof-bench-analyze-'));
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const timesFile = join(work, 'time.txt');
/** Runs a command; wall seconds, CPU seconds and peak RSS (null without /usr/bin/time) and its stdout. */
const time = (cmd, args) => {
  const t = performance.now();
  const r = timeBin === null
    ? spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30 })
    : spawnSync(timeBin, ['-f', '%U %S %M', '-o', timesFile, cmd, ...args], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30 });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status})`);
  let cpu = null, rssMB = null;
  if (timeBin !== null) {
    const [u, s, kb] = readFileSync(timesFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    cpu = u + s;
    rssMB = kb / 1024;
  }
  return { wall, cpu, rssMB, out: r.stdout.toString() };
};
const scanSql = `SELECT device_id, COUNT(*), SUM(reads), SUM(writes), SUM(read_bytes), SUM(write_bytes), SUM(read_time_ms), SUM(write_time_ms), SUM(busy_ms), SUM(weighted_ms) FROM intervals WHERE status = 'ok' GROUP BY device_id;`;
const m = (xs, k) => (xs.some((x) => x[k] === null) ? null : median(xs.map((x) => x[k])));
const f = (x) => (x === null ? 'n/a' : `${x.toFixed(2)} s`);
const mb = (x) => (x === null ? 'n/a' : `${x.toFixed(0)} MB`);

/** The runs on one capture: the scan and analyze each run, and (`dashboard`) the dashboard's open without and with its cache; prints the rows. */
function benchCapture(capture, hours, dashboard) {
  const A = [], S = [], V = [], C = [];
  const viewCache = join(work, 'view-cache');
  for (let i = 0; i < runs; i++) {
    S.push(time('sqlite3', [capture, scanSql]));
    A.push(time(process.execPath, [cli, 'analyze', capture, '--json']));
    if (!dashboard) continue;
    rmSync(viewCache, { recursive: true, force: true });
    const cold = time(process.execPath, [viewBundle, capture, viewCache]);
    const warm = time(process.execPath, [viewBundle, capture, viewCache]);
    const c = JSON.parse(cold.out), w = JSON.parse(warm.out);
    if (c.fromCache !== false || w.fromCache !== true) throw new Error(`unexpected cache use: cold ${c.fromCache}, warm ${w.fromCache}`);
    V.push({ ...cold, inner: c.ms / 1000, bytes: c.bytes });
    C.push({ ...warm, inner: w.ms / 1000, bytes: w.bytes });
  }
  const a = m(A, 'wall'), s = m(S, 'wall'), ac = m(A, 'cpu'), sc = m(S, 'cpu');
  const ar = m(A, 'rssMB'), sr = m(S, 'rssMB');
  const label = `2 × ${hours} h`;
  console.log(`| cacheproof analyze --json, ${label} | ${f(a)} | ${f(ac)} |`);
  console.log(`| sqlite3 single aggregate scan (peer), ${label} | ${f(s)} | ${f(sc)} |`);
  console.log(`| ratio analyze / scan, ${label} | ${(a / s).toFixed(2)}× (target ≤ 0.5×: ${a / s <= 0.5 ? 'PASS' : 'FAIL'}) | ${ac === null ? 'n/a' : `${(ac / sc).toFixed(2)}×`} |`);
  console.log(`| peak RSS, ${label}: analyze (target ≤ 300 MB: ${ar === null ? 'n/a' : ar <= 300 ? 'PASS' : 'FAIL'}) / sqlite3 scan | ${mb(ar)} / ${mb(sr)} | |`);
  if (!dashboard) return;
  console.log(`| dashboard open, ${label}, no cache (host loadAnalysisView in a fresh process; inside it) | ${f(m(V, 'wall'))} (${f(m(V, 'inner'))}) | ${f(m(V, 'cpu'))} |`);
  console.log(`| dashboard open, ${label}, cached (same; reply ${(m(C, 'bytes') / 1e6).toFixed(1)} MB of JSON) | ${f(m(C, 'wall'))} (${f(m(C, 'inner'))}) | ${f(m(C, 'cpu'))} |`);
}

try {
  for (const [i, hours] of hoursList.entries()) await prepare(captures[i], hours);
  console.log('');
  console.log(`| what (median of ${runs}; ${devices} devices at 1 s) | wall time | CPU time (user + sys) |`);
  console.log('|---|---:|---:|');
  // the dashboard's open is timed on the first capture only (the 2 × 24 h one by default: its target's)
  for (const [i, hours] of hoursList.entries()) benchCapture(captures[i], hours, i === 0);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`\nload average during the run: ${load} (wall times stretch on a busy machine; the CPU times do not)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
