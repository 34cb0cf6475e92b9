/**
 * The probe's sentences in the person's language (issue 37): the import previews of a real
 * PerfMon log (../shared/realdata/perfmon_csv), a real `iostat -xm` log printed without -t (it
 * needs the report interval: a `needs` sentence) and a `sadf -d` log of a PostgreSQL server with
 * LVM volumes on its disks (written here as native/probe/tests/import_stack.rs writes it: one
 * volume's traffic tracks sda's, so the probe proposes it on sda from the numbers), each in English
 * and in Russian. In Russian no English sentence is left in the preview: once the names the
 * sources wrote are set aside (file, device, counter and format names, marked translate="no"), no
 * line holds a run of three English words, nor the pattern of an English clause. The English
 * preview shows the probe's own English. Each preview is scanned with axe and its screenshot
 * attached, en and ru. Without the probe or the real files: skipped with a message, a failure in CI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, seriousViolations, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { importUi } from '../../app/src/shared/i18n/import.ts';
import { probeSaid } from '../../app/src/shared/i18n/probe-said.ts';
import type { Lang } from '../../app/src/shared/i18n/types.ts';
import { probeAbsent, realdata, realdataAbsent, skipped } from '../../test/support/testenv.ts';

const PERFMON = realdata('perfmon_csv', 'reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv');
const IOSTAT = realdata('linux_iostat_sar_diskstats', 'alifarahani_compute3_iostat-xm.txt');
const cannotRun = realdataAbsent(PERFMON, IOSTAT) ?? probeAbsent();

test.beforeEach(() => {
  test.skip(skipped('Import preview in the person\'s language (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

/** `sadf -d` of dasda, dasdb, sda and the LVM volumes vgsys-swap (idle) and vgsys-postgreSQL (on sda), 10 minutes. */
function writeSadfLvm(path: string): void {
  const lines = ['# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util'];
  for (let i = 0; i < 10; i++) {
    const ts = `2023-01-12 08:${String(10 + i).padStart(2, '0')}:00 UTC`;
    const pgW = 8000 + ((i * 7919) % 13) * 900;
    const sdaW = pgW + 12.5 + (i % 3);
    for (const [dev, tps, rk, wk] of [['dasda', 4, 40, 3], ['dasdb', 0, 0, 0], ['sda', sdaW / 8 + 1, 8, sdaW], ['vgsys-swap', 0, 0, 0], ['vgsys-postgreSQL', pgW / 8 + 1, 8, pgW]] as const) {
      lines.push(`pgsrv;60;${ts};${dev};${tps.toFixed(2)};${rk.toFixed(2)};${wk.toFixed(2)};0.00;8.00;0.50;1.20;12.00`);
    }
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** Common English words: three in a row are an English sentence, whatever the screen's language. */
const ENGLISH = new Set(('the is are was of and a an to from with not no each its it on in at by as or be for only one '
  + 'first last every like this that which time times interval intervals report line lines file files disk disks '
  + 'counted given give counter counters column columns sum other imported known derived device devices volume '
  + 'volumes layer same below above cache any after before since boot start real has have gives printed run ran kept '
  + 'taken local name names table add missing storage drives what applications use used sits between stack listed '
  + 'again whole partition numbers tracks never exceeds').split(' '));

/** The preview's text without what is marked translate="no" (names the sources wrote) and without the role pickers. */
async function translatedText(page: Page): Promise<string[]> {
  return page.getByTestId(TID.importPreview).evaluate((box) => {
    const copy = box.cloneNode(true) as HTMLElement;
    for (const n of copy.querySelectorAll('[translate="no"], select')) n.remove();
    const lines: string[] = [];
    const walk = (n: Element): void => {
      // a leaf block (no element children that are blocks): one line of text
      const blocks = [...n.children].filter((c) => !['SPAN', 'BDI', 'B', 'I', 'EM', 'STRONG', 'CODE'].includes(c.tagName));
      if (blocks.length === 0) lines.push(n.textContent ?? '');
      else blocks.forEach(walk);
    };
    walk(copy);
    return lines.map((l) => l.replace(/\s+/gu, ' ').trim()).filter((l) => l.length > 0);
  });
}

/** The lines that read as English: a run of three common English words, or an English clause. */
function englishLines(lines: string[]): string[] {
  const clause = /\b(the|is|are|of|and|a|to|from|with|not|no|each)\b.*\b(the|is|of|and|to)\b/iu;
  return lines.filter((l) => {
    if (clause.test(l.replace(/[^\p{Script=Latin}\d\s'’-]+/gu, ' | '))) return true;
    const words = l.toLowerCase().split(/[^\p{L}']+/u).filter((w) => w.length > 0);
    return words.some((_, i) => i + 2 < words.length && [0, 1, 2].every((k) => ENGLISH.has(words[i + k] as string)));
  });
}

async function preview(page: Page, authUrl: string, lang: Lang, kind: string, file: string): Promise<void> {
  await page.goto(authUrl);
  await page.evaluate((l) => { globalThis.localStorage.setItem('cacheproof.lang', l); }, lang);
  await page.goto(authUrl);
  await page.getByTestId(TID.homeImport).click();
  await expect(page.getByTestId(TID.importScreen).locator('h2')).toHaveText(importUi[lang].title);
  await page.getByTestId(TID.importKind).selectOption(kind);
  await page.getByTestId(TID.importFiles).fill(file);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(TID.importPreview).locator('[data-said]').first()).toBeVisible();
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.getByTestId(TID.importScreen).screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const CASES = [
  { name: 'perfmon', kind: 'perfmon', file: (): string => PERFMON, expect: ['role-win-disk'] },
  { name: 'iostat-no-t', kind: 'iostat', file: (): string => IOSTAT, expect: ['needs-interval', 'no-times-midnight', 'iostat-first-since-boot'] },
  { name: 'sadf-lvm', kind: 'sadf', file: (dir: string): string => join(dir, 'pg.sadf.csv'), expect: ['role-volume-on-numbers', 'stack-one-layer', 'sadf-each-line'] },
] as const;

for (const c of CASES) {
  test(`the ${c.name} preview says every probe sentence in Russian, none left in English; English as the probe says it`, async ({ app, page }, testInfo) => {
    test.setTimeout(120_000);
    const errors = watchConsole(page);
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-said-'));
    try {
      writeSadfLvm(join(dir, 'pg.sadf.csv'));
      const file = c.file(dir);
      for (const lang of ['en', 'ru'] as const) {
        await preview(page, app.authUrl, lang, c.kind, file);
        const box = page.getByTestId(TID.importPreview);
        for (const code of c.expect) {
          await expect(box.locator(`[data-said="${code}"]`).first(), `${lang}: ${code}`).toBeVisible();
          // the catalog's words are on screen (its first words before any value)
          const head = (probeSaid[lang][code].split('{')[0] ?? '').trim();
          if (head.length > 0) await expect(box.locator(`[data-said="${code}"]`).first()).toContainText(head);
        }
        // no sentence of the probe is left as written
        await expect(box.locator('[data-said="as-written"]')).toHaveCount(0);
        const lines = await translatedText(page);
        expect(lines.length).toBeGreaterThan(5);
        if (lang === 'ru') expect(englishLines(lines), 'English left in the Russian preview').toEqual([]);
        else expect(englishLines(lines).length, 'the English preview reads as English').toBeGreaterThan(0);
        expect(await seriousViolations(page), `axe violations (${c.name}, ${lang})`).toEqual([]);
        await shot(page, testInfo, `preview-${c.name}-${lang}`);
      }
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
