/**
 * The fleet view (`fleet.open`, docs/ipc.md): the hosts of a fleet capture (meta `fleet`) or of a
 * folder of one capture per host (`cacheproof-probe import prometheus --out-dir`), each with the
 * headline figures of its own analysis — the session's, on a worker thread, the very view its
 * dashboard opens (host/session.ts) — or, with no switch, of its workload profile. The engine
 * picks the figures (`fleetFiguresOfAnalysis`, `fleetFiguresOfProfile`) and, for a fleet with no
 * switch, sums the hosts' IOPS moment by moment (`fleetAggregate`); nothing is computed here. A fleet is computed once per session: a second open returns the same table unless a
 * capture changed. A fleet summary (a `.json` file: the figures computed by the fleet's Prometheus)
 * is read as it is (host/fleet-summary.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fleetAggregate, fleetFiguresOfAnalysis, fleetFiguresOfProfile, hostIopsOverTime, type AnalysisReport, type HostIops, type WorkloadProfile } from '@cacheproof/engine';
import type { FleetProgress, FleetRow, FleetView } from '../shared/contract.ts';
import { buildProfileView, type ViewMeta } from './analysis.ts';
import { readCapture, readCaptureInfo } from './capture/reader.ts';
import { fleetOf, openHostCapture } from './capture/scope.ts';
import { HostError } from './errors.ts';
import { fleetSummaryView, isFleetSummaryPath } from './fleet-summary.ts';
import type { AnalysisSessions } from './session.ts';

/** The id of an analysis (or profile) of a capture, or of one host of a fleet capture. */
export function viewId(path: string, host?: string, kind: 'analysis' | 'profile' = 'analysis'): string {
  const key = `${kind === 'profile' ? 'profile:' : ''}${path}${host === undefined ? '' : `#host=${host}`}`;
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The name a view of a capture (or of a host of a fleet capture) shows. */
export function viewName(path: string, host?: string): string {
  const stem = basename(path).replace(/\.(capture|sqlite|db)$/i, '');
  return host === undefined ? stem : `${stem} · ${host}`;
}

interface Target {
  host: string;
  capture: string;
  scope: string | null;
  devices: number;
  hasMeasure: boolean;
  /** A capture of the folder that cannot be read: its row says why. */
  error?: FleetRow['error'];
}

/** What the fleet at `path` holds: one target per host. */
function targetsOf(path: string): { kind: 'capture' | 'folder'; targets: Target[] } {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new HostError('capture-not-found', `${path} does not exist.`);
  }
  if (st.isDirectory()) {
    const files = readdirSync(path).filter((f) => /\.capture$/iu.test(f)).sort();
    if (files.length === 0) throw new HostError('fleet-not-found', `${path} holds no .capture file.`);
    return {
      kind: 'folder',
      targets: files.map((f): Target => {
        const file = join(path, f);
        try {
          const info = readCapture(file, readCaptureInfo);
          return { host: info.host.hostname ?? f.replace(/\.capture$/iu, ''), capture: file, scope: null, devices: info.devices.length, hasMeasure: info.phases.some((p) => p.name === 'measure') };
        } catch (err) {
          if (!(err instanceof HostError)) throw err;
          return { host: f.replace(/\.capture$/iu, ''), capture: file, scope: null, devices: 0, hasMeasure: false, error: { code: err.code, message: err.message } };
        }
      }),
    };
  }
  const info = readCapture(path, readCaptureInfo);
  const fleet = fleetOf(info.meta);
  if (fleet === null) throw new HostError('fleet-not-found', `${path} holds one host, not a fleet: open it as a capture.`);
  const hasMeasure = info.phases.some((p) => p.name === 'measure');
  return { kind: 'capture', targets: fleet.map((h) => ({ host: h.host, capture: path, scope: h.host, devices: h.devices.length, hasMeasure })) };
}

/** The size and time of every capture of the fleet: a change gives a new table. */
function stampOf(targets: readonly Target[]): string {
  return [...new Set(targets.map((t) => t.capture))].map((c) => {
    try {
      const s = statSync(c);
      return `${c}:${s.size}:${s.mtimeMs}`;
    } catch {
      return `${c}:-`;
    }
  }).join('|');
}

/** The fleet tables of one process, by fleet and stamp. */
export class FleetSessions {
  private readonly tables = new Map<string, Promise<FleetView>>();
  /** Hosts analysed of all, by the full path of a fleet being computed. */
  private readonly running = new Map<string, FleetProgress>();
  constructor(private readonly sessions: AnalysisSessions) {}

  /** How far the fleet at `path` is being computed (null: it is not: not asked, done or failed). */
  progressOf(path: string): FleetProgress | null {
    const p = this.running.get(resolve(path));
    return p === undefined ? null : { ...p };
  }

  /**
   * The fleet at `path` (a fleet capture or a folder of captures), computed once per session;
   * `onHost` hears each host done when this call computes it (the CLI's report).
   */
  open(path: string, onHost?: (p: FleetProgress) => void): Promise<FleetView> {
    const full = resolve(path);
    // the fleet computed by its Prometheus: read as it is (its sums are the server's)
    if (isFleetSummaryPath(full)) return Promise.resolve().then(() => fleetSummaryView(full));
    const { kind, targets } = targetsOf(full);
    const key = `${full}|${stampOf(targets)}`;
    const known = this.tables.get(key);
    if (known !== undefined) return known;
    const table = this.compute(full, kind, targets, onHost);
    table.catch(() => { if (this.tables.get(key) === table) this.tables.delete(key); });
    this.tables.set(key, table);
    return table;
  }

  private async compute(path: string, kind: 'capture' | 'folder', targets: readonly Target[], onHost?: (p: FleetProgress) => void): Promise<FleetView> {
    const progress = { done: 0, total: targets.length };
    this.running.set(path, progress);
    try {
      return await this.computeHosts(path, kind, targets, progress, onHost);
    } finally {
      if (this.running.get(path) === progress) this.running.delete(path);
    }
  }

  private async computeHosts(path: string, kind: 'capture' | 'folder', targets: readonly Target[], progress: FleetProgress, onHost?: (p: FleetProgress) => void): Promise<FleetView> {
    const rows: FleetRow[] = [];
    const loads: HostIops[] = [];
    // host after host: an analysis on the session's worker thread, a profile here; between two
    // hosts the event loop turns, so the host answers other calls (`fleet.progress`) and signals
    for (const t of targets) {
      await new Promise<void>((r) => { setImmediate(r); });
      const host = t.scope ?? undefined;
      const meta: Omit<ViewMeta, 'sha256'> = { id: viewId(t.capture, host, t.hasMeasure ? 'analysis' : 'profile'), name: viewName(t.capture, host), isSample: false, host };
      let figures: FleetRow['figures'] = null;
      let error: FleetRow['error'] = t.error ?? null;
      if (error === null) {
        try {
          if (t.hasMeasure) figures = fleetFiguresOfAnalysis((await this.sessions.open(t.capture, meta)).result as unknown as AnalysisReport);
          else {
            // the profile and the host's IOPS over time from one read of its capture
            const capture = openHostCapture(t.capture, host);
            const profile = buildProfileView(capture, { ...meta, sha256: '' }).profile as unknown as WorkloadProfile;
            figures = fleetFiguresOfProfile(profile);
            loads.push(hostIopsOverTime(t.host, capture.data, profile));
          }
        } catch (err) {
          if (!(err instanceof HostError)) throw err;
          error = { code: err.code, message: err.message };
        }
      }
      rows.push({ host: t.host, capture: t.capture, scope: t.scope, devices: t.devices, figures, error });
      progress.done++;
      onHost?.({ ...progress });
    }
    const profiles = rows.every((r) => r.figures === null || r.figures.kind === 'profile');
    return { path, kind, rows, aggregate: profiles && loads.length > 0 ? fleetAggregate(loads) : null, pushdown: null };
  }
}
