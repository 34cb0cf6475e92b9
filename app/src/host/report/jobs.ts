/**
 * The report channels of the contract: `report.preview` (the HTML the Export screen shows,
 * rebuilt from the session's analysis on every change), and export jobs (`report.start` →
 * `report.progress` until done) that write to a private temporary folder and keep the files
 * there for {@link KEEP_MS}: the renderer saves them straight from disk — the browser window
 * downloads them from the browser host ({@link reportFileOf}), the Electron app copies them
 * where the person chooses (`report.save`). The bytes never cross the contract. Jobs run one at
 * a time per host.
 */
import { reportBug } from '../bugs.ts';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { writeAtomicWith } from '../atomic-write.ts';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { buildReportModel, shortForm } from '@cacheproof/engine/report';
import type { ReportProgress, ReportRequest, RequestOf, ReplyOf } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { exportReport, intervalsCsvPath, type ExportRequest, type ReportFormat } from './export.ts';
import { isFleetReport } from './fleet.ts';
import { loadProfileReport } from './profile.ts';
import { renderHtml, REPORT_CSS } from './html.ts';
import { coverFrom, loadReport, tcoFor, type LoadedReport, type LoadOptions } from './input.ts';
import type { HostView } from '../analysis.ts';
import type { PdfPrinter } from './pdf.ts';
import { openReportSession, type CaptureSession } from './session.ts';
import { stampOf } from '../session.ts';

/** What a report is made of: a capture with its analysis options, one host of a fleet capture, and whether it is a workload profile's. */
export interface ReportTarget { path: string; options: AnalyzeOptions; host?: string; profile?: boolean }
import { localizeTemplate } from '../../shared/i18n/template.ts';

export interface ReportServiceContext {
  /**
   * An analysis opened in this session, by its id: its capture and the analysis options it was
   * opened with. The report re-analyses with exactly these, so its figures are the view's.
   */
  /** An open analysis's capture, or (`profile`) an open workload profile's: its report is the workload-profile report (report/profile.ts). */
  analysisOf(analysisId: string): ReportTarget | undefined;
  /** The session's view of a capture with those options (host/session.ts): the report draws from it instead of analysing again. */
  viewOf?: (path: string, options: AnalyzeOptions, host?: string) => Promise<HostView>;
  appVersion: string;
  probeVersion: string | null;
  /** The Electron shell's printer (webContents.printToPDF); default headless Chromium. */
  printer?: PdfPrinter;
  /** The clock (tests pass a fixed one). */
  now?: () => number;
  /** The Electron shell's Save dialog; absent in the browser host (its window downloads). */
  saveDialog?: SaveDialog;
}

const MIME: Record<ReportFormat, string> = { pdf: 'application/pdf', html: 'text/html', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' };

interface Job {
  state: ReportProgress;
  error: HostError | null;
  finishedMs: number | null;
  /** The job's private folder (removed when the job is forgotten). */
  dir: string | null;
  /** The finished files, by index: path on disk, name to save under, type. */
  files: { path: string; name: string; mime: string }[];
}

/** How long a finished job's files are kept for the renderer to save. */
export const KEEP_MS = 10 * 60_000;

/** Every job of this process by id (ids are random UUIDs), for the browser host's downloads. */
const allJobs = new Map<string, Job>();

/**
 * A finished export's file for the browser host's download route (`reportFileHref`): its path on
 * disk, the name to save it under and its type; null for an unknown job or index.
 */
export function reportFileOf(jobId: string, index: number): { path: string; name: string; mime: string } | null {
  return allJobs.get(jobId)?.files[index] ?? null;
}

/** Where the Electron shell asks the person to save a file: the chosen path, or null when they cancel. */
export type SaveDialog = (suggestedName: string, mime: string) => Promise<string | null>;

function fileStem(name: string): string {
  return basename(name).replace(/\.(capture|sqlite|db)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'report';
}

/** Copies a finished export to where the person chose, through the one atomic writer (HostError `report-cannot-write` when it cannot). */
async function saveCopy(from: string, target: string): Promise<void> {
  try {
    await writeAtomicWith(target, async (tmp) => {
      // into the reserved temporary file (r+: never created again after a stop removed it)
      await pipeline(createReadStream(from), createWriteStream(tmp, { flags: 'r+' }));
    });
  } catch (err) {
    throw new HostError('report-cannot-write', `Cannot save the report to ${target}: ${(err as Error).message}. Choose a folder you can write to, with free space.`);
  }
}

/** The report handlers' jobs: started one at a time in the background, each in a private folder kept until collected or older than {@link KEEP_MS}. */
interface JobRunner {
  jobs: Map<string, Job>;
  /** Runs one export in the background (one at a time), into a temporary folder kept until the job is collected. */
  startJob(name: string, format: ReportFormat, request: (out: string) => ExportRequest): string;
  /** Forgets a job and removes its folder. */
  forget(id: string, j: Job): void;
  /** Runs `fn` once the jobs started so far are done. */
  afterJobs(fn: () => void): void;
}

function jobRunner(ctx: ReportServiceContext, now: () => number): JobRunner {
  const jobs = new Map<string, Job>();
  let queue: Promise<unknown> = Promise.resolve();
  const forget = (id: string, j: Job): void => {
    jobs.delete(id);
    allJobs.delete(id);
    if (j.dir !== null) rmSync(j.dir, { recursive: true, force: true });
  };
  const prune = (): void => {
    for (const [id, j] of jobs) if (j.finishedMs !== null && now() - j.finishedMs > KEEP_MS) forget(id, j);
  };
  const startJob = (name: string, format: ReportFormat, request: (out: string) => ExportRequest): string => {
    prune();
    const jobId = randomUUID();
    const job: Job = { state: { jobId, percent: 0, stage: 'open', done: false, files: null }, error: null, finishedMs: null, dir: null, files: [] };
    jobs.set(jobId, job);
    allJobs.set(jobId, job);
    const run = (): Promise<void> => runJob(ctx, job, name, format, request).finally(() => { job.finishedMs = now(); });
    queue = queue.then(run, run);
    return jobId;
  };
  const afterJobs = (fn: () => void): void => {
    queue = queue.then(fn, fn);
  };
  return { jobs, startJob, forget, afterJobs };
}

/** One export job's work: the export into a fresh private folder, its files listed when done; a failure keeps the error and removes the folder. */
async function runJob(ctx: ReportServiceContext, job: Job, name: string, format: ReportFormat, request: (out: string) => ExportRequest): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-'));
  job.dir = dir;
  const jobId = job.state.jobId;
  try {
    const out = join(dir, name);
    const res = await exportReport({ ...request(out), ...(ctx.printer === undefined ? {} : { printer: ctx.printer }) }, (percent, stage) => {
      job.state = { ...job.state, percent: Math.min(99, percent), stage };
    });
    job.files = res.files.map((f, index) => ({ path: f, name: format === 'csv' && index === 1 ? basename(intervalsCsvPath(name)) : basename(f), mime: MIME[format] }));
    const files = job.files.map((f, index) => ({ name: f.name, mime: f.mime, sizeBytes: statSync(f.path).size, index }));
    job.state = { jobId, percent: 100, stage: 'done', done: true, files };
  } catch (err) {
    if (!(err instanceof HostError)) reportBug('report.start (background export)', err);
    job.error = err instanceof HostError ? err : new HostError('internal', `The export failed: ${(err as Error).message}`);
    job.state = { ...job.state, done: true };
    job.files = [];
    rmSync(dir, { recursive: true, force: true });
    job.dir = null;
  }
}

function sessionOrNone(sessionOf: (t: ReportTarget) => CaptureSession, t: ReportTarget): { session?: CaptureSession } {
  try {
    return { session: sessionOf(t) };
  } catch {
    return {};
  }
}

/** How a report of an open analysis is loaded: its capture, the session's analysis (or a profile's), the cover, the scenario in the report's language, the versions. */
function loadOptionsFor(ctx: ReportServiceContext, now: () => number, sessionOf: (t: ReportTarget) => CaptureSession): (t: ReportTarget, r: Omit<ReportRequest, 'format'>) => LoadOptions & { profile?: boolean } {
  return (t, r) => ({
    capturePath: t.path,
    // a capture that cannot be opened has no session: the export opens it and fails in its job, saying why
    ...sessionOrNone(sessionOf, t),
    // a profile has no analysis to reuse (no measure window): its report profiles the capture
    ...(t.profile === true ? { profile: true } : {}),
    analyzeOptions: t.options,
    ...(t.host === undefined ? {} : { host: t.host }),
    cover: coverFrom(r.cover),
    // The template's labels are written in the report's language (user-written labels are kept).
    // which one it is (edited in the Planner, or its unedited prefill) is said in the report
    scenario: r.scenario === null ? null
      : { json: localizeTemplate(r.scenario, r.lang), ...(r.scenarioOrigin === 'prefilled' ? { file: 'prefilled.tco.json', origin: 'prefilled' as const } : { file: 'planner.tco.json', origin: 'planner' as const }) },
    appVersion: ctx.appVersion,
    probeVersion: ctx.probeVersion,
    generatedMs: now(),
  });
}

/**
 * `report.preview`: the HTML of the report on screen. The last analysis loaded for previews is
 * kept (one: the one on screen), keyed by capture and options; a profile's is modelled each time.
 */
function previewHandler(ctx: ReportServiceContext, analysisOf: (id: string) => ReportTarget, loadOptions: ReturnType<typeof loadOptionsFor>): (r: RequestOf<'report.preview'>) => Promise<ReplyOf<'report.preview'>> {
  let cached: { key: string; loaded: Promise<LoadedReport> } | null = null;
  return async (r) => {
    const a = analysisOf(r.analysisId);
    if (a.profile === true) {
      // the workload-profile report, sized from the request's scenario (none: no sizing, TCO or decision block)
      const loaded = await loadProfileReport(loadOptions(a, r));
      loaded.close();
      return { html: renderHtml(r.form === 'short' ? shortForm(loaded.model) : loaded.model, r.lang, { css: 'none' }, ctx.appVersion), css: REPORT_CSS };
    }
    const key = JSON.stringify([a.path, a.options, a.host ?? null]);
    if (cached === null || cached.key !== key) {
      const loaded = loadReport({ ...loadOptions(a, r), scenario: null });
      cached = { key, loaded };
      loaded.catch(() => {
        if (cached?.loaded === loaded) cached = null;
      });
    }
    const base = await cached.loaded;
    const o = loadOptions(a, r);
    const tco = o.scenario === null || 'prefill' in o.scenario ? null : tcoFor(o.scenario, base.analysis, base.devices, basename(a.path), base.input.capture.sha256);
    const full = buildReportModel({ ...base.input, cover: o.cover, tco, generatedMs: o.generatedMs });
    const model = r.form === 'short' ? shortForm(full) : full;
    return { html: renderHtml(model, r.lang, { css: 'none' }, ctx.appVersion), css: REPORT_CSS };
  };
}

/**
 * The report session of the analysis on screen (report/session.ts): one kept, keyed by capture,
 * options, host, kind and the file's size and time (a prediction that wrote the capture gets a new
 * one), so that its preview and exports read and hash the capture once; the previous one is closed
 * once the exports started on it are done.
 */
function sessionKeeper(ctx: ReportServiceContext, afterJobs: (fn: () => void) => void): (t: ReportTarget) => CaptureSession {
  let kept: { key: string; session: CaptureSession } | null = null;
  return (t) => {
    const key = JSON.stringify([t.path, t.options, t.host ?? null, t.profile === true, stampOf(t.path)]);
    if (kept !== null && kept.key === key) return kept.session;
    const old = kept?.session;
    if (old !== undefined) afterJobs(() => old.close());
    const viewOf = ctx.viewOf;
    const session = openReportSession(t.path, {
      options: t.options, ...(t.host === undefined ? {} : { host: t.host }), ...(t.profile === true ? { profile: true } : {}),
      // a profile has no analysis to reuse (no measure window): its report profiles the capture
      ...(t.profile === true || viewOf === undefined ? {} : { analysis: () => viewOf(t.path, t.options, t.host) }),
    });
    kept = { key, session };
    return session;
  };
}

export function reportHandlers(ctx: ReportServiceContext): {
  'report.preview': (r: RequestOf<'report.preview'>) => Promise<ReplyOf<'report.preview'>>;
  'report.start': (r: RequestOf<'report.start'>) => Promise<ReplyOf<'report.start'>>;
  'fleet.report': (r: RequestOf<'fleet.report'>) => Promise<ReplyOf<'fleet.report'>>;
  'report.progress': (r: RequestOf<'report.progress'>) => Promise<ReplyOf<'report.progress'>>;
  'report.save': (r: RequestOf<'report.save'>) => Promise<ReplyOf<'report.save'>>;
} {
  const now = ctx.now ?? Date.now;
  const { jobs, startJob, forget, afterJobs } = jobRunner(ctx, now);
  const analysisOf = (analysisId: string): ReportTarget => {
    const a = ctx.analysisOf(analysisId);
    if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session; open it again.`);
    return a;
  };
  const loadOptions = loadOptionsFor(ctx, now, sessionKeeper(ctx, afterJobs));
  return {
    'report.preview': previewHandler(ctx, analysisOf, loadOptions),
    'report.start': async (r) => {
      const a = analysisOf(r.analysisId);
      const short = r.form === 'short' && (r.format === 'pdf' || r.format === 'html');
      return { jobId: startJob(`${fileStem(a.path)}-report-${short ? 'short-' : ''}${r.lang}.${r.format}`, r.format, (out) => ({ format: r.format, ...(short ? { form: 'short' as const } : {}), lang: r.lang, paper: r.paper, out, load: loadOptions(a, r) })) };
    },
    'fleet.report': async (r) => {
      const path = resolve(r.path);
      if (!isFleetReport({ capturePath: path })) throw new HostError('fleet-not-found', `${path} is not a fleet with no switch (a folder of captures, or a fleet capture with no measure window): it has no fleet report.`);
      const load: LoadOptions = { capturePath: path, cover: {}, scenario: null, appVersion: ctx.appVersion, probeVersion: ctx.probeVersion, generatedMs: now() };
      return { jobId: startJob(`${fileStem(path)}-fleet-report-${r.lang}.${r.format}`, r.format, (out) => ({ format: r.format, lang: r.lang, paper: r.paper, out, load })) };
    },
    'report.progress': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (job === undefined) throw new HostError('report-job-not-found', `There is no export job ${jobId}; start the export again.`);
      if (job.error !== null) {
        forget(jobId, job);
        throw job.error;
      }
      // a finished job stays (with its files) until it is older than KEEP_MS: the renderer saves from it
      return job.state;
    },
    'report.save': async ({ jobId, index }) => {
      const file = jobs.get(jobId)?.files[index];
      if (file === undefined) throw new HostError('report-job-not-found', `There is no finished export ${jobId} with a file ${index}; start the export again.`);
      if (ctx.saveDialog === undefined) throw new HostError('not-supported', 'The browser window downloads the file instead: use its link.');
      const target = await ctx.saveDialog(file.name, file.mime);
      if (target === null) return { path: null };
      await saveCopy(file.path, target);
      return { path: target };
    },
  };
}
