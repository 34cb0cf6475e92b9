/**
 * The fleet view through the real dispatch and the real probe: a PerfMon log of two computers
 * (test/support/fleet-log.ts: WEB1 and DB1, a volume on a disk each, a switch after an hour) imported into one
 * fleet capture (meta `fleet`) and into one capture per host (`--out-dir`).
 * - `fleet.open` of the fleet capture and of the folder give each host the figures of its own
 *   capture's analysis (engine `analyze` on that capture, as `cacheproof analyze` reads it);
 * - `analysis.openCapture` with a host gives the dashboard of that host alone, devices named as
 *   in its own capture; an unknown host, and a capture of one host opened as a fleet, are
 *   `fleet-not-found`;
 * - a fleet with no switch: each host's workload profile.
 * Skipped with a message when the probe is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyze, fleetAggregate, fleetFiguresOfAnalysis, fleetFiguresOfProfile, hostIopsOverTime, profileWorkload, type HostIops } from '@cacheproof/engine';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { openHostCapture, scopeToHost } from '../src/host/capture/scope.ts';
import { FleetSessions } from '../src/host/fleet.ts';
import { AnalysisSessions } from '../src/host/session.ts';
import type { FleetProgress } from '../src/shared/contract.ts';
import { openCaptureColumnarParallel } from '../src/host/capture/columnar.ts';
import { importArgs } from '../src/host/probe-argv.ts';
import type { FleetView } from '../src/shared/contract.ts';
import { FLEET_SWITCH, FLEET_T0, twoComputerPerfmonLog } from '../../test/support/fleet-log.ts';
import { skipped } from '../../test/support/testenv.ts';

const probe = resolve(__dirname, '..', '..', 'native', 'target', 'release', 'cacheproof-probe');
const absent = existsSync(probe) ? null : `the probe is not built (${probe})`;

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SWITCH = FLEET_SWITCH;
const T0 = FLEET_T0;
const fleetLog = twoComputerPerfmonLog;

function importLog(log: string, out: string[], switchAt: boolean): void {
  execFileSync(probe, ['import', 'perfmon', log, ...(switchAt ? ['--switch-at', new Date(SWITCH).toISOString()] : []), ...out]);
}

function dispatch(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir: join(dir, 'data') }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

/** The analysis of a capture as `cacheproof analyze` computes it (columnar, one device at a time). */
async function analysisOf(path: string): Promise<ReturnType<typeof analyze>> {
  const c = await openCaptureColumnarParallel(path, null);
  try {
    return analyze(c.data, {});
  } finally {
    c.close();
  }
}

describe('importArgs for a Prometheus range', () => {
  it('gives the probe the selector, the range in ISO 8601, the step and the secrets\' files, never a secret', () => {
    expect(importArgs({
      kind: 'prometheus', files: [],
      prometheus: { url: 'https://prom:9090', hosts: '{job="node"}', fromMs: T0, toMs: SWITCH, stepS: 15, perHost: true, caFile: '/etc/ca.pem', user: 'ops', passwordFile: '/run/pw' },
      switchAtMs: T0 + 1800_000,
    })).toEqual(['prometheus', '--url', 'https://prom:9090', '--hosts', '{job="node"}', '--from', '2024-03-14T10:00:00.000Z', '--to', '2024-03-14T11:00:00.000Z', '--step', '15',
      '--ca-file', '/etc/ca.pem', '--user', 'ops', '--password-file', '/run/pw', '--switch-at', '2024-03-14T10:30:00.000Z']);
    expect(importArgs({ kind: 'prometheus', files: [], prometheus: { url: 'http://p:9090', fromMs: T0, toMs: SWITCH, perHost: false, insecure: true, tokenFile: '/t' } }))
      .toEqual(['prometheus', '--url', 'http://p:9090', '--from', '2024-03-14T10:00:00.000Z', '--to', '2024-03-14T11:00:00.000Z', '--insecure', '--bearer-token-file', '/t']);
  });
});

describe.skipIf(skipped('fleet.open', absent))('fleet.open and a host of a fleet capture', () => {
  const log = join(dir, 'two-computers.csv');
  writeFileSync(log, fleetLog());
  const fleet = join(dir, 'fleet.capture');
  const folder = join(dir, 'per-host');
  importLog(log, ['--out', fleet], true);
  importLog(log, ['--out-dir', folder], true);

  it('gives each host the figures of its own capture\'s analysis, from the fleet capture and from the folder alike', async () => {
    const d = dispatch();
    for (const path of [fleet, folder]) {
      const r = await d('fleet.open', { path });
      if (!r.ok) throw new Error(r.error.message);
      const v = r.value as FleetView;
      expect(v.kind).toBe(path === fleet ? 'capture' : 'folder');
      expect(v.rows.map((x) => x.host).sort()).toEqual(['DB1', 'WEB1']);
      for (const row of v.rows) {
        const own = await analysisOf(join(folder, `${row.host}.capture`));
        if (!own.ok) throw new Error(own.error.message);
        expect(row.error).toBeNull();
        expect(row.figures).toEqual(fleetFiguresOfAnalysis(own));
        expect(row.devices).toBe(2);
        expect(row.scope).toBe(path === fleet ? row.host : null);
      }
      const web = v.rows.find((x) => x.host === 'WEB1');
      const db = v.rows.find((x) => x.host === 'DB1');
      // the two hosts are told apart: a tenth of the reads reach WEB1's disk after the switch, half of DB1's
      expect(web?.figures?.iosSavedPercent).toBeGreaterThan(60);
      expect(db?.figures?.iosSavedPercent).toBeLessThan(web?.figures?.iosSavedPercent as number);
      // a before/after fleet has no one window to sum
      expect(v.aggregate).toBeNull();
    }
    // computed once per session: the same table again
    const again = await d('fleet.open', { path: fleet });
    const first = await d('fleet.open', { path: fleet });
    expect(again).toEqual(first);
  });

  it('a capture of the folder that cannot be read gets a row saying why; the others their figures', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    copyFileSync(join(folder, 'WEB1.capture'), join(mixed, 'WEB1.capture'));
    writeFileSync(join(mixed, 'BROKEN.capture'), 'not a capture at all\n');
    const r = await dispatch()('fleet.open', { path: mixed });
    if (!r.ok) throw new Error(r.error.message);
    const rows = (r.value as FleetView).rows;
    expect(rows.map((x) => [x.host, x.figures === null, x.error?.code ?? null])).toEqual([['BROKEN', true, 'capture-not-sqlite'], ['WEB1', false, null]]);
    expect(rows[0]?.error?.message).toContain('BROKEN.capture');
  });

  it('opens one host of the fleet capture as its own capture, and refuses what is no fleet host', async () => {
    const d = dispatch();
    const r = await d('analysis.openCapture', { path: fleet, host: 'DB1' });
    if (!r.ok) throw new Error(r.error.message);
    const v = r.value as { result: { devices: { front: string[]; backing: string[] } }; host: { hostname: string | null }; name: string; series: { device: string }[] };
    const own = await analysisOf(join(folder, 'DB1.capture'));
    expect(v.result).toEqual(own);
    // LogicalDisk and PhysicalDisk are one layer on Windows: the disks are counted, backing-only
    expect(v.result.devices.front).toEqual([]);
    expect(v.result.devices.backing).toEqual(['PhysicalDisk(0 C:)']);
    expect(v.host.hostname).toBe('DB1');
    expect(v.name).toBe('fleet · DB1');
    expect(v.series.map((s) => s.device)).toEqual(['PhysicalDisk(0 C:)']);
    const whole = await d('analysis.openCapture', { path: fleet });
    if (!whole.ok) throw new Error(whole.error.message);
    expect((whole.value as { result: unknown }).result).not.toEqual(own);
    const bad = await d('analysis.openCapture', { path: fleet, host: 'NOPE' });
    expect(bad.ok ? null : bad.error.code).toBe('fleet-not-found');
    expect(bad.ok ? '' : bad.error.message).toContain('its hosts are WEB1, DB1');
    const one = await d('fleet.open', { path: join(folder, 'WEB1.capture') });
    expect(one.ok ? null : one.error.code).toBe('fleet-not-found');
  });

  it('with no switch, each host\'s row is its workload profile', async () => {
    const plain = join(dir, 'no-switch.capture');
    importLog(log, ['--out', plain], false);
    const folder2 = join(dir, 'no-switch-hosts');
    importLog(log, ['--out-dir', folder2], false);
    const r = await dispatch()('fleet.open', { path: plain });
    if (!r.ok) throw new Error(r.error.message);
    const loads: HostIops[] = [];
    for (const row of (r.value as FleetView).rows) {
      const own = openCapture(join(folder2, `${row.host}.capture`)).data;
      const p = profileWorkload(own);
      if (!p.ok) throw new Error(p.error.message);
      expect(row.figures).toEqual(fleetFiguresOfProfile(p));
      expect(row.figures?.kind).toBe('profile');
      loads.push(hostIopsOverTime(row.host, own, p));
    }
    // the fleet as one load: the per-moment sum of the hosts' own captures', from the fleet capture and from the folder alike
    const agg = (r.value as FleetView).aggregate;
    expect(agg).toEqual(fleetAggregate(loads));
    expect(agg?.hosts).toBe(2);
    expect(agg?.peak?.iops).toBeGreaterThan(0);
    expect(agg?.peak?.iops).toBeLessThanOrEqual(agg?.sumOfHostPeaksIops as number);
    const byFolder = await dispatch()('fleet.open', { path: folder2 });
    if (!byFolder.ok) throw new Error(byFolder.error.message);
    expect((byFolder.value as FleetView).aggregate).toEqual(agg);
    // one host read alone (its devices' rows through the key) is that host scoped out of the whole capture
    for (const host of ['WEB1', 'DB1']) {
      const alone = openHostCapture(plain, host);
      const scoped = scopeToHost(openCapture(plain), host);
      expect(alone.data.intervals).toEqual(scoped.data.intervals);
      expect(alone.data.devices).toEqual(scoped.data.devices);
      expect(alone.intervalCount).toBe(scoped.data.intervals.length);
      expect(alone.intervalCount).toBeLessThan(openCapture(plain).intervalCount);
    }
    expect(() => openHostCapture(plain, 'NOPE')).toThrow(/its hosts are WEB1, DB1/u);
    // how far the hosts are while they are computed: each host heard once, nothing once done
    const fleets = new FleetSessions(new AnalysisSessions(null, null));
    const heard: FleetProgress[] = [];
    const opening = fleets.open(plain, (p) => heard.push(p));
    expect(fleets.progressOf(plain)).toEqual({ done: 0, total: 2 });
    expect((await opening).aggregate).toEqual(agg);
    expect(heard).toEqual([{ done: 1, total: 2 }, { done: 2, total: 2 }]);
    expect(fleets.progressOf(plain)).toBeNull();
    const none = await dispatch()('fleet.progress', { path: plain });
    expect(none.ok ? none.value : none.error).toEqual({ progress: null });
    const prof = await dispatch()('analysis.openProfile', { path: plain, host: 'WEB1' });
    if (!prof.ok) throw new Error(prof.error.message);
    expect((prof.value as { profile: { devices: { front: string[] } } }).profile.devices.front).toEqual([]);
  });
});
