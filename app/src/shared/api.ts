/**
 * The task-shaped API the renderer calls. The Electron preload exposes exactly these
 * functions on `window.cacheproof`; the browser host's client implements the same.
 */
import type { AnalysisView, AppInfo, Channel, DeviceEntry, LiveSeries, ReplyOf, RequestOf, RunPlan, RunStatus, ScenarioDraft } from './contract.ts';
import type { Result } from './result.ts';

export interface CacheProofApi {
  appInfo(): Promise<Result<AppInfo>>;
  openSample(): Promise<Result<AnalysisView>>;
  openCapture(path: string): Promise<Result<AnalysisView>>;
  /** A TCO scenario prefilled from an analysis opened in this session (by its `AnalysisView.id`). */
  planFromAnalysis(analysisId: string): Promise<Result<ScenarioDraft>>;
  listDevices(): Promise<Result<DeviceEntry[]>>;
  startRun(plan: RunPlan): Promise<Result<RunStatus>>;
  listRuns(): Promise<Result<RunStatus[]>>;
  runStatus(runId: string): Promise<Result<RunStatus>>;
  runSeries(runId: string, sinceMs: number): Promise<Result<LiveSeries>>;
  confirmSwitch(runId: string): Promise<Result<RunStatus>>;
  stopRun(runId: string): Promise<Result<RunStatus>>;
  openRun(runId: string): Promise<Result<AnalysisView>>;
}

/** Builds the task-shaped API from one transport function (used by preload and browser client alike). */
export function apiFrom(call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<Result<ReplyOf<C>>>): CacheProofApi {
  return {
    appInfo: () => call('app.info', {}),
    openSample: () => call('analysis.openSample', {}),
    openCapture: (path) => call('analysis.openCapture', { path }),
    planFromAnalysis: async (analysisId) => {
      const r = await call('plan.fromAnalysis', { analysisId });
      return r.ok ? { ok: true, value: r.value.scenario } : r;
    },
    listDevices: async () => {
      const r = await call('devices.list', {});
      return r.ok ? { ok: true, value: r.value.devices } : r;
    },
    startRun: (plan) => call('run.start', { plan }),
    listRuns: async () => {
      const r = await call('run.list', {});
      return r.ok ? { ok: true, value: r.value.runs } : r;
    },
    runStatus: (runId) => call('run.status', { runId }),
    runSeries: (runId, sinceMs) => call('run.series', { runId, sinceMs }),
    confirmSwitch: (runId) => call('run.confirmSwitch', { runId }),
    stopRun: (runId) => call('run.stop', { runId }),
    openRun: (runId) => call('run.open', { runId }),
  };
}
