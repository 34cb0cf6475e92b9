/**
 * What the fleet specs share (fleet-backfill, fleet-pushdown, import-fleet-summary): whether a
 * real Prometheus (and VictoriaMetrics) fleet can run here, what the fleet view on a page shows,
 * and the comparison of two views (a summary computed by the server against the import of every
 * series; one server's against another's).
 */
import type { Page } from '@playwright/test';
import { probeAbsent } from '../test/support/testenv.ts';
import { TID } from '../app/src/shared/testids.ts';
import { expect } from './fixtures.ts';
import { hasCommand } from './prometheus.ts';

/**
 * Why a fleet cannot run here (null: it can), on Prometheus, or with `victoria` also on
 * VictoriaMetrics. In CI a missing tool is a failure, not a skip.
 */
export function fleetMissing(victoria = false): string | null {
  const probe = probeAbsent();
  if (probe !== null) return probe;
  if (process.env['CI'] !== undefined) return null;
  for (const cmd of ['prometheus', 'promtool']) if (!hasCommand(cmd)) return `${cmd} is not installed (apt-get install prometheus; npm test installs it as root, scripts/ensure.mjs)`;
  if (victoria && !hasCommand('victoria-metrics')) return 'victoria-metrics is not installed (apt-get install victoria-metrics; npm test installs it as root, scripts/ensure.mjs)';
  return null;
}

/** A fleet view as shown: each row's raw values (devices, then the before-values of response time, IOPS, MB/s, health) and the aggregate cards'. */
export interface Shown {
  rows: Map<string, (string | null)[]>;
  agg: Record<string, string | null>;
}

/** What the fleet view on the page shows, once drawn with `hosts` rows. */
export async function shownFleet(page: Page, hosts: number): Promise<Shown> {
  await expect(page.getByTestId(TID.fleet)).toHaveAttribute('data-drawn', 'true', { timeout: 120_000 });
  await expect(page.getByTestId(TID.fleetTable).locator('tbody tr')).toHaveCount(hosts);
  const rows = new Map<string, (string | null)[]>();
  for (const tr of await page.getByTestId(TID.fleetTable).locator('tbody tr').all()) {
    const td = tr.locator('td');
    rows.set(await tr.getAttribute('data-host') ?? '', [
      await td.nth(0).getAttribute('data-value'),
      ...await Promise.all([1, 2, 3, 4].map((i) => td.nth(i).getAttribute('data-before'))),
    ]);
  }
  const card = (f: string): ReturnType<Page['locator']> => page.getByTestId(TID.fleetAggregate).locator(`[data-figure="${f}"]`);
  const agg: Record<string, string | null> = {};
  for (const f of ['peak', 'p95', 'mean', 'sumOfPeaks']) agg[f] = await card(f).getAttribute('data-value');
  agg['start'] = await card('peak').getAttribute('data-start');
  return { rows, agg };
}

/** Equal as numbers within 1e-9 relative, or equal as text. */
export function same(a: string | null, b: string | null, what: string): void {
  const x = Number(a), y = Number(b);
  if (a !== null && b !== null && a !== '' && Number.isFinite(x) && Number.isFinite(y)) expect(Math.abs(x - y), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(x)));
  else expect(a, what).toBe(b);
}

/** Two fleet views show the same hosts, rows and aggregate (numbers within 1e-9 relative). */
export function sameView(got: Shown, want: Shown): void {
  expect([...got.rows.keys()].sort()).toEqual([...want.rows.keys()].sort());
  for (const [host, row] of want.rows) {
    const g = got.rows.get(host) ?? [];
    ['devices', 'response time', 'IOPS', 'MB/s', 'health'].forEach((what, i) => same(g[i] ?? null, row[i] ?? null, `${host} ${what}`));
  }
  for (const f of ['peak', 'p95', 'mean', 'sumOfPeaks', 'start']) same(got.agg[f] ?? null, want.agg[f] ?? null, `aggregate ${f}`);
}
