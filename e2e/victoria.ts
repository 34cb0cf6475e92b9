/**
 * A real VictoriaMetrics for the fleet e2e, beside e2e/prometheus.ts: Debian's `victoria-metrics`
 * (single node) on a free loopback port, its storage in `dir/vmdata`. Flags, each for a reason:
 * `-retentionPeriod=100y` (the generated samples are days old; the default month would do today,
 * a century keeps any generated range inside it); `-search.latencyOffset=0s` (VM otherwise hides
 * the newest 30 s from queries, as not yet complete); `-dedup.minScrapeInterval=0s` (no
 * deduplication: every sample written is kept, as Prometheus keeps it). Samples go in through its
 * import API (bench/fleet/openmetrics.mjs importFleet, timestamps in ms); `/internal/force_flush`
 * makes them searchable at once, and the caller polls an instant query until they are. VM resets
 * its response cache itself when samples older than `-search.cacheTimestampOffset` arrive.
 * Stopped with SIGTERM, waited on; the caller removes `dir`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, type Prometheus } from './prometheus.ts';

/** Starts VictoriaMetrics on a free loopback port with its storage in `dir/vmdata`, once it answers `/health`. */
export async function startVictoria(dir: string): Promise<Prometheus> {
  const port = await freePort();
  const proc = spawn('victoria-metrics', [
    `-storageDataPath=${join(dir, 'vmdata')}`,
    `-httpListenAddr=127.0.0.1:${port}`,
    '-retentionPeriod=100y',
    '-search.latencyOffset=0s',
    '-dedup.minScrapeInterval=0s',
    '-loggerLevel=ERROR',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (d: Buffer) => { log = (log + d.toString()).slice(-2000); });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`victoria-metrics exited (${proc.exitCode}): ${log}`);
    const up = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`victoria-metrics did not answer /health on ${url} within 60 s: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url,
    process: proc,
    query: async (q, atS) => {
      if (proc.exitCode !== null) throw new Error(`victoria-metrics exited (${proc.exitCode}): ${log}`);
      try {
        // the samples imported so far, searchable now (VM otherwise makes them so within a second or so)
        await fetch(`${url}/internal/force_flush`);
        const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}${atS === undefined ? '' : `&time=${atS}`}`);
        if (!r.ok) return [];
        const j = (await r.json()) as { data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } };
        return j.data?.result ?? [];
      } catch {
        return [];
      }
    },
    stop,
  };
}
