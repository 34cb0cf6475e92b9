import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, copyFileSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { analyze } from '@cacheproof/engine';
import { openCapture } from '../src/host/capture/reader.ts';
import { allColumns, openCaptureColumnar, SPILL_ROWS } from '../src/host/capture/columnar.ts';
import { HostError } from '../src/host/errors.ts';
import { buildAnalysisView, buildAnalysisViewStreamed } from '../src/host/analysis.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-columnar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');

describe('columnar capture (one device at a time)', () => {
  it('gives the analysis the in-memory reader gives, on the lab sample, the v1 fixture and a capture larger than one spill buffer', () => {
    const big = join(dir, 'big.capture');
    // 4 devices × (2 × 4500 + 100) rows: more than one spill buffer per device
    writeSyntheticCapture({ path: big, windowSeconds: 4500, warmupSeconds: 100, intervalMs: 1000, backingDevices: 2, extraDevices: 1, missShare: 0.1 });
    for (const path of [join(samples, 'lab', 'lab-sample.capture'), join(samples, 'fixtures', 'capture-v1.sqlite'), big]) {
      const whole = openCapture(path);
      const cap = openCaptureColumnar(path, dir);
      try {
        expect(cap.intervalCount, path).toBe(whole.intervalCount);
        expect(JSON.stringify(analyze(cap.data, { seed: 9 })), path).toBe(JSON.stringify(analyze(whole.data, { seed: 9 })));
        expect(allColumns(cap).map((c) => c.n)).toEqual((whole.data.columns ?? []).map((c) => c.n));
      } finally {
        cap.close();
      }
      expect(existsSync(cap.dir)).toBe(false);
    }
    const cap = openCaptureColumnar(big, dir);
    expect(Math.min(...(cap.data.source?.devices ?? []).map((d) => d.n))).toBeGreaterThan(SPILL_ROWS);
    cap.close();
  });

  it('sorts a device whose rows are out of order, like the in-memory reader', () => {
    const path = join(dir, 'shuffled.capture');
    writeSyntheticCapture({ path, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 1, missShare: 0.2 });
    const db = new Database(path);
    // move the first 100 rows of the table to its end
    db.exec('CREATE TEMP TABLE t AS SELECT * FROM intervals WHERE rowid <= 100; DELETE FROM intervals WHERE rowid <= 100; INSERT INTO intervals SELECT * FROM t;');
    // the table as stored (rowid order) is out of time order now; the order a reader must give is the sorted one
    const stored = db.prepare('SELECT device_id AS d, start_utc_ms AS t FROM intervals ORDER BY rowid').all() as { d: number; t: number }[];
    const names = new Map((db.prepare('SELECT id, name FROM devices').all() as { id: number; name: string }[]).map((r) => [r.id, r.name]));
    db.close();
    const want = new Map<string, number[]>();
    for (const [id, name] of names) {
      const times = stored.filter((r) => r.d === id).map((r) => r.t);
      if (times.length > 0) want.set(name, [...times].sort((x, y) => x - y));
    }
    const unsorted = [...names].filter(([id]) => { const t = stored.filter((r) => r.d === id).map((r) => r.t); return t.some((x, i) => i > 0 && x < (t[i - 1] as number)); });
    expect(unsorted.length, 'the shuffle left a device out of time order in the table').toBeGreaterThan(0);
    const whole = openCapture(path);
    const cap = openCaptureColumnar(path, dir);
    try {
      // both readers give each device's intervals in ascending start time
      const columnar = new Map(allColumns(cap).map((c) => [c.device, [...c.startMs.subarray(0, c.n)]]));
      const inMemory = new Map((whole.data.columns ?? []).map((c) => [c.device, [...c.startMs.subarray(0, c.n)]]));
      expect(columnar).toEqual(want);
      expect(inMemory).toEqual(want);
      expect(JSON.stringify(analyze(cap.data))).toBe(JSON.stringify(analyze(whole.data)));
    } finally {
      cap.close();
    }
  });

  it('a damaged capture is capture-damaged, and leaves no columnar folder behind', () => {
    const path = join(dir, 'cut.capture');
    copyFileSync(join(samples, 'lab', 'lab-sample.capture'), path);
    // overwrite the middle of the file: SQLite finds it during the scan
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(64 * 1024, 0x5a), 0, 64 * 1024, Math.floor(statSync(path).size / 2));
    closeSync(fd);
    const before = readdirSync(dir).filter((f) => f.startsWith('cacheproof-columns-')).length;
    let code = 'no error';
    try {
      openCaptureColumnar(path, dir).close();
    } catch (err) {
      code = err instanceof HostError ? err.code : String(err);
    }
    expect(code).toBe('capture-damaged');
    expect(readdirSync(dir).filter((f) => f.startsWith('cacheproof-columns-')).length).toBe(before);
  });
});

describe('the dashboard view from the columnar capture', () => {
  it('equals the view of the capture read whole: analysis, device lines (role other left out) and group lines, whatever the roles asked', () => {
    const path = join(dir, 'view.capture');
    writeSyntheticCapture({ path, windowSeconds: 1200, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, extraDevices: 1, missShare: 0.1 });
    const meta = { id: 'v', name: 'v', sha256: 'x', isSample: false };
    for (const options of [{}, { backing: ['back0', 'other0'] }, { front: ['back1'], backing: ['back0'] }]) {
      const cap = openCaptureColumnar(path, dir);
      try {
        const streamed = buildAnalysisViewStreamed(cap, meta, options);
        expect(JSON.stringify(streamed), JSON.stringify(options)).toBe(JSON.stringify(buildAnalysisView(openCapture(path), meta, options)));
        expect(streamed.groupSeries?.length).toBeGreaterThan(0);
      } finally {
        cap.close();
      }
    }
  });
});
