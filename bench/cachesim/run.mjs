// Benchmark (not a test) of `cacheproof-probe simulate` (docs/simulate.md) on the real
// CloudPhysics trace (../shared/realdata/block_traces/libcachesim_cloudPhysicsIO.csv), split into
// 4 KiB blocks (every request, reads and writes, references each block it touches):
//  (1) SHARDS accuracy against its peer in the same run: the probe's fixed-size SHARDS and
//      libCacheSim's own estimator (its mrcProfiler, built from the `libcachesim` sdist on PyPI:
//      lcs-mrc.mjs) fed the same block references with the same sample size S (32K and 128K
//      blocks) and the same hash salts (0..SALTS), each curve's mean absolute error against the
//      exact LRU curve at 25 sizes (the probe's curve by its calibrated-regression estimator: the
//      trace's references and footprint are known exactly). Targets: (a1) at 32K samples no worse than libCacheSim's
//      estimator on the same blocks (mean error over the salts; restated by the CEO, 2026-11-27);
//      (a2) the same at 128K samples (issue 38), and beside it the absolute ≤ 0.001 at 128K the CEO
//      restated, with the floor of this trace at 128K (shards-targets.mjs). Prints PASS/FAIL with
//      the figures. Then why the error is what it is (shards-floor.mjs), at 32K and at 128K: the
//      error any sample of S of these blocks has even with every distance exact (weighed alone,
//      and by the probe's regression), those "oracles" beside the probe salt by salt, and libCacheSim's rules written again on the probe's hash.
//  (2) Exact LRU throughput on the block sequence tiled to ≥ 10 million references, side by side
//      with libCacheSim's own LRU (the `libcachesim` package from PyPI, installed into
//      bench/cachesim/.venv by this script), both reading the same oracleGeneral file. Prints
//      references per second of both, their ratio and both miss ratios (which must agree
//      exactly). Target ≥ 2×.
//  (3) What a prediction costs after a day's baseline: the trace's requests tiled over 24 h to
//      the number a day's trace holds under the default budget (300 MB at about 64 bytes a stored
//      request, docs/probe.md: 4.7 million), imported as a capture, then `cacheproof-probe predict`
//      with the six policies (the app's default), 1 GiB: the miniature simulation the probe
//      replays for such a window (sim/mini.rs) on one thread and on every core, and `--exact` (every
//      request at every size, the replay before the miniature: 99.1 s on one thread, 2026-11-26) on
//      one thread: wall and CPU time, peak memory, and each policy's curve against the exact one
//      (mean absolute error of the read hit ratio over the curve's sizes: the prediction's own
//      error on this trace). TARGET: ≤ 5 s on one thread (no peer: no other tool predicts from a capture).
//  (4) The miniature simulation's accuracy at the rate (3) used, on the CloudPhysics and MSN traces,
//      beside libCacheSim's own sampled simulation (`cachesim --sample-ratio`): mini.mjs.
//      TARGET: mean absolute error ≤ 0.01 for every policy.
// Usage: node bench/cachesim/run.mjs [--salts 40] [--shards-only] [--mini-only] [--min-refs 10000000] [--day-requests 4700000]
// (--mini-only: parts (3) and (4) only)
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProbe } from '../../scripts/probe-build.mjs';
import { pythonWith } from '../lib/pyenv.mjs';
import { BENCH_PACKAGES, ensureDebianPackages } from '../../scripts/ensure.mjs';
import { ensureCachesim, ensureMrcProfiler, lcsShardsMissRatios } from './lcs-mrc.mjs';
import { miniatureAccuracy } from './mini.mjs';
import { floorModel, probeMissRatios, regressionFloor, samplingFloor, shardsFloor } from './shards-floor.mjs';
import { errorLine, printTargets, stats } from './shards-targets.mjs';
import { commandLine } from '../../scripts/args.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const trace = join(root, '..', 'shared', 'realdata', 'block_traces', 'libcachesim_cloudPhysicsIO.csv');
const { values: opts } = commandLine('node bench/cachesim/run.mjs', {
  salts: { type: 'string', default: '40', number: true },
  // --shards-only: stop after (1), the SHARDS targets (for a quick run on a busy machine)
  'shards-only': { type: 'boolean', default: false },
  'mini-only': { type: 'boolean', default: false },
  'min-refs': { type: 'string', default: '10000000', number: true },
  'day-requests': { type: 'string', default: '4700000', number: true },
});
const minRefs = opts['min-refs'];
const BLOCK = 4096;
const dayRequests = opts['day-requests'];
const SALTS = opts.salts;
const shardsOnly = opts['shards-only'];
const miniOnly = opts['mini-only'];

if (!existsSync(trace)) {
  console.log(`SKIP bench/cachesim: ${trace} is absent (../shared/realdata is needed)`);
  process.exit(0);
}
ensureDebianPackages(BENCH_PACKAGES);
if (!buildProbe()) throw new Error('the native probe did not build (scripts/probe-build.mjs); see the cargo output above');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const simulate = (args) => {
  const t = performance.now();
  const out = execFileSync(probe, ['simulate', ...args, '--json', '--quiet'], { maxBuffer: 1 << 28 }).toString();
  return { json: JSON.parse(out), wallS: (performance.now() - t) / 1000 };
};
const fmt = (x, d = 4) => x.toFixed(d);

// ---- libCacheSim from PyPI (its LRU for (2), its mrcProfiler built from its sdist for (1)) -----
const venv = join(here, '.venv');
const lcsEnv = pythonWith(venv, ['libcachesim']);
const lcsOk = !('error' in lcsEnv);
if (!lcsOk) console.log(lcsEnv.error);
const py = join(venv, 'bin', 'python');
const mrcProfiler = lcsOk && !miniOnly ? ensureMrcProfiler(venv, (l) => console.log(l)) : null;
const cachesim = lcsOk && !shardsOnly ? ensureCachesim(venv, (l) => console.log(l)) : null;

if (!miniOnly) {
// The block sequence the probe replays: every request's 4 KiB blocks in address order; written
// as libCacheSim's oracleGeneral records (u32 time s, u64 id, u32 size, i64 next access).
const lines = readFileSync(trace, 'utf8').split('\n');
const ids = [];
for (let n = 1; n < lines.length; n++) {
  const c = lines[n].split(',');
  if (c.length < 5) continue;
  const off = Number(c[4]) * 512;
  const size = Number(c[3]);
  for (let b = Math.floor(off / BLOCK); b <= Math.floor((off + size - 1) / BLOCK); b++) ids.push(b);
}
const oracleGeneral = (total) => {
  const buf = Buffer.alloc(total * 24);
  for (let r = 0; r < total; r++) {
    const o = r * 24;
    buf.writeUInt32LE(Math.floor(r / 1_000_000), o);
    buf.writeBigUInt64LE(BigInt(ids[r % ids.length]), o + 4);
    buf.writeUInt32LE(BLOCK, o + 12);
    buf.writeBigInt64LE(-1n, o + 16);
  }
  return buf;
};

// ---- (1) SHARDS accuracy against libCacheSim's own estimator, same blocks, same sample sizes --
const base = ['--kind', 'cloudphysics', '--policy', 'lru', '--writes', 'allocate', '--block', '4KiB'];
const probeFp = simulate([trace, ...base, '--sizes', '4KiB']).json;
const fp = probeFp.footprint_blocks ?? probeFp.footprintBlocks;
const sizes = [];
for (let k = 0; k < 25; k++) sizes.push(Math.max(1, Math.round(Math.exp(Math.log(64) + (Math.log(fp) - Math.log(64)) * (k / 24)))));
const uniqueSizes = [...new Set(sizes)];
const sizeArg = uniqueSizes.map((b) => String(b * BLOCK)).join(',');
const exact = simulate([trace, ...base, '--sizes', sizeArg]).json.policies[0];
const exactMiss = exact.sizes.map((x) => 1 - x.blockHitRatio);
const maeOf = (misses) => misses.reduce((s, m, k) => s + Math.abs(m - exactMiss[k]), 0) / misses.length;
console.log(`trace: ${trace}`);
console.log(`  ${probeFp.input.requests} requests, ${probeFp.references} references of 4 KiB blocks, footprint ${fp} blocks`);
console.log(`(1) fixed-size SHARDS vs the exact LRU curve: mean absolute error of the miss ratio over ${uniqueSizes.length} sizes (64 blocks to the footprint, log spaced), the probe's \`simulate --sample fixed-size=S --sample-salt K\` beside libCacheSim's mrcProfiler (\`--profiler=SHARDS --profiler-params=FIX_SIZE,S,salt(K)\`: salt(K) is K spread over 31 bits, lcs-mrc.mjs) on the same ${ids.length.toLocaleString('en')} block references, salts 0–${SALTS}`);
const blocksDir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-shards-'));
const blocksFile = join(blocksDir, 'blocks.oracleGeneral');
writeFileSync(blocksFile, oracleGeneral(ids.length));
const shards = {};
try {
  for (const S of [32768, 131072]) {
    const probeMisses = [];
    const lcsMisses = [];
    for (let salt = 0; salt <= SALTS; salt++) {
      probeMisses.push(probeMissRatios(probe, trace, sizeArg, S, salt));
      if (mrcProfiler) lcsMisses.push(lcsShardsMissRatios(mrcProfiler, blocksFile, uniqueSizes, S, salt));
    }
    const p = probeMisses.map(maeOf);
    const l = lcsMisses.map(maeOf);
    shards[S] = { probeMisses, p, l };
    console.log(`  S = ${S.toLocaleString('en')} sampled blocks (R ≈ ${(S / fp).toFixed(3)}), ${SALTS + 1} salts each:`);
    console.log(errorLine('cacheproof-probe', p));
    console.log(mrcProfiler ? errorLine('libCacheSim mrcProfiler', l) : '    libCacheSim mrcProfiler      - (not built, above)');
    if (l.length) console.log(`    ratio of the mean errors cacheproof / libCacheSim ${(stats(p).mean / stats(l).mean).toFixed(3)}; salt by salt (probe / libCacheSim): ${p.map((x, k) => `${x.toFixed(4)}/${l[k].toFixed(4)}`).join(' ')}`);
  }
} finally {
  rmSync(blocksDir, { recursive: true, force: true });
}
// the exact distances of the same blocks: the floor of the 128K target, and (1b) after it
const model = floorModel(ids, uniqueSizes);
printTargets({ shards, floor: samplingFloor(model, 131072), regressionFloor: regressionFloor(model, 131072), footprint: model.keys.length, needed: model.needed, print: (l) => console.log(l) });
if (shardsOnly) process.exit(0);
for (const S of [32768, 131072]) shardsFloor({ model, size: S, salts: SALTS, probeMisses: shards[S].probeMisses, print: (l) => console.log(l) });
// the exact curve computed here is the probe's, size by size (the floor is worked from it)
console.log(`    (the exact miss ratios worked out here equal the probe's at all ${uniqueSizes.length} sizes: ${exactMiss.every((m, k) => Math.abs(m - model.exact[k]) < 1e-12) ? 'yes' : 'NO'})`);

// ---- (2) exact LRU throughput vs libCacheSim ------------------------------------------------
// The block sequence tiled until it holds at least minRefs references.
const copies = Math.ceil(minRefs / ids.length);
const total = ids.length * copies;
const work = mkdtempSync(join(tmpdir(), 'cacheproof-bench-cachesim-'));
const bin = join(work, 'blocks.oracleGeneral');
const buf = oracleGeneral(total);
writeFileSync(bin, buf);
console.log(`(2) exact LRU on the block sequence tiled ${copies}× = ${total.toLocaleString('en')} references (${(buf.length / 1e6).toFixed(0)} MB oracleGeneral file)`);

const fracs = [0.01, 0.05, 0.1, 0.25, 0.5];
const capBlocks = fracs.map((f) => Math.max(1, Math.round(f * fp)));
try {
  const oneSize = capBlocks.map((b) => {
    const r = simulate([bin, '--kind', 'oracle-general', '--policy', 'lru', '--writes', 'allocate', '--block', '4KiB', '--sizes', String(b * BLOCK), '--lru-by-simulation']);
    return { blocks: b, simS: r.json.policies[0].elapsedS, readS: r.json.input.readS, wallS: r.wallS, hit: r.json.policies[0].sizes[0].blockHitRatio };
  });
  const stack = simulate([bin, '--kind', 'oracle-general', '--policy', 'lru', '--writes', 'allocate', '--block', '4KiB', '--sizes', capBlocks.map((b) => String(b * BLOCK)).join(',')]);
  let lcs = null;
  if (lcsOk) {
    const p = spawnSync(py, [join(here, 'lcs_lru.py'), bin, String(BLOCK), capBlocks.join(',')], { encoding: 'utf8' });
    if (p.status !== 0) console.log(`    libcachesim run failed: ${p.stderr.trim().split('\n').slice(-3).join(' / ')}`);
    else lcs = p.stdout.trim().split('\n').map((l) => JSON.parse(l));
  }
  const mrps = (n, s) => `${(n / s / 1e6).toFixed(1)} M/s`;
  console.log('    one size per pass (cacheproof: --lru-by-simulation; rates over the simulation time, the file read apart):');
  console.log(`    ${'blocks'.padStart(8)} ${'cacheproof'.padStart(12)} ${'libcachesim'.padStart(12)} ${'ratio'.padStart(6)}   miss ratio cacheproof / libcachesim`);
  let ratios = [];
  for (let k = 0; k < capBlocks.length; k++) {
    const o = oneSize[k];
    const l = lcs?.[k];
    const ourMiss = 1 - o.hit;
    const ratio = l ? l.seconds / o.simS : null;
    if (ratio) ratios.push(ratio);
    const agree = l ? (Math.round(ourMiss * total) === Math.round(l.missRatio * total) ? 'agree' : 'DIFFER') : '';
    console.log(`    ${String(o.blocks).padStart(8)} ${mrps(total, o.simS).padStart(12)} ${(l ? mrps(total, l.seconds) : '-').padStart(12)} ${(ratio ? ratio.toFixed(2) + '×' : '-').padStart(6)}   ${ourMiss.toFixed(8)} / ${l ? l.missRatio.toFixed(8) : '-'} ${agree}`);
  }
  if (ratios.length) {
    const g = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
    const withRead = capBlocks.map((_, k) => lcs[k].seconds / (oneSize[k].simS + oneSize[k].readS));
    const g2 = Math.exp(withRead.reduce((a, r) => a + Math.log(r), 0) / withRead.length);
    console.log(`    geometric mean ratio ${g.toFixed(2)}× (target ≥ 2×: ${g >= 2 ? 'met' : 'NOT met'}); counting cacheproof's read of the file too (${fmt(oneSize[0].readS, 2)} s; libcachesim's timed pass reads its mmapped file as it goes): ${g2.toFixed(2)}×`);
  }
  const st = stack.json.policies[0];
  const lcsAll = lcs ? lcs.reduce((a, l) => a + l.seconds, 0) : null;
  console.log(`    all ${capBlocks.length} sizes: cacheproof's exact stack-distance pass ${fmt(st.elapsedS, 2)} s (${mrps(total, st.elapsedS)}), libcachesim ${capBlocks.length} passes ${lcsAll ? fmt(lcsAll, 2) + ' s' : '-'}${lcsAll ? ` (ratio ${(lcsAll / st.elapsedS).toFixed(2)}×)` : ''}`);
  let same = true;
  for (let k = 0; k < capBlocks.length; k++) {
    if (Math.round((1 - st.sizes[k].blockHitRatio) * total) !== Math.round((1 - oneSize[k].hit) * total)) same = false;
  }
  console.log(`    stack-distance curve equals the per-size simulation at all ${capBlocks.length} sizes: ${same ? 'yes' : 'NO'}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

}

// ---- (3) a prediction after a day's baseline -----------------------------------------------
let dayRate = null;
{
  const dayDir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-day-'));
  try {
    const rows = readFileSync(trace, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const csv = join(dayDir, 'day.csv');
    const fd = openSync(csv, 'w');
    writeSync(fd, 'version,time,op,size,lbn\n');
    const stepUs = 86_400e6 / dayRequests;
    let chunk = '';
    for (let r = 0; r < dayRequests; r++) {
      const [v, , op, size, lbn] = rows[r % rows.length];
      chunk += `${v},${Math.floor(r * stepUs)},${op},${size},${lbn}\n`;
      if (chunk.length > 1 << 20) { writeSync(fd, chunk); chunk = ''; }
    }
    writeSync(fd, chunk);
    closeSync(fd);
    const capture = join(dayDir, 'day.capture');
    execFileSync(probe, ['import-trace', 'cloudphysics', csv, '--out', capture], { stdio: 'ignore' });
    const cores = availableParallelism();
    console.log(`(3) predict after a day's baseline: ${dayRequests.toLocaleString('en')} requests over 24 h (the CloudPhysics requests tiled; ${(statSync(capture).size / 1e6).toFixed(0)} MB capture), 1 GiB cache, six policies:`);
    const runs = [];
    const predict = (threads, extra) => {
      const t = spawnSync('/usr/bin/time', ['-f', '%e %U %M', probe, 'predict', capture, '--size', '1GiB', '--cache-device', 'nvme', '--policy', 'lru,fifo,clock,arc,2q,s3fifo', '--threads', String(threads), ...extra, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (t.status !== 0) throw new Error(`predict failed: ${t.stderr.trim().split('\n').slice(-2).join(' / ')}`);
      const [wall, cpu, rssKb] = t.stderr.trim().split('\n').at(-1).split(' ').map(Number);
      return { threads, wall, cpu, rssKb, out: t.stdout, json: JSON.parse(t.stdout) };
    };
    for (const threads of [...new Set([1, cores])]) {
      const r = predict(threads, []);
      runs.push(r);
      console.log(`    miniature, --threads ${threads}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU, ${(r.rssKb / 1024).toFixed(0)} MB peak`);
    }
    const exact = predict(1, ['--exact']);
    console.log(`    --exact (before), --threads 1: ${exact.wall.toFixed(1)} s wall, ${exact.cpu.toFixed(1)} s CPU, ${(exact.rssKb / 1024).toFixed(0)} MB peak`);
    const out = runs[0].json;
    const m = out.miniature;
    dayRate = m?.rate ?? null;
    console.log(`    ${out.reads.toLocaleString('en')} reads, ${m ? `${m.references.toLocaleString('en')} block references: the miniature keeps ${m.keptReferences.toLocaleString('en')} (R = ${m.rate.toFixed(5)}, budget ${m.budgetReferences.toLocaleString('en')}) for ${m.policies.join(', ')}; stated error (expected MAE of the read hit ratio from the sampling) ≤ ${m.expectedMeanAbsError.toFixed(4)}` : 'NO miniature (every request replayed)'}; the reports of every thread count identical: ${runs.every((r) => r.out === runs[0].out) ? 'yes' : 'NO'}`);
    for (const p of out.policies) {
      const e = exact.json.policies.find((q) => q.policy === p.policy);
      const d = p.curve.map((c, k) => Math.abs(c.readHitRatio - e.curve[k].readHitRatio));
      console.log(`    ${p.policy.padEnd(7)} ${p.method.padEnd(21)} I/Os saved at 1 GiB ${p.iosSavedPercent.toFixed(2)} % (exact ${e.iosSavedPercent.toFixed(2)} %); curve against the exact one: MAE ${(d.reduce((a, b) => a + b, 0) / d.length).toFixed(4)}, max ${Math.max(...d).toFixed(4)} (stated ${p.expectedMeanAbsError.toFixed(4)})`);
    }
    const w = runs[0].wall;
    console.log(`  TARGET (3) the day's prediction ≤ 5 s on one thread: ${w <= 5 ? 'PASS' : 'FAIL'} — ${w.toFixed(1)} s wall (${runs[0].cpu.toFixed(1)} s CPU) against ${exact.wall.toFixed(1)} s with --exact in this run (99.1 s before, 2026-11-26), ${(exact.wall / w).toFixed(1)}× faster`);
  } finally {
    rmSync(dayDir, { recursive: true, force: true });
  }
}

// ---- (4) the miniature's accuracy on the real traces, at the rate of (3) ---------------------
if (dayRate !== null) {
  const dir = join(root, '..', 'shared', 'realdata', 'block_traces');
  miniatureAccuracy({
    probe,
    rate: dayRate,
    cachesim,
    print: (l) => console.log(l),
    traces: [
      { kind: 'cloudphysics', file: trace, name: 'CloudPhysics' },
      { kind: 'msn', file: join(dir, 'huaicheng_MSN-FS-30s-ms.trace'), name: 'MSN' },
    ],
  });
} else console.log('(4) not run: the day\'s prediction of (3) replayed every request (no miniature rate to measure at)');
