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

/** Builds the task-shaped API from one transport function (used by preload and browser client alike). */
// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function apiFrom(call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<Result<ReplyOf<C>>>): CacheProofApi {
  return {
    appInfo: () => call('app.info', {}),
    openSample: () => call('analysis.openSample', {}),
    openCapture: (path, host) => call('analysis.openCapture', host === undefined ? { path } : { path, host }),
    analysisProgress: async (target) => {
      const r = await call('analysis.progress', target);
      return r.ok ? { ok: true, value: r.value.progress } : r;
    },
    cancelAnalysis: async (target) => {
      const r = await call('analysis.cancel', target);
      return r.ok ? { ok: true, value: r.value.cancelled } : r;
    },
    planFromAnalysis: async (analysisId, lang) => {
      const r = await call('plan.fromAnalysis', lang === undefined ? { analysisId } : { analysisId, lang });
      return r.ok ? { ok: true, value: r.value.scenario } : r;
    },
    planCatalog: async () => {
      const r = await call('plan.catalog', {});
      return r.ok ? { ok: true, value: r.value.catalog } : r;
    },
    savedPlan: async (analysisId) => {
      const r = await call('plan.saved', { analysisId });
      return r.ok ? { ok: true, value: r.value.scenario } : r;
    },
    planSources: async (analysisId, scenario) => {
      const r = await call('plan.sources', { analysisId, scenario });
      return r.ok ? { ok: true, value: r.value.sources } : r;
    },
    savePlan: async (analysisId, scenario) => {
      const r = await call('plan.save', { analysisId, scenario });
      return r.ok ? { ok: true, value: r.value.saved } : r;
    },
    listDevices: async () => {
      const r = await call('devices.list', {});
      return r.ok ? { ok: true, value: r.value.devices } : r;
    },
    detectEngines: async () => {
      const r = await call('engine.detect', {});
      return r.ok ? { ok: true, value: r.value.engines } : r;
    },
    planEngine: (choice) => call('engine.plan', choice),
    startRun: (plan) => call('run.start', { plan }),
    listRuns: async () => {
      const r = await call('run.list', {});
      return r.ok ? { ok: true, value: r.value.runs } : r;
    },
    runStatus: (runId) => call('run.status', { runId }),
    runSeries: (runId, sinceMs, untilMs) => call('run.series', untilMs === undefined ? { runId, sinceMs } : { runId, sinceMs, untilMs }),
    confirmSwitch: (runId) => call('run.confirmSwitch', { runId }),
    stopRun: (runId) => call('run.stop', { runId }),
    resumeRun: (runId) => call('run.resume', { runId }),
    openRun: (runId) => call('run.open', { runId }),
    openRunProfile: (runId) => call('run.openProfile', { runId }),
    openCaptureProfile: (path, host) => call('analysis.openProfile', host === undefined ? { path } : { path, host }),
    openFleet: (path) => call('fleet.open', { path }),
    fleetProgress: async (path) => {
      const r = await call('fleet.progress', { path });
      return r.ok ? { ok: true, value: r.value.progress } : r;
    },
    previewReport: (request) => call('report.preview', request),
    startReport: async (request) => {
      const r = await call('report.start', request);
      return r.ok ? { ok: true, value: r.value.jobId } : r;
    },
    startFleetReport: async (request) => {
      const r = await call('fleet.report', request);
      return r.ok ? { ok: true, value: r.value.jobId } : r;
    },
    reportProgress: (jobId) => call('report.progress', { jobId }),
    saveReportFile: async (jobId, index) => {
      const r = await call('report.save', { jobId, index });
      return r.ok ? { ok: true, value: r.value.path } : r;
    },
    previewImport: (request) => call('import.preview', request),
    startImport: async (request) => {
      const r = await call('import.start', request);
      return r.ok ? { ok: true, value: r.value.jobId } : r;
    },
    importProgress: (jobId) => call('import.progress', { jobId }),
    startPrediction: async (analysisId, choice) => {
      const r = await call('predict.start', { analysisId, choice });
      return r.ok ? { ok: true, value: r.value.jobId } : r;
    },
    predictionProgress: (jobId) => call('predict.progress', { jobId }),
  };
}
