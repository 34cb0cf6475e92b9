/**
 * The app reads a budgeted trace as the probe does (docs/probe.md § Trace budget): its rows below
 * the final hash threshold, a uniform sample at the final rate. On the v6 fixture (a trace whose
 * rate fell under a 300 MB budget), the app's hash leaves out exactly the rows the probe's
 * `simulate` leaves out (`input.aboveFinalRate`), none of them issued after the last change, and
 * the request sizes the analysis reads count the rest. Needs the release probe for the comparison.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { finalSampleOf, sampleHash } from '../src/host/capture/trace-sample.ts';
import { traceSizesOf } from '../src/host/capture/trace-sizes.ts';

const root = join(import.meta.dirname, '..', '..');
const fixture = join(root, 'samples', 'fixtures', 'capture-v6.sqlite');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');

describe('the final uniform sample of a budgeted trace', () => {
  it('hashes as the probe does: the same rows above the final threshold, none issued after the last change', () => {
    const db = new Database(fixture, { readonly: true });
    try {
      const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      const final = finalSampleOf(db, meta);
      if (final === null) throw new Error('the v6 fixture has no rate change');
      const rows = db.prepare('SELECT device_id AS d, sector AS s, issue_ns AS i FROM block_requests').all() as { d: number; s: number; i: number }[];
      const above = rows.filter((r) => sampleHash(r.d, r.s) >= final.threshold);
      expect(above.length).toBeGreaterThan(0);
      expect(above.every((r) => r.i < final.lastChangeNs)).toBe(true);
      if (existsSync(probe)) {
        const sim = JSON.parse(execFileSync(probe, ['simulate', fixture, '--sizes', '1MiB', '--json', '--quiet'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { input: { aboveFinalRate: number; sampleRate: number } };
        expect(sim.input.aboveFinalRate).toBe(above.length);
        expect(sim.input.sampleRate).toBe(final.threshold / 2 ** 24);
      }
      // the analysis' request sizes count the rows of the final sample only
      const names = new Map((db.prepare('SELECT id, name FROM devices').all() as { id: number; name: string }[]).map((r) => [r.id, r.name]));
      const trace = traceSizesOf(db, fixture, meta, names);
      const counted = [...names.values()].flatMap((n) => trace?.sizes(n, -1e15, 1e15) ?? []).reduce((a, r) => a + r.count, 0);
      const readsWrites = rows.length - (db.prepare("SELECT count(*) FROM block_requests WHERE op NOT IN ('R', 'W')").pluck().get() as number);
      const aboveRw = (db.prepare("SELECT device_id AS d, sector AS s FROM block_requests WHERE op IN ('R', 'W')").all() as { d: number; s: number }[])
        .filter((r) => sampleHash(r.d, r.s) >= final.threshold).length;
      expect(counted).toBe(readsWrites - aboveRw);
    } finally {
      db.close();
    }
  });

  it('a trace without a change of rate (or of an earlier probe) is read whole', () => {
    const db = new Database(join(root, 'samples', 'fixtures', 'capture-v2.sqlite'), { readonly: true });
    try {
      expect(finalSampleOf(db, { trace_sample_rate: '0.5' })).toBeNull();
    } finally {
      db.close();
    }
    // the hash itself, worked with the probe's splitmix64 on device 1, sector 0 (block key 1 << 44)
    expect(sampleHash(1, 0)).toBe(sampleHash(1, 7));
    expect(sampleHash(1, 0)).not.toBe(sampleHash(1, 8));
  });
});
