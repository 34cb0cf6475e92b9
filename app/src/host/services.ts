/**
 * The host's handlers for every contract channel. Shell-agnostic: Electron and the browser
 * host construct the same handlers and differ only in transport.
 */
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import type { AnalyzeOptions, DeviceInfo, WorkloadProfile } from '@cacheproof/engine';
import type { AnalysisTarget, AnalysisView, ProfileView } from '../shared/contract.ts';
import type { Handlers } from './dispatch.ts';
import { loadProfileView } from './analysis.ts';
import { sharedSessions, type AnalysisSessions } from './session.ts';
import { dataDir, probeVersion } from './paths.ts';
import { APP_VERSION } from './version.ts';
import { HostError } from './errors.ts';
import { measuredWorkload, measuredWorkloadFromProfile, parseScenario, withMeasuredFrom } from '@cacheproof/engine/plan';
import { prefilledScenarioOf, prefilledScenarioOfProfile, scenarioSources } from './plan.ts';
import { carrySavedPlan, loadSavedPlan, savePlan } from './saved-plans.ts';
import { predictHandlers } from './predict.ts';
import catalogJson from '../../../samples/catalog/drives.json';
import { readCapture, readCaptureInfo } from './capture/reader.ts';
import type { AnalysisReport } from '@cacheproof/engine';
import { createRunSupervisor, headlineOf } from './runs/supervisor.ts';
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

async function open(path: string, isSample: boolean, opened: Map<string, OpenedAnalysis>, sessions: AnalysisSessions, options: AnalyzeOptions = {}, name?: string, host?: string,
  withSha = false): Promise<AnalysisView> {
  const full = resolve(path);
  const id = viewId(full, host);
  // on a worker thread, once per capture (one host of a fleet capture) and options in this process
  // (host/session.ts); the reply goes as soon as the analysis is done, the file's hash may follow
  const view = await (withSha ? sessions.open.bind(sessions) : sessions.openAnalysed.bind(sessions))(full, {
    id,
    name: name ?? (isSample ? 'CacheProof lab sample' : viewName(full, host)),
    isSample,
    host,
  }, options);
  // The options are remembered with the path, so that the report and the Planner's prefill show this view's figures.
  opened.set(id, { path: full, options: { ...options }, name: view.name, ...(host === undefined ? {} : { host }) });
  return view;
}

// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
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
  /**
   * Workload profiles opened in this session (a capture with a baseline alone): id → the capture,
   * its profile and SHA-256. The Planner plans from them as from an analysis (plan.fromAnalysis,
   * plan.saved, plan.save): capacity planning without a cache.
   */
  const profiles = new Map<string, { path: string; host?: string; name: string; hostname: string | null; profile: WorkloadProfile; sha256: string; options: AnalyzeOptions }>();
  const rememberProfile = (view: ProfileView, path: string, host?: string, options: AnalyzeOptions = {}): ProfileView => {
    profiles.set(view.id, { path, options, name: view.name, hostname: view.host.hostname, profile: view.profile as unknown as WorkloadProfile, sha256: view.captureSha256, ...(host === undefined ? {} : { host }) });
    return view;
  };
  /** A profile opened again from its capture (changed by a prediction), remembered under its id; its new SHA-256. */
  const reopenProfile = async (id: string): Promise<string> => {
    const p = profiles.get(id);
    if (p === undefined) throw new HostError('capture-not-found', `No workload profile ${id} is open in this session.`);
    const view = await loadProfileView(p.path, { id, name: p.name, isSample: false, host: p.host }, p.options);
    return rememberProfile(view, p.path, p.host, p.options).captureSha256;
  };
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
  /** The capture and options an open of `target` analyses (as analysis.openCapture, openSample and run.open do); null when there is none. */
  const sessionTarget = (target: AnalysisTarget): { path: string; options: AnalyzeOptions; host?: string } | null => {
    if ('path' in target) return { path: resolve(target.path), options: {}, ...(target.host === undefined ? {} : { host: target.host }) };
    if ('sample' in target) return ctx.sample === null ? null : { path: resolve(ctx.sample), options: {} };
    const run = runs.forOpen(target.runId);
    return { path: resolve(run.capture), options: run.options };
  };
  const fleets = new FleetSessions(sessions);
  const imports = importHandlers({ probe: ctx.probe, dataDir: ctx.dataDir ?? dataDir() });
  const predictions = predictHandlers({
    probe: ctx.probe,
    analysisOf: (id) => {
      const a = opened.get(id);
      if (a !== undefined) return { path: a.path, options: a.options, isSample: ctx.sample !== null && resolve(ctx.sample) === a.path };
      const p = profiles.get(id);
      return p === undefined ? null : { path: p.path, options: p.options, isSample: false, profile: true };
    },
    reopenProfile,
    reopen: (id, path, options) => open(path, false, opened, sessions, options, opened.get(id)?.name, undefined, true),
    shaOf: captureShaOf,
    captureChanged: (before, after) => carrySavedPlan(plansDir, before, after),
  });
  return {
    ...reports,
    ...imports,
    ...predictions,
    'app.info': async () => ({ version: APP_VERSION, shell: ctx.shell, probeVersion: probeVer, platform: process.platform }),
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
    'plan.fromAnalysis': async ({ analysisId, lang }) => {
      const prof = profiles.get(analysisId);
      if (prof !== undefined) {
        // a baseline alone: planned from its workload profile (no cache measured), as tco --from-capture does
        const scenario = prefilledScenarioOfProfile(prof.profile, { devices: devicesOf(prof.path, prof.host) }, prof.path, lang, prof.hostname);
        return { scenario: withMeasuredFrom(scenario, { captureFile: basename(prof.path), captureSha256: prof.sha256 }) };
      }
      const a = opened.get(analysisId);
      if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
      // the session's analysis (the dashboard's, not a second read of the capture) and the devices' sizes
      const view = await sessions.openHost(a.path, { id: analysisId, name: basename(a.path), isSample: false, host: a.host }, a.options);
      const scenario = prefilledScenarioOf(view.result as unknown as AnalysisReport, { devices: devicesOf(a.path, a.host) }, a.path, lang);
      return { scenario: withMeasuredFrom(scenario, { captureFile: basename(a.path), captureSha256: view.captureSha256 }) };
    },
    'plan.sources': async ({ analysisId, scenario }) => {
      const parsed = parseScenario(scenario);
      if (!parsed.ok) throw new HostError('plan-scenario-invalid', parsed.error.message);
      const prof = profiles.get(analysisId);
      if (prof !== undefined) return { sources: scenarioSources(parsed.value, measuredWorkloadFromProfile(prof.profile, { devices: devicesOf(prof.path, prof.host) }), prof.sha256) };
      const a = opened.get(analysisId);
      if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
      const view = await sessions.openHost(a.path, { id: analysisId, name: basename(a.path), isSample: false, host: a.host }, a.options);
      return { sources: scenarioSources(parsed.value, measuredWorkload(view.result as unknown as AnalysisReport, { devices: devicesOf(a.path, a.host) }), view.captureSha256) };
    },
    'plan.catalog': async () => ({ catalog: catalogJson as { format: 'cacheproof-drive-catalog' } }),
    'plan.saved': async ({ analysisId }) => ({ scenario: (await loadSavedPlan(plansDir, await captureShaOf(analysisId))) as { format: 'cacheproof-tco'; version: number } | null }),
    'plan.save': async ({ analysisId, scenario }) => {
      await savePlan(plansDir, await captureShaOf(analysisId), scenario);
      return { saved: scenario !== null };
    },
    // Runs: the probe supervisor (host/runs/), which re-attaches to every run in <dataDir>/runs/.
    'devices.list': async () => ({ devices: await runs.listDevices() }),
    'engine.detect': async () => ({ engines: await runs.detectEngines() }),
    'engine.plan': async (choice) => runs.planEngine(choice),
    'run.start': async ({ plan }) => runs.start(plan),
    'run.list': async () => ({ runs: await runs.list() }),
    'run.status': async ({ runId }) => runs.status(runId),
    'run.series': async ({ runId, sinceMs, untilMs }) => runs.series(runId, sinceMs, untilMs),
    'run.confirmSwitch': async ({ runId }) => runs.confirmSwitch(runId),
    'run.stop': async ({ runId }) => runs.stop(runId),
    'run.resume': async ({ runId }) => runs.resume(runId),
    'run.open': async ({ runId }) => {
      // the plan's prediction, when due, is in the capture before it is analysed
      await runs.settlePrediction(runId);
      const run = runs.forOpen(runId);
      const view = await open(run.capture, false, opened, sessions, run.options, run.name);
      if ((await runs.status(runId)).state === 'done') await runs.rememberHeadline(runId, headlineOf(view.result));
      return view;
    },
    'analysis.openProfile': async ({ path, host }) => {
      const full = resolve(path);
      return rememberProfile(await loadProfileView(full, { id: viewId(full, host, 'profile'), name: viewName(full, host), isSample: false, host }, {}), full, host);
    },
    'run.openProfile': async ({ runId }) => {
      const run = runs.forOpen(runId);
      const full = resolve(run.capture);
      return rememberProfile(await loadProfileView(full, { id: createHash('sha256').update(`profile:${full}`).digest('hex').slice(0, 16), name: run.name, isSample: false }, run.options), full, undefined, run.options);
    },
  };
}
