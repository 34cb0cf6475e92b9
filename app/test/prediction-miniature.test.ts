// The words of a prediction whose other policies were replayed on a miniature of the trace
// (docs/simulate.md § predict): the real CloudPhysics trace (../shared/realdata/block_traces)
// imported by `cacheproof-probe import-trace`, then `predict --size 64MiB --json` with the six
// policies (the app's default), whose window
// holds more read block references than the 200,000 budget, so FIFO, CLOCK, ARC, 2Q and S3-FIFO
// are miniatures. The engine's miniatureMsg (the report's prediction section and the miss-ratio
// chart of the dashboard and profile say it) reads the probe's `miniature` as it is, names the
// policies the probe names with its rate and expected error, says LRU is exact, and every language
// fills every placeholder; a prediction replayed whole (`--exact`), or of LRU alone, gets none.
// Needs the release probe and the shared real data (skipped with a message, a failure in CI).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PredictionMiniature } from '@cacheproof/engine';
import { miniatureMsg } from '@cacheproof/engine/report';
import { formatVal, reportText } from '../src/shared/i18n/report.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const trace = realdata('block_traces', 'libcachesim_cloudPhysicsIO.csv');
const skip = skipped('prediction-miniature', realdataAbsent(trace) ?? probeAbsent());

interface PredictJson { cacheBytes: number; miniature: (PredictionMiniature & { keptReferences: number; references: number }) | null; policies: { policy: string; method: string }[] }

describe.skipIf(skip)('a prediction from a miniature of the trace', () => {
  it('says which curves are miniatures, at which rate and error, in four languages; an exact replay says nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-miniature-'));
    try {
      const capture = join(dir, 'cp.capture');
      execFileSync(releaseProbe, ['import-trace', 'cloudphysics', trace, '--out', capture]);
      const run = (...extra: string[]): PredictJson => JSON.parse(execFileSync(releaseProbe, ['predict', capture, '--size', '64MiB', '--json', '--quiet', ...extra], { maxBuffer: 1 << 28 }).toString()) as PredictJson;
      const six = ['--policy', 'lru,fifo,clock,arc,2q,s3fifo'];
      const p = run(...six);
      const mini = p.miniature;
      if (mini === null) throw new Error('the probe replayed the CloudPhysics window whole: no miniature to word');
      expect(mini.rate).toBeGreaterThan(0);
      expect(mini.rate).toBeLessThan(1);
      expect(mini.keptReferences).toBeLessThan(mini.references);
      // the policies the probe names are the ones whose method says miniature, LRU not among them
      expect(mini.policies).toEqual(p.policies.filter((x) => x.method === 'miniature-simulation').map((x) => x.policy));
      expect(mini.policies).not.toContain('lru');
      const msg = miniatureMsg(p);
      if (msg === null) throw new Error('miniatureMsg gave nothing for a miniature prediction');
      const en = reportText(msg, 'en');
      expect(en).toContain('FIFO, CLOCK, ARC, 2Q, S3-FIFO');
      expect(en).toContain(`${(mini.rate * 100).toFixed(2)}%`);
      expect(en).toContain(`± ${(mini.expectedMeanAbsError * 100).toFixed(2)} percentage points`);
      expect(en).toContain(`LRU and every figure at ${formatVal({ k: 'bytes', v: 64 * 1024 * 1024 }, 'en')} are exact`);
      for (const lang of ['en', 'fr', 'es', 'ru'] as const) {
        const text = reportText(msg, lang);
        expect(text, lang).not.toMatch(/[{}]/);
        expect(text, lang).toContain('S3-FIFO');
      }
      const exact = run(...six, '--exact');
      expect(exact.miniature).toBeNull();
      expect(miniatureMsg(exact)).toBeNull();
      // LRU alone (the command's default) is exact by its stack method: nothing is a miniature
      const lru = run();
      expect(lru.miniature).toBeNull();
      expect(miniatureMsg(lru)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
