// Benchmark (not a test): a fleet's figures computed by its Prometheus (PromQL pushdown, docs/import.md
// § Fleet summary) against pulling every series of the same fleet (issue 27, Done when: bench/fleet).
// Method: HOSTS node_exporter hosts × 2 disks × DAYS days at STEP s (bench/fleet/openmetrics.mjs:
// OpenMetrics written a chunk of hosts at a time and backfilled with `promtool tsdb
// create-blocks-from openmetrics`; the TSDB is kept under node_modules/.cache/cacheproof-bench so
// reruns skip it) served by Debian's Prometheus on a loopback port. Then, one after the other:
//   pushdown: `cacheproof-probe import prometheus --fleet-summary FILE`, then `cacheproof report
//             FILE --format pdf` (the app's fleet view of the summary, and the fleet PDF);
//   peer:     `cacheproof-probe import prometheus --out CAPTURE` (every series pulled: one fleet
//             capture), then `cacheproof report CAPTURE --format pdf` (the fleet view of the capture:
//             each host's profile, the per-moment sum; the fleet PDF).
// Printed side by side: wall time of each step, peak RSS of the probe (/usr/bin/time) and of the
// app's process (bench/lib/maxrss.mjs; Chromium printing the PDF is a child, not counted), and
// Prometheus' peak RSS in each phase (VmHWM, reset between phases through /proc/PID/clear_refs).
// Target (issue 27): the pushdown fleet view ≤ 30 s and ≤ 1 GB RSS for the app (probe and app
// process), and ≥ 10× faster than pulling every series (both wall times include the fleet PDF);
// PASS/FAIL printed.
// Before the runs, the backfilled blocks (promtool writes 2-hour blocks, each chunk of hosts its own,
// overlapping) are left to Prometheus' compactor until their count holds for 2 min, as a server
// that has held the fleet for its days would have them; kept in the cache too.
// Usage: node bench/fleet/run.mjs [--hosts 500] [--days 7] [--step 60] [--chunk 100] [--no-pull]
//        [--pull-limit S: stop pulling after S s and print the ratio as at least S / pushdown]
//        [--backfill-only: backfill and compact, no run]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProbe } from '../../scripts/probe-build.mjs';
import { backfillFleet, DISKS } from './openmetrics.mjs';
import { commandLine } from '../../scripts/args.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { values: opts } = commandLine('node bench/fleet/run.mjs', {
  hosts: { type: 'string', default: '500', number: true },
  days: { type: 'string', default: '7', number: true },
  step: { type: 'string', default: '60', number: true },
  chunk: { type: 'string', default: '100', number: true },
  'no-pull': { type: 'boolean', default: false },
  // stop pulling after S s (0: never) and print the ratio as at least S / pushdown
  'pull-limit': { type: 'string', default: '0', number: true },
  // backfill and compact, no run
  'backfill-only': { type: 'boolean', default: false },
});
const HOSTS = opts.hosts, DAYS = opts.days, STEP_S = opts.step, CHUNK = opts.chunk;
const PULL_LIMIT_S = opts['pull-limit'];
const BACKFILL_ONLY = opts['backfill-only'];
const PULL = !opts['no-pull'];
const TARGET = { viewS: 30, rssMb: 1024, ratio: 10 };
for (const cmd of ['prometheus', 'promtool']) {
  if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0) {
    console.log(`SKIP bench/fleet: ${cmd} is not installed (apt-get install prometheus)`);
    process.exit(0);
  }
}
if (!buildProbe()) throw new Error('the native probe did not build (scripts/probe-build.mjs); see the cargo output above');
if (!existsSync(join(root, 'app', 'dist', 'cli.cjs'))) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const cli = join(root, 'app', 'dist', 'cli.cjs');

// ---- the fleet, backfilled once and kept -------------------------------------------------------
const points = (DAYS * 86_400) / STEP_S;
const cache = join(root, 'node_modules', '.cache', 'cacheproof-bench', `fleet-${HOSTS}x${DAYS}d-${STEP_S}s`);
const metaFile = join(cache, 'meta.json');
if (!existsSync(metaFile)) {
  rmSync(cache, { recursive: true, force: true });
  // whole UTC days ending a day ago (blocks clear of the head); Prometheus runs with a long retention below
  const t0 = Math.floor(Date.now() / 86_400_000) * 86_400 - (DAYS + 1) * 86_400;
  const started = Date.now();
  console.log(`backfilling ${HOSTS} hosts × ${DISKS.length} disks × ${DAYS} d at ${STEP_S} s into ${cache} (${CHUNK} hosts a chunk)…`);
  await backfillFleet({ dir: cache, hosts: HOSTS, points, stepS: STEP_S, t0, chunk: CHUNK, sliceS: 7200, log: (l) => console.log(`  ${l} (${((Date.now() - started) / 1000).toFixed(0)} s)`) });
  writeFileSync(metaFile, JSON.stringify({ t0, backfillS: (Date.now() - started) / 1000 }));
}
const { t0, backfillS } = JSON.parse(readFileSync(metaFile, 'utf8'));
const t1 = t0 + points * STEP_S;

// ---- Prometheus --------------------------------------------------------------------------------
const port = await new Promise((res) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
writeFileSync(join(cache, 'prometheus.yml'), 'global:\n  scrape_interval: 15s\nscrape_configs: []\n');
const prom = spawn('prometheus', [`--config.file=${join(cache, 'prometheus.yml')}`, `--storage.tsdb.path=${join(cache, 'tsdb')}`, '--storage.tsdb.retention.time=100y', `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
const url = `http://127.0.0.1:${port}`;
const stopProm = () => new Promise((res) => { if (prom.exitCode !== null) res(); else { prom.once('exit', res); prom.kill('SIGTERM'); } });
const served = async () => {
  try {
    const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent('count(node_disk_reads_completed_total)')}&time=${t1}`);
    return (await r.json()).data?.result?.[0]?.value?.[1] === String(HOSTS * DISKS.length);
  } catch {
    return false; // not listening yet
  }
};
for (const deadline = Date.now() + 300_000; !(await served());) {
  if (Date.now() > deadline || prom.exitCode !== null) throw new Error('Prometheus did not serve the backfilled series within 5 min');
  await new Promise((r) => setTimeout(r, 500));
}
const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
if (meta.compactedBlocks === undefined) {
  // Prometheus compacts the overlapping blocks on its own; wait until the count of loaded blocks holds
  const metric = async (name) => Number(new RegExp(`^${name} (\\S+)$`, 'mu').exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN);
  const started = Date.now();
  let last = await metric('prometheus_tsdb_blocks_loaded');
  let since = Date.now();
  console.log(`compacting: ${last} blocks loaded…`);
  while (Date.now() - since < 120_000) {
    await new Promise((r) => setTimeout(r, 5000));
    const n = await metric('prometheus_tsdb_blocks_loaded');
    if (n !== last) {
      console.log(`  ${n} blocks (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      last = n;
      since = Date.now();
    }
  }
  meta.compactedBlocks = last;
  meta.compactS = (Date.now() - started) / 1000 - 120;
  writeFileSync(metaFile, JSON.stringify(meta));
}
if (BACKFILL_ONLY) {
  console.log(`backfilled (${backfillS.toFixed(0)} s) and compacted to ${meta.compactedBlocks} blocks (${meta.compactS.toFixed(0)} s): ${cache}`);
  await stopProm();
  process.exit(0);
}
const promHwmMb = () => Number(/VmHWM:\s+(\d+)/u.exec(readFileSync(`/proc/${prom.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const promReset = () => { try { writeFileSync(`/proc/${prom.pid}/clear_refs`, '5'); } catch { /* an older kernel: the peak is the process's */ } };

// ---- the runs ----------------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'cacheproof-bench-fleet-'));
/** Runs a command, timed: wall seconds and peak RSS (MB) of the process (the probe: /usr/bin/time; node: maxrss.mjs). */
function timed(label, cmd, args, node = false, limitS = 0) {
  const rssFile = join(work, 'rss');
  rmSync(rssFile, { force: true });
  const started = process.hrtime.bigint();
  // a limit: coreutils' timeout between time and the probe (time's figure is then the probe's, the larger of the two)
  const limit = limitS > 0 ? ['timeout', String(limitS)] : [];
  const r = node
    ? spawnSync(process.execPath, ['--import', join(root, 'bench', 'lib', 'maxrss.mjs'), cmd, ...args], { env: { ...process.env, CACHEPROOF_BENCH_RSS_FILE: rssFile }, encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, ...limit, cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  if (limit.length > 0 && r.status === 124) {
    const rssMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024;
    console.log(`  ${label}: stopped after ${limitS} s (--pull-limit), ${rssMb.toFixed(0)} MB so far`);
    return { wallS, rssMb, stopped: true };
  }
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status}): ${r.stderr}`);
  const rssMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024;
  console.log(`  ${label}: ${wallS.toFixed(1)} s, ${rssMb.toFixed(0)} MB`);
  return { wallS, rssMb };
}
const range = ['--url', url, '--hosts', '{job="node"}', '--from', String(t0), '--to', String(t1), '--step', `${STEP_S}s`];
const load0 = loadavg()[0];
console.log(`fleet: ${HOSTS} hosts × ${DISKS.length} disks × ${DAYS} d at ${STEP_S} s (${(HOSTS * DISKS.length * (points + 1) * 11 / 1e6).toFixed(1)} M samples, backfilled in ${backfillS.toFixed(0)} s, compacted to ${meta.compactedBlocks} blocks), Prometheus at ${url}`);
const res = {};
try {
  console.log('pushdown (--fleet-summary):');
  promReset();
  const summary = join(work, 'fleet.json');
  res.pushFetch = timed('probe import prometheus --fleet-summary', probe, ['import', 'prometheus', ...range, '--fleet-summary', summary]);
  res.pushReport = timed('cacheproof report (fleet view + PDF)', cli, ['report', summary, '--format', 'pdf', '--out', join(work, 'push.pdf')], true);
  res.pushProm = promHwmMb();
  res.pushBytes = statSync(summary).size;
  const sj = JSON.parse(readFileSync(summary, 'utf8'));
  res.server = { evalS: sj.serverEvalS, samples: sj.serverSamples, queries: sj.queries };
  if (PULL) {
    console.log('pull every series (--out):');
    promReset();
    const capture = join(work, 'fleet.capture');
    res.pullFetch = timed('probe import prometheus --out', probe, ['import', 'prometheus', ...range, '--out', capture], false, PULL_LIMIT_S);
    res.pullProm = promHwmMb();
    if (!res.pullFetch.stopped) {
      res.pullReport = timed('cacheproof report (fleet view + PDF)', cli, ['report', capture, '--format', 'pdf', '--out', join(work, 'pull.pdf')], true);
      res.pullBytes = statSync(capture).size;
    }
  }
} finally {
  await stopProm();
  rmSync(work, { recursive: true, force: true });
}

// ---- side by side ------------------------------------------------------------------------------
const row = (name, a, b) => console.log(`${name.padEnd(44)}${String(a).padStart(14)}${String(b).padStart(16)}`);
const f1 = (x) => (x === undefined ? '—' : x.toFixed(1));
const f0 = (x) => (x === undefined ? '—' : x.toFixed(0));
const pushS = res.pushFetch.wallS + res.pushReport.wallS;
const stopped = res.pullFetch?.stopped === true;
const pullS = res.pullFetch === undefined ? undefined : res.pullFetch.wallS + (res.pullReport?.wallS ?? 0);
const pushRss = Math.max(res.pushFetch.rssMb, res.pushReport.rssMb);
console.log(`\n${new Date().toISOString()}, load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
row('', 'pushdown', 'pull everything');
row('fetch (probe), s', f1(res.pushFetch.wallS), stopped ? `> ${f1(res.pullFetch.wallS)} (stopped)` : f1(res.pullFetch?.wallS));
row('fleet view + PDF (app), s', f1(res.pushReport.wallS), stopped ? 'not reached' : f1(res.pullReport?.wallS));
row('total, s', f1(pushS), stopped ? `> ${f1(pullS)}` : f1(pullS));
row('probe peak RSS, MB', f0(res.pushFetch.rssMb), stopped ? `≥ ${f0(res.pullFetch.rssMb)}` : f0(res.pullFetch?.rssMb));
row('app process peak RSS, MB', f0(res.pushReport.rssMb), f0(res.pullReport?.rssMb));
row('Prometheus peak RSS, MB', f0(res.pushProm), f0(res.pullProm));
row('file written, MB', (res.pushBytes / 1e6).toFixed(2), res.pullBytes === undefined ? '—' : (res.pullBytes / 1e6).toFixed(1));
if (res.server !== undefined) console.log(`\nPrometheus' own account of the pushdown's ${res.server.queries} queries (stats=all, up to 4 at a time): evaluation ${res.server.evalS.toFixed(1)} s summed, ${(res.server.samples / 1e9).toFixed(2)} G samples read — the probe's fetch took ${res.pushFetch.wallS.toFixed(1)} s of wall time`);
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
console.log(`\n${verdict(pushS <= TARGET.viewS)}: pushdown fleet view + PDF ${pushS.toFixed(1)} s (target ≤ ${TARGET.viewS} s)`);
console.log(`${verdict(pushRss <= TARGET.rssMb)}: pushdown app peak RSS ${pushRss.toFixed(0)} MB (probe and app process; target ≤ ${TARGET.rssMb} MB)`);
if (pullS !== undefined) console.log(`${stopped && pullS / pushS < TARGET.ratio ? 'NOT SHOWN' : verdict(pullS / pushS >= TARGET.ratio)}: pull everything / pushdown ${stopped ? '>' : '='} ${(pullS / pushS).toFixed(1)}× (target ≥ ${TARGET.ratio}×${stopped ? `; the pull was stopped at --pull-limit ${PULL_LIMIT_S} s before its fleet view, so the ratio is a lower bound` : ''})`);
if (HOSTS !== 500 || DAYS !== 7 || STEP_S !== 60) console.log(`(at ${HOSTS} hosts × ${DAYS} d × ${STEP_S} s, not the issue's 500 hosts × 7 d × 60 s)`);
