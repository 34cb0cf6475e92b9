// Benchmark (not a test): `cacheproof report --format pdf` of a generated capture of two 24-hour
// windows at 1 s for 16 devices (1 front, 14 backing, 1 other; ~2.8 million interval rows):
// open, hash, analyse, model, draw and print with headless Chromium. Target: median under 10 s.
// The capture is generated once and cached under node_modules/.cache/cacheproof-bench/.
// Usage: node bench/report/run.mjs [--hours 24] [--devices 16] [--runs 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSynthetic, median, root } from '../lib/synthetic.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const hours = arg('--hours', 24);
const devices = arg('--devices', 16);
const runs = arg('--runs', 3);
const TARGET_S = 10;

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
console.log(`capture: ${capture} (${(statSync(capture).size / 1e6).toFixed(0)} MB; ${devices} devices, 2 × ${hours} h + 1 h warm-up at 1 s)`);

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-report-'));
try {
  const times = [];
  let pages = '?';
  for (let i = 0; i < runs; i++) {
    const out = join(dir, `run-${i}.pdf`);
    const t = performance.now();
    const r = spawnSync(process.execPath, [cli, 'report', capture, '--format', 'pdf', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`cacheproof report failed (${r.status})`);
    times.push((performance.now() - t) / 1000);
    try {
      pages = /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1] ?? '?';
    } catch {
      // pdfinfo missing: page count unknown
    }
  }
  const m = median(times);
  console.log('');
  console.log(`| what (${runs} runs) | wall time |`);
  console.log('|---|---:|');
  console.log(`| cacheproof report --format pdf, median | ${m.toFixed(2)} s |`);
  console.log(`| min / max | ${Math.min(...times).toFixed(2)} s / ${Math.max(...times).toFixed(2)} s |`);
  console.log(`| target | < ${TARGET_S} s: ${m < TARGET_S ? 'met' : 'NOT met'} (${pages} pages) |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
