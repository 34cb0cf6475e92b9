/**
 * The Import screen's part of the contract (app/src/shared/contract.ts re-exports it): what the
 * renderer asks the probe to import, what the preview shows, and an import job's progress
 * (docs/ipc.md, `import.*`).
 */
import { z } from 'zod';
import { DeviceRoleSchema } from './analysis-schema.ts';
import { PredictionChoice } from './contract-predict.ts';

/** The counter-log formats the Import screen offers (`cacheproof-probe import KIND`, docs/import.md); `prometheus` reads a server, not files. */
export const LOG_KINDS = ['perfmon', 'esxtop', 'iostat', 'iostat-json', 'sar', 'sadf', 'diskstats', 'node-exporter', 'prometheus'] as const;
/**
 * The block-trace formats it offers (`cacheproof-probe import-trace KIND FILE`, docs/simulate.md):
 * Windows' own exports of its disk requests (WPA Disk Usage CSV, `xperf -a dumper`, `tracerpt` CSV,
 * PerfView's text dump), then Linux and public traces. One file each; the import predicts a cache.
 */
export const TRACE_KINDS = ['wpa', 'xperf', 'tracerpt', 'traceevent', 'blkparse', 'msr', 'cloudphysics', 'msn', 'disksim', 'oracle-general'] as const;
export const IMPORT_KINDS = [...LOG_KINDS, ...TRACE_KINDS] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export type TraceKind = (typeof TRACE_KINDS)[number];

/** Whether `kind` is a block trace (`import-trace`), not a counter log (`import`). */
export function isTraceKind(kind: string): kind is TraceKind {
  return (TRACE_KINDS as readonly string[]).includes(kind);
}

const ImportPath = z.string().min(1).max(4096);

/**
 * A range of a Prometheus server (`cacheproof-probe import prometheus`, docs/import.md): the
 * URL, the host selector (PromQL label matchers), the range (UTC ms), the step (default: the
 * scrape interval), one capture per host or one fleet capture or the fleet's figures computed
 * by the server, and how to reach the server —
 * the CA to trust, no check, basic auth or a bearer token whose secret is read from a file (or
 * the probe's environment), never carried here.
 */
export const PrometheusRange = z.object({
  url: z.string().min(1).max(2048).regex(/^https?:\/\//u),
  hosts: z.string().max(2048).optional(),
  fromMs: z.number().int(),
  toMs: z.number().int(),
  stepS: z.number().positive().max(86_400).optional(),
  perHost: z.boolean(),
  /**
   * The fleet's figures computed by the server instead of every series pulled (`import prometheus
   * --fleet-summary FILE`: PromQL pushdown, docs/import.md § Fleet summary; node_exporter hosts
   * only): `perHost` is then not used, and the job ends with `summaryPath`.
   */
  summary: z.boolean().optional(),
  caFile: ImportPath.optional(),
  insecure: z.boolean().optional(),
  user: z.string().min(1).max(256).optional(),
  passwordFile: ImportPath.optional(),
  tokenFile: ImportPath.optional(),
}).strict();
export type PrometheusRange = z.infer<typeof PrometheusRange>;

/**
 * What the Import screen asks for: the format, the files (one collection, stitched in time order),
 * and either `after` files (before/after from two collections: `files` is the baseline, `after` the
 * measure window) or a `switchAtMs` inside the files (UTC ms), or neither (the whole log is a baseline).
 * For `prometheus`, no files: the `prometheus` range.
 */
export const ImportRequest = z.object({
  kind: z.enum(IMPORT_KINDS),
  files: z.array(ImportPath).max(64),
  prometheus: PrometheusRange.optional(),
  after: z.array(ImportPath).max(64).optional(),
  switchAtMs: z.number().int().optional(),
  /** Roles changed from the proposed ones (`--role NAME=ROLE`): the preview's pairing is the probe's proposal, the person may change it. */
  roles: z.array(z.object({ device: z.string().min(1).max(256), role: DeviceRoleSchema }).strict()).max(256).optional(),
  /** A block trace's import (`TRACE_KINDS`): the cache to predict once imported (`cacheproof-probe predict --store`). */
  prediction: PredictionChoice.optional(),
  /** A block trace whose times count from its start: when it started (UTC ms; `import-trace --start`). */
  traceStartMs: z.number().int().optional(),
  /** The logs' offset from UTC, minutes (local − UTC), when they do not say it or say it wrong (`--utc-offset`): a PerfMon header cut before its zone. */
  utcOffsetMin: z.number().int().min(-16 * 60).max(16 * 60).optional(),
  /** The report interval, s (`--interval`): iostat without -t has no times. */
  intervalS: z.number().positive().max(86_400).optional(),
  /** The first report's time, UTC ms (`--start`): iostat without -t. */
  startMs: z.number().int().optional(),
}).strict().superRefine((r, ctx) => {
  if (r.traceStartMs !== undefined && !isTraceKind(r.kind)) ctx.addIssue({ code: 'custom', message: 'only a block trace import takes the trace\'s start' });
  if (isTraceKind(r.kind)) {
    // one trace file, nothing of a counter log's; the cache to predict is the import's, not the
    // preview's (what the trace holds does not depend on it): the host refuses an import without it
    if (r.files.length !== 1 || r.after !== undefined || r.switchAtMs !== undefined || r.roles !== undefined || r.prometheus !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'a block trace import takes one file, and no after files, switch time, roles or prometheus range' });
    }
    return;
  }
  if (r.prediction !== undefined) ctx.addIssue({ code: 'custom', message: 'only a block trace import predicts a cache' });
  if (r.kind === 'prometheus' ? r.prometheus === undefined || r.files.length > 0 : r.files.length === 0 || r.prometheus !== undefined) {
    ctx.addIssue({ code: 'custom', message: r.kind === 'prometheus' ? 'a Prometheus import takes the prometheus range and no files' : 'an import of files takes at least one file and no prometheus range' });
  }
});
export type ImportRequest = z.infer<typeof ImportRequest>;

/** A sentence of the probe as a code with values (native/crates/import/src/said.rs; catalog i18n/probe-said.ts). */
export interface Said { code: string; values: Record<string, SaidValue> }
/** A value: a name or path as written, a number, another sentence, or a list of them. */
export type SaidValue = string | number | Said | Said[];
export const Said: z.ZodType<Said> = z.lazy(() => z.object({
  code: z.string().max(64),
  values: z.record(z.string(), z.union([z.string(), z.number(), Said, z.array(Said).max(256)])),
}));

/**
 * Every sentence of a preview as a code with values (docs/import.md "Preview JSON", `said`), each
 * list in the order of the English one it stands for. Absent from a block trace's preview.
 */
export const PreviewSaid = z.object({
  files: z.array(z.object({ timeZoneSource: Said, encodingHow: Said })),
  devices: z.array(Said),
  phases: z.array(Said),
  stack: z.array(Said),
  unmapped: z.array(z.object({ what: Said, why: Said })),
  notes: z.array(Said),
  needs: z.array(Said),
});
export type PreviewSaid = z.infer<typeof PreviewSaid>;

/** What the probe recognized (`cacheproof-probe import --preview … --json`, docs/import.md "Preview JSON"), as the screen shows it. */
export const ImportPreview = z.object({
  kind: z.enum(IMPORT_KINDS),
  files: z.array(z.object({
    name: z.string(),
    path: z.string(),
    sizeBytes: z.number(),
    format: z.string(),
    encoding: z.string(),
    timeZone: z.string().nullable(),
    utcOffsetMin: z.number().nullable(),
    timeZoneSource: z.string(),
    part: z.enum(['all', 'baseline', 'measure']),
    hosts: z.array(z.string()),
    samples: z.number(),
  })),
  hosts: z.array(z.string()),
  devices: z.array(z.object({ name: z.string(), role: DeviceRoleSchema, reason: z.string(), on: z.string().nullable(), host: z.string().nullable().optional() })),
  /**
   * The device stack (docs/import.md "What is counted"): each holder sits on the device `on`; `kind`
   * says how it is known (English, from the probe: `partition`, `from the numbers`, …). Only one
   * layer is counted: a holder and the device under it are never both counted.
   */
  stack: z.array(z.object({ holder: z.string(), on: z.string(), kind: z.string() })),
  timeRange: z.object({ startUtcMs: z.number(), endUtcMs: z.number() }).nullable(),
  /** Median step between samples, ms. */
  intervalMs: z.number().nullable(),
  /** Device-intervals the capture would hold. */
  intervals: z.number(),
  phases: z.array(z.object({ name: z.string(), startUtcMs: z.number(), endUtcMs: z.number() })),
  /** Source counters (columns, metrics) found and the capture figure each feeds. */
  counters: z.array(z.object({ source: z.string(), field: z.string() })),
  /** What was found but not imported, and why (English, from the probe). */
  unmapped: z.array(z.object({ what: z.string(), why: z.string() })),
  /** Warnings and facts worth a sentence (English, from the probe). */
  notes: z.array(z.string()),
  /** What must be given before importing (English, from the probe). */
  needs: z.array(z.string()),
  ready: z.boolean(),
  /**
   * A partial log (queue length or busy time only): what it has and lacks, in codes, and what a
   * profile needs with the commands that log it (the source's own names). Such a log cannot be
   * analysed, so the app refuses it in the preview (`analysable` false) with the reason.
   */
  partial: z.object({
    has: z.enum(['busy-queue', 'busy', 'queue', 'times']),
    missing: z.array(z.enum(['reads', 'writes', 'bytes', 'times', 'busy', 'queue'])),
    needed: z.string(),
    commands: z.array(z.string()),
  }).nullable().optional(),
  analysable: z.boolean().optional(),
  /** The sentences above as codes with values, which the screen translates (the English stays for the CLI). */
  said: PreviewSaid.optional(),
  /**
   * A block trace's preview (`import-trace KIND FILE --json` into a file that is then removed): the
   * records read, the requests kept, those skipped by reason with the first examples (line, column:
   * reason, English from the probe), the devices and the flushes (kept, not simulated). Absent for a log.
   */
  trace: z.object({
    records: z.number(),
    imported: z.number(),
    skipped: z.number(),
    skippedByReason: z.record(z.string(), z.number()),
    skippedExamples: z.array(z.object({ line: z.number(), column: z.string(), reason: z.string() })),
    devices: z.array(z.string()),
    flushes: z.number(),
    /** From the first request to the last completion, ms; null without requests. */
    spanMs: z.number().nullable(),
    /** The first and last request's UTC times, ms, when the trace carries UTC times or its start was given. */
    firstUtcMs: z.number().nullable(),
    lastUtcMs: z.number().nullable(),
  }).optional(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

/** Stages of an import job, in order. */
export const IMPORT_STAGES = ['import', 'predict', 'done'] as const;

/** An import job's state; once done, the capture written (open it with `analysis.openCapture`). */
export const ImportProgress = z.object({
  jobId: z.string(),
  percent: z.number().min(0).max(100),
  stage: z.enum(IMPORT_STAGES),
  done: z.boolean(),
  capturePath: z.string().nullable(),
  /** A Prometheus import of one capture per host: the folder of the captures (open it with `fleet.open`). */
  captureDir: z.string().nullable().optional(),
  /** A fleet summary computed by the server (`PrometheusRange.summary`): the `.json` file written (open it with `fleet.open`). */
  summaryPath: z.string().nullable().optional(),
  /** The hosts imported (several: a fleet, opened with `fleet.open`). */
  hosts: z.array(z.string()).optional(),
});
export type ImportProgress = z.infer<typeof ImportProgress>;
