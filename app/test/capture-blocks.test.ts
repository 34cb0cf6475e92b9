/**
 * A capture's columnar blocks (capture schema v5, `interval_blocks`, written by the real probe's
 * `cacheproof-probe index`, the writer a recording and an import run as they end) give the app the
 * same columns and the same analysis as the capture's rows; blocks that no longer hold every row
 * are not used; a damaged block is `capture-damaged` with what to do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { analyze, type DeviceColumns } from '@cacheproof/engine';
import { allColumns, openCaptureColumnar, type ColumnarCapture } from '../src/host/capture/columnar.ts';
import { HostError } from '../src/host/errors.ts';
import { findRepoRoot, probePath } from '../src/host/paths.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probeBin = probePath(findRepoRoot(__dirname));
if (probeBin === null) throw new Error('cacheproof-probe is not built: npm test builds it (cargo build --release --manifest-path native/Cargo.toml)');
const probe: string = probeBin;

/** A synthetic capture with every kind of value a block column can hold, and one device's rows out of order. */
function awkwardCapture(path: string): void {
  // 4 devices × (2 × 4600 + 100) rows: more than one 8,192-row block per device
  writeSyntheticCapture({ path, windowSeconds: 4600, warmupSeconds: 100, intervalMs: 1000, backingDevices: 2, extraDevices: 1, missShare: 0.1 });
  const db = new Database(path);
  db.exec(`
    UPDATE intervals SET interval_ms = 1000.25 + (rowid % 7) / 8.0 WHERE rowid % 5 = 0;           -- fractional: 8-byte floats
    UPDATE intervals SET status = 'gap', reads = NULL, writes = NULL, read_bytes = NULL WHERE rowid % 97 = 0;
    UPDATE intervals SET status = 'wrap', reads = NULL WHERE rowid % 101 = 0;
    UPDATE intervals SET status = 'reset' WHERE rowid % 103 = 0;
    UPDATE intervals SET status = 'clock-jump' WHERE rowid % 107 = 0;
    UPDATE intervals SET status = 'bogus' WHERE rowid = 1234;                                      -- unknown: a gap
    UPDATE intervals SET write_bytes = 6000000000 + rowid WHERE rowid % 11 = 0;                   -- beyond 4 bytes
    UPDATE intervals SET busy_ms = NULL WHERE device_id = 3;                                       -- a column absent for a device
    UPDATE intervals SET weighted_ms = 70000 WHERE rowid % 13 = 0;                                 -- 2-byte offsets
    -- the first 100 rows of the table moved to its end: a device's rows out of order
    CREATE TEMP TABLE t AS SELECT * FROM intervals WHERE rowid <= 100;
    DELETE FROM intervals WHERE rowid <= 100;
    INSERT INTO intervals SELECT * FROM t;
  `);
  db.close();
}

function index(path: string): { rows: number; blocks: number; maxRowid: number } {
  return JSON.parse(execFileSync(probe, ['index', path, '--json']).toString()) as { rows: number; blocks: number; maxRowid: number };
}

/** Every slot of every column, NaN and −0 included. */
function sameColumns(a: DeviceColumns[], b: DeviceColumns[]): void {
  expect(a.map((c) => [c.device, c.n])).toEqual(b.map((c) => [c.device, c.n]));
  for (let d = 0; d < a.length; d++) {
    const x = a[d] as DeviceColumns, y = b[d] as DeviceColumns;
    for (const k of ['startMs', 'endMs', 'intervalMs', 'status', 'ok', 'reads', 'writes', 'readBytes', 'writeBytes', 'readTimeMs', 'writeTimeMs', 'busyMs', 'weightedMs'] as const) {
      for (let i = 0; i < x.n; i++) {
        if (!Object.is(x[k][i], y[k][i])) throw new Error(`${x.device}.${k}[${i}]: ${x[k][i]} from the blocks, ${y[k][i]} from the rows`);
      }
    }
  }
}

function withCapture<T>(path: string, f: (c: ColumnarCapture) => T): T {
  const c = openCaptureColumnar(path, dir);
  try {
    return f(c);
  } finally {
    c.close();
  }
}

describe('interval blocks (capture schema v5)', () => {
  it('give the columns and the analysis the rows give, for every kind of value', () => {
    const rows = join(dir, 'rows.capture');
    awkwardCapture(rows);
    const blocks = join(dir, 'blocks.capture');
    copyFileSync(rows, blocks);
    const s = index(blocks);
    const n = withCapture(rows, (c) => c.intervalCount);
    expect(s.rows).toBe(n);
    expect(s.blocks).toBeGreaterThan(4);
    // the probe's lock sidecar is not left behind by `index`
    expect(existsSync(`${blocks}.lock`)).toBe(false);
    const fromRows = withCapture(rows, (c) => {
      expect(c.fromBlocks).toBe(false);
      return { columns: allColumns(c), analysis: JSON.stringify(analyze(c.data, { seed: 3 })) };
    });
    withCapture(blocks, (c) => {
      expect(c.fromBlocks).toBe(true);
      expect(c.intervalCount).toBe(n);
      sameColumns(allColumns(c), fromRows.columns);
      expect(JSON.stringify(analyze(c.data, { seed: 3 }))).toBe(fromRows.analysis);
    });
  });

  it('are not used once the table has rows they do not hold; `index` writes them again', () => {
    const path = join(dir, 'appended.capture');
    writeSyntheticCapture({ path, windowSeconds: 300, warmupSeconds: 30, intervalMs: 1000, backingDevices: 1, missShare: 0.2 });
    index(path);
    withCapture(path, (c) => expect(c.fromBlocks).toBe(true));
    const db = new Database(path);
    db.exec(`INSERT INTO intervals(device_id, start_utc_ms, end_utc_ms, interval_ms, status, reads, writes)
      SELECT device_id, max(start_utc_ms) + 1000, max(end_utc_ms) + 1000, 1000, 'ok', 5, 5 FROM intervals WHERE device_id = 1`);
    db.close();
    const before = withCapture(path, (c) => {
      expect(c.fromBlocks).toBe(false);
      return JSON.stringify(analyze(c.data));
    });
    index(path);
    withCapture(path, (c) => {
      expect(c.fromBlocks).toBe(true);
      expect(JSON.stringify(analyze(c.data))).toBe(before);
    });
  });

  it('a damaged block is capture-damaged, in a sentence that says how to write the blocks again', () => {
    const path = join(dir, 'damaged.capture');
    writeSyntheticCapture({ path, windowSeconds: 300, warmupSeconds: 30, intervalMs: 1000, backingDevices: 1, missShare: 0.2 });
    index(path);
    const db = new Database(path);
    db.exec(`UPDATE interval_blocks SET data = substr(data, 1, length(data) - 16) WHERE seq = 0 AND device_id = 2`);
    db.close();
    const err = withCapture(path, (c) => {
      try {
        analyze(c.data);
        return null;
      } catch (e) {
        return e;
      }
    });
    expect(err).toBeInstanceOf(HostError);
    expect((err as HostError).code).toBe('capture-damaged');
    expect((err as HostError).message).toContain(`cacheproof-probe index ${path}`);
  });
});
