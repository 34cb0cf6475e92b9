/**
 * The host's handlers for every contract channel. Shell-agnostic: Electron and the browser
 * host construct the same handlers and differ only in transport.
 */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { AnalysisView } from '../shared/contract.ts';
import type { Handlers } from './dispatch.ts';
import { openCapture, sha256File } from './capture/reader.ts';
import { buildAnalysisView } from './analysis.ts';
import { probeVersion } from './paths.ts';
import { APP_VERSION } from './version.ts';
import { HostError } from './errors.ts';
import { prefilledScenario } from './plan.ts';

export interface HostContext {
  shell: 'electron' | 'browser';
  /** The bundled sample capture, or null when this installation has none. */
  sample: string | null;
  probe: string | null;
}

async function open(path: string, isSample: boolean, opened: Map<string, string>): Promise<AnalysisView> {
  const full = resolve(path);
  const capture = openCapture(full);
  const sha = await sha256File(full);
  const id = createHash('sha256').update(full).digest('hex').slice(0, 16);
  const view = buildAnalysisView(capture, {
    id,
    name: isSample ? 'CacheProof lab sample' : basename(full).replace(/\.(capture|sqlite|db)$/i, ''),
    sha256: sha,
    isSample,
  });
  opened.set(id, full);
  return view;
}

const notYet = async (): Promise<never> => {
  throw new Error('not implemented yet');
};

export function createHandlers(ctx: HostContext): Handlers {
  const probeVer = probeVersion(ctx.probe);
  /** Analyses opened in this session: id → capture path (the renderer names analyses by id, never by path). */
  const opened = new Map<string, string>();
  return {
    'app.info': async () => ({ version: APP_VERSION, shell: ctx.shell, probeVersion: probeVer, platform: process.platform }),
    'analysis.openSample': async () => {
      if (!ctx.sample) throw new HostError('capture-not-found', 'This installation has no bundled sample capture.');
      return open(ctx.sample, true, opened);
    },
    'analysis.openCapture': async ({ path }) => open(path, false, opened),
    'plan.fromAnalysis': async ({ analysisId }) => {
      const path = opened.get(analysisId);
      if (path === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session.`);
      return { scenario: prefilledScenario(path) };
    },
    // Runs: implemented in host/runs/ (being written now); until then they answer "internal".
    'devices.list': notYet, 'run.start': notYet, 'run.list': notYet, 'run.status': notYet, 'run.series': notYet,
    'run.confirmSwitch': notYet, 'run.stop': notYet, 'run.open': notYet,
  };
}
