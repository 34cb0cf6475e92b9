/**
 * The report channels of the contract: `report.preview` (the HTML the Export screen shows,
 * rebuilt from a cached analysis on every change), and export jobs (`report.start` →
 * `report.progress` until done) that write to a private temporary folder and hand the bytes
 * back to the renderer, which saves them (a Blob download). Jobs run one at a time per host.
 */
import { reportBug } from '../bugs.ts';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import { buildReportModel } from '@cacheproof/engine/report';
import type { ReportProgress, ReportRequest, RequestOf, ReplyOf } from '../../shared/contract.ts';
import { HostError } from '../errors.ts';
import { exportReport, intervalsCsvPath, type ReportFormat } from './export.ts';
import { renderHtml, REPORT_CSS } from './html.ts';
import { coverFrom, loadReport, tcoFor, type LoadedReport, type LoadOptions } from './input.ts';
import type { HostView } from '../analysis.ts';
import type { PdfPrinter } from './pdf.ts';
import { localizeTemplate } from '../../shared/i18n/template.ts';

export interface ReportServiceContext {
  /**
   * An analysis opened in this session, by its id: its capture and the analysis options it was
   * opened with. The report re-analyses with exactly these, so its figures are the view's.
   */
  analysisOf(analysisId: string): { path: string; options: AnalyzeOptions } | undefined;
  /** The session's view of a capture with those options (host/session.ts): the report draws from it instead of analysing again. */
  viewOf?: (path: string, options: AnalyzeOptions) => Promise<HostView>;
  appVersion: string;
  probeVersion: string | null;
  /** The Electron shell's printer (webContents.printToPDF); default headless Chromium. */
  printer?: PdfPrinter;
  /** The clock (tests pass a fixed one). */
  now?: () => number;
}

const MIME: Record<ReportFormat, string> = { pdf: 'application/pdf', html: 'text/html', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv' };

interface Job {
  state: ReportProgress;
  error: HostError | null;
  finishedMs: number | null;
}

/** How long a finished job's result is kept for the renderer to collect. */
const KEEP_MS = 10 * 60_000;

function fileStem(name: string): string {
  return basename(name).replace(/\.(capture|sqlite|db)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'report';
}

export function reportHandlers(ctx: ReportServiceContext): {
  'report.preview': (r: RequestOf<'report.preview'>) => Promise<ReplyOf<'report.preview'>>;
  'report.start': (r: RequestOf<'report.start'>) => Promise<ReplyOf<'report.start'>>;
  'report.progress': (r: RequestOf<'report.progress'>) => Promise<ReplyOf<'report.progress'>>;
} {
  const now = ctx.now ?? Date.now;
  const jobs = new Map<string, Job>();
  /** The last analysis loaded for previews (one: the one on screen), keyed by capture and options. */
  let cached: { key: string; loaded: Promise<LoadedReport> } | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const analysisOf = (analysisId: string): { path: string; options: AnalyzeOptions } => {
    const a = ctx.analysisOf(analysisId);
    if (a === undefined) throw new HostError('capture-not-found', `No analysis ${analysisId} is open in this session; open it again.`);
    return a;
  };

  const loadOptions = ({ path, options }: { path: string; options: AnalyzeOptions }, r: Omit<ReportRequest, 'format'>): LoadOptions => ({
    capturePath: path,
    ...(ctx.viewOf === undefined ? {} : { analysis: () => (ctx.viewOf as NonNullable<typeof ctx.viewOf>)(path, options) }),
    analyzeOptions: options,
    cover: coverFrom(r.cover),
    // The template's labels are written in the report's language (user-written labels are kept).
    scenario: r.scenario === null ? null : { json: localizeTemplate(r.scenario, r.lang), file: 'planner.tco.json' },
    appVersion: ctx.appVersion,
    probeVersion: ctx.probeVersion,
    generatedMs: now(),
  });

  const prune = (): void => {
    for (const [id, j] of jobs) if (j.finishedMs !== null && now() - j.finishedMs > KEEP_MS) jobs.delete(id);
  };

  return {
    'report.preview': async (r) => {
      const a = analysisOf(r.analysisId);
      const key = JSON.stringify([a.path, a.options]);
      if (cached === null || cached.key !== key) {
        const loaded = loadReport({ ...loadOptions(a, r), scenario: null });
        cached = { key, loaded };
        loaded.catch(() => {
          if (cached?.loaded === loaded) cached = null;
        });
      }
      const base = await cached.loaded;
      const o = loadOptions(a, r);
      const tco = o.scenario === null ? null : tcoFor(o.scenario, base.analysis, base.devices, basename(a.path), base.input.capture.sha256);
      const model = buildReportModel({ ...base.input, cover: o.cover, tco, generatedMs: o.generatedMs });
      return { html: renderHtml(model, r.lang, { css: 'none' }, ctx.appVersion), css: REPORT_CSS };
    },
    'report.start': async (r) => {
      prune();
      const a = analysisOf(r.analysisId);
      const path = a.path;
      const jobId = randomUUID();
      const job: Job = { state: { jobId, percent: 0, stage: 'open', done: false, files: null }, error: null, finishedMs: null };
      jobs.set(jobId, job);
      const run = async (): Promise<void> => {
        const dir = mkdtempSync(join(tmpdir(), 'cacheproof-report-'));
        try {
          const name = `${fileStem(path)}-report-${r.lang}.${r.format}`;
          const out = join(dir, name);
          const res = await exportReport(
            { format: r.format, lang: r.lang, paper: r.paper, out, load: loadOptions(a, r), ...(ctx.printer === undefined ? {} : { printer: ctx.printer }) },
            (percent, stage) => {
              job.state = { ...job.state, percent: Math.min(99, percent), stage };
            },
          );
          const files = res.files.map((f) => ({ name: basename(f), mime: MIME[r.format], base64: readFileSync(f).toString('base64') }));
          if (r.format === 'csv' && files.length === 2) files[1] = { ...(files[1] as (typeof files)[number]), name: basename(intervalsCsvPath(name)) };
          job.state = { jobId, percent: 100, stage: 'done', done: true, files };
        } catch (err) {
          if (!(err instanceof HostError)) reportBug('report.start (background export)', err);
          job.error = err instanceof HostError ? err : new HostError('internal', `The export failed: ${(err as Error).message}`);
          job.state = { ...job.state, done: true };
        } finally {
          job.finishedMs = now();
          rmSync(dir, { recursive: true, force: true });
        }
      };
      queue = queue.then(run, run);
      return { jobId };
    },
    'report.progress': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (job === undefined) throw new HostError('report-job-not-found', `There is no export job ${jobId}; start the export again.`);
      if (job.error !== null) {
        jobs.delete(jobId);
        throw job.error;
      }
      if (job.state.done) jobs.delete(jobId);
      return job.state;
    },
  };
}
