/** The one formatter of sizes: the decimal unit that fits, three significant digits, in every language. */
import { describe, expect, it } from 'vitest';
import { fmtBytes, fmtCacheBytes } from '../src/shared/i18n/numbers.ts';
import { builtCli } from './support/built-cli.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const norm = (s: string): string => s.replace(/[\u00a0\u202f]/gu, ' ');

describe('fmtBytes', () => {
  it('prints a size in the unit that fits, never 0.0 TB for a small device', () => {
    expect(fmtBytes('en', 369_098_752)).toBe('369 MB');
    expect(fmtBytes('en', 1.2e12)).toBe('1.2 TB');
    expect(fmtBytes('en', 20e12)).toBe('20 TB');
    expect(fmtBytes('en', 999_600)).toBe('1 MB');
    expect(fmtBytes('en', 512)).toBe('512 B');
    expect(fmtBytes('en', 2.5e15)).toBe('2.5 PB');
    expect(fmtBytes('en', 0)).toBe('0 B');
    expect(norm(fmtBytes('fr', 1.25e9))).toBe('1,25 Go');
    expect(fmtBytes('ru', 369_098_752)).toBe('369 МБ');
    expect(fmtBytes('es', 4.7e6)).toBe('4,7 MB');
  });

  it('cacheproof tco on the lab sample prints its 369 MB as such, in the Planner\'s words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-bytes-'));
    try {
      const scenario = join(dir, 's.tco.json');
      const sample = join(resolve(__dirname, '..', '..'), 'samples', 'lab', 'lab-sample.capture');
      expect((await builtCli('tco', '--from-capture', sample, '--out', scenario)).code).toBe(0);
      // the prefilled scenario takes the analysis's name (host and capture), never the example's "OLTP volume"
      const title = (JSON.parse(readFileSync(scenario, 'utf8')) as { title: string }).title;
      expect(title).toMatch(/^\S.* \(lab-sample\.capture\): cache versus spindles versus flash$/u);
      const r = await builtCli('tco', scenario);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Capacity: 369 MB today, 491 MB in year 4\./u);
      expect(r.out).not.toMatch(/0\.0 TB/u);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fmtCacheBytes', () => {
  it('says a size typed in a binary unit in that unit (1 GiB, not 1.07 GB), a decimal one as fmtBytes does', () => {
    expect(fmtCacheBytes('en', 2 ** 30)).toBe('1 GiB');
    expect(fmtCacheBytes('en', 2 ** 20)).toBe('1 MiB');
    expect(fmtCacheBytes('en', 512 * 2 ** 20)).toBe('512 MiB');
    expect(fmtCacheBytes('fr', 2 ** 30)).toBe('1 Gio');
    expect(fmtCacheBytes('ru', 2 * 2 ** 40)).toBe('2 ТиБ');
    expect(fmtCacheBytes('en', 4e11)).toBe('400 GB');
    expect(fmtCacheBytes('en', 409_600)).toBe(fmtBytes('en', 409_600));
  });
});
