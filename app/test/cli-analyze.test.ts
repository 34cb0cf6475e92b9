import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../src/cli/main.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-cli-'));
const capture = join(dir, 'synthetic.capture');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeSyntheticCapture({ path: capture, windowSeconds: 1800, warmupSeconds: 120, intervalMs: 1000, backingDevices: 2, missShare: 0.05 });
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe('cacheproof analyze', () => {
  it('prints the documented JSON object, with iosToBacking equal to the backing counters summed over the windows', async () => {
    const r = await cli('analyze', capture, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    for (const path of ['mode', 'windows.baseline.start', 'windows.baseline.end', 'windows.measure.start', 'windows.measure.end', 'windows.warmupExcludedSeconds',
      'devices.front', 'devices.backing', 'benefit.iosToBacking.before', 'benefit.iosToBacking.after', 'benefit.iosSavedPercent.value', 'benefit.iosSavedPercent.ci95',
      'benefit.latencyMs.before', 'benefit.latencyMs.after', 'benefit.latencyMs.reductionPercent', 'benefit.latencyMs.speedup', 'benefit.normalizedIops.before',
      'benefit.normalizedIops.after', 'benefit.throughputMBps.before', 'benefit.throughputMBps.after', 'benefit.cacheServedPercent.reads',
      'benefit.cacheServedPercent.writes', 'health', 'hourly', 'warnings']) {
      const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], j);
      expect(value, path).not.toBeUndefined();
    }
    expect(j.mode).toBe('front-and-backing');
    expect(j.devices.front).toEqual(['front0']);
    expect(j.devices.backing).toEqual(['back0', 'back1']);
    const db = new Database(capture, { readonly: true });
    const sum = (from: string, to: string): number =>
      (db.prepare(`SELECT SUM(reads + writes) AS n FROM intervals i JOIN devices d ON d.id = i.device_id
                    WHERE d.role = 'backing' AND i.start_utc_ms >= ? AND i.end_utc_ms <= ?`).get(Date.parse(from), Date.parse(to)) as { n: number }).n;
    expect(j.benefit.iosToBacking.before).toBe(sum(j.windows.baseline.start, j.windows.baseline.end));
    expect(j.benefit.iosToBacking.after).toBe(sum(j.windows.measure.start, j.windows.measure.end));
    db.close();
    expect(j.benefit.iosSavedPercent.value).toBeGreaterThan(50);
    expect(j.benefit.iosSavedPercent.ci95.low).toBeLessThanOrEqual(j.benefit.iosSavedPercent.value);
    expect(j.benefit.iosSavedPercent.ci95.high).toBeGreaterThanOrEqual(j.benefit.iosSavedPercent.value);
  });

  it('prints a table in the chosen language with its number format', async () => {
    const fr = await cli('analyze', capture, '--lang', 'fr');
    expect(fr.code).toBe(0);
    expect(fr.out).toContain('E/S épargnées');
    expect(fr.out).toMatch(/\d,\d\s%/u);
    const en = await cli('analyze', capture);
    expect(en.out).toContain('I/Os saved');
    expect(en.out).toMatch(/\d\.\d%/);
    // warnings are translated by code in the table; the JSON keeps the engine's English message
    expect(fr.out).toContain('Une fenêtre dure moins de 24 heures (référence 1');
    expect(fr.out).not.toContain('A window is shorter than 24 hours');
    expect(en.out).toContain('A window is shorter than 24 hours');
    const json = JSON.parse((await cli('analyze', capture, '--json')).out);
    expect(json.warnings.find((w: { code: string }) => w.code === 'short-window').message).toContain('A window is shorter than 24 hours');
  });

  it('answers bad input with one sentence and a documented exit code, writing nothing', async () => {
    const notSqlite = join(dir, 'notes.capture');
    writeFileSync(notSqlite, 'this is not a capture\n');
    const newer = join(dir, 'newer.capture');
    writeSyntheticCapture({ path: newer, windowSeconds: 10, warmupSeconds: 1, intervalMs: 1000, backingDevices: 1, missShare: 0.1, userVersion: 99 });
    const before = readdirSync(dir).sort();
    const cases: [string[], number, RegExp][] = [
      [['analyze', notSqlite], 3, /not a CacheProof capture \(not an SQLite file\)/],
      [['analyze', join(dir, 'missing.capture')], 3, /not found/],
      [['analyze', newer], 4, /schema version 99/],
      [['analyze', capture, '--baseline', '2020-01-01T00:00:00Z..2020-01-02T00:00:00Z'], 5, /./],
      [['analyze', capture, '--front', 'sdz'], 5, /sdz/],
      [['analyze', capture, '--lang', 'de'], 2, /--lang/],
      [['analyze', capture, '--baseline', '2026-11-02T00:00:00..2026-11-02T01:00:00'], 2, /zone/],
      [['analyze', capture, '--warmup', 'soon'], 2, /duration/],
      [['analyze'], 2, /CAPTURE/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.out, argv.join(' ')).toBe('');
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
