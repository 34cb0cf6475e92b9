import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCapture, sha256File } from '../src/host/capture/reader.ts';
import { allColumns, openCaptureColumnar } from '../src/host/capture/columnar.ts';
import { analyze, volumeCapacity } from '@cacheproof/engine';
import { execFileSync } from 'node:child_process';
import { HostError } from '../src/host/errors.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof HostError) return err.code;
    throw err;
  }
  return 'no error';
}

describe('capture SHA-256 (worker thread)', () => {
  it('equals sha256sum over a file larger than one read buffer, and says which file it could not read', async () => {
    const path = join(dir, 'hash.bin');
    const buf = Buffer.alloc(9 << 20);
    for (let i = 0; i < buf.length; i++) buf[i] = (i * 2654435761) >>> 24;
    writeFileSync(path, buf);
    const expected = execFileSync('sha256sum', [path], { encoding: 'utf8' }).split(' ')[0];
    expect(await sha256File(path)).toBe(expected);
    await expect(sha256File(join(dir, 'absent.capture'))).rejects.toThrow(/absent\.capture could not be read/);
    // the hash nobody waits for yet (after the dashboard's analysis), on a thread of lower priority: the same hash
    expect(await sha256File(path, { background: true })).toBe(expected);
    await expect(sha256File(join(dir, 'absent.capture'), { background: true })).rejects.toThrow(/absent\.capture could not be read/);
  });
});

describe('capture reader', () => {
  it('still opens the fixture of every shipped schema version', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const files = readdirSync(fixtures).filter((f) => /^capture-v\d+\.sqlite$/.test(f));
    expect(files).toContain('capture-v1.sqlite');
    expect(files).toContain('capture-v2.sqlite');
    expect(files).toContain('capture-v3.sqlite');
    expect(files).toContain('capture-v4.sqlite');
    expect(files).toContain('capture-v5.sqlite');
    expect(files).toContain('capture-v6.sqlite');
    expect(files).toContain('capture-v7.sqlite');
    for (const f of files) {
      const c = openCapture(join(fixtures, f));
      expect(c.data.intervals.length, f).toBeGreaterThan(0);
      expect(c.data.phases.map((p) => p.name), f).toContain('baseline');
    }
  });

  it('opens the v5 fixture from its interval blocks, with the columns and the analysis of its rows (the v4 fixture)', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const v5 = openCaptureColumnar(join(fixtures, 'capture-v5.sqlite'));
    const v4 = openCaptureColumnar(join(fixtures, 'capture-v4.sqlite'));
    try {
      expect(v5.schemaVersion).toBe(5);
      expect([v5.fromBlocks, v4.fromBlocks]).toEqual([true, false]);
      expect(JSON.stringify(allColumns(v5))).toBe(JSON.stringify(allColumns(v4)));
      expect(JSON.stringify(analyze(v5.data, { seed: 5 }))).toBe(JSON.stringify(analyze(v4.data, { seed: 5 })));
    } finally {
      v5.close();
      v4.close();
    }
  });

  it('opens the v6 fixture (a trace under a budget: latency histograms per interval, the rate history) with its trace latency and the hours', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const c = openCapture(join(fixtures, 'capture-v6.sqlite'));
    expect(c.schemaVersion).toBe(6);
    expect(c.data.phases.map((p) => p.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    const l = c.data.traceLatency;
    expect(l?.method).toBe('interval-histograms');
    expect(l?.hours?.length).toBeGreaterThan(0);
    expect(l?.sampleRate).toBeLessThan(1);
  });

  it('opens the v7 fixture (windows_exporter scrapes with volume capacity) with its volumes, growth and days to full; earlier ones have none', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const c = openCapture(join(fixtures, 'capture-v7.sqlite'));
    expect(c.schemaVersion).toBe(7);
    const cap = volumeCapacity(c.data.volumes);
    expect(cap.volumes.map((v) => [v.volume, v.device, v.samples, v.sizeBytes])).toEqual([['C:', 'LogicalDisk(C:)', 8, 67938287616], ['HarddiskVolume4', 'LogicalDisk(HarddiskVolume4)', 8, 654311424]]);
    const [cDrive] = cap.volumes;
    // the script lowers C:'s free bytes by 50 MiB a minute from the real scrape's 43 636 490 240
    expect(cDrive?.freeBytes).toBe(43636490240 - 7 * 52428800);
    // 7 minutes of scrapes: the slope is there for audit, the growth and days to full are withheld (under 24 h)
    expect(cDrive?.fitGrowthBytesPerDay).toBeCloseTo(52428800 * 1440, 0);
    expect([cDrive?.growthBytesPerDay, cDrive?.daysToFull, cDrive?.reasons]).toEqual([null, null, { growthBytesPerDay: 'short-fit', daysToFull: 'short-fit' }]);
    expect(openCapture(join(fixtures, 'capture-v6.sqlite')).data.volumes).toBeNull();
  });

  it('opens the v8 fixture (a PerfMon pair with the server\'s work) with its work rows and per-work figure; earlier ones have none', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    for (const c of [openCapture(join(fixtures, 'capture-v8.sqlite')), openCaptureColumnar(join(fixtures, 'capture-v8.sqlite'))]) {
      expect(c.schemaVersion).toBe(8);
      // 20 intervals a day of each counter (21 rows, the first blank): make-capture-v8.sh
      expect(c.data.work?.filter((r) => r.name === 'io_ops_per_s').map((r) => r.ratePerSecond)).toEqual([...Array<number>(20).fill(200), ...Array<number>(20).fill(350)]);
      expect(c.data.work?.filter((r) => r.name === 'batches_per_s' && r.instance === 'SQLServer')).toHaveLength(40);
      const a = analyze(c.data);
      if (!a.ok) throw new Error(a.error.message);
      expect(a.benefit.perWork.workChangePercent).toBeCloseTo(75, 9);
      expect(a.benefit.perWork.diskChangePercent).toBeCloseTo(-12, 9);
      expect(a.benefit.perWork.diskChangePercent).toBeCloseTo(-(a.benefit.iosSavedPercent.value as number), 9);
    }
    expect(openCapture(join(fixtures, 'capture-v7.sqlite')).data.work).toBeNull();
  });

  it('opens the v3 fixture (an import with provenance) as an ordinary capture', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const c = openCapture(join(fixtures, 'capture-v3.sqlite'));
    expect(c.schemaVersion).toBe(3);
    expect(c.meta['source']).toBe('import:perfmon');
    expect(c.data.devices.map((d) => `${d.name}:${d.role}`)).toEqual(['LogicalDisk(C:):front', 'PhysicalDisk(0 C:):backing']);
    expect(c.data.phases.map((p) => p.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    expect(c.recorderState).toBeNull();
  });

  it('opens the v4 fixture (a scheduled switch by an adapter, with its actions and engine counters) as an ordinary capture', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const path = join(fixtures, 'capture-v4.sqlite');
    const c = openCapture(path);
    expect(c.schemaVersion).toBe(4);
    expect(c.data.phases.map((p) => p.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    expect(c.data.intervals.length).toBeGreaterThan(0);
    expect(JSON.parse(c.meta['plan'] ?? '{}').switch).toBe('command');
    // The new tables are there for the screens that will read them; this reader ignores them.
    const db = new Database(path, { readonly: true });
    const actions = db.prepare('SELECT action, ok, mode_before, mode_after FROM engine_actions ORDER BY id').all();
    expect(actions).toEqual([
      { action: 'enable', ok: 1, mode_before: 'off', mode_after: 'on' },
      { action: 'restore', ok: 1, mode_before: 'on', mode_after: 'off' },
    ]);
    const stats = db.prepare('SELECT count(*) AS n FROM engine_stats').get() as { n: number };
    expect(stats.n).toBeGreaterThan(0);
    db.close();
  });

  it('loads devices, phases and intervals as plain data', () => {
    const path = join(dir, 'ok.capture');
    const rows = writeSyntheticCapture({ path, windowSeconds: 60, warmupSeconds: 10, intervalMs: 1000, backingDevices: 2, missShare: 0.1 });
    const c = openCapture(path);
    expect(c.data.intervals).toHaveLength(rows);
    expect(c.data.devices.map((d) => `${d.name}:${d.role}`)).toEqual(['front0:front', 'back0:backing', 'back1:backing']);
    expect(c.data.phases.map((p) => p.name)).toEqual(['baseline', 'switch', 'warmup', 'measure']);
    expect(c.data.sampleIntervalMs).toBe(1000);
    expect(c.data.host.hostname).toBe('synthetic-host');
  });

  it('reads every interval row exactly, as columns and as records in row order, out-of-order rows and odd statuses included', () => {
    const path = join(dir, 'exact.capture');
    writeSyntheticCapture({ path, windowSeconds: 30, warmupSeconds: 5, intervalMs: 1000, backingDevices: 2, missShare: 0.1 });
    const db = new Database(path);
    // a gap with no numbers, an ok row without a writes counter, a status the reader does not know, and a row out of time order
    db.prepare(`UPDATE intervals SET status = 'gap', reads = NULL, writes = NULL, read_bytes = NULL, write_bytes = NULL, read_time_ms = NULL,
                  write_time_ms = NULL, busy_ms = NULL, weighted_ms = NULL WHERE rowid = 7`).run();
    db.prepare('UPDATE intervals SET writes = NULL WHERE rowid = 11').run();
    db.prepare(`UPDATE intervals SET status = 'bogus' WHERE rowid = 13`).run();
    const moved = db.prepare('SELECT * FROM intervals WHERE rowid = 20').get() as Record<string, unknown>;
    db.prepare('DELETE FROM intervals WHERE rowid = 20').run();
    const cols = Object.keys(moved);
    db.prepare(`INSERT INTO intervals(${cols.join(',')}) VALUES(${cols.map(() => '?').join(',')})`).run(...cols.map((k) => moved[k]));
    const rows = db.prepare(`SELECT d.name AS device, i.* FROM intervals i JOIN devices d ON d.id = i.device_id ORDER BY i.rowid`).all() as Record<string, number | string | null>[];
    db.close();

    const c = openCapture(path);
    expect(c.intervalCount).toBe(rows.length);
    expect(c.recorderState).toBeNull();
    const columns = c.data.columns ?? [];
    expect(columns.map((x) => x.device)).toEqual(['front0', 'back0', 'back1']);
    expect(columns.reduce((n, x) => n + x.n, 0)).toBe(rows.length);
    const known = ['ok', 'wrap', 'reset', 'clock-jump', 'gap'];
    const want = rows.map((r) => ({
      device: r['device'], startMs: r['start_utc_ms'], endMs: r['end_utc_ms'], intervalMs: r['interval_ms'],
      status: known.includes(r['status'] as string) ? r['status'] : 'gap',
      reads: r['reads'], writes: r['writes'], readBytes: r['read_bytes'], writeBytes: r['write_bytes'], readTimeMs: r['read_time_ms'],
      writeTimeMs: r['write_time_ms'], busyMs: r['busy_ms'], weightedMs: r['weighted_ms'],
    }));
    const key = (r: { device: unknown; startMs: unknown }): string => `${String(r.device)}@${String(r.startMs)}`;
    const sortedWant = [...want].sort((a, b) => key(a).localeCompare(key(b)));
    expect([...c.data.intervals].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(sortedWant);
    for (const x of columns) {
      for (let i = 1; i < x.n; i++) expect(x.startMs[i] as number).toBeGreaterThan(x.startMs[i - 1] as number);
    }
    const gap = columns.flatMap((x) => Array.from({ length: x.n }, (_, i) => ({ x, i }))).filter(({ x, i }) => x.status[i] === 4);
    expect(gap.length).toBe(2); // the gap and the unknown status
    for (const { x, i } of gap) expect(x.ok[i]).toBe(0);
  });

  it('reads in row order when rows are in time order, and reports the recorder state', () => {
    const path = join(dir, 'order.capture');
    writeSyntheticCapture({ path, windowSeconds: 10, warmupSeconds: 2, intervalMs: 1000, backingDevices: 1, missShare: 0.1 });
    const db = new Database(path);
    db.exec(`INSERT INTO recorder VALUES ('state', 'running');`);
    const rows = db.prepare('SELECT start_utc_ms FROM intervals ORDER BY rowid').pluck().all();
    db.close();
    const c = openCapture(path);
    expect(c.recorderState).toBe('running');
    expect(c.data.intervals.map((r) => r.startMs)).toEqual(rows);
  });

  it('refuses a missing file, a file that is not SQLite, a foreign SQLite file and a newer schema, each with its code', () => {
    expect(codeOf(() => openCapture(join(dir, 'absent.capture')))).toBe('capture-not-found');
    const text = join(dir, 'text.capture');
    writeFileSync(text, 'timestamp,reads\n1,2\n');
    expect(codeOf(() => openCapture(text))).toBe('capture-not-sqlite');
    const foreign = join(dir, 'foreign.sqlite');
    new Database(foreign).exec('CREATE TABLE t(x)');
    expect(codeOf(() => openCapture(foreign))).toBe('capture-not-cacheproof');
    const newer = join(dir, 'newer.capture');
    writeSyntheticCapture({ path: newer, windowSeconds: 5, warmupSeconds: 1, intervalMs: 1000, backingDevices: 1, missShare: 0.1, userVersion: 99 });
    expect(codeOf(() => openCapture(newer))).toBe('capture-too-new');
  });
});
