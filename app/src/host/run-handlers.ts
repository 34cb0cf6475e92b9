/**
 * The recording channels (`devices.list`, `engine.*`, `run.*`): the probe supervisor
 * (host/runs/), which re-attaches to every run in <dataDir>/runs/, and the opening of a run's
 * capture as an analysis or a workload profile.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import type { AnalysisView } from '../shared/contract.ts';
import { loadProfileView } from './analysis.ts';
import type { Handlers } from './dispatch.ts';
import type { OpenedProfiles } from './profiles.ts';
import { headlineOf, type RunSupervisor } from './runs/supervisor.ts';

type RunChannel = 'devices.list' | 'engine.detect' | 'engine.plan' | 'run.start' | 'run.list' | 'run.status' | 'run.series' | 'run.confirmSwitch' | 'run.stop'
  | 'run.resume' | 'run.open' | 'run.openProfile';

/** What the recording channels use: the supervisor, how a capture is opened as an analysis, the session's profiles. */
export interface RunHost {
  runs: RunSupervisor;
  /** Opens a run's capture as the session's analysis (services.ts open). */
  openView: (capture: string, options: AnalyzeOptions, name: string) => Promise<AnalysisView>;
  profiles: OpenedProfiles;
}

/** The handlers of the recording channels. */
export function runHandlers({ runs, openView, profiles }: RunHost): Pick<Handlers, RunChannel> {
  return {
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
      const view = await openView(run.capture, run.options, run.name);
      if ((await runs.status(runId)).state === 'done') await runs.rememberHeadline(runId, headlineOf(view.result));
      return view;
    },
    'run.openProfile': async ({ runId }) => {
      const run = runs.forOpen(runId);
      const full = resolve(run.capture);
      return profiles.remember(await loadProfileView(full, { id: createHash('sha256').update(`profile:${full}`).digest('hex').slice(0, 16), name: run.name, isSample: false }, run.options), full, undefined, run.options);
    },
  };
}
