/**
 * A Prometheus fleet through Import a log, to the fleet view, in English and French:
 * Debian's real Prometheus (started and stopped by the spec, on loopback, scraping every second)
 * scrapes two loopback exporters that serve node_exporter's disk counters (`node_disk_*`, the
 * text exposition) of a front device `dm-0` and the disk beneath it `sda`, the counters growing
 * with the clock at known rates; at the switch the disk starts seeing a tenth (host A) or a half
 * (host B) of the reads, and the front's response time drops. Then, driven as a person would:
 * - English: the Prometheus range (URL, selector, from/to, step, switch time, one fleet capture):
 *   the preview lists both hosts' devices; Import opens the fleet view, whose every figure equals
 *   `cacheproof analyze FLEET --host HOST --json`; the table sorts; a row opens that host's
 *   dashboard; axe finds no serious violation;
 * - French: the same range as one capture per host: the fleet view of the folder, each row equal
 *   to `cacheproof analyze HOST.capture --json`; axe.
 * Skipped with a message when Prometheus or the probe is missing (outside CI).
 */
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { probeAbsent, skipped } from '../../test/support/testenv.ts';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, repoRoot, startApp, watchConsole, type AppHost } from '../fixtures.ts';
import { hasCommand, startPrometheus } from '../prometheus.ts';
import { TID } from '../../app/src/shared/testids.ts';
import { fleet as fleetUi } from '../../app/src/shared/i18n/fleet.ts';
import { fmtSig } from '../../app/src/shared/i18n/numbers.ts';
import { translate } from '../../app/src/shared/i18n/types.ts';

const CLI = join(repoRoot, 'app', 'dist', 'cli.cjs');
/** Seconds of baseline and of measure (at a 1 s scrape: a dozen intervals each). */
const WINDOW_S = 12;

interface Rates { reads: number; writes: number; latMs: number }
/** A host's rates before and after the switch, for the front (dm-0) and the disk (sda). */
interface HostPlan { front: [Rates, Rates]; disk: [Rates, Rates] }
const PLANS: HostPlan[] = [
  { front: [{ reads: 300, writes: 80, latMs: 8 }, { reads: 300, writes: 80, latMs: 0.8 }], disk: [{ reads: 300, writes: 80, latMs: 8 }, { reads: 30, writes: 80, latMs: 8 }] },
  { front: [{ reads: 120, writes: 60, latMs: 12 }, { reads: 120, writes: 60, latMs: 5 }], disk: [{ reads: 120, writes: 60, latMs: 12 }, { reads: 60, writes: 60, latMs: 12 }] },
];

/** node_exporter's diskstats counters of a device at `t` s after the start, the switch at `sw` s. */
function counters(dev: string, r: [Rates, Rates], t: number, sw: number): string {
  const before = Math.min(t, sw), after = Math.max(0, t - sw);
  const n = (k: 'reads' | 'writes'): number => Math.floor(r[0][k] * before + r[1][k] * after);
  const time = (k: 'reads' | 'writes'): number => (r[0][k] * before * r[0].latMs + r[1][k] * after * r[1].latMs) / 1000;
  const reads = n('reads'), writes = n('writes');
  const busy = Math.min(t, time('reads') + time('writes'));
  const lines: [string, string, number][] = [
    ['node_disk_reads_completed_total', 'counter', reads], ['node_disk_reads_merged_total', 'counter', 0],
    ['node_disk_read_bytes_total', 'counter', reads * 4096], ['node_disk_read_time_seconds_total', 'counter', time('reads')],
    ['node_disk_writes_completed_total', 'counter', writes], ['node_disk_writes_merged_total', 'counter', 0],
    ['node_disk_written_bytes_total', 'counter', writes * 8192], ['node_disk_write_time_seconds_total', 'counter', time('writes')],
    ['node_disk_io_now', 'gauge', 0], ['node_disk_io_time_seconds_total', 'counter', busy],
    ['node_disk_io_time_weighted_seconds_total', 'counter', time('reads') + time('writes')],
  ];
  return lines.map(([m, type, v]) => `# TYPE ${m} ${type}\n${m}{device="${dev}"} ${v}`).join('\n');
}

interface Fleet {
  url: string;
  hosts: string[];
  fromIso: string;
  toIso: string;
  switchIso: string;
  stop(): Promise<void>;
}

/** Two exporters and a Prometheus scraping them; resolves once the range (baseline, switch, measure) is recorded. */
async function startFleet(): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-fleet-e2e-'));
  const t0 = Date.now() / 1000;
  // the switch: a few scrapes after the start, then a baseline; the measure after it
  const sw = 4 + WINDOW_S;
  const servers: Server[] = [];
  const hosts: string[] = [];
  for (const plan of PLANS) {
    const s = createServer((_req, res) => {
      const t = Date.now() / 1000 - t0;
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      res.end(`${counters('dm-0', plan.front, t, sw)}\n${counters('sda', plan.disk, t, sw)}\n`);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    hosts.push(`127.0.0.1:${(s.address() as { port: number }).port}`);
  }
  const prom = await startPrometheus(dir, { fleet: hosts });
  const iso = (s: number): string => new Date(Math.round(s) * 1000).toISOString().replace('.000Z', 'Z');
  const from = Math.ceil(t0 + 3), to = Math.floor(t0 + sw + WINDOW_S);
  // wait until Prometheus holds a scrape of every series two seconds or more after the range's end
  const series = hosts.length * 2;
  const deadline = Date.now() + (to + 2 - Date.now() / 1000) * 1000 + 60_000;
  let last = 'no answer from Prometheus yet';
  for (;;) {
    // the time (s) of the latest sample Prometheus holds of each series (none while it does not answer)
    const latest = (await prom.query('timestamp(node_disk_reads_completed_total)')).map((x) => Number(x.value[1]));
    if (latest.length > 0) last = `${latest.length} series, the oldest latest scrape at ${iso(Math.min(...latest))}`;
    if (latest.length === series && Math.min(...latest) >= to + 2) break;
    if (Date.now() > deadline) throw new Error(`timed out waiting for Prometheus to hold a scrape of all ${series} series at or after ${iso(to + 2)} (the range ends at ${iso(to)}); last seen: ${last}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url: prom.url, hosts, fromIso: iso(from), toIso: iso(to), switchIso: iso(t0 + sw),
    stop: async () => {
      await prom.stop();
      for (const s of servers) s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why the fleet cannot run here (null: it can). In CI a missing Prometheus is a failure, not a skip. */
const missing = (): string | null => {
  const probe = probeAbsent();
  if (probe !== null) return probe;
  if (!hasCommand('prometheus') && process.env['CI'] === undefined) return 'prometheus is not installed (apt-get install prometheus; npm test installs it as root)';
  return null;
};

const test = base.extend<{ host: AppHost & { data: string } }, { fleet: Fleet | null }>({
  // eslint-disable-next-line no-empty-pattern
  fleet: [async ({}, use) => {
    if (missing() !== null) {
      await use(null);
      return;
    }
    const f = await startFleet();
    await use(f);
    await f.stop();
  }, { scope: 'worker', timeout: 120_000 }],
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const data = mkdtempSync(join(tmpdir(), 'cacheproof-fleet-app-'));
    const app = await startApp([], { CACHEPROOF_DATA_DIR: data });
    await use({ ...app, data });
    await app.stop();
    rmSync(data, { recursive: true, force: true });
  },
});

test.beforeEach(() => {
  const why = missing();
  test.skip(skipped('the fleet from a real Prometheus (e2e)', why), `SKIP: ${why ?? ''}`);
});

interface Json {
  benefit: {
    iosSavedPercent: { value: number | null };
    latencyMs: { before: number | null; after: number | null };
    deliveredIops: { before: number | null; after: number | null };
    throughputMBps: { before: number | null; after: number | null };
  };
  health: { baseline: { grade: string }; measure: { grade: string } };
}

const analyzeJson = (args: string[]): Json => JSON.parse(execFileSync(process.execPath, [CLI, 'analyze', ...args, '--json'], { encoding: 'utf8' })) as Json;

/** The row of `host` shows exactly the figures of `json` (the cells' values) and the text of each. */
async function rowEquals(page: Page, host: string, j: Json): Promise<void> {
  const row = page.getByTestId(TID.fleetTable).locator(`tbody tr[data-host="${host}"]`);
  await expect(row).toHaveCount(1);
  const b = j.benefit;
  const at = (col: number): ReturnType<Page['locator']> => row.locator('td').nth(col);
  const v = async (col: number, attr: string): Promise<number | null> => {
    const s = await at(col).getAttribute(`data-${attr}`);
    return s === null || s === '' ? null : Number(s);
  };
  // columns after the host (th): devices, saved, latency, iops, mbps, health
  expect(await v(0, 'value')).toBe(2);
  expect(await v(1, 'value')).toBe(b.iosSavedPercent.value);
  expect([await v(2, 'before'), await v(2, 'after')]).toEqual([b.latencyMs.before, b.latencyMs.after]);
  expect([await v(3, 'before'), await v(3, 'after')]).toEqual([b.deliveredIops.before, b.deliveredIops.after]);
  expect([await v(4, 'before'), await v(4, 'after')]).toEqual([b.throughputMBps.before, b.throughputMBps.after]);
  await expect(at(5)).toHaveAttribute('data-before', j.health.baseline.grade);
  await expect(at(5)).toHaveAttribute('data-after', j.health.measure.grade);
  // the saved share is printed as analyze computed it, in the page's language
  expect((await at(1).textContent())?.replace(/[^\d]/gu, '').length).toBeGreaterThan(0);
}

async function importRange(page: Page, host: AppHost, f: Fleet | null, perHost: boolean): Promise<Fleet> {
  if (f === null) throw new Error('no fleet');
  await page.goto(host.authUrl);
  await page.getByTestId(TID.homeImport).click();
  await page.getByTestId(TID.importKind).selectOption('prometheus');
  await expect(page.getByTestId(TID.importFiles)).toBeHidden();
  await page.getByTestId(TID.importPromUrl).fill(f.url);
  await page.getByTestId(TID.importPromHosts).fill('{job="fleet"}');
  await page.getByTestId(TID.importPromFrom).fill(f.fromIso);
  await page.getByTestId(TID.importPromTo).fill(f.toIso);
  await page.getByTestId(TID.importPromStep).fill('1');
  await page.getByTestId(perHost ? TID.importPromPerHost : TID.importPromFleet).check();
  await page.getByTestId(TID.importSwitchAt).fill(f.switchIso);
  await page.getByTestId(TID.importPreviewBtn).click();
  const pv = page.getByTestId(TID.importPreview);
  await expect(pv).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  for (const h of f.hosts) {
    // node_exporter names no holders: dm-0, a device-mapper volume, is proposed as not counted
    // (its I/O is its disks'; docs/import.md, What is counted). These hosts run a dm-cache
    // between the two, which the person knows and says: dm-0 is the front.
    const dm = page.getByTestId(TID.importDevices).locator(`tr[data-device="${h}/dm-0"]`);
    await expect(dm).toHaveAttribute('data-role', 'other');
    await expect(page.getByTestId(TID.importDevices).locator(`tr[data-device="${h}/sda"]`)).toHaveAttribute('data-role', 'backing');
    await dm.locator('select').selectOption('front');
  }
  // roles changed since the preview: preview again, which takes them, then import
  await page.getByTestId(TID.importPreviewBtn).click();
  await expect(pv).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  for (const h of f.hosts) await expect(page.getByTestId(TID.importDevices).locator(`tr[data-device="${h}/dm-0"]`)).toHaveAttribute('data-role', 'front');
  await expect(page.getByTestId(TID.importStart)).toBeEnabled();
  await page.getByTestId(TID.importStart).click();
  await expect(page.getByTestId(TID.fleet)).toHaveAttribute('data-drawn', 'true', { timeout: 120_000 });
  return f;
}

async function noSeriousAxe(page: Page, what: string): Promise<void> {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical').map((x) => x.id), `axe (${what})`).toEqual([]);
}

test('English: one fleet capture from a real Prometheus; every row equals cacheproof analyze --host; sorted; a row opens its dashboard', async ({ host, fleet: range, page }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  const fleet = await importRange(page, host, range, false);
  const captures = readdirSync(join(host.data, 'imports')).filter((x) => x.endsWith('.capture'));
  expect(captures).toHaveLength(1);
  const capture = join(host.data, 'imports', captures[0] as string);
  await expect(page.getByTestId(TID.fleet).locator('h2')).toHaveText(fleetUi.en.title.replace('{n} {n|one:host|other:hosts}', '2 hosts'));
  const saved: number[] = [];
  for (const h of fleet.hosts) {
    const j = analyzeJson([capture, '--host', h]);
    await rowEquals(page, h, j);
    saved.push(j.benefit.iosSavedPercent.value as number);
  }
  // host A keeps a tenth of its reads off the disk… more saved than host B (a half)
  expect(saved[0]).toBeGreaterThan(saved[1] as number);
  // sorted by I/Os saved, descending: host A first
  const savedHead = page.getByTestId(TID.fleetTable).locator('th[data-col="saved"]');
  await savedHead.locator('button').click();
  await expect(savedHead).toHaveAttribute('aria-sort', 'ascending');
  await savedHead.locator('button').click();
  await expect(savedHead).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId(TID.fleetTable).locator('tbody tr').first()).toHaveAttribute('data-host', fleet.hosts[0] as string);
  await noSeriousAxe(page, 'en');
  // a row opens that host's own dashboard
  await page.getByTestId(TID.fleetTable).locator(`tbody tr[data-host="${fleet.hosts[1]}"]`).getByTestId(TID.fleetOpen).click();
  await expect(page.getByTestId(TID.dashboard)).toHaveAttribute('data-drawn', 'true', { timeout: 60_000 });
  await expect(page.getByTestId(TID.analysisName)).toContainText(fleet.hosts[1] as string);
  expect(errors).toEqual([]);
});

test('French: one capture per host; the fleet view of the folder equals cacheproof analyze of each capture', async ({ host, fleet: range, page }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  await page.goto(host.authUrl);
  await page.evaluate(() => { globalThis.localStorage.setItem('cacheproof.lang', 'fr'); });
  const fleet = await importRange(page, host, range, true);
  const dirs = readdirSync(join(host.data, 'imports')).filter((x) => !x.endsWith('.capture'));
  expect(dirs).toHaveLength(1);
  const folder = join(host.data, 'imports', dirs[0] as string);
  await expect(page.getByTestId(TID.fleet)).toContainText(fleetUi.fr['col.saved']);
  for (const h of fleet.hosts) {
    const file = join(folder, `${h.replace(/[^\w.-]/gu, '_')}.capture`);
    expect(existsSync(file), file).toBe(true);
    await rowEquals(page, h, analyzeJson([file]));
  }
  // numbers in the French format: host A's response times before → after, as French writes the cell's own values
  // (three significant digits, a decimal comma; a value the workload made round, such as 1.0009 ms, reads "1" in both)
  const cell = page.getByTestId(TID.fleetTable).locator(`tbody tr[data-host="${fleet.hosts[0]}"] td`).nth(2);
  const [before, after] = await Promise.all([cell.getAttribute('data-before'), cell.getAttribute('data-after')]);
  await expect(cell).toHaveText(translate(fleetUi, 'fr', 'arrow', { before: fmtSig('fr', Number(before)), after: fmtSig('fr', Number(after)) }));
  expect(fmtSig('fr', 1.25), 'the formatter the cell uses writes a decimal comma in French').toBe('1,25');
  await noSeriousAxe(page, 'fr');
  expect(errors).toEqual([]);
});
