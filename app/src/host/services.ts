/**
 * The host's handlers for every contract channel. Shell-agnostic: Electron and the browser
 * host construct the same handlers and differ only in transport.
 */
import { basename, join, resolve } from 'node:path';
import type { AnalyzeOptions, DeviceInfo } from '@cacheproof/engine';
import type { AnalysisTarget, AnalysisView } from '../shared/contract.ts';
import type { Handlers } from './dispatch.ts';
import { loadProfileView } from './analysis.ts';
import { sharedSessions, type AnalysisSessions } from './session.ts';
import { dataDir, probeVersion } from './paths.ts';
import { APP_VERSION } from './version.ts';
import { HostError } from './errors.ts';
import { carrySavedPlan } from './saved-plans.ts';
import { predictHandlers } from './predict.ts';
import { holdForReadBack } from './prediction-readback.ts';
import { readCapture, readCaptureInfo } from './capture/reader.ts';
import { createRunSupervisor, type RunSupervisor } from './runs/supervisor.ts';
import { OpenedProfiles } from './profiles.ts';
import { planHandlers } from './plan-handlers.ts';
import { runHandlers } from './run-handlers.ts';
import { reportHandlers, type SaveDialog } from './report/jobs.ts';
import { importHandlers } from './import.ts';
import { FleetSessions, viewId, viewName } from './fleet.ts';
import { fleetHost } from './capture/scope.ts';
import { hostDevices } from '@cacheproof/engine';
import type { PdfPrinter } from './report/pdf.ts';

export interface HostContext {
  shell: 'electron' | 'browser';
  /** The bundled sample capture, or null when this installation has none. */
  sample: string | null;
  probe: string | null;
  /** The user's data folder (runs live in its `runs/`); default paths.ts `dataDir()`. */
  dataDir?: string;
  /** How reports are printed to PDF: the Electron shell passes one built on webContents.printToPDF; default headless Chromium. */
  pdfPrinter?: PdfPrinter;
  /** The Electron shell's Save dialog for exports (`report.save`); the browser window downloads instead. */
  saveDialog?: SaveDialog;
}

/** An analysis opened in this session: its capture and the analysis options it was opened with (a run's roles and targets). */
export interface OpenedAnalysis {
  path: string;
  options: AnalyzeOptions;
  /** Within a fleet capture, the host analysed alone. */
  host?: string;
  /** The name the view was opened with (a run's name, else the file's). */
  name?: string;
}

async function open(path: string, isSample: boolean, opened: Map<string, OpenedAnalysis>, sessions: AnalysisSessions, options: AnalyzeOptions = {}, name?: string, host?: string): Promise<AnalysisView> {
  const full = resolve(path);
  const id = viewId(full, host);
  // on a worker thread, once per capture (one host of a fleet capture) and options in this process
  // (host/session.ts); the reply goes as soon as the analysis is done, the file's hash may follow
  const view = await sessions.openAnalysed(full, {
    id,
    name: name ?? (isSample ? 'CacheProof lab sample' : viewName(full, host)),
    isSample,
    host,
  }, options);
  // The options are remembered with the path, so that the report and the Planner's prefill show this view's figures.
  opened.set(id, { path: full, options: { ...options }, name: view.name, ...(host === undefined ? {} : { host }) });
  return view;
}

export function createHandlers(ctx: HostContext): Handlers {
  const probeVer = probeVersion(ctx.probe);
  /** Analyses opened in this session: id → capture path and analysis options (the renderer names analyses by id, never by path). */
  const opened = new Map<string, OpenedAnalysis>();
  /** Finished analyses, so that re-opening an unchanged capture does not recompute (host/analysis.ts loadAnalysisView). */
  const analysisCache = join(ctx.dataDir ?? dataDir(), 'analysis-cache');
  const sessions = sharedSessions(analysisCache);
  const runs = createRunSupervisor({
    probe: ctx.probe, runsDir: join(ctx.dataDir ?? dataDir(), 'runs'), analysisCacheDir: analysisCache,
    // a finished run's background analysis: on a worker thread, and shared with its dashboard
    openAnalysis: (path, meta, options) => sessions.open(path, meta, options),
  });
  /** The Planner's edited scenarios, one per capture (host/saved-plans.ts). */
  const plansDir = join(ctx.dataDir ?? dataDir(), 'plans');
  const profiles = new OpenedProfiles();
  /** The devices of a capture (one host's, within a fleet capture), with their sizes. */
  const devicesOf = (path: string, host: string | undefined): DeviceInfo[] => {
    const info = readCapture(path, readCaptureInfo);
    return host === undefined ? info.devices : hostDevices(info.devices, fleetHost(path, info.meta, host));
  };
  /** The SHA-256 of an open analysis's (or profile's) capture (the session's, computed once). */
  const captureShaOf = async (analysisId: string): Promise<string> => {
    const prof = profiles.get(analysisId);
    if (prof !== undefined) return prof.sha256;
    const a = opened.get(analysisId);
    if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
    return (await sessions.openHost(a.path, { id: analysisId, name: basename(a.path), isSample: false, host: a.host }, a.options)).captureSha256;
  };
  const reports = reportHandlers({
    // an analysis's report, or a workload profile's (the Export screen of a profile)
    analysisOf: (id) => {
      const p = profiles.get(id);
      return opened.get(id) ?? (p === undefined ? undefined : { path: p.path, options: p.options, profile: true, ...(p.host === undefined ? {} : { host: p.host }) });
    },
    // the dashboard's session: the report and its preview never read or analyse the capture again
    viewOf: (path, options, host) => sessions.openHost(path, { id: 'report', name: basename(path), isSample: false, host }, options),
    appVersion: APP_VERSION, probeVersion: probeVer, ...(ctx.pdfPrinter === undefined ? {} : { printer: ctx.pdfPrinter }),
    ...(ctx.saveDialog === undefined ? {} : { saveDialog: ctx.saveDialog }),
  });
  const imports = importHandlers({ probe: ctx.probe, dataDir: ctx.dataDir ?? dataDir() });
  const predictions = predictHandlers({
    probe: ctx.probe,
    analysisOf: (id) => {
      const a = opened.get(id);
      if (a !== undefined) return { path: a.path, options: a.options, isSample: ctx.sample !== null && resolve(ctx.sample) === a.path };
      const p = profiles.get(id);
      return p === undefined ? null : { path: p.path, options: p.options, isSample: false, profile: true };
    },
    reopenProfile: (id) => profiles.reopen(id),
    holdView: (id) => {
      const a = opened.get(id);
      if (a === undefined) throw new HostError('capture-not-found', `No analysis ${id} is open in this session.`);
      return holdForReadBack(sessions, analysisCache, a.path, { id, name: a.name ?? basename(a.path), isSample: false, host: a.host }, a.options);
    },
    shaOf: captureShaOf,
    captureChanged: (before, after) => carrySavedPlan(plansDir, before, after),
  });
  return {
    ...reports,
    ...imports,
    ...predictions,
    'app.info': async () => ({ version: APP_VERSION, shell: ctx.shell, probeVersion: probeVer, platform: process.platform }),
    ...analysisHandlers(ctx, opened, sessions, runs, profiles),
    ...planHandlers({ plansDir, opened, profiles, sessions, devicesOf, captureShaOf }),
    // Runs: the probe supervisor (host/runs/), which re-attaches to every run in <dataDir>/runs/.
    ...runHandlers({ runs, profiles, openView: (capture, options, name) => open(capture, false, opened, sessions, options, name) }),
  };
}

type AnalysisChannel = 'analysis.openSample' | 'analysis.openCapture' | 'fleet.open' | 'fleet.progress' | 'analysis.progress' | 'analysis.cancel' | 'analysis.openProfile';

/** The channels that open a capture as an analysis, a fleet or a workload profile, and follow or stop that open. */
function analysisHandlers(ctx: HostContext, opened: Map<string, OpenedAnalysis>, sessions: AnalysisSessions, runs: RunSupervisor, profiles: OpenedProfiles): Pick<Handlers, AnalysisChannel> {
  /** The capture and options an open of `target` analyses (as analysis.openCapture, openSample and run.open do); null when there is none. */
  const sessionTarget = (target: AnalysisTarget): { path: string; options: AnalyzeOptions; host?: string } | null => {
    if ('path' in target) return { path: resolve(target.path), options: {}, ...(target.host === undefined ? {} : { host: target.host }) };
    if ('sample' in target) return ctx.sample === null ? null : { path: resolve(ctx.sample), options: {} };
    const run = runs.forOpen(target.runId);
    return { path: resolve(run.capture), options: run.options };
  };
  const fleets = new FleetSessions(sessions);
  return {
    'analysis.openSample': async () => {
      if (!ctx.sample) throw new HostError('capture-not-found', 'This installation has no bundled sample capture.');
      return open(ctx.sample, true, opened, sessions);
    },
    'analysis.openCapture': async ({ path, host }) => open(path, false, opened, sessions, {}, undefined, host),
    'fleet.open': async ({ path }) => fleets.open(path),
    'fleet.progress': async ({ path }) => ({ progress: fleets.progressOf(path) }),
    // the session of the capture being opened: its progress, or stop it (its open fails with analysis-cancelled)
    'analysis.progress': async (target) => {
      const t = sessionTarget(target);
      return { progress: t === null ? null : sessions.progress(t.path, t.options, t.host) };
    },
    'analysis.cancel': async (target) => {
      const t = sessionTarget(target);
      return { cancelled: t !== null && sessions.cancel(t.path, t.options, t.host) };
    },
    'analysis.openProfile': async ({ path, host }) => {
      const full = resolve(path);
      return profiles.remember(await loadProfileView(full, { id: viewId(full, host, 'profile'), name: viewName(full, host), isSample: false, host }, {}), full, host);
    },
  };
}
