/**
 * The Live screen's "mean" is the host's: each device's window summary over the hour shown (the
 * engine's ratio of sums), the same on the first reply and on every incremental one — never an
 * average of the points the screen happens to hold.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSeries, summarizeSeries, type IntervalRecord } from '@cacheproof/engine';
import { LIVE_WINDOW_MS, readLive } from '../src/host/runs/live.ts';
import { readCaptureWindow } from '../src/host/capture/window.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-live-means-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('live means', () => {
  const path = join(dir, 'live.capture');
  writeSyntheticCapture({ path, windowSeconds: 3000, warmupSeconds: 0, intervalMs: 10_000, backingDevices: 1, missShare: 0.3, seed: 7 });
  const all = readCaptureWindow(path, { window: () => ({ sinceMs: 0, untilMs: Number.MAX_SAFE_INTEGER }), include: () => true });
  const records = new Map(all.devices.map((d) => [d.name, d.records ?? []]));
  const lastEnd = Math.max(...[...records.values()].flatMap((r) => r.map((x) => x.endMs)));
  const hour = { startMs: lastEnd - LIVE_WINDOW_MS, endMs: lastEnd };
  const expected = (recs: IntervalRecord[]): { iops: number | null; mbps: number | null; latencyMs: number | null } => {
    const m = summarizeSeries(buildSeries([recs], hour)).means;
    return { iops: m.iops, mbps: m.mbps, latencyMs: m.awaitMs };
  };

  it('each device carries the engine\'s means over the last hour', () => {
    const live = readLive(path, { sinceMs: 0, roles: new Map() });
    expect(live.series.length).toBeGreaterThan(1);
    for (const s of live.series) {
      expect(s.means).toEqual(expected(records.get(s.device) ?? []));
      expect(s.means.iops).toBeGreaterThan(0);
      // a ratio of sums: the latency mean weights each interval by its I/Os, not the plain mean of the drawn points
      const drawn = s.latencyMs.filter((v): v is number => v !== null);
      expect(drawn.length).toBeGreaterThan(10);
    }
  });

  it('an incremental reply (a few new points) still carries the hour\'s means, not the new points\'', () => {
    const first = readLive(path, { sinceMs: 0, roles: new Map() });
    const s0 = first.series[0];
    const since = s0?.t[s0.t.length - 3] ?? 0;
    const more = readLive(path, { sinceMs: since, roles: new Map() });
    const s1 = more.series.find((s) => s.device === s0?.device);
    expect(s1?.t.length).toBe(2);
    expect(s1?.means).toEqual(s0?.means);
  });
});
