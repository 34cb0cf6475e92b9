/**
 * The Import screen's front door (docs/ipc.md, `import.*`): `cacheproof-probe import --preview
 * KIND FILE… --json` for the preview, and an import job that runs `cacheproof-probe import KIND
 * FILE… --out <dataDir>/imports/<name>-<time>.capture` (docs/import.md). The probe writes to a
 * temporary file and renames it at the end, so a failed import leaves nothing; its one sentence
 * (file, line, column) becomes the `import-refused` error. A Prometheus range whose figures the
 * server computes (`summary`) runs `import prometheus … --fleet-summary <dataDir>/imports/…json`
 * (docs/import.md § Fleet summary); its refusals are `fleet-summary-refused` / `-no-data`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ImportPreview, isTraceKind, type ImportProgress, type ImportRequest, type PrometheusRange } from '../shared/contract.ts';
import { HostError } from './errors.ts';
import { importAndPredict, previewTrace, TRACE_IMPORT_SHARE } from './import-trace.ts';
import { fleetSummaryArgs, importCommand, importPreviewArgs } from './probe-argv.ts';
import { PROBE_EXIT, probeError, runProbe, type ProbeOutput } from './runs/probe.ts';

/** The longest a preview or an import may take (a 500 MB log imports in well under this). */
const PREVIEW_TIMEOUT_MS = 120_000;
const IMPORT_TIMEOUT_MS = 30 * 60_000;
/** The rate the progress estimate assumes while the probe runs (bytes/s; the probe reports no progress of its own). */
const ASSUMED_BYTES_PER_S = 20e6;

/** A fleet summary's refusal: a choice to change (exit 2: the range not on multiples of the step), no node_exporter series (exit 12), a server not reached (exit 13). */
function summaryRefused(out: ProbeOutput): HostError {
  const what = 'import prometheus --fleet-summary';
  if (out.code === PROBE_EXIT.usage) return new HostError('fleet-summary-refused', out.error || `${what}: exit code ${out.code}`);
  if (out.code === PROBE_EXIT.notImportable) return new HostError('fleet-summary-no-data', out.error || `${what}: exit code ${out.code}`);
  return refused(what, out);
}

function refused(what: string, out: ProbeOutput): HostError {
  // exit 12: the file; exit 2: a choice made with it (a role set that counts an I/O twice, parts, a range)
  if (out.code === PROBE_EXIT.notImportable) return new HostError('import-refused', out.error || `${what}: exit code ${out.code}`);
  if (out.code === PROBE_EXIT.usage) return new HostError('import-choice-refused', out.error || `${what}: exit code ${out.code}`);
  if (out.code === PROBE_EXIT.unreachable) return new HostError('import-unreachable', out.error || `${what}: exit code ${out.code}`);
  return probeError(what, out);
}

interface RawPreview {
  kind: string;
  files: { name: string; path: string; sizeBytes: number; format: string; encoding: string; timeZone: string | null; utcOffsetMin: number | null; timeZoneSource: string; part: string; hosts: string[]; samples: number; mapping: { source: string; field: string }[] }[];
  hosts: string[];
  devices: { name: string; role: string; reason: string; on: string | null; host?: string | null }[];
  stack?: { holder: string; on: string; kind: string }[];
  timeRange: { startUtcMs: number; endUtcMs: number } | null;
  intervalMs: number | null;
  intervals: number;
  phases: { name: string; startUtcMs: number; endUtcMs: number }[];
  unmapped: { what: string; why: string }[];
  notes: string[];
  needs: string[];
  ready: boolean;
  partial?: { has: string; missing: string[]; needed: string; commands: string[] } | null;
  analysable?: boolean;
  /** The sentences as codes with values (probe import/said.rs): checked by the contract. */
  said?: unknown;
}

/** The probe's preview JSON as the contract's `ImportPreview` (checked). */
export function toPreview(raw: RawPreview): ImportPreview {
  const counters: { source: string; field: string }[] = [];
  for (const f of raw.files) {
    for (const m of f.mapping) if (!counters.some((c) => c.source === m.source && c.field === m.field)) counters.push({ source: m.source, field: m.field });
  }
  return ImportPreview.parse({
    kind: raw.kind,
    files: raw.files.map(({ mapping: _m, ...f }) => f),
    hosts: raw.hosts,
    devices: raw.devices.map((d) => ({ name: d.name, role: d.role, reason: d.reason, on: d.on, host: d.host ?? null })),
    stack: (raw.stack ?? []).map((e) => ({ holder: e.holder, on: e.on, kind: e.kind })),
    timeRange: raw.timeRange === null ? null : { startUtcMs: raw.timeRange.startUtcMs, endUtcMs: raw.timeRange.endUtcMs },
    intervalMs: raw.intervalMs,
    intervals: raw.intervals,
    phases: raw.phases,
    counters,
    unmapped: raw.unmapped,
    notes: raw.notes,
    needs: raw.needs,
    ready: raw.ready,
    partial: raw.partial ?? null,
    analysable: raw.analysable ?? true,
    ...(raw.said === undefined ? {} : { said: raw.said }),
  });
}

function needProbe(probe: string | null): string {
  if (probe === null) throw new HostError('probe-missing', 'Importing a log needs cacheproof-probe: build it with cargo build --release in native/.');
  return probe;
}

/** `import --preview … --json`. */
export async function previewImport(probe: string | null, r: ImportRequest): Promise<ImportPreview> {
  if (isTraceKind(r.kind)) return previewTrace(needProbe(probe), r, sizeOf(r.files));
  const out = await runProbe(needProbe(probe), importPreviewArgs(r), PREVIEW_TIMEOUT_MS);
  if (out.code !== 0) throw refused('import --preview', out);
  return toPreview(JSON.parse(out.stdout) as RawPreview);
}

/** A free path in `dir` named after the first file (or the server) and the time, ending in `ext` (a capture, or '' for a folder of captures). */
function outPath(dir: string, first: string, now: Date, ext = '.capture'): string {
  const stem = basename(first).replace(/\.[^.]*$/u, '').replace(/[^\w.-]+/gu, '_').slice(0, 80) || 'import';
  const stamp = now.toISOString().replace(/[-:]/gu, '').replace(/\..*$/u, '').replace('T', '-');
  for (let n = 0; ; n += 1) {
    const p = join(dir, `${stem}-${stamp}${n === 0 ? '' : `-${n}`}${ext}`);
    if (!existsSync(p)) return p;
  }
}

/** The files' total size in bytes (a file that cannot be read counts 0: the probe says which). */
function sizeOf(files: readonly string[]): number {
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += statSync(resolve(f)).size;
    } catch {
      // the probe says which file cannot be read
    }
  }
  return bytes;
}

interface Job {
  progress: ImportProgress;
  startedMs: number;
  expectedMs: number;
  error: HostError | null;
  /** A trace's job: its `import-trace` part is estimated up to this share, then the prediction's progress is the probe's own. */
  traceShare?: number;
}

export interface ImportJobs {
  'import.preview': (r: ImportRequest) => Promise<ImportPreview>;
  'import.start': (r: ImportRequest) => Promise<{ jobId: string }>;
  'import.progress': (r: { jobId: string }) => Promise<ImportProgress>;
}

/** What the import jobs share: the session's jobs, the clock, and the data folder (imports go to its `imports/`). */
interface ImportContext {
  jobs: Map<string, Job>;
  now: () => number;
  dataDir: string;
}

/** A new job, registered under a new id. */
function newJob(ctx: ImportContext, expectedMs: number, traceShare?: number): Job {
  const jobId = randomUUID();
  const job: Job = { progress: { jobId, percent: 0, stage: 'import', done: false, capturePath: null }, startedMs: ctx.now(), expectedMs, error: null, ...(traceShare === undefined ? {} : { traceShare }) };
  ctx.jobs.set(jobId, job);
  return job;
}

/** A block trace: `import-trace`, then the prediction, each with its progress (host/import-trace.ts). */
function startTrace(ctx: ImportContext, probe: string, r: ImportRequest): { jobId: string } {
  // the preview needs no cache size; the import predicts one
  if (r.prediction === undefined) throw new HostError('bad-request', 'A block trace import needs the cache to predict.');
  const dir = join(ctx.dataDir, 'imports');
  mkdirSync(dir, { recursive: true });
  const out = outPath(dir, r.files[0] ?? 'trace', new Date(ctx.now()));
  const job = newJob(ctx, 500 + (sizeOf(r.files) / ASSUMED_BYTES_PER_S) * 1000, TRACE_IMPORT_SHARE);
  const jobId = job.progress.jobId;
  void importAndPredict(probe, r, out, (percent) => {
    job.progress = { ...job.progress, percent: Math.max(job.progress.percent, Math.round(percent)), stage: 'predict' };
  }).then(
    () => { job.progress = { jobId, percent: 100, stage: 'done', done: true, capturePath: out }; },
    (e: unknown) => { job.error = e instanceof HostError ? e : new HostError('probe-failed', `import-trace: ${String(e)}`); },
  );
  return { jobId };
}

/** The fleet's figures computed by its server: `--fleet-summary` into the imports folder (a range and its connection; no switch, no roles). */
function startSummary(ctx: ImportContext, probe: string, prom: PrometheusRange): { jobId: string } {
  const dir = join(ctx.dataDir, 'imports');
  mkdirSync(dir, { recursive: true });
  const out = outPath(dir, `prometheus-${new URL(prom.url).hostname.replace(/[^\w-]+/gu, '-')}-fleet`, new Date(ctx.now()), '.json');
  // a few queries per day of range, each answered by the server in well under a second
  const job = newJob(ctx, 2000 + (prom.toMs - prom.fromMs) / 100_000);
  const jobId = job.progress.jobId;
  void runProbe(probe, fleetSummaryArgs(prom, out), IMPORT_TIMEOUT_MS).then(
    (o) => {
      if (o.code !== 0) {
        job.error = summaryRefused(o);
        return;
      }
      job.progress = { jobId, percent: 100, stage: 'done', done: true, capturePath: null, summaryPath: out };
    },
    (e: unknown) => {
      job.error = e instanceof HostError ? e : new HostError('probe-failed', `import --fleet-summary: ${String(e)}`);
    },
  );
  return { jobId };
}

/** A log (or a Prometheus range: one capture per host in a folder of their own, or one fleet capture) imported by the probe into a new capture. */
function startImport(ctx: ImportContext, probe: string, r: ImportRequest): { jobId: string } {
  if (isTraceKind(r.kind)) return startTrace(ctx, probe, r);
  const dir = join(ctx.dataDir, 'imports');
  mkdirSync(dir, { recursive: true });
  const prom = r.kind === 'prometheus' ? r.prometheus : undefined;
  if (prom?.summary === true) return startSummary(ctx, probe, prom);
  const stem = prom === undefined ? (r.files[0] ?? 'import') : `prometheus-${new URL(prom.url).hostname.replace(/[^\w-]+/gu, '-')}`;
  const out = outPath(dir, stem, new Date(ctx.now()), prom?.perHost === true ? '' : '.capture');
  const args = importCommand(r, out);
  const bytes = sizeOf([...r.files, ...(r.after ?? [])]);
  // a server's answers: a few seconds per host-day at a 15 s step
  const job = newJob(ctx, prom === undefined ? 500 + (bytes / ASSUMED_BYTES_PER_S) * 1000 : 3000 + (prom.toMs - prom.fromMs) / 20_000);
  const jobId = job.progress.jobId;
  void runProbe(probe, args, IMPORT_TIMEOUT_MS).then(
    (o) => {
      // 14: some hosts of a Prometheus fleet could not be read; the others were written (their notes name the rest)
      if (o.code !== 0 && o.code !== PROBE_EXIT.someHostsSkipped) {
        job.error = refused('import', o);
        return;
      }
      const w = JSON.parse(o.stdout) as { captures?: { host: string }[]; preview?: { hosts?: string[] } };
      const hosts = w.captures?.map((c) => c.host) ?? w.preview?.hosts ?? [];
      job.progress = prom?.perHost === true
        ? { jobId, percent: 100, stage: 'done', done: true, capturePath: null, captureDir: out, hosts }
        : { jobId, percent: 100, stage: 'done', done: true, capturePath: out, hosts };
    },
    (e: unknown) => {
      job.error = e instanceof HostError ? e : new HostError('probe-failed', `import: ${String(e)}`);
    },
  );
  return { jobId };
}

/** A job's progress: its error (thrown once), its end (given once), or an estimate while the probe runs. */
function jobProgress(ctx: ImportContext, jobId: string): ImportProgress {
  const job = ctx.jobs.get(jobId);
  if (job === undefined) throw new HostError('import-job-not-found', `No import job ${jobId} in this session.`);
  if (job.error !== null) {
    ctx.jobs.delete(jobId);
    throw job.error;
  }
  if (job.progress.done) {
    ctx.jobs.delete(jobId);
    return job.progress;
  }
  if (job.traceShare !== undefined) {
    // import-trace reports no progress: an estimate from the file's size, below the prediction's share
    if (job.progress.stage !== 'import') return job.progress;
    return { ...job.progress, percent: Math.min(job.traceShare - 1, Math.round(((ctx.now() - job.startedMs) / job.expectedMs) * (job.traceShare - 1))) };
  }
  // An estimate from the files' size while the probe runs (it reports no progress of its own), never 100 before it ends.
  const percent = Math.min(95, Math.round(((ctx.now() - job.startedMs) / job.expectedMs) * 95));
  return { ...job.progress, percent };
}

/** The `import.*` handlers: imports go to `<dataDir>/imports/`. */
export function importHandlers(opts: { probe: string | null; dataDir: string; now?: () => number }): ImportJobs {
  const ctx: ImportContext = { jobs: new Map<string, Job>(), now: opts.now ?? Date.now, dataDir: opts.dataDir };
  return {
    'import.preview': (r) => previewImport(opts.probe, r),
    'import.start': async (r) => startImport(ctx, needProbe(opts.probe), r),
    'import.progress': async ({ jobId }) => jobProgress(ctx, jobId),
  };
}
