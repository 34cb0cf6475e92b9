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
      for (const s of [...INTERVAL_STATUSES, 'weird', null]) ins.run(s);
      const rows = db.prepare(`SELECT status, ${statusCodeSql('status')} AS code FROM t`).all() as { status: string | null; code: number }[];
      for (const r of rows) {
        const expected = r.status !== null && isIntervalStatus(r.status) ? STATUS_CODE[r.status] : STATUS_CODE.gap;
        expect(r.code, `status ${String(r.status)}`).toBe(expected);
      }
      expect(rows.map((r) => r.code)).toEqual([0, 1, 2, 3, 4, 4, 4]);
    } finally {
      db.close();
    }
  });

  it('codes are the indexes of INTERVAL_STATUSES', () => {
    INTERVAL_STATUSES.forEach((s, i) => expect(STATUS_CODE[s]).toBe(i));
    expect(Object.keys(STATUS_CODE).sort()).toEqual([...INTERVAL_STATUSES].sort());
  });

  it('refuses a column expression that is not a plain name', () => {
    expect(() => statusCodeSql('status; DROP TABLE t')).toThrow(/not a column name/);
  });
});
