/**
 * One implementation of every figure: the same capture opened in the dashboard, printed by
 * `cacheproof analyze` (text) and exported as the PDF report shows every shared headline figure
 * identically, at the precision each prints (the shared formatter, app/src/shared/i18n/numbers.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, repoRoot, SAMPLE } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';

const cli = join(repoRoot, 'app', 'dist', 'cli.cjs');
/** Spaces of every kind (French groups with a narrow no-break space) as one plain space. */
const norm = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/gu, ' ').trim();
/** The numbers in a text, as printed (with grouping and decimal signs). */
const numbers = (s: string): string[] => norm(s).match(/\d[\d,. ]*\d|\d/gu)?.map((x) => x.trim()) ?? [];

for (const lang of ['en', 'fr'] as const) {
  test(`${lang}: the dashboard's cards, cacheproof analyze and the PDF report print the same headline figures`, async ({ app, page }) => {
    await page.goto(app.authUrl);
    await page.getByTestId(TID.langSelect).selectOption(lang);
    await page.evaluate(() => { location.hash = '#/sample'; });
    await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
    const card = async (id: string): Promise<string[]> => numbers((await page.getByTestId(id).locator('.value').textContent()) ?? '');
    const saved = await card(TID.cardIosSaved);
    const latency = await card(TID.cardLatency);
    const normalized = await card(TID.cardNormalizedIops);
    const throughput = await card(TID.cardThroughput);
    const served = await card(TID.cardCacheServed);
    expect(latency).toHaveLength(2);
    expect(normalized).toHaveLength(2);

    const text = norm(execFileSync(process.execPath, [cli, 'analyze', SAMPLE, '--lang', lang], { encoding: 'utf8' }));
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-agree-'));
    try {
      const pdf = join(dir, 'r.pdf');
      execFileSync(process.execPath, [cli, 'report', SAMPLE, '--format', 'pdf', '--out', pdf, '--lang', lang]);
      const printed = norm(execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }));
      for (const [what, figures] of [['I/Os saved', saved], ['response time', latency], ['normalized IOPS', normalized], ['throughput', throughput], ['served by the cache', served]] as const) {
        for (const f of figures) {
          expect(text, `${lang} ${what} ${f}: cacheproof analyze`).toContain(f);
          expect(printed, `${lang} ${what} ${f}: PDF report`).toContain(f);
        }
      }
      // The response time row of the CLI holds both card values, in order, at the card's precision.
      const row = text.slice(text.indexOf(latency[0] as string));
      expect(row.indexOf(latency[1] as string)).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
