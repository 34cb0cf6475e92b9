// Part (4) of bench/cachesim (run.mjs): the miniature simulation's accuracy (docs/simulate.md
// § Benchmark) on the real CloudPhysics and MSN block traces, at the sampling rate the day's
// prediction of part (3) really used. For each of LRU, FIFO, CLOCK, ARC, 2Q and S3-FIFO: the
// probe's miniature curve (`simulate --miniature R`) against its exact curve (`simulate`), and
// beside it libCacheSim's own sampled simulation (`cachesim … --sample-ratio R`, on caches of
// R × each size, built by lcs-mrc.mjs from the libcachesim sdist on PyPI) against libCacheSim's
// exact run: mean absolute error of the block miss ratio over 25 sizes spaced evenly on a log
// scale from 64 blocks to the footprint. The reads only (predict's model: writes bypass the
// cache), 4 KiB blocks, each read referencing its blocks in address order.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BLOCK = 4096;
export const POLICIES = ['lru', 'fifo', 'clock', 'arc', '2q', 's3fifo'];
// libCacheSim's names of the same policies (its cache_init.h)
const LCS = { lru: 'LRU', fifo: 'FIFO', clock: 'Clock', arc: 'ARC', '2q': 'TwoQ', s3fifo: 'S3FIFO' };
export const TARGET_MAE = 0.01;

/** The 4 KiB block keys of a trace's reads, in order (the device in the top bits, as the probe keys them). */
function readBlocks(kind, file) {
  const keys = [];
  const push = (dev, offset, bytes) => {
    for (let b = Math.floor(offset / BLOCK); b <= Math.floor((offset + bytes - 1) / BLOCK); b++) keys.push((BigInt(dev) << 44n) | BigInt(b));
  };
  const lines = readFileSync(file, 'utf8').split('\n');
  const devs = new Map();
  for (const l of lines) {
    if (kind === 'cloudphysics') {
      const c = l.split(',');
      if (c.length < 5 || c[0] === 'version') continue;
      if (['08', '28', 'a8', '88'].includes(c[2].trim().toLowerCase()) && Number(c[3]) > 0) push(0, Number(c[4]) * 512, Number(c[3]));
    } else {
      const c = l.trim().split(/\s+/);
      if (c.length < 5 || c[4] !== '1' || Number(c[3]) <= 0) continue;
      if (!devs.has(c[1])) devs.set(c[1], devs.size);
      push(devs.get(c[1]), Number(c[2]) * 512, Number(c[3]) * 512);
    }
  }
  return keys;
}

function oracleGeneral(keys, path) {
  const buf = Buffer.alloc(keys.length * 24);
  keys.forEach((k, r) => {
    const o = r * 24;
    buf.writeUInt32LE(Math.floor(r / 1_000_000), o);
    buf.writeBigUInt64LE(k, o + 4);
    buf.writeUInt32LE(BLOCK, o + 12);
    buf.writeBigInt64LE(-1n, o + 16);
  });
  writeFileSync(path, buf);
}

/** libCacheSim's miss ratios, policy by policy, at `blocks` (with `rate` < 1: --sample-ratio, caches of R × each size). */
function lcsMissRatios(cachesim, file, blocks, rate, work) {
  const bytes = blocks.map((b) => Math.max(1, Math.round(b * (rate ?? 1))) * BLOCK);
  const uniq = [...new Set(bytes)].sort((a, b) => a - b);
  const args = [file, 'oracleGeneral', POLICIES.map((p) => LCS[p]).join(','), uniq.join(','), '--num-thread=1', '-o', join(work, 'lcs-out')];
  if (rate && rate < 1) args.push(`--sample-ratio=${rate}`);
  const out = execFileSync(cachesim, args, { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const rows = out.split('\n').map((l) => / (\S+) cache size\s+\S+, \d+ req, miss ratio ([\d.]+),/.exec(l)).filter(Boolean);
  if (rows.length !== POLICIES.length * uniq.length) throw new Error(`cachesim printed ${rows.length} results, ${POLICIES.length * uniq.length} asked`);
  const res = {};
  POLICIES.forEach((p, k) => {
    const mine = rows.slice(k * uniq.length, (k + 1) * uniq.length).map((m) => Number(m[2]));
    res[p] = bytes.map((b) => mine[uniq.indexOf(b)]);
  });
  return res;
}

const mae = (a, b) => a.reduce((s, x, k) => s + Math.abs(x - b[k]), 0) / a.length;

/**
 * Prints part (4) and returns its verdicts: { trace, policy, probe, lcs, pass }[]. `rate`: the
 * sampling rate of the day's prediction (part 3); `cachesim`: libCacheSim's program or null.
 */
export function miniatureAccuracy({ probe, traces, rate, cachesim, print }) {
  const results = [];
  const work = mkdtempSync(join(tmpdir(), 'cacheproof-bench-mini-'));
  try {
    print(`(4) miniature simulation against the exact curve, at the rate the day's prediction used (R = ${rate.toFixed(5)}), reads only (writes bypass), 4 KiB blocks, block miss ratio, 25 sizes log spaced from 64 blocks to the footprint; beside it libCacheSim's cachesim --sample-ratio ${rate.toFixed(5)} on caches of R × each size, against its own exact run. TARGET: mean absolute error ≤ ${TARGET_MAE} for every policy`);
    for (const { kind, file, name } of traces) {
      const sim = (args) => JSON.parse(execFileSync(probe, ['simulate', file, '--kind', kind, '--writes', 'bypass', ...args, '--json', '--quiet'], { maxBuffer: 1 << 28 }).toString());
      const fp = sim(['--sizes', '4KiB']).footprintBlocks;
      const blocks = [...new Set(Array.from({ length: 25 }, (_, k) => Math.max(1, Math.round(Math.exp(Math.log(64) + (Math.log(fp) - Math.log(64)) * (k / 24))))))];
      const sizes = ['--policy', POLICIES.join(','), '--sizes', blocks.map((b) => String(b * BLOCK)).join(',')];
      let t = performance.now();
      const exact = sim(sizes);
      const exactS = (performance.now() - t) / 1000;
      t = performance.now();
      const mini = sim([...sizes, '--miniature', String(rate)]);
      const miniS = (performance.now() - t) / 1000;
      const miss = (j, k) => j.policies[k].sizes.map((s) => 1 - s.blockHitRatio);
      let lcsExact = null;
      let lcsMini = null;
      let lcsNote = '';
      if (cachesim) {
        const keys = readBlocks(kind, file);
        if (keys.length !== exact.references) lcsNote = ` (NOTE: ${keys.length} block references written for libCacheSim, the probe counted ${exact.references})`;
        const og = join(work, `${kind}.oracleGeneral`);
        oracleGeneral(keys, og);
        lcsExact = lcsMissRatios(cachesim, og, blocks, null, work);
        lcsMini = lcsMissRatios(cachesim, og, blocks, rate, work);
      }
      print(`  ${name}: ${exact.input.readRequests.toLocaleString('en')} reads, ${exact.references.toLocaleString('en')} block references, footprint ${fp.toLocaleString('en')} blocks; miniature ${mini.sampling.sampled.toLocaleString('en')} references kept (${(mini.sampling.sampled / exact.references).toFixed(4)}); probe exact ${exactS.toFixed(1)} s, miniature ${miniS.toFixed(1)} s${lcsNote}`);
      print(`    ${'policy'.padEnd(8)} ${'probe MAE'.padStart(10)} ${'max'.padStart(7)} ${'libCacheSim MAE'.padStart(16)} ${'max'.padStart(7)}   verdict (probe ≤ ${TARGET_MAE})`);
      POLICIES.forEach((p, k) => {
        const e = miss(exact, k);
        const m = miss(mini, k);
        const pm = mae(m, e);
        const pmax = Math.max(...m.map((x, i) => Math.abs(x - e[i])));
        const lm = lcsMini ? mae(lcsMini[p], lcsExact[p]) : null;
        const lmax = lcsMini ? Math.max(...lcsMini[p].map((x, i) => Math.abs(x - lcsExact[p][i]))) : null;
        const pass = pm <= TARGET_MAE;
        results.push({ trace: name, policy: p, probe: pm, lcs: lm, pass });
        print(`    ${p.padEnd(8)} ${pm.toFixed(5).padStart(10)} ${pmax.toFixed(4).padStart(7)} ${(lm === null ? '-' : lm.toFixed(5)).padStart(16)} ${(lmax === null ? '-' : lmax.toFixed(4)).padStart(7)}   ${pass ? 'PASS' : 'FAIL'}`);
      });
      if (lcsExact) {
        const d = POLICIES.map((p, k) => `${p} ${mae(miss(exact, k), lcsExact[p]).toFixed(4)}`).join(', ');
        print(`    the two exact curves apart (mean |probe − libCacheSim|, their policies' variants differ): ${d}`);
      }
    }
    const all = results.every((r) => r.pass);
    print(`  TARGET (4) miniature MAE ≤ ${TARGET_MAE} for every policy on both traces: ${all ? 'PASS' : 'FAIL'} (largest ${Math.max(...results.map((r) => r.probe)).toFixed(5)})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}
