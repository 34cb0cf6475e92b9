/**
 * The task-shaped API the renderer calls. The Electron preload exposes exactly these
 * functions on `window.cacheproof`; the browser host's client implements the same.
 */
import type { AnalysisProgress, AnalysisTarget, AnalysisView, AppInfo, Channel, DetectedEngine, DeviceEntry, EngineChoice, EnginePlan, FleetProgress, FleetReportRequest, FleetView, ImportPreview, ImportProgress, ImportRequest, LiveSeries, PredictionChoice, PlanSource, PredictProgress, ProfileView, ReplyOf, ReportProgress, ReportRequest, RequestOf, RunPlan, RunStatus, ScenarioDraft } from './contract.ts';
import type { Result } from './result.ts';
import type { Lang } from './i18n/types.ts';

export interface CacheProofApi {
  appInfo(): Promise<Result<AppInfo>>;
  openSample(): Promise<Result<AnalysisView>>;
  /** A capture's analysis; `host`: that host of a fleet capture alone. */
  openCapture(path: string, host?: string): Promise<Result<AnalysisView>>;
  /** Where the analysis of a capture being opened is (null when none is being computed). */
  analysisProgress(target: AnalysisTarget): Promise<Result<AnalysisProgress | null>>;
  /** Stops the analysis of a capture being opened (its open fails with `analysis-cancelled`); false when none was running. */
  cancelAnalysis(target: AnalysisTarget): Promise<Result<boolean>>;
  /** A TCO scenario prefilled from an analysis opened in this session (by its `AnalysisView.id`), the template's labels in `lang` (default en). */
  planFromAnalysis(analysisId: string, lang?: Lang): Promise<Result<ScenarioDraft>>;
  /** The drive catalog shipped with the app (raw JSON: check it with the engine's parseCatalog). */
  planCatalog(): Promise<Result<unknown>>;
  /** The edited scenario saved with an analysis's capture, or null. */
  savedPlan(analysisId: string): Promise<Result<ScenarioDraft | null>>;
  /** Where each input of a scenario comes from against an analysis's capture (measured, example, not recorded…), as the report names them. */
  planSources(analysisId: string, scenario: ScenarioDraft): Promise<Result<PlanSource[]>>;
  /** Saves an analysis's edited scenario with its capture (null forgets it). */
  savePlan(analysisId: string, scenario: ScenarioDraft | null): Promise<Result<boolean>>;
  listDevices(): Promise<Result<DeviceEntry[]>>;
  /** Cache engines the probe detects on this machine. */
  detectEngines(): Promise<Result<DetectedEngine[]>>;
  /** The dry run of an adapter on a device: what it would do, nothing changed. */
  planEngine(choice: EngineChoice): Promise<Result<EnginePlan>>;
  startRun(plan: RunPlan): Promise<Result<RunStatus>>;
  listRuns(): Promise<Result<RunStatus[]>>;
  runStatus(runId: string): Promise<Result<RunStatus>>;
  /** Live chart points after `sinceMs` (0 = the last hour), up to `untilMs` when given (scrolling back). */
  runSeries(runId: string, sinceMs: number, untilMs?: number): Promise<Result<LiveSeries>>;
  confirmSwitch(runId: string): Promise<Result<RunStatus>>;
  stopRun(runId: string): Promise<Result<RunStatus>>;
  resumeRun(runId: string): Promise<Result<RunStatus>>;
  openRun(runId: string): Promise<Result<AnalysisView>>;
  /** The baseline of a run's capture alone as a workload profile (for a run stopped before the switch). */
  openRunProfile(runId: string): Promise<Result<ProfileView>>;
  /** A capture file's baseline alone as a workload profile (an imported log with no switch). */
  openCaptureProfile(path: string, host?: string): Promise<Result<ProfileView>>;
  /** The hosts of a fleet capture, or of a folder of one capture per host, with their headline figures. */
  openFleet(path: string): Promise<Result<FleetView>>;
  /** How far the `openFleet` of this path is: hosts analysed of all (null: none being computed). */
  fleetProgress(path: string): Promise<Result<FleetProgress | null>>;
  /** The report's HTML (without styles) and its stylesheet, for the Export screen's preview. */
  previewReport(request: Omit<ReportRequest, 'format'>): Promise<Result<{ html: string; css: string }>>;
  /** Starts a report export; returns the job id to poll. */
  startReport(request: ReportRequest): Promise<Result<string>>;
  /** A fleet's report (a fleet with no switch): the job to poll with {@link reportProgress}. */
  startFleetReport(request: FleetReportRequest): Promise<Result<string>>;
  reportProgress(jobId: string): Promise<Result<ReportProgress>>;
  /** Electron: saves a finished export's file through a Save dialog (the path, or null when cancelled). */
  saveReportFile(jobId: string, index: number): Promise<Result<string | null>>;
  /** What the probe recognizes in a log (devices, time range, interval, counters, warnings); writes nothing. */
  previewImport(request: ImportRequest): Promise<Result<ImportPreview>>;
  /** Starts importing a log into a new capture; returns the job id to poll. */
  startImport(request: ImportRequest): Promise<Result<string>>;
  importProgress(jobId: string): Promise<Result<ImportProgress>>;
  /** Predicts a cache from an open analysis's block trace (the probe, `predict --store`); returns the job id to poll. */
  startPrediction(analysisId: string, choice: PredictionChoice): Promise<Result<string>>;
  /** A prediction job's progress; once done, the analysis with its new prediction. */
  predictionProgress(jobId: string): Promise<Result<PredictProgress>>;
}

/** One transport function: a channel's request in, its reply (or failure) out. */
type Call = <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<Result<ReplyOf<C>>>;

/** Calls a channel whose reply wraps one field, and gives that field (a failure as it came). */
async function pick<C extends Channel, K extends keyof ReplyOf<C>>(call: Call, channel: C, request: RequestOf<C>, key: K): Promise<Result<ReplyOf<C>[K]>> {
  const r = await call(channel, request);
  return r.ok ? { ok: true, value: r.value[key] } : r;
}

/** Builds the task-shaped API from one transport function (used by preload and browser client alike). */
export function apiFrom(call: Call): CacheProofApi {
  return {
    appInfo: () => call('app.info', {}),
    openSample: () => call('analysis.openSample', {}),
    openCapture: (path, host) => call('analysis.openCapture', host === undefined ? { path } : { path, host }),
    analysisProgress: (target) => pick(call, 'analysis.progress', target, 'progress'),
    cancelAnalysis: (target) => pick(call, 'analysis.cancel', target, 'cancelled'),
    planFromAnalysis: (analysisId, lang) => pick(call, 'plan.fromAnalysis', lang === undefined ? { analysisId } : { analysisId, lang }, 'scenario'),
    planCatalog: () => pick(call, 'plan.catalog', {}, 'catalog'),
    savedPlan: (analysisId) => pick(call, 'plan.saved', { analysisId }, 'scenario'),
    planSources: (analysisId, scenario) => pick(call, 'plan.sources', { analysisId, scenario }, 'sources'),
    savePlan: (analysisId, scenario) => pick(call, 'plan.save', { analysisId, scenario }, 'saved'),
    listDevices: () => pick(call, 'devices.list', {}, 'devices'),
    detectEngines: () => pick(call, 'engine.detect', {}, 'engines'),
    planEngine: (choice) => call('engine.plan', choice),
    startRun: (plan) => call('run.start', { plan }),
    listRuns: () => pick(call, 'run.list', {}, 'runs'),
    runStatus: (runId) => call('run.status', { runId }),
    runSeries: (runId, sinceMs, untilMs) => call('run.series', untilMs === undefined ? { runId, sinceMs } : { runId, sinceMs, untilMs }),
    confirmSwitch: (runId) => call('run.confirmSwitch', { runId }),
    stopRun: (runId) => call('run.stop', { runId }),
    resumeRun: (runId) => call('run.resume', { runId }),
    openRun: (runId) => call('run.open', { runId }),
    openRunProfile: (runId) => call('run.openProfile', { runId }),
    openCaptureProfile: (path, host) => call('analysis.openProfile', host === undefined ? { path } : { path, host }),
    openFleet: (path) => call('fleet.open', { path }),
    fleetProgress: (path) => pick(call, 'fleet.progress', { path }, 'progress'),
    previewReport: (request) => call('report.preview', request),
    startReport: (request) => pick(call, 'report.start', request, 'jobId'),
    startFleetReport: (request) => pick(call, 'fleet.report', request, 'jobId'),
    reportProgress: (jobId) => call('report.progress', { jobId }),
    saveReportFile: (jobId, index) => pick(call, 'report.save', { jobId, index }, 'path'),
    previewImport: (request) => call('import.preview', request),
    startImport: (request) => pick(call, 'import.start', request, 'jobId'),
    importProgress: (jobId) => call('import.progress', { jobId }),
    startPrediction: (analysisId, choice) => pick(call, 'predict.start', { analysisId, choice }, 'jobId'),
    predictionProgress: (jobId) => call('predict.progress', { jobId }),
  };
}
