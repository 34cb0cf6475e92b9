// Benchmark (not a test): `cacheproof analyze --json` on a generated capture of two 24-hour
// windows at 1 s for 16 devices, against one sqlite3 aggregate scan over the same interval
// table. Target: analyze within 3× of that single scan. Prints both medians and the ratio.
// Usage: node bench/analyze/run.mjs [--hours 24] [--devices 16] [--runs 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
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

const cli = join(root, 'app', 'dist', 'cli.cjs');
if (!existsSync(cli)) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-analyze-'));
const capture = join(dir, 'bench.capture');
try {
  const { writeSyntheticCapture } = await loadSynthetic();
  let t0 = performance.now();
  // 1 front device, 14 backing, 1 other = 16 devices.
  const rows = writeSyntheticCapture({ path: capture, windowSeconds: hours * 3600, warmupSeconds: 3600, intervalMs: 1000, backingDevices: devices - 2, extraDevices: 1, missShare: 0.1 });
  console.log(`generated ${rows.toLocaleString('en')} interval rows (${devices} devices, 2 × ${hours} h + 1 h warm-up at 1 s), ${(statSync(capture).size / 1e6).toFixed(0)} MB, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const time = (cmd, args) => {
    const t = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status})`);
    return (performance.now() - t) / 1000;
  };
  const scanSql = `SELECT device_id, COUNT(*), SUM(reads), SUM(writes), SUM(read_bytes), SUM(write_bytes), SUM(read_time_ms), SUM(write_time_ms), SUM(busy_ms), SUM(weighted_ms) FROM intervals WHERE status = 'ok' GROUP BY device_id;`;
  const analyzeTimes = [];
  const scanTimes = [];
  for (let i = 0; i < runs; i++) {
    scanTimes.push(time('sqlite3', [capture, scanSql]));
    analyzeTimes.push(time(process.execPath, [cli, 'analyze', capture, '--json']));
  }
  const a = median(analyzeTimes);
  const s = median(scanTimes);
  console.log('');
  console.log(`| what (median of ${runs}) | wall time |`);
  console.log('|---|---:|');
  console.log(`| cacheproof analyze --json | ${a.toFixed(2)} s |`);
  console.log(`| sqlite3 single aggregate scan (peer) | ${s.toFixed(2)} s |`);
  console.log(`| ratio analyze / scan | ${(a / s).toFixed(2)}× (target ≤ 3×: ${a / s <= 3 ? 'met' : 'NOT met'}) |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
