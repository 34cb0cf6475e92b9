/**
 * The interval status table exists once (engine INTERVAL_STATUSES / STATUS_CODE): the capture
 * reader's SQL CASE is generated from it, so SQLite must give every status the engine's code.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { INTERVAL_STATUSES, STATUS_CODE, isIntervalStatus, statusCodeSql } from '@cacheproof/engine';

describe('interval status table', () => {
  it('the SQL CASE gives every status its STATUS_CODE in SQLite, and an unknown status the gap code', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (status TEXT)');
      const ins = db.prepare('INSERT INTO t (status) VALUES (?)');
      // the capture's status words (docs/capture-schema.md), an unknown one and none
      for (const s of ['ok', 'wrap', 'reset', 'clock-jump', 'gap', 'weird', null]) ins.run(s);
      const rows = db.prepare(`SELECT status, ${statusCodeSql('status')} AS code FROM t`).all() as { status: string | null; code: number }[];
      expect(rows).toEqual([
        { status: 'ok', code: 0 }, { status: 'wrap', code: 1 }, { status: 'reset', code: 2 }, { status: 'clock-jump', code: 3 },
        { status: 'gap', code: 4 }, { status: 'weird', code: 4 }, { status: null, code: 4 },
      ]);
    } finally {
      db.close();
    }
  });

  it('the table: each status of a capture and its code, as docs/capture-schema.md gives them, and only those', () => {
    expect(INTERVAL_STATUSES).toEqual(['ok', 'wrap', 'reset', 'clock-jump', 'gap']);
    expect(STATUS_CODE).toEqual({ ok: 0, wrap: 1, reset: 2, 'clock-jump': 3, gap: 4 });
    expect(['ok', 'wrap', 'reset', 'clock-jump', 'gap'].every(isIntervalStatus)).toBe(true);
    expect(['weird', 'OK', ''].some(isIntervalStatus)).toBe(false);
  });

  it('refuses a column expression that is not a plain name', () => {
    expect(() => statusCodeSql('status; DROP TABLE t')).toThrow(/not a column name/);
  });
});
