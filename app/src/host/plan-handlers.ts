/**
 * The Planner's channels (`plan.*`): a scenario prefilled from an open analysis or workload
 * profile, its sources, the drive catalog, and the scenario saved per capture (host/saved-plans.ts).
 */
import { basename } from 'node:path';
import type { AnalysisReport, DeviceInfo } from '@cacheproof/engine';
import { measuredWorkload, measuredWorkloadFromProfile, parseScenario, withMeasuredFrom } from '@cacheproof/engine/plan';
import catalogJson from '../../../samples/catalog/drives.json';
import type { Handlers } from './dispatch.ts';
import { HostError } from './errors.ts';
import { prefilledScenarioOf, prefilledScenarioOfProfile, scenarioSources } from './plan.ts';
import type { OpenedProfiles } from './profiles.ts';
import { loadSavedPlan, savePlan } from './saved-plans.ts';
import type { AnalysisSessions } from './session.ts';
import type { OpenedAnalysis } from './services.ts';

type PlanChannel = 'plan.fromAnalysis' | 'plan.sources' | 'plan.catalog' | 'plan.saved' | 'plan.save';

/** What the Planner's channels read: the session's open analyses and profiles, and their captures. */
export interface PlanHost {
  plansDir: string;
  opened: ReadonlyMap<string, OpenedAnalysis>;
  profiles: OpenedProfiles;
  sessions: AnalysisSessions;
  /** The devices of a capture (one host's, within a fleet capture), with their sizes. */
  devicesOf: (path: string, host: string | undefined) => DeviceInfo[];
  /** The SHA-256 of an open analysis's (or profile's) capture. */
  captureShaOf: (analysisId: string) => Promise<string>;
}

/** The handlers of the Planner's channels. */
export function planHandlers(h: PlanHost): Pick<Handlers, PlanChannel> {
  /** The session's analysis of an open analysis (the dashboard's, not a second read of the capture). */
  const viewOf = async (analysisId: string): Promise<{ a: OpenedAnalysis; result: AnalysisReport; captureSha256: string }> => {
    const a = h.opened.get(analysisId);
    if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
    const view = await h.sessions.openHost(a.path, { id: analysisId, name: basename(a.path), isSample: false, host: a.host }, a.options);
    return { a, result: view.result as unknown as AnalysisReport, captureSha256: view.captureSha256 };
  };
  return {
    'plan.fromAnalysis': async ({ analysisId, lang }) => {
      const prof = h.profiles.get(analysisId);
      if (prof !== undefined) {
        // a baseline alone: planned from its workload profile (no cache measured), as tco --from-capture does
        const scenario = prefilledScenarioOfProfile(prof.profile, { devices: h.devicesOf(prof.path, prof.host) }, prof.path, lang, prof.hostname);
        return { scenario: withMeasuredFrom(scenario, { captureFile: basename(prof.path), captureSha256: prof.sha256 }) };
      }
      // the session's analysis and the devices' sizes
      const { a, result, captureSha256 } = await viewOf(analysisId);
      const scenario = prefilledScenarioOf(result, { devices: h.devicesOf(a.path, a.host) }, a.path, lang);
      return { scenario: withMeasuredFrom(scenario, { captureFile: basename(a.path), captureSha256 }) };
    },
    'plan.sources': async ({ analysisId, scenario }) => {
      const parsed = parseScenario(scenario);
      if (!parsed.ok) throw new HostError('plan-scenario-invalid', parsed.error.message);
      const prof = h.profiles.get(analysisId);
      if (prof !== undefined) return { sources: scenarioSources(parsed.value, measuredWorkloadFromProfile(prof.profile, { devices: h.devicesOf(prof.path, prof.host) }), prof.sha256) };
      const { a, result, captureSha256 } = await viewOf(analysisId);
      return { sources: scenarioSources(parsed.value, measuredWorkload(result, { devices: h.devicesOf(a.path, a.host) }), captureSha256) };
    },
    'plan.catalog': async () => ({ catalog: catalogJson as { format: 'cacheproof-drive-catalog' } }),
    'plan.saved': async ({ analysisId }) => ({ scenario: (await loadSavedPlan(h.plansDir, await h.captureShaOf(analysisId))) as { format: 'cacheproof-tco'; version: number } | null }),
    'plan.save': async ({ analysisId, scenario }) => {
      await savePlan(h.plansDir, await h.captureShaOf(analysisId), scenario);
      return { saved: scenario !== null };
    },
  };
}
