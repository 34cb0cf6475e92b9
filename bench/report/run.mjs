// Benchmark (not a test): `cacheproof report` in PDF, XLSX and CSV of a generated capture of two
// 24-hour windows at 1 s for 16 devices (1 front, 14 backing, 1 other; ~2.8 million interval
// rows): open, hash, analyse, model, draw, and print (PDF, headless Chromium) or stream the rows
// (XLSX, CSV) through the atomic writer. Prints, per format, the median wall time and the peak
// RSS of the cacheproof process (getrusage; Chromium's own processes are not counted) against
// the targets (issue 38): PDF ≤ 2 s; CSV ≤ 2 s and ≥ 250 MB/s written; XLSX ≤ 60 s and ≤ 1 GB
// (docs/report.md, "Performance"). Each row prints PASS or FAIL. Beside the CSV, its peer: the
// sqlite3 shell writing the same interval rows as CSV (csv-peer.mjs), once.
// The capture is generated once and cached under node_modules/.cache/cacheproof-bench/.
// Usage: node bench/report/run.mjs [--hours 24] [--devices 16] [--runs 3] [--formats pdf,xlsx,csv] [--all-intervals] [--no-blocks]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSynthetic, median, prepareBlocks, root } from '../lib/synthetic.mjs';
import { commandLine } from '../../scripts/args.mjs';
import { sqliteCsvPeer } from './csv-peer.mjs';
import { chromiumPrintPeer } from './print-peer.mjs';
import { duckdbPeer } from '../lib/duckdb-peer.mjs';

const { values: opts } = commandLine('node bench/report/run.mjs', {
  hours: { type: 'string', default: '24', number: true },
  devices: { type: 'string', default: '16', number: true },
  runs: { type: 'string', default: '3', number: true },
  formats: { type: 'string', default: 'pdf,xlsx,csv' },
  'all-intervals': { type: 'boolean', default: false },
  'no-blocks': { type: 'boolean', default: false },
});
const { hours, devices, runs } = opts;
const formats = opts.formats.split(',');
const allIntervals = opts['all-intervals'];
/** Targets: seconds and peak RSS (MB, null = none). */
const TARGETS = { pdf: { s: 2, rssMb: null, mbps: null }, xlsx: { s: 60, rssMb: 1000, mbps: null }, csv: { s: 2, rssMb: null, mbps: 250 } };

const cli = join(root, 'app', 'dist', 'cli.cjs');
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
const cacheDir = join(root, 'node_modules', '.cache', 'cacheproof-bench');
mkdirSync(cacheDir, { recursive: true });
const capture = join(cacheDir, `report-2x${hours}h-${devices}dev-1s.capture`);
if (!existsSync(capture)) {
  const { writeSyntheticCapture } = await loadSynthetic();
  const t0 = performance.now();
  const tmp = `${capture}.partial`;
  rmSync(tmp, { force: true });
  const rows = writeSyntheticCapture({ path: tmp, windowSeconds: hours * 3600, warmupSeconds: 3600, intervalMs: 1000, backingDevices: devices - 2, extraDevices: 1, missShare: 0.1 });
  execFileSync('mv', [tmp, capture]);
  console.log(`generated ${rows.toLocaleString('en')} interval rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
// as a finished recording or import has it (`--no-blocks`: as a capture of an older probe)
const blocksLabel = prepareBlocks(capture, opts['no-blocks']);
console.log(`capture: ${capture} (${(statSync(capture).size / 1e6).toFixed(0)} MB; ${devices} devices, 2 × ${hours} h + 1 h warm-up at 1 s; ${blocksLabel})`);

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-report-'));
const rows = [];
const medians = {};
try {
  for (const format of formats) {
    const times = [];
    const rss = [];
    let note = '';
    let written = 0;
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `run-${i}.${format}`);
      const rssFile = join(dir, `rss-${format}-${i}`);
      const extra = format === 'xlsx' && allIntervals ? ['--all-intervals'] : [];
      const t = performance.now();
      const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(root, 'bench', 'lib', 'maxrss.mjs')).href, cli, 'report', capture, '--format', format, '--out', out, ...extra], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, CACHEPROOF_BENCH_RSS_FILE: rssFile },
      });
      if (r.status !== 0) throw new Error(`cacheproof report --format ${format} failed (${r.status})`);
      times.push((performance.now() - t) / 1000);
      rss.push(Number(readFileSync(rssFile, 'utf8')) / 1024);
      const bytes = readdirSync(dir).filter((f) => f.startsWith(`run-${i}`)).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
      written = bytes;
      note = `${(bytes / 1e6).toFixed(1)} MB written`;
      if (format === 'pdf') {
        try {
          note += `, ${/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1] ?? '?'} pages`;
        } catch {
          // pdfinfo missing: page count unknown
        }
      }
      for (const f of readdirSync(dir)) if (f.startsWith(`run-${i}`)) rmSync(join(dir, f));
    }
    const m = median(times);
    medians[format] = m;
    const peak = Math.max(...rss);
    const target = TARGETS[format];
    const rate = written / 1e6 / m;
    const met = m <= target.s && (target.rssMb === null || peak <= target.rssMb) && (target.mbps === null || rate >= target.mbps);
    if (target.mbps !== null) note += ` (${rate.toFixed(0)} MB/s)`;
    rows.push(`| ${format}${format === 'xlsx' ? (allIntervals ? ' (all interval sheets)' : ' (default: interval sheets left out above the limit)') : ''} | ${m.toFixed(2)} s (${Math.min(...times).toFixed(2)}–${Math.max(...times).toFixed(2)}) | ${peak.toFixed(0)} MB | ≤ ${target.s} s${target.rssMb === null ? '' : `, ≤ ${target.rssMb} MB`}${target.mbps === null ? '' : `, ≥ ${target.mbps} MB/s written`}: ${met ? 'PASS' : 'FAIL'} | ${note} |`);
  }
  console.log('');
  console.log(`| cacheproof report --format (${runs} runs) | median wall time (min–max) | peak RSS of cacheproof | target | output |`);
  console.log('|---|---:|---:|---|---|');
  for (const r of rows) console.log(r);
  if (medians.csv !== undefined) {
    // the CSV's peer, once: the sqlite3 shell writing the same interval rows (csv-peer.mjs)
    const peer = sqliteCsvPeer(capture, join(dir, 'peer.csv'));
    console.log(peer === null
      ? '| peer: sqlite3 -csv of the same interval rows | failed | | | |'
      : `| peer: the sqlite3 shell writing the same interval rows and columns as CSV (no analysis, no summary; bench/report/csv-peer.mjs) | ${peer.seconds.toFixed(2)} s | | cacheproof's whole CSV report ${(peer.seconds / medians.csv).toFixed(2)}× as fast | ${(peer.bytes / 1e6).toFixed(1)} MB (${(peer.bytes / 1e6 / peer.seconds).toFixed(0)} MB/s) |`);
    // and DuckDB writing them from its own columnar copy of the rows, with both cores (bench/lib/duckdb-peer.mjs)
    const duck = duckdbPeer(capture);
    if ('error' in duck) console.log(`| peer: DuckDB | ${duck.error} | | | |`);
    else {
      const d = duck.csv();
      console.log(`| peer: ${duck.label}, writing the same interval rows and columns as CSV from its own copy of them, fsynced (no analysis, no summary) | ${d.seconds.toFixed(2)} s | | cacheproof's whole CSV report ${(d.seconds / medians.csv).toFixed(2)}× as fast | ${(d.bytes / 1e6).toFixed(1)} MB (${(d.bytes / 1e6 / d.seconds).toFixed(0)} MB/s) |`);
    }
  }
  if (medians.pdf !== undefined) {
    // the PDF's printing floor: Chromium alone printing the same report's HTML (print-peer.mjs)
    const p = chromiumPrintPeer(cli, capture, dir);
    console.log(p === null
      ? '| peer: chromium --headless --print-to-pdf of the report\'s HTML | failed | | | |'
      : `| peer: Chromium alone printing the same report's HTML to PDF (chromium --headless --print-to-pdf; no reading, analysis or drawing; bench/report/print-peer.mjs) | ${p.seconds.toFixed(2)} s | | cacheproof's whole PDF report takes ${(medians.pdf / p.seconds).toFixed(2)}× its time | ${p.pages} pages |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
