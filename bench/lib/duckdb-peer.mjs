// The analysis's and the CSV report's peer: DuckDB (from PyPI, in bench/lib/.venv) doing the
// same work on the same interval rows, read from its own columnar file (duckdb_peer.py says what
// it computes). The DuckDB file is made from the capture once and kept beside it.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './synthetic.mjs';
import { pythonWith } from './pyenv.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, 'duckdb_peer.py');

/** The capture's baseline and measure windows (UTC ms) and its backing devices' ids, as the analysis takes them (sqlite3 shell). */
export function captureWindows(capture) {
  const q = (sql) => JSON.parse(spawnSync('sqlite3', ['-json', capture, sql], { encoding: 'utf8' }).stdout || '[]');
  const phase = (name) => {
    const p = q(`SELECT start_utc_ms AS s, end_utc_ms AS e FROM phases WHERE name = '${name}' ORDER BY start_utc_ms LIMIT 1`)[0];
    return p === undefined ? null : { startMs: p.s, endMs: p.e };
  };
  return { windows: { baseline: phase('baseline'), measure: phase('measure') }, backingIds: q("SELECT id FROM devices WHERE role = 'backing' ORDER BY id").map((d) => d.id) };
}

/** The peer for `capture`: `{ figures(windows, backingIds), csv() }`, or `{ error }` when DuckDB cannot be installed. */
export function duckdbPeer(capture, threads = 2, runs = 3) {
  const env = pythonWith(join(here, '.venv'), ['duckdb', 'pandas']);
  if ('error' in env) return { error: env.error };
  const s = statSync(capture);
  // keyed by size, not modification time: bench/dashboard touches the capture before each first open
  const db = `${capture}.${s.size}.duckdb`;
  if (!existsSync(db)) {
    console.log(`copying the capture's interval rows into DuckDB's own file (once): ${db}`);
    const p = spawnSync(env.py, [script, 'prepare', capture, db], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (p.status !== 0) return { error: `DuckDB could not read the capture (exit ${p.status})` };
  }
  const run = (args) => {
    const r = spawnSync(env.py, [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (r.status !== 0) throw new Error(`duckdb_peer.py ${args[0]}: exit ${r.status}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1));
  };
  const label = `DuckDB ${env.versions.duckdb}, ${threads} threads`;
  return {
    label,
    /** Median milliseconds of the same window figures and chart sums (`windows`: UTC ms; `backingIds`: the backing devices' ids). */
    figures(windows, backingIds) {
      const args = ['figures', db, ...[windows.baseline.startMs, windows.baseline.endMs, windows.measure.startMs, windows.measure.endMs].map(String), backingIds.join(','), String(threads)];
      return median(Array.from({ length: runs }, () => run(args).ms));
    },
    /** Median seconds and the bytes of the same per-interval CSV, written and fsynced. */
    csv() {
      const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bench-duckdb-'));
      try {
        const got = Array.from({ length: runs }, () => run(['csv', db, join(dir, 'intervals.csv'), String(threads)]));
        return { seconds: median(got.map((g) => g.ms)) / 1000, bytes: got[0].bytes };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
