/**
 * The task-shaped API the renderer calls. The Electron preload exposes exactly these
 * functions on `window.cacheproof`; the browser host's client implements the same.
 */
import type { AnalysisView, AppInfo, Channel, ReplyOf, RequestOf } from './contract.ts';
import type { Result } from './result.ts';

export interface CacheProofApi {
  appInfo(): Promise<Result<AppInfo>>;
  openSample(): Promise<Result<AnalysisView>>;
  openCapture(path: string): Promise<Result<AnalysisView>>;
}

/** Builds the task-shaped API from one transport function (used by preload and browser client alike). */
export function apiFrom(call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<Result<ReplyOf<C>>>): CacheProofApi {
  return {
    appInfo: () => call('app.info', {}),
    openSample: () => call('analysis.openSample', {}),
    openCapture: (path) => call('analysis.openCapture', { path }),
  };
}
