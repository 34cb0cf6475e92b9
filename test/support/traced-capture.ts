/**
 * A traced capture with a stored prediction, for tests and e2e specs: a copy of the bundled lab
 * capture, opened for writing by the real probe (which migrates it to the current schema), with
 * a baseline block trace of its front device written in — 2,000 reads of 4 KiB cycling over
 * blocks 0..99, spread over the baseline — and `cacheproof-probe predict --size SIZE --store`
 * and `latency --store` run on it. By hand: 100 first references, then every read at LRU stack distance 99, so a cache
 * of 100 blocks (409,600 bytes) or more serves 95 % of the reads and a smaller one none (from 100
 * blocks on, every policy holds every block: 95 % too). Each read completes 200 µs after its issue: with
 * the NVMe preset (85 µs a hit) the predicted response time is (1,900 × 85 + 100 × 200) / 2,000
 * = 90.75 µs, against 200 µs without a cache; 100 reads (the first references) reach the backing.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const TRACED_READS = 2000;
export const TRACED_BLOCKS = 100;

/** What the stored prediction assumes beside the size: the NVMe preset (85 µs a hit) and every policy. */
export const TRACED_PREDICT_ARGS = ['--cache-device', 'nvme', '--policy', 'lru,fifo,clock,arc,2q,s3fifo'] as const;

/**
 * A copy of `sample` named `name` in `dir`, opened for writing by the real probe (which migrates it
 * to the current schema, with its `block_requests` table), ready for a test to write traced
 * requests into. Returns its path.
 */
export function migratedCopy(dir: string, sample: string, probe: string, name: string): string {
  const capture = join(dir, name);
  copyFileSync(sample, capture);
  execFileSync(probe, ['mark', capture, 'note', '--note', 'test: open for writing (migrates the schema)'], { stdio: 'ignore' });
  return capture;
}

/**
 * Writes `traced.capture` in `dir` from `sample` and returns its path and the probe's predict
 * stderr. `predictArgs` follow `--size SIZE` (default {@link TRACED_PREDICT_ARGS}); null stores no
 * prediction (a traced capture the person predicts from later).
 */
export function writeTracedCapture(dir: string, sample: string, probe: string, size = '1MiB', predictArgs: readonly string[] | null = TRACED_PREDICT_ARGS): { capture: string; predictStderr: string } {
  const capture = migratedCopy(dir, sample, probe, 'traced.capture');
  const db = new Database(capture);
  try {
    const front = db.prepare("SELECT id FROM devices WHERE role = 'front'").pluck().get() as number;
    const base = db.prepare("SELECT start_utc_ms AS s, end_utc_ms AS e FROM phases WHERE name = 'baseline'").get() as { s: number; e: number };
    const ins = db.prepare("INSERT INTO block_requests(device_id, issue_ns, complete_ns, utc_ms, sector, bytes, op, rwbs, error) VALUES (?, ?, ?, ?, ?, 4096, 'R', 'R', 0)");
    db.transaction(() => {
      for (let i = 0; i < TRACED_READS; i++) {
        const utc = base.s + Math.floor(((base.e - base.s - 1) * i) / TRACED_READS);
        ins.run(front, 1e9 + i * 1e6, 1e9 + i * 1e6 + 200_000, utc, (i % TRACED_BLOCKS) * 8);
      }
    })();
  } finally {
    db.close();
  }
  let predictStderr = '';
  if (predictArgs !== null) {
    const p = spawnSync(probe, ['predict', capture, '--size', size, '--warmup', '0s', ...predictArgs, '--store'], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`cacheproof-probe predict failed (${String(p.status)}): ${p.stderr}`);
    predictStderr = p.stderr;
  }
  // the latency of the traced requests (each completes 200 µs after its issue), as a traced recording stores it when it ends
  const l = spawnSync(probe, ['latency', capture, '--store'], { encoding: 'utf8' });
  if (l.status !== 0) throw new Error(`cacheproof-probe latency failed (${String(l.status)}): ${l.stderr}`);
  return { capture, predictStderr };
}
