// Bench helper (bundled by bench/analyze/run.mjs): what the app's host does when the dashboard
// opens a capture — open, analyze, build the chart series, hash the file (host/analysis.ts
// loadAnalysisView) — in a fresh process, then the reply serialized as it goes over the wire.
// Usage: node view.cjs CAPTURE CACHE_DIR|-   → prints {"ms":…,"fromCache":…,"bytes":…}
import { loadAnalysisView } from '../../app/src/host/analysis.ts';

async function main(): Promise<void> {
  const [path, cacheDir] = process.argv.slice(2);
  if (path === undefined || cacheDir === undefined) throw new Error('usage: view.cjs CAPTURE CACHE_DIR|-');
  const t = performance.now();
  const view = await loadAnalysisView(path, { id: 'bench', name: 'bench', isSample: false }, {}, cacheDir === '-' ? null : cacheDir);
  const bytes = JSON.stringify(view).length;
  process.stdout.write(JSON.stringify({ ms: performance.now() - t, fromCache: view.fromCache ?? false, bytes }) + '\n');
}

void main();
