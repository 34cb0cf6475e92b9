/**
 * Workload profiles opened in this session (a capture with a baseline alone): id → the capture,
 * its profile and SHA-256. The Planner plans from them as from an analysis (plan.fromAnalysis,
 * plan.saved, plan.save): capacity planning without a cache.
 */
import type { AnalyzeOptions, WorkloadProfile } from '@cacheproof/engine';
import type { ProfileView } from '../shared/contract.ts';
import { loadProfileView } from './analysis.ts';
import { HostError } from './errors.ts';

/** A workload profile opened in this session. */
export interface OpenedProfile {
  path: string;
  host?: string;
  name: string;
  hostname: string | null;
  profile: WorkloadProfile;
  sha256: string;
  options: AnalyzeOptions;
}

/** The session's open profiles: remembered by their view's id, and opened again from their capture. */
export class OpenedProfiles {
  private readonly byId = new Map<string, OpenedProfile>();

  get(id: string): OpenedProfile | undefined {
    return this.byId.get(id);
  }

  /** Remembers a profile's view under its id; returns the view. */
  remember(view: ProfileView, path: string, host?: string, options: AnalyzeOptions = {}): ProfileView {
    this.byId.set(view.id, { path, options, name: view.name, hostname: view.host.hostname, profile: view.profile as unknown as WorkloadProfile, sha256: view.captureSha256, ...(host === undefined ? {} : { host }) });
    return view;
  }

  /** A profile opened again from its capture (changed by a prediction), remembered under its id; its new SHA-256. */
  async reopen(id: string): Promise<string> {
    const p = this.byId.get(id);
    if (p === undefined) throw new HostError('capture-not-found', `No workload profile ${id} is open in this session.`);
    const view = await loadProfileView(p.path, { id, name: p.name, isSample: false, host: p.host }, p.options);
    return this.remember(view, p.path, p.host, p.options).captureSha256;
  }
}
