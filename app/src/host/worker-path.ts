/** Where the host's worker bundle is (host/analysis-worker.ts, built as app/dist/analysis-worker.cjs). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

declare const __filename: string | undefined;

/**
 * The analysis worker's bundle: `$CACHEPROOF_ANALYSIS_WORKER`, else, when this code runs from a
 * bundle of app/dist, `analysis-worker.cjs` beside it; null otherwise (the sources run directly,
 * as in the unit tests: a bundle built earlier may be older than them) or when it is missing —
 * the analysis then runs on the calling thread.
 */
export function analysisWorkerPath(): string | null {
  const env = process.env['CACHEPROOF_ANALYSIS_WORKER'];
  if (env !== undefined && env !== '') return existsSync(env) ? env : null;
  const bundle = typeof __filename === 'string' && __filename.endsWith('.cjs') ? __filename : null;
  if (bundle === null) return null;
  const beside = join(dirname(bundle), 'analysis-worker.cjs');
  return existsSync(beside) ? beside : null;
}
