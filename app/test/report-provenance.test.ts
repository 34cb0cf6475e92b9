/**
 * The report's appendix says where an imported capture's figures came from: every file the
 * import read (capture-schema v3 `import_files`), with its format, encoding, time zone, samples,
 * span, size and SHA-256; a recorded capture has no such table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { exportReport } from '../src/host/report/export.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-provenance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHA = 'ab12'.repeat(16);

async function html(capture: string, lang: 'en' | 'fr'): Promise<string> {
  const out = join(dir, `r-${lang}-${Math.random().toString(36).slice(2)}.html`);
  await exportReport({ format: 'html', lang, paper: 'a4', out, load: { capturePath: capture, cover: {}, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 23) } });
  return readFileSync(out, 'utf8');
}

describe('the provenance of an imported capture in the report', () => {
  it('lists every imported file with its hash, in the report\'s language; a recorded capture has no such table', async () => {
    const recorded = join(dir, 'recorded.capture');
    writeSyntheticCapture({ path: recorded, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 1000, backingDevices: 1, missShare: 0.1 });
    const imported = join(dir, 'imported.capture');
    writeSyntheticCapture({ path: imported, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 1000, backingDevices: 1, missShare: 0.1 });
    const db = new Database(imported);
    db.prepare(`INSERT INTO import_files(name, path, size_bytes, sha256, kind, format, encoding, encoding_how, time_zone, utc_offset_min, time_zone_source, part, hosts, first_utc_ms, last_utc_ms, samples, mapping)
      VALUES ('db01-before.csv', '/logs/db01-before.csv', 2500000, ?, 'perfmon', 'PerfMon CSV (PDH-CSV 4.0)', 'utf-16le', 'bom', 'W. Europe Standard Time', 60, 'the file header', 'baseline', '["DB01"]', ?, ?, 1801, '{}')`)
      .run(SHA, Date.UTC(2026, 0, 1, 0, 0, 0), Date.UTC(2026, 0, 1, 0, 30, 0));
    db.close();

    const plain = await html(recorded, 'en');
    expect(plain).not.toContain('Imported files');
    const en = await html(imported, 'en');
    const table = en.slice(en.indexOf('Imported files'));
    expect(table).toContain('db01-before.csv');
    expect(table).toContain(SHA);
    expect(table).toContain('perfmon: PerfMon CSV (PDH-CSV 4.0)');
    expect(table).toContain('utf-16le');
    expect(table).toContain('W. Europe Standard Time · UTC+01:00');
    expect(table).toContain('1,801');
    expect(table).toContain('2.50');
    const fr = await html(imported, 'fr');
    expect(fr).toContain('Fichiers importés');
    expect(fr).toContain(SHA);
  }, 60_000);
});
