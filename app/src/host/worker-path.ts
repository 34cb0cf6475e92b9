/** Where the host's worker bundle is (host/analysis-worker.ts, built as app/dist/analysis-worker.cjs). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from './paths.ts';

declare const __dirname: string | undefined;

/**
 * The analysis worker's bundle: `$CACHEPROOF_ANALYSIS_WORKER`, else `analysis-worker.cjs` beside
 * the running bundle (app/dist), else the checkout's app/dist; null when none is built (the
 * analysis then runs on the calling thread).
 */
export function analysisWorkerPath(): string | null {
  const env = process.env['CACHEPROOF_ANALYSIS_WORKER'];
  if (env !== undefined && env !== '') return existsSync(env) ? env : null;
  const here = typeof __dirname === 'string' ? join(__dirname, 'analysis-worker.cjs') : null;
  if (here !== null && existsSync(here)) return here;
  const root = findRepoRoot(typeof __dirname === 'string' ? __dirname : process.cwd());
  const built = root === null ? null : join(root, 'app', 'dist', 'analysis-worker.cjs');
  return built !== null && existsSync(built) ? built : null;
}

