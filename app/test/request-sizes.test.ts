// Request sizes from a block trace, end to end through the app's capture readers: a copy of the
// bundled lab capture, opened for writing by the real probe (which migrates it to the current
// schema), gets traced requests of its front device written in by hand — in the baseline 300 reads
// of 512 B, 700 of 4 KiB and 50 writes of 64 KiB, in the measure window 400 reads of 16 KiB — and a
// sample rate of 0.25. `cacheproof analyze --json` (the columnar reader, as the dashboard and the
// report) and the in-memory reader give the block trace's exact distribution beside the interval
// counters', and none for the backing device, which has no traced request. Needs the release probe.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { analyze } from '@cacheproof/engine';
import { openCapture } from '../src/host/capture/reader.ts';
import { migratedCopy } from '../../test/support/traced-capture.ts';
import { analyzeJson } from './support/analyze-json.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = join(import.meta.dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const reason = existsSync(probe) ? null : `${probe} is missing: build it with 'cargo build --release --manifest-path native/Cargo.toml'`;

function tracedCopy(dir: string): string {
  const capture = migratedCopy(dir, sample, probe, 'sizes.capture');
  const db = new Database(capture);
  try {
    const front = db.prepare("SELECT id FROM devices WHERE role = 'front'").pluck().get() as number;
    const base = db.prepare("SELECT start_utc_ms AS s, end_utc_ms AS e FROM phases WHERE name = 'baseline'").get() as { s: number; e: number };
    const meas = db.prepare("SELECT start_utc_ms AS s, end_utc_ms AS e FROM phases WHERE name = 'measure'").get() as { s: number; e: number };
    const ins = db.prepare('INSERT INTO block_requests(device_id, issue_ns, complete_ns, utc_ms, sector, bytes, op, rwbs, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)');
    let k = 0;
    const put = (w: { s: number; e: number }, n: number, bytes: number, op: 'R' | 'W'): void => {
      for (let i = 0; i < n; i++) {
        // spread over the window's middle half (away from a warm-up or a trim at its edges)
        const utc = w.s + Math.floor((w.e - w.s) * (0.4 + (0.2 * i) / n));
        ins.run(front, 1e9 + k * 1e6, 1e9 + k * 1e6 + 100_000, utc, k * 8, bytes, op, op);
        k++;
      }
    };
    db.transaction(() => {
      put(base, 300, 512, 'R');
      put(base, 700, 4096, 'R');
      put(base, 50, 65536, 'W');
      put(meas, 400, 16384, 'R');
    })();
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('trace_sample_rate', '0.25')").run();
  } finally {
    db.close();
  }
  return capture;
}

describe.skipIf(skipped('request-sizes', reason))('request sizes from the block trace', () => {
  it('counts every traced request at its own size, per window, beside the counters\' distribution; the same from both readers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-sizes-'));
    try {
      const capture = tracedCopy(dir);
      const r = await analyzeJson(capture);
      const fb = r.requestSizes.front?.baseline;
      const t = fb?.fromTrace;
      if (t === null || t === undefined) throw new Error(`no trace distribution: ${JSON.stringify(fb?.reasons)}`);
      expect(t.method).toBe('block-trace');
      expect(t.sampleRate).toBe(0.25);
      expect(t.reads?.ios).toBe(1000);
      expect(t.reads?.counts[1]).toBe(300); // 512 B → [512 B, 1 KiB)
      expect(t.reads?.counts[4]).toBe(700); // 4 KiB → [4, 8) KiB
      expect(t.reads?.percents[1]).toBeCloseTo(30, 12);
      expect(t.reads?.meanBytes).toBeCloseTo((300 * 512 + 700 * 4096) / 1000, 9);
      expect(t.writes?.counts[8]).toBe(50); // 64 KiB → [64, 128) KiB
      const tm = r.requestSizes.front?.measure.fromTrace;
      expect(tm?.reads?.counts[6]).toBe(400); // 16 KiB → [16, 32) KiB
      expect(tm?.writes).toBeNull();
      expect(tm?.reasons['writes']).toBe('no-writes');
      // the counters' distribution stays beside it (the lab sample's 4 KiB I/O)
      expect(fb?.fromCounters.method).toBe('interval-average');
      expect(fb?.fromCounters.reads?.ios).toBe(r.groups.front?.baseline.totals.reads);
      // the backing device has no traced request: no trace distribution, said why
      expect(r.requestSizes.backing.baseline.fromTrace).toBeNull();
      expect(r.requestSizes.backing.baseline.reasons['fromTrace']).toBe('not-reported');
      // the in-memory reader gives the same section
      const opened = openCapture(capture);
      const again = analyze(opened.data, {});
      if (!again.ok) throw new Error(again.error.message);
      expect(again.requestSizes).toEqual(r.requestSizes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no trace distribution for a capture without a trace', async () => {
    const r = await analyzeJson(sample);
    for (const g of [r.requestSizes.front, r.requestSizes.backing]) {
      expect(g?.baseline.fromTrace).toBeNull();
      expect(g?.measure.reasons['fromTrace']).toBe('not-reported');
    }
  });
});
