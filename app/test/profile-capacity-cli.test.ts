/**
 * `cacheproof analyze CAPTURE --profile --json` carries each volume's capacity (engine
 * `volumeCapacity`, docs/metrics.md § Capacity): the v7 fixture (the real windows_exporter 0.20.0
 * scrape taken 8 times a minute apart, C:'s free space lowered 50 MiB a minute by
 * samples/fixtures/make-capture-v7.sh) gives C:'s size and free bytes as the scrapes state them,
 * a growth of 50 MiB × 1440 a day and the days to full at that rate; the v6 fixture (a recording
 * of schema v6, no volume_capacity table) says "not in this log" (`inLog: false`), no volume of 0.
 */
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkloadProfile } from '@cacheproof/engine';
import { runCli } from '../src/cli/main.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples', 'fixtures');

async function profileJson(capture: string): Promise<WorkloadProfile> {
  let out = '';
  let err = '';
  const code = await runCli(['analyze', join(fixtures, capture), '--profile', '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  expect(code, err).toBe(0);
  return JSON.parse(out) as WorkloadProfile;
}

describe('analyze --profile --json: capacity', () => {
  it('gives the v7 fixture\'s volumes, their growth per day and days to full', async () => {
    const p = await profileJson('capture-v7.sqlite');
    expect(p.capacity.inLog).toBe(true);
    const c = p.capacity.volumes.find((v) => v.volume === 'C:');
    const free = 43636490240 - 7 * 52428800;
    expect([c?.sizeBytes, c?.freeBytes, c?.usedBytes, c?.device, c?.source, c?.samples]).toEqual([67938287616, free, 67938287616 - free, 'LogicalDisk(C:)', 'windows_exporter', 8]);
    // 7 minutes of scrapes: the slope is there for audit, the growth and days to full are withheld (under 24 h), with the warning
    expect(c?.fitGrowthBytesPerDay).toBeCloseTo(52428800 * 1440, 0);
    expect([c?.growthBytesPerDay, c?.daysToFull, c?.reasons]).toEqual([null, null, { growthBytesPerDay: 'short-fit', daysToFull: 'short-fit' }]);
    expect(p.warnings.filter((w) => w.code === 'capacity-short-fit').map((w) => w.params?.['volume'])).toEqual(['C:', 'HarddiskVolume4']);
    const other = p.capacity.volumes.find((v) => v.volume === 'HarddiskVolume4');
    expect([other?.sizeBytes, other?.freeBytes, other?.fitGrowthBytesPerDay, other?.growthBytesPerDay, other?.daysToFull]).toEqual([654311424, 85983232, 0, null, null]);
  });

  it('says "not in this log" for a capture of schema v6', async () => {
    const p = await profileJson('capture-v6.sqlite');
    expect(p.capacity).toEqual({ inLog: false, volumes: [] });
  });
});
