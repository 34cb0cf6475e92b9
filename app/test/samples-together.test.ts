/**
 * Samples that ship together work together: every shipped TCO scenario (samples/scenarios/)
 * prices with `cacheproof tco`, and goes into a report with every shipped capture
 * (samples/lab/*.capture) it may be used with: the capture it names in `measuredFrom` when it
 * names one (that capture must ship), else every shipped capture (a typed model fits any
 * capture; one claiming "measured" figures must match them). Through the real built CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, root } from './support/built-cli.ts';

const scenariosDir = join(root, 'samples', 'scenarios');
const capturesDir = join(root, 'samples', 'lab');
const scenarios = readdirSync(scenariosDir).filter((f) => f.endsWith('.tco.json')).sort();
const captures = readdirSync(capturesDir).filter((f) => f.endsWith('.capture')).sort();
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shipped captures a scenario goes with. */
function capturesFor(scenario: string): string[] {
  const json = JSON.parse(readFileSync(join(scenariosDir, scenario), 'utf8')) as { measuredFrom?: { captureFile: string } };
  if (json.measuredFrom === undefined) return captures;
  const named = json.measuredFrom.captureFile;
  expect(captures, `${scenario} names ${named} in measuredFrom, which does not ship in samples/lab/`).toContain(named);
  return [named];
}

describe('shipped samples', () => {
  it('there is at least one scenario and one capture to pair', () => {
    expect(scenarios).toContain('example.tco.json');
    expect(captures).toContain('lab-sample.capture');
  });

  for (const scenario of scenarios) {
    it(`${scenario}: cacheproof tco prices it (exit 0)`, async () => {
      const r = await builtCli('tco', join(scenariosDir, scenario));
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
    });
    it(`${scenario}: cacheproof report --scenario with each shipped capture it goes with (exit 0, TCO section present)`, async () => {
      for (const capture of capturesFor(scenario)) {
        const out = join(dir, `${scenario}-${capture}.csv`);
        const r = await builtCli('report', join(capturesDir, capture), '--scenario', join(scenariosDir, scenario), '--format', 'csv', '--out', out);
        expect(r.err, `${scenario} with ${capture}`).toBe('');
        expect(r.code, `${scenario} with ${capture}`).toBe(0);
        expect(existsSync(out)).toBe(true);
        expect(readFileSync(out, 'utf8'), `${scenario} with ${capture}: the report's TCO rows`).toMatch(/^tco\.[a-z-]+,/m);
      }
    });
  }
});
