/**
 * The reader of a capture's cache-engine tables (engine_actions, engine_stats, meta.engine) on
 * the v4 fixture, a capture written by the probe with the `command` adapter
 * (samples/fixtures/make-capture-v4.sh), and on both the whole and the columnar read paths.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { compareEngineStats } from '@cacheproof/engine';
import { openCapture } from '../src/host/capture/reader.ts';
import { openCaptureColumnar } from '../src/host/capture/columnar.ts';
import { ENGINE_STATS_FULL_ROWS, readEngineRecords } from '../src/host/capture/engine.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-engine-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('capture engine tables', () => {
  it('reads the v4 fixture’s actions and counters as plain data', () => {
    const c = openCapture(join(fixtures, 'capture-v4.sqlite'));
    const e = c.data.engine;
    expect(e?.adapter).toBe('command');
    expect(e?.device).toBe('loop0');
    expect(e?.actions.map((a) => [a.action, a.ok, a.exitStatus, a.modeBefore, a.modeAfter, a.output.trim()])).toEqual([
      ['enable', true, 0, 'off', 'on', 'engine on'],
      ['restore', true, 0, 'on', 'off', 'engine off'],
    ]);
    expect(e?.actions[0]?.step).toMatch(/^run \/tmp\/.+\/engine\.sh on$/);
    // 9 reads of 3 counters, in time order, each with its unit and window
    expect(e?.stats).toHaveLength(27);
    expect(e?.stats[0]).toEqual({ atMs: 1795469991963, name: 'read_hits', value: 0, unit: 'requests', window: 'cumulative' });
    expect(e?.stats.every((s, i, a) => i === 0 || (a[i - 1] as { atMs: number }).atMs <= s.atMs)).toBe(true);
  });

  it('the comparison over the fixture’s measure window, worked by hand', () => {
    const c = openCapture(join(fixtures, 'capture-v4.sqlite'));
    const measure = c.data.phases.find((p) => p.name === 'measure');
    expect(measure).toEqual({ name: 'measure', startMs: 1795469995964, endMs: 1795469999964 });
    // reads inside [995964, 999964]: read_hits 69995 → 69999 (+4), read_misses 995 → 999 (+4): 4 / 8 = 50 %
    const r = compareEngineStats(c.data.engine, { startMs: 1795469995964, endMs: 1795469999964 }, { reads: 40, writes: null, all: null });
    expect(r?.shares.reads).toMatchObject({ enginePercent: 50, countersPercent: 40, differencePoints: 10, exceeds: true, engineHits: 4, engineTotal: 8 });
    expect(r?.counters.find((x) => x.name === 'dirty')).toMatchObject({ unit: 'bytes', method: 'difference', value: 0 });
    expect(r?.samples).toBe(15);
  });

  it('the columnar read carries the same engine records', () => {
    const whole = openCapture(join(fixtures, 'capture-v4.sqlite'));
    const col = openCaptureColumnar(join(fixtures, 'capture-v4.sqlite'), dir);
    try {
      expect(col.data.engine).toEqual(whole.data.engine);
    } finally {
      col.close();
    }
  });

  it('older captures and v4 captures without an adapter have none', () => {
    for (const v of [1, 2, 3]) expect(openCapture(join(fixtures, `capture-v${v}.sqlite`)).data.engine).toBeUndefined();
    const path = join(dir, 'no-adapter.sqlite');
    copyFileSync(join(fixtures, 'capture-v4.sqlite'), path);
    const db = new Database(path);
    db.exec("DELETE FROM engine_actions; DELETE FROM engine_stats; DELETE FROM meta WHERE key = 'engine';");
    db.close();
    expect(openCapture(path).data.engine).toBeUndefined();
  });

  it(`above ${ENGINE_STATS_FULL_ROWS} counter rows: one read per counter per minute plus the last, edges kept`, () => {
    const path = join(dir, 'many.sqlite');
    copyFileSync(join(fixtures, 'capture-v4.sqlite'), path);
    const db = new Database(path);
    db.exec('DELETE FROM engine_stats');
    // 2 counters read every 100 ms for 100,000 × 0.1 s = 10,000 s (about 166.7 minutes): 200,000 rows
    db.exec(`WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM t WHERE i < 99999)
      INSERT INTO engine_stats SELECT 60000000 + i * 100, 'command', 'loop0', 'read_hits', i, 'requests', 'cumulative' FROM t
      UNION ALL SELECT 60000000 + i * 100, 'command', 'loop0', 'read_misses', i * 2, 'requests', 'cumulative' FROM t`);
    const records = readEngineRecords(db, { engine: JSON.stringify({ adapter: 'command', device: 'loop0' }) });
    db.close();
    const hits = records?.stats.filter((s) => s.name === 'read_hits') ?? [];
    // minutes 1000 … 1166 hold reads (167 minute buckets), plus the last read
    expect(hits).toHaveLength(168);
    expect(hits[0]).toMatchObject({ atMs: 60000000, value: 0 });
    expect(hits[1]).toMatchObject({ atMs: 60060000, value: 600 });
    expect(hits[hits.length - 1]).toMatchObject({ atMs: 60000000 + 99999 * 100, value: 99999 });
  });
});
