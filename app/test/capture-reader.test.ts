import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCapture } from '../src/host/capture/reader.ts';
import { HostError } from '../src/host/errors.ts';
import { writeSyntheticCapture } from './support/synthetic-capture.ts';

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

describe('capture reader', () => {
  it('still opens the fixture of every shipped schema version', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');
    const files = readdirSync(fixtures).filter((f) => /^capture-v\d+\.sqlite$/.test(f));
    expect(files).toContain('capture-v1.sqlite');
    for (const f of files) {
      const c = openCapture(join(fixtures, f));
      expect(c.data.intervals.length, f).toBeGreaterThan(0);
      expect(c.data.phases.map((p) => p.name), f).toContain('baseline');
    }
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
