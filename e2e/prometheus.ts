/**
 * A real Prometheus for the e2e specs, as native/probe/tests/common/prom.rs starts one for the
 * probe's tests (that helper is Rust; this is its TypeScript twin for Playwright): Debian's
 * `prometheus` on a free loopback port (parallel workers never share one), its config and
 * storage in the caller's folder; `promtool tsdb create-blocks-from openmetrics` to backfill that
 * storage before the start; instant queries to wait on its state. Stopped with SIGTERM, waited on.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether `cmd` is on the PATH. */
export function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A loopback port free now (bound to 0, read, closed). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** `promtool tsdb create-blocks-from openmetrics FILE DIR/tsdb`: the blocks Prometheus then serves from DIR. */
export function backfill(openMetricsFile: string, dir: string): void {
  execFileSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', openMetricsFile, join(dir, 'tsdb')], { stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface Prometheus {
  port: number;
  url: string;
  process: ChildProcess;
  /** The result array of an instant query (empty while the server does not answer). */
  query(q: string, atS?: number): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/** Starts Prometheus on a free loopback port with its storage in `dir/tsdb`, scraping `jobs` (name → targets) every second. */
export async function startPrometheus(dir: string, jobs: Record<string, string[]> = {}): Promise<Prometheus> {
  const port = await freePort();
  const scrape = Object.entries(jobs).map(([job, targets]) => `  - job_name: ${job}\n    static_configs:\n      - targets: [${targets.map((h) => `'${h}'`).join(', ')}]\n`).join('');
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n${scrape === '' ? 'scrape_configs: []\n' : `scrape_configs:\n${scrape}`}`);
  const proc = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    process: proc,
    query: async (q, atS) => {
      if (proc.exitCode !== null) throw new Error(`prometheus exited (${proc.exitCode})`);
      try {
        const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}${atS === undefined ? '' : `&time=${atS}`}`);
        if (!r.ok) return [];
        const j = (await r.json()) as { data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } };
        return j.data?.result ?? [];
      } catch {
        return []; // not listening yet
      }
    },
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
