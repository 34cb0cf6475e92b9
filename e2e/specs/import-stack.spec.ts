/**
 * Count every I/O once (issue 26), driven as a person would on Import a log: synthetic Linux logs
 * written here in the real formats —
 * - `sadf -d` (sysstat's `# hostname;interval;timestamp;DEV;…` form) of a host with the LVM volume
 *   `dm-0` on the disk `sda` (the file does not say so: the numbers do) and a second disk `sdb`;
 * - `sar -d -p` laid out as the real sysstat file ../shared/realdata/linux_iostat_sar_diskstats/
 *   sysstat_expected_sar-pretty-d.txt (its own first lines and column header) with the partitions
 *   `sda1` and `sda2` on `sda`;
 * - `iostat -xmt -N` laid out as the real congxueyang_object2_iostat-xmt_sysstat10.txt (its first
 *   line, its reports' times and CPU lines and its device header) with the LVM volume `vg0-data`
 *   on the partition `sda2` of `sda`: counting the volume and the disk is refused though a layer
 *   sits between them.
 * The preview screen shows the device stack the probe's `import --preview --json` gives (each
 * device, what it sits on and how that is known, its role) and the proposed roles count each I/O
 * once: no counted device sits on another counted one, and every device left out sits on a
 * counted one. A role set that counts a device and the device under it is refused with the
 * probe's sentence naming the pair, the sentence `--preview --json` prints for the same roles.
 * Screenshots in English and Russian (test-results/e2e/…), scanned with axe.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, seriousViolations, watchConsole } from '../fixtures.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { importUi } from '../../app/src/shared/i18n/import.ts';
import { common } from '../../app/src/shared/i18n/common.ts';
import { probeSaid, type SaidCode } from '../../app/src/shared/i18n/probe-said.ts';
import type { Lang } from '../../app/src/shared/i18n/types.ts';
import { probeAbsent, realdata, realdataAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const SAR_REAL = realdata('linux_iostat_sar_diskstats', 'sysstat_expected_sar-pretty-d.txt');
const IOSTAT_REAL = realdata('linux_iostat_sar_diskstats', 'congxueyang_object2_iostat-xmt_sysstat10.txt');
const cannotRun = realdataAbsent(SAR_REAL, IOSTAT_REAL) ?? probeAbsent();

/** One browser host for the file (nothing is imported: the preview is what is looked at), and a folder for the logs the test writes. */
const test = base.extend<{ logs: string }>({
  // eslint-disable-next-line no-empty-pattern
  logs: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-stack-logs-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  test.skip(skipped('Import a log: the device stack (e2e)', cannotRun), `SKIP: ${cannotRun ?? ''}`);
});

type Edge = [holder: string, on: string, kind: string];
interface PreviewJson { devices: { name: string; role: string }[]; stack: { holder: string; on: string; kind: string }[] }

/** `cacheproof-probe import KIND FILE --preview --json [--role …]`: the JSON, or the refusal's sentence. */
function probePreview(kind: string, file: string, roles: string[] = []): PreviewJson | { refused: string } {
  const r = spawnSync(releaseProbe, ['import', kind, file, ...roles.flatMap((x) => ['--role', x]), '--preview', '--json'], { encoding: 'utf8' });
  if (r.status === 0) return JSON.parse(r.stdout) as PreviewJson;
  return { refused: r.stderr.trim().replace(/^cacheproof-probe: /u, '') };
}

/** A wave that differs interval by interval (so a volume's traffic can be told to track one disk). */
const wave = (i: number, base: number, step: number): number => base + ((i * 7919) % 13) * step;

/** `sadf -d` of db01: dm-0 (an LVM volume) on sda, whose writes are the volume's plus a little of its own; sdb apart. */
function sadfLvm(dir: string): string {
  const lines = ['# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util'];
  for (let i = 0; i < 12; i++) {
    const ts = `2023-01-12 08:${String(10 + i).padStart(2, '0')}:00 UTC`;
    const lv = wave(i, 8000, 900);
    const sda = lv + 12.5 + (i % 3);
    const sdb = wave(i + 5, 300, 40);
    for (const [dev, wk] of [['sda', sda], ['sdb', sdb], ['dm-0', lv]] as const) {
      lines.push(`db01;60;${ts};${dev};${(wk / 8 + 1).toFixed(2)};8.00;${wk.toFixed(2)};0.00;8.00;0.50;1.20;12.00`);
    }
  }
  const f = join(dir, 'db01.sadf.csv');
  writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

/**
 * `sar -d -p` in the real file's layout: its first line and column header, each value right-aligned
 * where its column's name ends; sda1 and sda2 on sda (sda's traffic is theirs), sdb apart.
 */
function sarPartitions(dir: string): string {
  const real = readFileSync(SAR_REAL, 'utf8').split('\n');
  const header = real[2] ?? '';
  const columns = header.trim().split(/\s+/u).slice(1, -1);
  const ends = columns.map((c) => header.indexOf(` ${c}`) + c.length + 1);
  const [h, m, s] = header.slice(0, 8).split(':').map(Number) as [number, number, number];
  const rows: string[] = [];
  for (let i = 1; i <= 12; i++) {
    const t = h * 3600 + m * 60 + s + 10 * i;
    const time = [Math.floor(t / 3600), Math.floor(t / 60) % 60, t % 60].map((x) => String(x).padStart(2, '0')).join(':');
    const p1 = wave(i, 200, 60);
    const p2 = wave(i + 3, 100, 25);
    for (const [dev, wk] of [['sda', p1 + p2], ['sda1', p1], ['sda2', p2], ['sdb', wave(i + 7, 50, 9)]] as const) {
      const values = [wk / 8 + 1, 1, wk, 0, 8, 0.1, 1, 2];
      let line = time;
      values.forEach((v, k) => { line += v.toFixed(2).padStart((ends[k] as number) - line.length); });
      rows.push(`${line} ${dev}`);
    }
  }
  const f = join(dir, 'db02.sar.txt');
  writeFileSync(f, `${real[0] ?? ''}\n\n${header}\n${rows.join('\n')}\n`);
  return f;
}

/**
 * `iostat -xmt -N` in the real file's layout: its first line, then its first 13 reports, each with
 * its own time and CPU lines and device header, the device rows written here (each value
 * right-aligned where its column's name ends): vg0-data on sda2 (its writes are the partition's
 * but one), sda1 and sda2 on sda.
 */
function iostatVolumeOnPartition(dir: string): string {
  const paras = readFileSync(IOSTAT_REAL, 'utf8').split('\n\n');
  const out = [paras[0] ?? ''];
  for (let k = 0; k < 13; k++) {
    const cpu = paras[1 + 2 * k] ?? '';
    const header = (paras[2 + 2 * k] ?? '').split('\n')[0] ?? '';
    const ends = header.trim().split(/\s+/u).slice(1).map((c) => header.indexOf(` ${c}`) + c.length + 1);
    const lv = wave(k, 40, 9);
    const p1 = wave(k + 4, 5, 2);
    const rows = ([['sda', lv + p1 + 1], ['sda1', p1], ['sda2', lv + 1], ['vg0-data', lv]] as const).map(([dev, ws]) => {
      // rrqm/s wrqm/s r/s w/s rMB/s wMB/s avgrq-sz avgqu-sz await r_await w_await svctm %util
      let line = dev.padEnd('Device:'.length);
      [0, 0, 1, ws, 0.01, ws * 0.004, 8, 0.1, 1, 1, 1, 0.5, 2].forEach((v, i) => { line += v.toFixed(2).padStart((ends[i] as number) - line.length); });
      return line;
    });
    out.push(cpu, `${header}\n${rows.join('\n')}`);
  }
  const f = join(dir, 'object2.iostat.txt');
  writeFileSync(f, `${out.join('\n\n')}\n\n`);
  return f;
}

async function preview(page: Page, authUrl: string, kind: string, file: string): Promise<void> {
  await page.goto(authUrl);
  await page.getByTestId(TID.homeImport).click();
  await expect(page.getByTestId(TID.importScreen)).toBeVisible();
  await page.getByTestId(TID.importKind).selectOption(kind);
  await page.getByTestId(TID.importFiles).fill(file);
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
}

/** The device table as shown: each device's role, and the stack edges (what sits on what, and how it is known). */
/** A stack edge's kind as the screen writes it in `lang` (the probe's code `kind-…`, i18n/probe-said.ts). */
function kindIn(lang: Lang, english: string): string {
  const code = (Object.keys(probeSaid.en) as SaidCode[]).find((k) => k.startsWith('kind-') && probeSaid.en[k] === english);
  return code === undefined ? english : probeSaid[lang][code];
}

async function shown(page: Page, lang: Lang = 'en'): Promise<{ roles: Map<string, string>; stack: Edge[] }> {
  const rows = await page.getByTestId(TID.importDevices).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    device: tr.getAttribute('data-device') ?? '', role: tr.getAttribute('data-role') ?? '', on: tr.getAttribute('data-on'), kind: tr.getAttribute('data-stack'),
    cell: tr.querySelectorAll('td')[1]?.textContent ?? '',
  })));
  const stack: Edge[] = [];
  for (const r of rows) {
    if (r.kind !== null && r.on !== null) {
      // the person reads it in the row, in their language: "sda (partition)", "sda (раздел)"
      expect(r.cell).toBe(`${r.on} (${kindIn(lang, r.kind)})`);
      stack.push([r.device, r.on, r.kind]);
    }
  }
  return { roles: new Map(rows.map((r) => [r.device, r.role])), stack };
}

const counted = (roles: Map<string, string>, d: string): boolean => (roles.get(d) ?? 'other') !== 'other';

/** No counted device sits on a counted one. */
function noneTwice(roles: Map<string, string>, stack: Edge[]): void {
  for (const [holder, on] of stack) expect(counted(roles, holder) && counted(roles, on), `${holder} and ${on} both counted`).toBe(false);
}

/** The proposed roles count each I/O once: none twice, and each device left out sits (through the stack) on a counted one. */
function countedOnce(roles: Map<string, string>, stack: Edge[]): void {
  noneTwice(roles, stack);
  const counted = (d: string): boolean => (roles.get(d) ?? 'other') !== 'other';
  for (const [d] of [...roles].filter(([d]) => !counted(d))) {
    let at: string | undefined = d;
    const seen = new Set<string>();
    while (at !== undefined && !counted(at) && !seen.has(at)) {
      seen.add(at);
      at = stack.find(([h]) => h === at)?.[1];
    }
    expect(at !== undefined && counted(at), `${d}'s I/O is counted on a device under it`).toBe(true);
  }
}

/** The device table equals `--preview --json`: the same roles, the same stack. */
async function screenEqualsProbe(page: Page, kind: string, file: string, lang: Lang = 'en'): Promise<{ roles: Map<string, string>; stack: Edge[] }> {
  const json = probePreview(kind, file);
  if ('refused' in json) throw new Error(json.refused);
  const ui = await shown(page, lang);
  expect([...ui.roles].sort()).toEqual(json.devices.map((d) => [d.name, d.role]).sort());
  expect([...ui.stack].sort()).toEqual(json.stack.map((e): Edge => [e.holder, e.on, e.kind]).sort());
  return ui;
}

/** Sets a device's role, previews again, and expects the refusal `--preview --json` gives for the same role. */
async function refused(page: Page, kind: string, file: string, device: string, role: string): Promise<string> {
  await page.getByTestId(TID.importDevices).locator(`tr[data-device="${device}"] select`).selectOption(role);
  await page.getByTestId(TID.importPreviewBtn).click();
  const cli = probePreview(kind, file, [`${device}=${role}`]);
  if (!('refused' in cli)) throw new Error(`--role ${device}=${role} was accepted by the probe`);
  const says = page.getByTestId(TID.importError).locator('.probe-says');
  await expect(says).toHaveText(cli.refused);
  // the file was read: the words above the sentence speak of the choice, not of fixing the file
  const lang = await page.evaluate(() => globalThis.localStorage.getItem('cacheproof.lang') ?? 'en') as 'en' | 'ru';
  await expect(page.getByTestId(TID.importError)).toContainText(common[lang]['err.import-choice-refused']);
  await expect(page.getByTestId(TID.importError)).not.toContainText(common[lang]['err.import-refused']);
  await expect(page.getByTestId(TID.importStart)).toBeDisabled();
  return cli.refused;
}

test('sadf -d with an LVM volume on a disk: the stack and roles are the probe\'s, counted once; counting both is refused; en and ru', async ({ app, logs, page }, info) => {
  const errors = watchConsole(page);
  const file = sadfLvm(logs);
  await preview(page, app.authUrl, 'sadf', file);
  const { roles, stack } = await screenEqualsProbe(page, 'sadf', file);
  expect(stack).toEqual([['dm-0', 'sda', 'from the numbers']]);
  expect(roles.get('dm-0')).toBe('other');
  expect(roles.get('sda')).toBe('backing');
  countedOnce(roles, stack);
  await expect(page.getByTestId(TID.importNotes)).toContainText('dm-0 on sda (from the numbers)');
  await page.getByTestId(TID.importPreview).screenshot({ path: info.outputPath('import-stack-lvm-en.png') });
  expect(await seriousViolations(page), 'axe (en)').toEqual([]);

  const sentence = await refused(page, 'sadf', file, 'dm-0', 'backing');
  expect(sentence).toContain('dm-0 and sda would both be counted, but dm-0 sits on sda');
  await page.screenshot({ path: info.outputPath('import-stack-lvm-refused-en.png'), fullPage: true });

  // the same screen in Russian: the same stack and roles, the strings of its catalog
  await page.evaluate(() => { globalThis.localStorage.setItem('cacheproof.lang', 'ru'); });
  await preview(page, app.authUrl, 'sadf', file);
  await expect(page.getByTestId(TID.importPreview)).toContainText(importUi.ru['pv.title']);
  await expect(page.getByTestId(TID.importDevices)).toContainText(importUi.ru['pv.on']);
  const ru = await screenEqualsProbe(page, 'sadf', file, 'ru');
  expect(ru.stack).toEqual(stack);
  await page.getByTestId(TID.importPreview).screenshot({ path: info.outputPath('import-stack-lvm-ru.png') });
  expect(await seriousViolations(page), 'axe (ru)').toEqual([]);
  await refused(page, 'sadf', file, 'dm-0', 'backing');
  await page.screenshot({ path: info.outputPath('import-stack-lvm-refused-ru.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('sar -d -p with partitions on a disk: the stack and roles are the probe\'s, counted once; a partition and its disk together are refused', async ({ app, logs, page }, info) => {
  const errors = watchConsole(page);
  const file = sarPartitions(logs);
  // the file is read as sar: a line of the real file's layout per device and time
  expect(readFileSync(file, 'utf8').split('\n').filter((l) => l.endsWith(' sda1'))).toHaveLength(12);
  await preview(page, app.authUrl, 'sar', file);
  const { roles, stack } = await screenEqualsProbe(page, 'sar', file);
  expect([...stack].sort()).toEqual([['sda1', 'sda', 'partition'], ['sda2', 'sda', 'partition']]);
  for (const d of ['sda', 'sdb']) expect(roles.get(d), d).toBe('backing');
  countedOnce(roles, stack);
  await page.getByTestId(TID.importPreview).screenshot({ path: info.outputPath('import-stack-partitions-en.png') });
  expect(await seriousViolations(page), 'axe (en)').toEqual([]);

  const sentence = await refused(page, 'sar', file, 'sda1', 'backing');
  expect(sentence).toContain('sda1 and sda would both be counted, but sda1 sits on sda');
  // counting the partitions instead of their disk counts once: accepted, and Import is offered
  await page.getByTestId(TID.importDevices).locator('tr[data-device="sda2"] select').selectOption('backing');
  await page.getByTestId(TID.importDevices).locator('tr[data-device="sda"] select').selectOption('other');
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(page.getByTestId(TID.importPreview)).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId(TID.importError)).toBeHidden();
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();
  const after = await shown(page);
  expect([after.roles.get('sda'), after.roles.get('sda1'), after.roles.get('sda2')]).toEqual(['other', 'backing', 'backing']);
  noneTwice(after.roles, after.stack);
  expect(errors).toEqual([]);
});

test('iostat -xmt -N with a volume on a partition of a disk: the stack has two layers, counted once; the volume and the disk together are refused', async ({ app, logs, page }, info) => {
  const errors = watchConsole(page);
  const file = iostatVolumeOnPartition(logs);
  await preview(page, app.authUrl, 'iostat', file);
  const { roles, stack } = await screenEqualsProbe(page, 'iostat', file);
  expect([...stack].sort()).toEqual([['sda1', 'sda', 'partition'], ['sda2', 'sda', 'partition'], ['vg0-data', 'sda2', 'from the numbers']]);
  expect(roles.get('sda')).toBe('backing');
  countedOnce(roles, stack);
  await page.getByTestId(TID.importPreview).screenshot({ path: info.outputPath('import-stack-iostat-en.png') });
  expect(await seriousViolations(page), 'axe (en)').toEqual([]);
  const sentence = await refused(page, 'iostat', file, 'vg0-data', 'backing');
  expect(sentence).toContain('vg0-data and sda would both be counted, but vg0-data sits on sda (through sda2)');
  expect(errors).toEqual([]);
});
