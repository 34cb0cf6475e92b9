/**
 * The fleet computed by its server (issue 27, bench/fleet: PromQL pushdown) against the
 * pull-everything import of the same fleet, on Prometheus and on VictoriaMetrics (issue 37: the
 * engines users run). 20 node_exporter hosts × 1 day at 60 s, with a device-mapper volume on
 * every fourth host and a partition on every fifth (both on their disk: not counted), host 3
 * restarting half-way (its counters from 0: a reset) and host 4 with slow reads in every tenth
 * interval (a health warning), made by the bench's own generator (bench/fleet/openmetrics.mjs):
 * backfilled with `promtool tsdb create-blocks-from openmetrics` into Debian's Prometheus
 * (e2e/prometheus.ts), and written through the import API of Debian's VictoriaMetrics
 * (e2e/victoria.ts, timestamps in ms), each on a free loopback port, started once.
 * `cacheproof-probe import prometheus --fleet-summary` and `--out` (one fleet capture: every
 * series pulled) of the same range on each; the fleet view of each file is opened in the app.
 * Checked on each server: every host's row (devices, response time, IOPS, MB/s, health) and the
 * fleet's peak (value and moment), p95, mean and hosts' peaks summed are equal, within 1e-9
 * relative (the server adds the same numbers in another order: docs/import.md § Fleet summary);
 * the pushdown view says where its figures come from and opens no host. Then the two servers'
 * views, pulled and pushed down, are equal within 1e-9 (docs/import.md § VictoriaMetrics says
 * what differs between the engines and how the probe meets it). On Prometheus, the fleet PDF is
 * made from the summary (the fleet view's button; read back with pdftotext) with the same peak
 * and the method's pushdown paragraph. Skipped with a message when prometheus, promtool,
 * victoria-metrics or the probe are missing (outside CI; with CI=true it fails).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { skipped } from '../../test/support/testenv.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, repoRoot, startApp, watchConsole } from '../fixtures.ts';
import { startPrometheus, type Prometheus } from '../prometheus.ts';
import { startVictoria } from '../victoria.ts';
import { fleetMissing, sameView, shownFleet, type Shown } from '../fleet-view.ts';
import { backfillFleet, devicesOf, importFleet, ratesAt } from '../../bench/fleet/openmetrics.mjs';
import { TID } from '../../app/src/shared/testids.ts';

const PROBE = join(repoRoot, 'native', 'target', 'release', 'cacheproof-probe');
const HOSTS = 20;
const STEP_S = 60;
const POINTS = 1440;
const SERVERS = ['prometheus', 'victoria-metrics'] as const;
type Server = (typeof SERVERS)[number];
// a whole UTC day ending at least a day ago (blocks clear of the head, inside the retention), the same on both servers
const t0 = Math.floor(Date.now() / 86_400_000) * 86_400 - 2 * 86_400;
const t1 = t0 + POINTS * STEP_S;
/** Each server's fleet views, pulled and pushed down, for the last test's comparison. */
const views = new Map<Server, { pulled: Shown; pushed: Shown }>();

test.describe.configure({ mode: 'serial' });

/** The fleet on `server`, its storage in `dir`, once it answers for every series at `t1`. */
async function fleetOn(server: Server, dir: string): Promise<Prometheus> {
  const series = Array.from({ length: HOSTS }, (_, h) => devicesOf(h, true).length).reduce((a, b) => a + b, 0);
  const fleet = { dir, hosts: HOSTS, points: POINTS, stepS: STEP_S, t0, chunk: 10, stacked: true };
  let s: Prometheus;
  if (server === 'prometheus') {
    await backfillFleet(fleet);
    s = await startPrometheus(dir);
  } else {
    s = await startVictoria(dir);
    await importFleet({ ...fleet, url: s.url });
  }
  await expect.poll(async () => (await s.query('count(node_disk_reads_completed_total{job="node"})', t1))[0]?.value[1], { timeout: 60_000 }).toBe(String(series));
  return s;
}

/** The fleet view of the file at `path`. */
async function fleetOf(page: Page, origin: string, path: string): Promise<Shown> {
  await page.goto(`${origin}/#/fleet/${encodeURIComponent(path)}`);
  return shownFleet(page, HOSTS);
}

for (const server of SERVERS) {
  test(`on ${server}: the fleet computed by the server (PromQL pushdown) equals the import of every series: rows, peak, p95, mean${server === 'prometheus' ? '; its fleet PDF' : ''}`, async ({ page }) => {
    const why = fleetMissing(true);
    test.skip(skipped(`the fleet pushdown on ${server} (e2e)`, why), `SKIP: ${why ?? ''}`);
    test.setTimeout(300_000);
    const dir = mkdtempSync(join(tmpdir(), `cacheproof-fleet-pushdown-${server}-e2e-`));
    let prom: Prometheus | undefined;
    let app: Awaited<ReturnType<typeof startApp>> | undefined;
    try {
      prom = await fleetOn(server, dir);
      app = await startApp([], { CACHEPROOF_DATA_DIR: join(dir, 'app') });
      const range = ['--url', prom.url, '--hosts', '{job="node"}', '--from', String(t0), '--to', String(t1), '--step', `${STEP_S}s`];
      const summary = join(dir, 'fleet.json');
      const capture = join(dir, 'fleet.capture');
      execFileSync(PROBE, ['import', 'prometheus', ...range, '--fleet-summary', summary], { stdio: ['ignore', 'ignore', 'pipe'] });
      execFileSync(PROBE, ['import', 'prometheus', ...range, '--out', capture], { stdio: ['ignore', 'ignore', 'pipe'] });

      // host 3's restart is the one reset the server finds
      const resets = (JSON.parse(readFileSync(summary, 'utf8')) as { hosts: { host: string; resetIntervals: number }[] }).hosts.filter((h) => h.resetIntervals > 0);
      expect(resets.map((h) => [h.host, h.resetIntervals])).toEqual([['host0003:9100', 1]]);
      const errors = watchConsole(page);
      await page.goto(app.authUrl);
      const pulled = await fleetOf(page, app.origin, capture);
      const pushed = await fleetOf(page, app.origin, summary);
      sameView(pushed, pulled);
      // a host with dm-0 is profiled at dm-0 (its application-facing device), not at its disks
      // a host with dm-0 and one with sda1 count their whole disks alone (the volume and the partition sit on them)
      for (const h of [1, 2]) {
        const disks = Array.from({ length: POINTS }, (_, k) => [0, 1].reduce((s, d) => { const r = ratesAt(h, d, k, STEP_S); return s + r.reads + r.writes; }, 0)).reduce((a, b) => a + b, 0) / POINTS;
        expect(Number(pushed.rows.get(`host000${h}:9100`)?.[2])).toBeCloseTo(disks, 9);
      }
      // host 4's slow reads (every tenth interval at 25 ms): a warning, by both
      expect(pushed.rows.get('host0004:9100')?.[4]).toBe('warning');
      expect(Number(pushed.agg['sumOfPeaks'])).toBeGreaterThan(Number(pushed.agg['peak']));
      // the pushdown view says where its figures come from, and opens no host
      await expect(page.locator('[data-kind="summary"]')).toContainText(prom.url);
      await expect(page.getByTestId(TID.fleetOpen)).toHaveCount(0);
      views.set(server, { pulled, pushed });
      if (server !== 'prometheus') {
        expect(errors).toEqual([]);
        return;
      }

      // the fleet PDF from the summary
      const pdf = join(dir, 'fleet.pdf');
      const downloading = page.waitForEvent('download', { timeout: 120_000 });
      await page.getByTestId(TID.fleetReport).click();
      await (await downloading).saveAs(pdf);
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).replace(/\u00a0/gu, ' ');
      const peak = new Intl.NumberFormat('en', { maximumFractionDigits: 0 }).format(Number(pushed.agg['peak']));
      expect(text.replace(/\s+/gu, ' ')).toContain(`the ${HOSTS} hosts of the fleet peak at ${peak} IOPS`);
      expect(text.replace(/\s+/gu, ' ')).toContain('Computed by the fleet’s PromQL server (Prometheus, Thanos or VictoriaMetrics; PromQL pushdown)');
      expect(errors).toEqual([]);
    } finally {
      await app?.stop();
      await prom?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('Prometheus and VictoriaMetrics give the same fleet view, pulled and pushed down, within 1e-9', () => {
  const why = fleetMissing(true);
  test.skip(skipped('the fleet on Prometheus and on VictoriaMetrics (e2e)', why), `SKIP: ${why ?? ''}`);
  const [p, v] = SERVERS.map((s) => views.get(s));
  if (p === undefined || v === undefined) throw new Error(`a server's views are missing (${[...views.keys()].join(', ')} ran)`);
  sameView(v.pulled, p.pulled);
  sameView(v.pushed, p.pushed);
});
