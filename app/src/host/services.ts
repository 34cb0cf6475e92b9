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

export interface HostContext {
  shell: 'electron' | 'browser';
  /** The bundled sample capture, or null when this installation has none. */
  sample: string | null;
  probe: string | null;
}

async function open(path: string, isSample: boolean): Promise<AnalysisView> {
  const full = resolve(path);
  const capture = openCapture(full);
  const sha = await sha256File(full);
  return buildAnalysisView(capture, {
    id: createHash('sha256').update(full).digest('hex').slice(0, 16),
    name: isSample ? 'CacheProof lab sample' : basename(full).replace(/\.(capture|sqlite|db)$/i, ''),
    sha256: sha,
    isSample,
  });
}

export function createHandlers(ctx: HostContext): Handlers {
  const probeVer = probeVersion(ctx.probe);
  return {
    'app.info': async () => ({ version: APP_VERSION, shell: ctx.shell, probeVersion: probeVer, platform: process.platform }),
    'analysis.openSample': async () => {
      if (!ctx.sample) throw new HostError('capture-not-found', 'This installation has no bundled sample capture.');
      return open(ctx.sample, true);
    },
    'analysis.openCapture': async ({ path }) => open(path, false),
  };
}
