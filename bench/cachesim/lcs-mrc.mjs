// libCacheSim's own SHARDS estimator, the real one: its `mrcProfiler` program
// (libCacheSim/mrcProfiler/mrcProfiler.cpp, `--profiler=SHARDS --profiler-params=FIX_SIZE,S,SALT`),
// built from the libCacheSim source that the `libcachesim` package on PyPI ships (its sdist holds
// the whole C/C++ tree; the wheel's Python module does not expose the profiler). Fetched with
// `pip download --no-binary :all:` (a package registry), built with cmake into
// bench/cachesim/.venv/lcs-build (gitignored with the venv) once, then reused.
// Needs cmake, g++, glib and zstd headers (scripts/ensure.mjs BENCH_PACKAGES, installed by
// `npm run bench` through apt-get).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mix64 } from './shards-floor.mjs';

/** The path of the built mrcProfiler, building it when absent; null (with the reason printed) when it cannot be. */
export function ensureMrcProfiler(venv, print) {
  return ensureLcsProgram(venv, 'mrcProfiler', print);
}

/**
 * The path of libCacheSim's `cachesim` program (its simulator: `cachesim TRACE oracleGeneral
 * ALGOS SIZES --sample-ratio R`), built the same way from the same sdist; null when it cannot be.
 */
export function ensureCachesim(venv, print) {
  return ensureLcsProgram(venv, 'cachesim', print);
}

/** One program of the libCacheSim source tree (a cmake target), built once into .venv/lcs-build/build/bin. */
function ensureLcsProgram(venv, target, print) {
  const dir = join(venv, 'lcs-build');
  const bin = join(dir, 'build', 'bin', target);
  if (existsSync(bin)) return bin;
  const pip = join(venv, 'bin', 'pip');
  const py = join(venv, 'bin', 'python');
  const step = (what, cmd, args, opts = {}) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
    if (r.status !== 0) throw new Error(`${what} failed: ${`${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').slice(-3).join(' / ')}`);
    return r.stdout;
  };
  try {
    mkdirSync(dir, { recursive: true });
    // the same version as the installed wheel (whose LRU part (2) times)
    const version = execFileSync(py, ['-c', "import importlib.metadata as m; print(m.version('libcachesim'))"]).toString().trim();
    print(`    building libCacheSim ${version}'s ${target} from the libcachesim sdist on PyPI (once; about 2 minutes) …`);
    let sdist = readdirSync(dir).find((f) => f === `libcachesim-${version}.tar.gz`);
    if (!sdist) {
      step('pip download', pip, ['download', '--quiet', '--no-binary', ':all:', '--no-deps', '--dest', dir, `libcachesim==${version}`]);
      sdist = readdirSync(dir).find((f) => f.startsWith('libcachesim-') && f.endsWith('.tar.gz'));
    }
    if (!sdist) throw new Error('pip download left no libcachesim-*.tar.gz');
    step('tar', 'tar', ['xzf', join(dir, sdist), '-C', dir]);
    const src = join(dir, sdist.replace(/\.tar\.gz$/, ''), 'src', 'libCacheSim');
    const build = join(dir, 'build');
    mkdirSync(build, { recursive: true });
    step('cmake', 'cmake', ['-S', src, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DENABLE_TESTS=OFF']);
    step('make', 'make', ['-C', build, '-j2', target]);
    if (!existsSync(bin)) throw new Error(`the build left no ${bin}`);
    writeFileSync(join(dir, 'SOURCE'), `libcachesim ${version} sdist from PyPI (${sdist})\n`);
    return bin;
  } catch (e) {
    print(`    libCacheSim's ${target} could not be built: ${e.message}`);
    return null;
  }
}

/**
 * The salt given to mrcProfiler for the bench's salt K. mrcProfiler hashes `id XOR salt` (salt
 * read with atoi: 31 bits): small salts 1, 2, … only swap neighbouring block numbers, and on a
 * trace of runs of consecutive blocks they pick nearly the same blocks — not independent samples.
 * So K is spread over 31 bits as the probe spreads its own (splitmix64); K = 0 stays 0.
 */
export function lcsSalt(k) {
  return k === 0 ? 0 : Number(mix64(BigInt(k)) & 0x7fffffffn);
}

/**
 * libCacheSim's fixed-size SHARDS miss ratios of the oracleGeneral block file `file` (4 KiB
 * objects) at `blocks` (ascending cache sizes in blocks), sampling `size` objects, the bench's
 * salt `k` (lcsSalt).
 */
export function lcsShardsMissRatios(bin, file, blocks, size, k) {
  const salt = lcsSalt(k);
  // explicit sizes with a unit (a bare number is read as a share of the working set)
  const sizes = blocks.map((b) => `${b * 4}K`).join(',');
  const out = execFileSync(bin, [file, 'oracleGeneral', '--algo=LRU', '--profiler=SHARDS', `--profiler-params=FIX_SIZE,${size},${salt}`, `--size=${sizes}`], { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const rows = out.split('\n').map((l) => /^(\d+)B\t([\d.]+)\t/.exec(l)).filter(Boolean);
  if (rows.length !== blocks.length) throw new Error(`mrcProfiler printed ${rows.length} sizes, ${blocks.length} asked`);
  rows.forEach((m, k) => {
    if (Number(m[1]) !== blocks[k] * 4096) throw new Error(`mrcProfiler size ${m[1]} B where ${blocks[k] * 4096} B was asked`);
  });
  return rows.map((m) => Number(m[2]));
}
