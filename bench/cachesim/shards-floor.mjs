// Why the SHARDS error of bench/cachesim is what it is (docs/simulate.md § Benchmark): figures
// worked out from the exact LRU stack distances of the same block sequence, in this process.
//
// - The sampling floor. A spatial sample keeps each block with probability R; whatever the
//   estimator does with the distances, its miss ratio at a size C is Σ over sampled blocks of
//   their misses m_b(C), divided by R·N (N references): even with every distance exact, its
//   standard deviation is √((1−R)/R · Σ_b m_b(C)²) / N. Printed: the expected mean absolute error
//   of that estimate over the sizes (normal approximation, E|X| = σ·√(2/π)), and an "oracle"
//   that knows every exact distance and samples the same blocks as each salted run of the probe
//   (the S lowest hashes of splitmix64(block XOR splitmix64(salt)) mod 2^24, the probe's
//   hash), so that the probe's error can be set beside the sampling's alone, salt by salt.
// - The same for the probe's estimator (`calibrated-regression`, sim/stack.rs
//   calibrated_hit_ratios): over the sampled blocks, the least-squares fit m_b(C) ≈ β₁·n_b + β₂
//   (n_b: block b's references), the misses β₁·N + β₂·F with N and F (the footprint) known
//   exactly. Its floor: the regression estimator's standard deviation √((1−R)/R · Σ_b e_b(C)²)/N,
//   e_b the residuals of that fit over every block (Särndal, Swensson & Wretman 1992, § 6.5), and
//   its oracle on the same blocks as each probe run, exact distances.
// - libCacheSim's own profiler (libCacheSim/mrcProfiler/mrcProfiler.cpp, fixed_sample_size_run,
//   read in its source): the same estimator written again here from that source's rules — the
//   distance is the inclusive one (the accessed block counted: d + 1) divided by the rate, a
//   reference hits at every size ≥ that distance, the rate is the largest kept hash after the new
//   block's insertion, the first-bucket correction goes to the smallest size. Its hash is a 64-bit
//   xxhash in libCacheSim; here the probe's own hash (with 24 more bits to break ties), so that it
//   samples the same blocks as the probe's run of the same salt and the two pair up.
import { execFileSync } from 'node:child_process';

const M64 = 0xffffffffffffffffn;
/** splitmix64, as native/crates/sim/src/stack.rs `mix`. */
export function mix64(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}

/** Exact LRU stack distances (−1: first reference) and each reference's block index. */
export function stackDistances(ids) {
  const n = ids.length;
  const fen = new Int32Array(n + 1);
  const add = (i, d) => { for (i++; i <= n; i += i & -i) fen[i] += d; };
  const pre = (i) => { let s = 0; for (i++; i > 0; i &= i - 1) s += fen[i]; return s; };
  const last = new Map();
  const index = new Map();
  const dist = new Float64Array(n);
  const block = new Int32Array(n);
  let live = 0;
  for (let t = 0; t < n; t++) {
    const k = ids[t];
    let b = index.get(k);
    if (b === undefined) { b = index.size; index.set(k, b); }
    block[t] = b;
    const p = last.get(k);
    if (p === undefined) { dist[t] = -1; live++; } else { dist[t] = live - pre(p); add(p, -1); }
    add(t, 1);
    last.set(k, t);
  }
  return { dist, block, keys: [...index.keys()] };
}

/** Per-block misses at each size (blocks) and the exact miss ratios. */
export function missesBySize(dist, block, blocks, sizes) {
  const miss = sizes.map(() => new Float64Array(blocks));
  const total = sizes.map(() => 0);
  for (let t = 0; t < dist.length; t++) {
    const d = dist[t];
    for (let s = 0; s < sizes.length; s++) if (d < 0 || d >= sizes[s]) { miss[s][block[t]]++; total[s]++; }
  }
  return { miss, exact: total.map((m) => m / dist.length) };
}

/** The expected MAE of a spatial sample at rate r (normal approximation). */
export function expectedMae(miss, n, r) {
  let sum = 0;
  for (const m of miss) {
    let q = 0;
    for (const x of m) q += x * x;
    sum += Math.sqrt(2 / Math.PI) * Math.sqrt(((1 - r) / r) * q) / n;
  }
  return sum / miss.length;
}

/** The blocks sampled by the probe's fixed-size SHARDS of `size` blocks under `salt`: the lowest hashes mod 2^24, and the rate. */
function lowestHashes(keys, salt, size) {
  const sm = salt === 0 ? 0n : mix64(BigInt(salt));
  const hs = keys.map((k, i) => [Number(mix64(BigInt(k) ^ sm) & 0xffffffn), i]);
  hs.sort((a, b) => a[0] - b[0]);
  const kept = new Uint8Array(keys.length);
  for (let j = 0; j < size; j++) kept[hs[j][1]] = 1;
  return { kept, rate: hs[size][0] / 2 ** 24 };
}

/** Least squares m_b ≈ β₁·n_b + β₂ over the blocks whose `kept` is 1 (every block: null), at each size. */
function fits(miss, nb, kept) {
  let k = 0, sn = 0, snn = 0;
  for (let b = 0; b < nb.length; b++) if (!kept || kept[b]) { k++; sn += nb[b]; snn += nb[b] * nb[b]; }
  const det = snn * k - sn * sn;
  return miss.map((m) => {
    let sm = 0, smn = 0;
    for (let b = 0; b < m.length; b++) if (!kept || kept[b]) { sm += m[b]; smn += m[b] * nb[b]; }
    return [(smn * k - sn * sm) / det, (snn * sm - sn * smn) / det];
  });
}

/** The calibrated-regression oracle's miss ratios: the fit over the sampled blocks' exact misses, (β₁·N + β₂·F) / N. */
function regressionOracle(model, kept) {
  return fits(model.miss, model.nb, kept).map(([b1, b2]) => (b1 * model.n + b2 * model.keys.length) / model.n);
}

/** The calibrated-regression estimator's floor at `size` sampled blocks: the expected MAE from the residuals of the fit over every block. */
export function regressionFloor(model, size) {
  const { miss, nb, n, keys } = model;
  const r = size / keys.length;
  const sum = fits(miss, nb, null).reduce((acc, [b1, b2], s) => {
    let q = 0;
    for (let b = 0; b < nb.length; b++) q += (miss[s][b] - b1 * nb[b] - b2) ** 2;
    return acc + Math.sqrt(2 / Math.PI) * Math.sqrt(((1 - r) / r) * q) / n;
  }, 0);
  return { rate: r, expected: sum / miss.length };
}

/** The oracle's miss ratios: the exact misses of the sampled blocks, scaled by the rate. */
function oracle(miss, n, kept, rate) {
  return miss.map((m) => {
    let s = 0;
    for (let b = 0; b < m.length; b++) if (kept[b]) s += m[b];
    return s / rate / n;
  });
}

const mae = (a, b) => a.reduce((s, x, i) => s + Math.abs(x - b[i]), 0) / a.length;

/**
 * libCacheSim's fixed-size SHARDS profiler (see the file's header), on block indices `block` of
 * blocks whose 64-bit hashes are `u` (as fractions of 2^64); miss ratios at `sizes` (ascending).
 */
export function libcachesimFixedSize(block, u, sizes, size) {
  const n = block.length;
  const fen = new Int32Array(n + 1);
  const add = (i, d) => { for (i++; i <= n; i += i & -i) fen[i] += d; };
  const pre = (i) => { let s = 0; for (i++; i > 0; i &= i - 1) s += fen[i]; return s; };
  const last = new Map(); // tracked block → time of its last reference
  const heap = []; // max-heap of tracked blocks by hash
  const up = (i) => { while (i > 0) { const p = (i - 1) >> 1; if (u[heap[p]] >= u[heap[i]]) break; [heap[p], heap[i]] = [heap[i], heap[p]]; i = p; } };
  const down = (i) => { for (;;) { const l = 2 * i + 1; const r = l + 1; let m = i; if (l < heap.length && u[heap[l]] > u[heap[m]]) m = l; if (r < heap.length && u[heap[r]] > u[heap[m]]) m = r; if (m === i) break; [heap[m], heap[i]] = [heap[i], heap[m]]; i = m; } };
  const hit = new Float64Array(sizes.length);
  let sampled = 0;
  let live = 0;
  for (let t = 0; t < n; t++) {
    const b = block[t];
    const tracked = last.has(b);
    const full = heap.length >= size;
    if (full && !tracked && u[b] >= u[heap[0]]) continue;
    if (!tracked) {
      heap.push(b);
      up(heap.length - 1);
      if (heap.length > size) {
        const top = heap[0];
        heap[0] = heap[heap.length - 1];
        heap.pop();
        down(0);
        add(last.get(top), -1);
        last.delete(top);
        live--;
      }
    }
    const rate = heap.length >= size ? u[heap[0]] : 1;
    sampled += 1 / rate;
    if (tracked) {
      const p = last.get(b);
      const inclusive = live - pre(p - 1);
      const d = Math.floor(inclusive / rate);
      let i = 0;
      while (i < sizes.length && sizes[i] < d) i++; // lower_bound: the first size ≥ the distance
      if (i < sizes.length) hit[i] += 1 / rate;
      add(p, -1);
    } else {
      live++;
    }
    add(t, 1);
    last.set(b, t);
  }
  hit[0] += n - sampled;
  let cum = 0;
  return [...hit].map((h) => { cum += h; return Math.min(1, Math.max(0, 1 - cum / n)); });
}

/**
 * What every sample size shares: the exact stack distances of the block references `ids`, each
 * block's misses at `sizes`, the exact miss ratios, and how many blocks a sample needs for an
 * expected mean absolute error of 0.001.
 */
export function floorModel(ids, sizes) {
  const { dist, block, keys } = stackDistances(ids);
  const { miss, exact } = missesBySize(dist, block, keys.length, sizes);
  const n = ids.length;
  const nb = new Float64Array(keys.length);
  for (const b of block) nb[b]++;
  return { ids, sizes, block, keys, miss, nb, exact, n, needed: needed(miss, n, keys.length) };
}

/** The sampling floor at `size` sampled blocks: the rate R and the expected mean absolute error of any such sample with every distance exact. */
export function samplingFloor(model, size) {
  const rate = size / model.keys.length;
  return { rate, expected: expectedMae(model.miss, model.n, rate) };
}

/**
 * The floor, the oracle beside the probe for `salts` (0..salts), and libCacheSim's estimator
 * over the same salts, at `size` sampled blocks; prints its lines and returns the figures.
 */
export function shardsFloor({ model, size, salts, probeMisses, print }) {
  const { sizes, block, keys, miss, exact, n } = model;
  const { rate: r, expected } = samplingFloor(model, size);
  print(`(1b) why, at S = ${size.toLocaleString('en')}: the sampling of ${size.toLocaleString('en')} of the ${keys.length.toLocaleString('en')} blocks (R ≈ ${r.toFixed(4)}), worked out from the exact distances of the same ${n.toLocaleString('en')} references`);
  print(`    any spatial sample of that many blocks, even with every reuse distance exact, errs by √((1−R)/R · Σ m_b(C)²)/N at size C (m_b: block b's misses):`);
  print(`    expected mean absolute error over the ${sizes.length} sizes ${expected.toFixed(5)}; for 0.001, about ${model.needed.toLocaleString('en')} blocks (${(100 * model.needed / keys.length).toFixed(0)} % of the footprint) must be sampled`);
  print(`    the trace has ${(n / keys.length).toFixed(1)} references per block: a sampled block carries few, and at the largest sizes almost every miss is a first reference, so the curve there is a count of the sampled blocks (± ${(100 / Math.sqrt(size)).toFixed(2)} % of it); the 1 % of blocks with the most misses carry ${(100 * heaviest(miss[Math.floor(sizes.length / 2)], Math.round(keys.length / 100))).toFixed(1)} % of Σ m_b² at ${sizes[Math.floor(sizes.length / 2)]} blocks: no few blocks dominate`);
  const reg = regressionFloor(model, size).expected;
  print(`    the probe's estimator (calibrated-regression: m_b(C) ≈ β₁·n_b + β₂ fitted over the sampled blocks, misses β₁·N + β₂·F) errs by √((1−R)/R · Σ e_b(C)²)/N, e_b the residuals of that fit over every block: expected ${reg.toFixed(5)} (${(reg / expected).toFixed(2)}× the floor above)`);
  const rows = [];
  for (let salt = 0; salt <= salts; salt++) {
    const { kept, rate } = lowestHashes(keys, salt, size);
    const o = mae(oracle(miss, n, kept, rate), exact);
    const g = mae(regressionOracle(model, kept), exact);
    const p = probeMisses[salt] === undefined ? null : mae(probeMisses[salt], exact);
    rows.push({ salt, oracle: o, regression: g, probe: p });
  }
  print(`    salt by salt, the probe's fixed-size SHARDS beside oracles that sample the same blocks and know every exact distance, Σ m_b / (R·N) and the regression (probe / oracle / regression oracle):`);
  print(`    ${rows.map((x) => `${x.salt}: ${x.probe === null ? '-' : x.probe.toFixed(4)} / ${x.oracle.toFixed(4)} / ${x.regression.toFixed(4)}`).join('; ')}`);
  const meanOf = (k) => rows.reduce((s, x) => s + (x[k] ?? 0), 0) / rows.length;
  const worse = rows.filter((x) => x.probe !== null && x.probe > x.regression).length;
  print(`    mean over those ${rows.length} samples: the probe ${meanOf('probe').toFixed(5)}, the oracle ${meanOf('oracle').toFixed(5)}, the regression oracle ${meanOf('regression').toFixed(5)}; the probe above the regression oracle in ${worse} of ${rows.length} (what it adds: its distances estimated among the sampled blocks, d/R)`);
  const many = [];
  const manyReg = [];
  for (let salt = 1000; salt < 1100; salt++) {
    const { kept, rate } = lowestHashes(keys, salt, size);
    many.push(mae(oracle(miss, n, kept, rate), exact));
    manyReg.push(mae(regressionOracle(model, kept), exact));
  }
  many.sort((a, b) => a - b);
  print(`    the oracle over 100 more samples: mean ${(many.reduce((a, b) => a + b, 0) / many.length).toFixed(5)}, median ${((many[49] + many[50]) / 2).toFixed(5)}, from ${many[0].toFixed(5)} to ${many[99].toFixed(5)}; ${many.filter((m) => m <= 0.001).length} of 100 ≤ 0.001; the regression oracle: mean ${(manyReg.reduce((a, b) => a + b, 0) / manyReg.length).toFixed(5)}, ${manyReg.filter((m) => m <= 0.001).length} of 100 ≤ 0.001`);
  const lcs = libcachesimOnProbeHash(block, keys, sizes, size, salts).map((m) => mae(m, exact));
  const lcsSorted = [...lcs].sort((a, b) => a - b);
  print(`(1c) libCacheSim's own profiler estimator (mrcProfiler.cpp fixed_sample_size_run, its rules written again here) on the same blocks as each probe run above, FIX_SIZE ${size}:`);
  print(`    salt by salt ${lcs.map((m, i) => `${i}: ${m.toFixed(4)}`).join('; ')}`);
  print(`    mean absolute error ${(lcs.reduce((a, b) => a + b, 0) / lcs.length).toFixed(5)} on average (the probe ${meanOf('probe').toFixed(5)}), median ${lcsSorted[Math.floor(lcs.length / 2)].toFixed(5)}, from ${lcsSorted[0].toFixed(5)} to ${lcsSorted[lcs.length - 1].toFixed(5)}; ${lcs.filter((m) => m <= 0.001).length} of ${lcs.length} ≤ 0.001`);
  const paired = rows.filter((x) => x.probe !== null).map((x) => Math.abs(x.probe - lcs[x.salt]));
  const gap = paired.reduce((a, b) => a + b, 0) / Math.max(1, paired.length);
  print(`    on the same blocks the two estimators differ by ${gap.toFixed(5)} on average salt by salt (at most ${Math.max(0, ...paired).toFixed(5)})${gap <= 0.05 * meanOf('probe') ? ', under 5 % of the error: the same estimate, so a gap between the two programs is which blocks their hashes pick, not how they estimate' : ': the estimators themselves differ (the probe calibrates its curve on the exact references and footprint; mrcProfiler weighs the sampled references alone)'}`);
  print(`    its published MAE of 0.076 % (FIX_SIZE 32768) is on another trace: cluster52.oracleGeneral.sample10, 1.3 billion requests, 10 sizes from 10 MB to 100 MB (doc/quickstart_mrcProfiler.md); this one has ${n.toLocaleString('en')} references`);
  return { expected, regression: reg, rows, many, manyReg, lcs };
}

/**
 * libCacheSim's rules on the probe's own hash (its 24 bits first, 24 more bits to break ties as
 * a 64-bit hash would): the same blocks as each probe run, so the two estimators pair up. Miss
 * ratios at `sizes` for salts 0..salts.
 */
function libcachesimOnProbeHash(block, keys, sizes, size, salts) {
  const curves = [];
  for (let salt = 0; salt <= salts; salt++) {
    const sm = salt === 0 ? 0n : mix64(BigInt(salt));
    const u = keys.map((k) => {
      const h = mix64(BigInt(k) ^ sm);
      return Number(h & 0xffffffn) / 2 ** 24 + Number(h >> 40n) / 2 ** 48;
    });
    curves.push(libcachesimFixedSize(block, u, sizes, size));
  }
  return curves;
}

/** Blocks to sample for an expected MAE of 0.001 (bisection on the rate). */
function needed(miss, n, blocks) {
  let lo = 1e-4;
  let hi = 1;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (expectedMae(miss, n, mid) > 0.001) lo = mid; else hi = mid;
  }
  return Math.round(hi * blocks);
}

/** The share of Σ m_b² the `k` blocks with the most misses carry. */
function heaviest(m, k) {
  const s = [...m].sort((a, b) => b - a).map((x) => x * x);
  const total = s.reduce((a, b) => a + b, 0);
  return s.slice(0, k).reduce((a, b) => a + b, 0) / total;
}

/** The probe's miss ratios of one salted fixed-size run. */
export function probeMissRatios(probe, trace, sizeArg, size, salt) {
  const j = JSON.parse(execFileSync(probe, ['simulate', trace, '--kind', 'cloudphysics', '--policy', 'lru', '--writes', 'allocate', '--block', '4KiB', '--sizes', sizeArg, '--sample', `fixed-size=${size}`, '--sample-salt', String(salt), '--json', '--quiet'], { maxBuffer: 1 << 28 }).toString());
  return j.policies[0].sizes.map((x) => 1 - x.blockHitRatio);
}
