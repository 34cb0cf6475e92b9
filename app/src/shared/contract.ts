/**
 * The one contract between the UI and the host: every channel, its request schema and its
 * reply schema. Both shells (Electron IPC in app/src/main + preload, and the loopback HTTP
 * browser host) carry exactly this map; nothing else crosses the boundary.
 * Documented in docs/ipc.md.
 */
import { z } from 'zod';
import { CALENDAR_DATE_RANGE, isCalendarDateText } from './calendar.ts';
import { AnalysisReportSchema, DeviceRoleSchema, WorkloadProfileSchema } from './analysis-schema.ts';
import { PredictionChoice, PredictJobState, PredictRequest, RunPrediction } from './contract-predict.ts';
import { RunTrace, TraceBudgetBytes } from './contract-trace.ts';

const Empty = z.object({}).strict();

export const AppInfo = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  probeVersion: z.string().nullable(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** Headline figures are the engine's `analyze` JSON (docs/analyze-json.md), checked field by field against the engine's type (analysis-schema.ts). */
export const AnalysisView = z.object({
  /** Stable id of the analysis in this session (hash of the capture path). */
  id: z.string(),
  /** Human name (file name without extension, or the sample's title). */
  name: z.string(),
  captureFile: z.string(),
  captureSha256: z.string().nullable(), // null in an open's reply sent before the file is hashed (host services wait for it)
  host: z.object({ hostname: z.string().nullable(), kernel: z.string().nullable() }),
  sampleIntervalMs: z.number().nullable(),
  isSample: z.boolean(),
  /** The engine's analyze output, as `cacheproof analyze --json` prints it. */
  result: AnalysisReportSchema,
  /** Per-device time series for charts (already decimated by the host when long). */
  series: z.array(
    z.object({
      device: z.string(),
      role: DeviceRoleSchema,
      /** Interval end times, UTC epoch ms. */
      t: z.array(z.number()),
      iops: z.array(z.number().nullable()),
      latencyMs: z.array(z.number().nullable()),
      mbps: z.array(z.number().nullable()),
    }),
  ),
  /** Front and backing groups, each summed over its devices per time bucket (host/series.ts); absent from older hosts. */
  groupSeries: z.array(
    z.object({
      group: z.enum(['front', 'backing']),
      devices: z.array(z.string()),
      /** Bucket end times, UTC epoch ms. */
      t: z.array(z.number()),
      iops: z.array(z.number().nullable()),
      readIops: z.array(z.number().nullable()),
      writeIops: z.array(z.number().nullable()),
      latencyMs: z.array(z.number().nullable()),
      mbps: z.array(z.number().nullable()),
      /** Average queue size (aqu-sz, requests): Σ weighted ms ÷ Σ Δt ms per device, added over the group; absent from older hosts. */
      aquSz: z.array(z.number().nullable()).optional(),
    }),
  ).optional(),
  phases: z.array(z.object({ name: z.string(), startMs: z.number(), endMs: z.number().nullable() })),
  /** True when the host answered from its cache of finished analyses (the capture file unchanged since); absent from older hosts. */
  fromCache: z.boolean().optional(),
});
export type AnalysisView = z.infer<typeof AnalysisView>;

/**
 * The baseline alone as a workload profile (`run.openProfile`): for a run stopped before the
 * switch. `profile` is the engine's `WorkloadProfile` (engine/src/benefit/profile.ts): the window,
 * the devices, window summaries of the application-facing group, the backing group and each
 * device. No before/after figure.
 */
export const ProfileView = z.object({
  id: z.string(),
  name: z.string(),
  captureFile: z.string(),
  captureSha256: z.string(),
  host: z.object({ hostname: z.string().nullable(), kernel: z.string().nullable() }),
  sampleIntervalMs: z.number().nullable(),
  profile: WorkloadProfileSchema,
  series: AnalysisView.shape.series,
  /** The front and backing group lines (host/series.ts): the profile screen's charts. */ groupSeries: AnalysisView.shape.groupSeries,
  phases: AnalysisView.shape.phases,
});
export type ProfileView = z.infer<typeof ProfileView>;

export { PlanSource, ScenarioDraft } from './contract-plan.ts';

/** One block device as the probe's `devices --json` reports it (docs/probe.md), for the wizard's Devices step. */
export const DeviceEntry = z.object({
  name: z.string(),
  /** "major:minor". */
  majMin: z.string(),
  sizeBytes: z.number().nullable(),
  /** From sysfs: rotational → hdd; nvme* → nvme; loop* → loop; otherwise ssd when not rotational. */
  kind: z.enum(['hdd', 'ssd', 'nvme', 'loop', 'other']),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  isPartition: z.boolean(),
  parent: z.string().nullable(),
  slaves: z.array(z.string()),
  holders: z.array(z.string()),
  /** A loop device's backing file and the device that file lives on. */
  backingFile: z.string().nullable(),
  backingFileDevice: z.string().nullable(),
  /** The probe's guess for cache setups. */
  role: z.enum(['front', 'backing', 'cache', 'other']),
  roleReason: z.string().nullable(),
});
export type DeviceEntry = z.infer<typeof DeviceEntry>;

/** Cache-engine adapters the probe can drive (docs/adapters.md), `manual` aside. */
export const ENGINE_ADAPTERS = ['loop-dio', 'bcache', 'lvmcache', 'dm-cache', 'opencas', 'command'] as const;
export type EngineAdapter = (typeof ENGINE_ADAPTERS)[number];

/** The engine's device as the adapter names it (`loop5`, `bcache0`, `vg0/data`, `cas1-1`). */
const EngineDeviceName = z.string().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._:+/-]*$/, 'must be a device name such as loop5, bcache0, vg0/data or cas1-1');

/**
 * How the cache is switched: `manual` (the person switches, the app records the moment), or an
 * adapter that the probe runs itself at the end of the baseline (`record --switch ADAPTER[:CONFIG]
 * --engine-device DEVICE [--restore]`): the schedule is the plan's baseline.
 */
export const RunSwitch = z.union([
  z.object({ kind: z.literal('manual') }).strict(),
  z.object({
    kind: z.literal('adapter'),
    adapter: z.enum(ENGINE_ADAPTERS),
    device: EngineDeviceName,
    /** The `command` adapter's config file (docs/adapters.md § Config file), absolute; null for the others. */
    config: z.string().min(1).max(4096).nullable(),
    /** Bring the engine back to its original mode once the plan is done. */
    restore: z.boolean(),
  }).strict(),
]);
export type RunSwitch = z.infer<typeof RunSwitch>;

/** One engine `cacheproof-probe engine detect --json` found. */
export const DetectedEngine = z.object({ adapter: z.string(), device: z.string(), mode: z.string(), description: z.string() });
export type DetectedEngine = z.infer<typeof DetectedEngine>;

/** What the adapter would do (the dry run, `cacheproof-probe engine plan --json`): nothing is changed. */
export const EnginePlan = z.object({
  adapter: z.string(),
  device: z.string(),
  /** The engine's mode now, in its own word (`direct-io`, `writeback`, `pt`). */
  mode: z.string(),
  plans: z.array(z.object({ action: z.string(), to: z.string(), steps: z.array(z.string()) })),
});
export type EnginePlan = z.infer<typeof EnginePlan>;

/** The request of `engine.plan`: the adapter, its device, and the `command` adapter's config file. */
export const EngineChoice = z.object({ adapter: z.enum(ENGINE_ADAPTERS), device: EngineDeviceName, config: z.string().min(1).max(4096).nullable() }).strict();
export type EngineChoice = z.infer<typeof EngineChoice>;

/** A run's engine as the probe reports it (`status --json` `engine`) with the last step it ran (`engine_actions`). */
export const RunEngine = z.object({
  adapter: z.string(),
  device: z.string(),
  /** The engine's mode as last read (null when unknown). */
  mode: z.string().nullable(),
  originalMode: z.string().nullable(),
  switch: z.enum(['planned', 'pending', 'done', 'failed']),
  restore: z.enum(['planned', 'pending', 'done', 'failed']).nullable(),
  /** The adapter's sentence after a failed switch or restore (English). */
  error: z.string().nullable(),
  lastAction: z.object({
    atMs: z.number(), action: z.string(), step: z.string(), ok: z.boolean(), exitStatus: z.number().nullable(),
    modeBefore: z.string().nullable(), modeAfter: z.string().nullable(),
  }).nullable(),
});
export type RunEngine = z.infer<typeof RunEngine>;

/** What the wizard asks the probe to do (durations in seconds; 0 warm-up allowed). */
export const RunPlan = z.object({
  name: z.string().min(1).max(200),
  front: z.string().min(1).max(64).nullable(),
  backing: z.array(z.string().min(1).max(64)).max(64),
  baselineSeconds: z.number().int().min(1).max(30 * 86400),
  warmupSeconds: z.number().int().min(0).max(30 * 86400),
  measureSeconds: z.number().int().min(1).max(30 * 86400),
  intervalMs: z.number().int().min(1000).max(3600_000),
  /** How the cache is switched: `manual`, or an adapter the probe runs at the end of the baseline. */
  switch: RunSwitch,
  /** Latency targets preset for health grading (engine presets), or `custom` with {@link RunPlan.customTargets}. */
  targets: z.string().min(1).max(64),
  /** The wizard's custom targets (ms, each > 0 and ≤ 60 000; the warning level below both targets), when `targets` is `custom`. */
  customTargets: z.object({
    readMs: z.number().gt(0).max(60_000),
    writeMs: z.number().gt(0).max(60_000),
    warnMs: z.number().gt(0).max(60_000).optional(),
  }).strict().optional(),
  /**
   * Also record a block trace of the chosen devices: every request (offset, size, read/write,
   * response time), `cacheproof-probe record --trace` (root and tracefs; docs/probe.md).
   * Absent in runs started before the option existed: no trace.
   */
  trace: z.boolean().optional(),
  /** With `trace`: its size budget per 24 h, or null for every request (contract-trace.ts). */ traceBudgetBytes: TraceBudgetBytes,
  /** With the trace: the cache predicted from the baseline's trace when the baseline ends (the supervisor runs `predict --store`). */
  prediction: PredictionChoice.optional(),
}).strict().refine((p) => p.prediction === undefined || p.trace === true, { message: 'a prediction needs the block trace', path: ['prediction'] }).refine((p) => p.targets !== 'custom' || p.customTargets !== undefined, { message: 'targets "custom" needs customTargets', path: ['customTargets'] })
  .refine((p) => p.customTargets?.warnMs === undefined || p.customTargets.warnMs < Math.min(p.customTargets.readMs, p.customTargets.writeMs), { message: 'the warning level must be below both targets', path: ['customTargets', 'warnMs'] });
export type RunPlan = z.infer<typeof RunPlan>;

/** A run's phase as the probe reports it (docs/probe.md): the planned phases, then `done`. */
export const RUN_PHASES = ['baseline', 'switch', 'warmup', 'measure', 'done'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

/** A run started from the wizard (or found on disk): the probe's status plus what the app knows. */
export const RunStatus = z.object({
  id: z.string(),
  name: z.string(),
  captureFile: z.string(),
  /** running · waiting-switch (manual switch due) · done · stopped · probe-died · failed */
  state: z.enum(['starting', 'running', 'waiting-switch', 'done', 'stopped', 'probe-died', 'failed']),
  phase: z.enum(RUN_PHASES),
  phasePercent: z.number().nullable(),
  phaseEtaSeconds: z.number().nullable(),
  totalPercent: z.number().nullable(),
  totalEtaSeconds: z.number().nullable(),
  samples: z.number(),
  lastSampleMs: z.number().nullable(),
  startedMs: z.number().nullable(),
  plan: RunPlan,
  warnings: z.array(z.object({ utcMs: z.number(), code: z.string(), device: z.string().nullable(), message: z.string() })),
  /** Headline I/Os saved once the run is done and analysed; null before. */
  iosSavedPercent: z.number().nullable(),
  /** The probe's own sentence when the recorder failed or died (English, for logs and the details line). */
  error: z.string().nullable(),
  /** The probe's next step (e.g. `cacheproof-probe record --resume CAPTURE`), English. */
  hint: z.string().nullable(),
  /** When the person confirmed the manual switch (UTC ms, the `switch` mark); null before. */
  switchMs: z.number().nullable(),
  /** The block trace so far (contract-trace.ts), or null when the run does not trace. */
  trace: RunTrace.nullable(),
  /** The cache engine the probe switches (runs with an adapter), or null (manual switch). */
  engine: RunEngine.nullable(),
  /** The prediction from the baseline's trace the plan asks for, or null when it asks for none. */
  prediction: RunPrediction.nullable(),
});
export type RunStatus = z.infer<typeof RunStatus>;

/** Live chart points since a time: per device, interval end times (UTC ms) and iostat figures. */
export const LiveSeries = z.object({
  series: z.array(z.object({
    device: z.string(),
    role: DeviceRoleSchema,
    t: z.array(z.number()),
    iops: z.array(z.number().nullable()), mbps: z.array(z.number().nullable()), latencyMs: z.array(z.number().nullable()),
    /** Means over the hour shown (the engine's window summary, ratio of sums: IOPS, MB/s, await ms); null without data. */
    means: z.object({ iops: z.number().nullable(), mbps: z.number().nullable(), latencyMs: z.number().nullable() }),
  })),
  phases: z.array(z.object({ name: z.string(), startMs: z.number(), endMs: z.number().nullable() })),
});
export type LiveSeries = z.infer<typeof LiveSeries>;

const RunRef = z.object({ runId: z.string().min(1).max(64) }).strict();

/**
 * The cover of a proof-of-concept report, as the person types it (docs/report.md): every field
 * optional, shown verbatim (escaped). `date` is the "prepared on" day, `YYYY-MM-DD`.
 */
export const ReportCover = z.object({
  title: z.string().max(200).optional(),
  customer: z.string().max(200).optional(),
  server: z.string().max(200).optional(),
  author: z.string().max(200).optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD').refine(isCalendarDateText, `must be ${CALENDAR_DATE_RANGE}, written YYYY-MM-DD`).optional(),
}).strict();
export type ReportCover = z.infer<typeof ReportCover>;

/** What the Export screen asks for: an analysis of this session, language, format, paper, cover, and a TCO scenario to include. */
export const ReportRequest = z.object({
  analysisId: z.string().min(1).max(64),
  lang: z.enum(['en', 'fr', 'es', 'ru']),
  format: z.enum(['pdf', 'html', 'xlsx', 'csv', 'pptx']),
  paper: z.enum(['a4', 'letter']),
  /** `full` (default) or `short`: the two pages for managers (PDF and HTML only; docs/report.md). */
  form: z.enum(['full', 'short']).optional(),
  cover: ReportCover,
  /** A TCO scenario (checked with the engine's parseScenario and against the capture), or null for no TCO section; its origin, edited in the Planner (default) or the Planner's unedited prefill, is said in the report. */
  scenario: z.looseObject({}).nullable(), scenarioOrigin: z.enum(['planner', 'prefilled']).optional(),
}).strict();
export type ReportRequest = z.infer<typeof ReportRequest>;

/**
 * One file of a finished export. Its bytes never cross the contract: the host keeps the file
 * (10 minutes) and the renderer saves it straight from disk — in the browser window by the link
 * {@link reportFileHref} (a download), in the Electron app with `report.save` (a Save dialog).
 */
export const ReportFile = z.object({ name: z.string(), mime: z.string(), sizeBytes: z.number().int().nonnegative(), index: z.number().int().nonnegative() });
export type ReportFile = z.infer<typeof ReportFile>;

/** Where the browser host serves a finished export's file (GET, same session cookie; a download). */
export function reportFileHref(jobId: string, index: number): string {
  return `/download/report/${encodeURIComponent(jobId)}/${index}`;
}

/** The job and file index of a {@link reportFileHref} path, or null for any other path. */
export function parseReportFileHref(pathname: string): { jobId: string; index: number } | null {
  const m = /^\/download\/report\/([A-Za-z0-9-]{1,64})\/([0-8])$/.exec(pathname);
  return m === null ? null : { jobId: m[1] as string, index: Number(m[2]) };
}

/** Stages of an export job, in order (the progress bar names them). */
export const REPORT_STAGES = ['open', 'hash', 'analyze', 'model', 'render', 'print', 'write', 'done'] as const;
export type ReportStage = (typeof REPORT_STAGES)[number];

/** An export job's state: stage and percent while it runs, the files once done. */
export const ReportProgress = z.object({
  jobId: z.string(),
  percent: z.number().min(0).max(100),
  stage: z.enum(REPORT_STAGES),
  done: z.boolean(),
  files: z.array(ReportFile).nullable(),
});
export type ReportProgress = z.infer<typeof ReportProgress>;

/**
 * Which analysis a progress or cancel call is about: a capture by the path given to
 * `analysis.openCapture`, the bundled sample, or a run (as `run.open` opens it).
 */
export const AnalysisTarget = z.union([
  z.object({ path: z.string().min(1).max(4096), host: z.string().min(1).max(512).optional() }).strict(),
  z.object({ sample: z.literal(true) }).strict(),
  z.object({ runId: z.string().min(1).max(64) }).strict(),
]);
export type AnalysisTarget = z.infer<typeof AnalysisTarget>;

/** Where an analysis being computed is: reading the capture (rows read of about `total`), then analysing (devices done of `total`). */
export const AnalysisProgress = z.object({ stage: z.enum(['read', 'analyze']), done: z.number().nonnegative(), total: z.number().nonnegative() });
export type AnalysisProgress = z.infer<typeof AnalysisProgress>;
export { IMPORT_KINDS, IMPORT_STAGES, ImportPreview, ImportProgress, ImportRequest, isTraceKind, LOG_KINDS, PreviewSaid, PrometheusRange, Said, TRACE_KINDS, type ImportKind, type SaidValue, type TraceKind } from './contract-import.ts';
import { ImportPreview, ImportProgress, ImportRequest } from './contract-import.ts';
export { FleetAggregate, FleetFigures, FleetProgress, FleetReportRequest, FleetRequest, FleetRow, FleetView } from './contract-fleet.ts';
import { FLEET_CHANNELS } from './contract-fleet.ts';
import { PLAN_CHANNELS } from './contract-plan.ts';

/** A capture to open, and within a fleet capture (meta `fleet`) the host whose devices alone are analysed. */
const CaptureScope = z.object({ path: z.string().min(1).max(4096), host: z.string().min(1).max(512).optional() }).strict();
export { CACHE_DEVICE_IDS, CACHE_DEVICE_PRESETS, CACHE_POLICIES, PREDICT_STAGES, PredictionChoice, PredictRequest, RunPrediction, type CacheDevicePreset, type CacheDeviceId, type CachePolicy, type PredictStage } from './contract-predict.ts';

/** A prediction job's progress; once done, the analysis of the capture with its new prediction. */
export const PredictProgress = PredictJobState.extend({ view: AnalysisView.nullable() });
export type PredictProgress = z.infer<typeof PredictProgress>;

/** Channel map: name → request and reply schemas. */
export const CHANNELS = {
  'app.info': { request: Empty, reply: AppInfo },
  'analysis.openSample': { request: Empty, reply: AnalysisView },
  /** A capture's analysis; with `host`, that host's devices of a fleet capture alone, as its own capture would be analysed. */
  'analysis.openCapture': {
    request: CaptureScope,
    reply: AnalysisView,
  },
  /** A capture's baseline (its whole time when it has no switch: an imported log with no switch) alone, as a workload profile; `host` as for openCapture. */
  'analysis.openProfile': {
    request: CaptureScope,
    reply: ProfileView,
  },
  ...FLEET_CHANNELS,
  /** Where the analysis of a capture being opened is (null when none is being computed: not started, done, or failed). */
  'analysis.progress': { request: AnalysisTarget, reply: z.object({ progress: AnalysisProgress.nullable() }) },
  /** Stops the analysis of a capture being opened: its open call fails with `analysis-cancelled`; false when none was running. */
  'analysis.cancel': { request: AnalysisTarget, reply: z.object({ cancelled: z.boolean() }) },
  ...PLAN_CHANNELS,
  /** Block devices with their stacking and guessed roles (needs the probe). */
  'devices.list': { request: Empty, reply: z.object({ devices: z.array(DeviceEntry) }) },
  /** Cache engines on this machine (`cacheproof-probe engine detect --json`), for the wizard's cache-engine step. */
  'engine.detect': { request: Empty, reply: z.object({ engines: z.array(DetectedEngine) }) },
  /** The dry run of an adapter on a device (`cacheproof-probe engine plan --json`): what enable and disable would do; nothing is changed. */
  'engine.plan': { request: EngineChoice, reply: EnginePlan },
  /** Starts the probe detached with this plan; the run outlives the window. */
  'run.start': { request: z.object({ plan: RunPlan }).strict(), reply: RunStatus },
  /** Every run this installation knows (running first), for Home and re-attaching. */
  'run.list': { request: Empty, reply: z.object({ runs: z.array(RunStatus) }) },
  'run.status': { request: RunRef, reply: RunStatus },
  /** Live chart data since `sinceMs` (UTC ms; 0 = the last hour), up to `untilMs` when given (scrolling back). */
  'run.series': { request: z.object({ runId: z.string().min(1).max(64), sinceMs: z.number(), untilMs: z.number().optional() }).strict(), reply: LiveSeries },
  /** The person confirms they switched the cache on: records the moment (`probe mark switch`). */
  'run.confirmSwitch': { request: RunRef, reply: RunStatus },
  /** Stops the recorder cleanly; everything recorded stays in the capture. */
  'run.stop': { request: RunRef, reply: RunStatus },
  /** Continues a stopped or crashed run where it was (`probe record --resume`), detached. */
  'run.resume': { request: RunRef, reply: RunStatus },
  /** Analyses a run's capture (finished or not) and returns it like analysis.openCapture. */
  'run.open': { request: RunRef, reply: AnalysisView },
  /** The baseline of a run's capture alone, as a workload profile (a run stopped before the switch has nothing to compare). */
  'run.openProfile': { request: RunRef, reply: ProfileView },
  /** The report as HTML for the Export screen's live preview (no styles inside: the screen applies `css`, see docs/report.md). */
  'report.preview': { request: ReportRequest.omit({ format: true }), reply: z.object({ html: z.string(), css: z.string() }) },
  /** Starts an export job; poll `report.progress`. */
  'report.start': { request: ReportRequest, reply: z.object({ jobId: z.string() }) },
  /** A job's progress; once done, its files (a failed job answers with its error). */
  'report.progress': { request: z.object({ jobId: z.string().min(1).max(64) }).strict(), reply: ReportProgress },
  /** Electron: saves a finished export's file where the person chooses (a Save dialog); `path` null when they cancel. The browser window downloads it instead ({@link reportFileHref}). */
  'report.save': { request: z.object({ jobId: z.string().min(1).max(64), index: z.number().int().min(0).max(8) }).strict(), reply: z.object({ path: z.string().nullable() }) },
  /** What `cacheproof-probe import --preview` recognizes in the files; writes nothing. */
  'import.preview': { request: ImportRequest, reply: ImportPreview },
  /** Starts an import into a new capture in `<dataDir>/imports/`; poll `import.progress`. */
  'import.start': { request: ImportRequest, reply: z.object({ jobId: z.string() }) },
  /** An import job's progress; once done, the capture's path (a failed job answers with its error). */
  'import.progress': { request: z.object({ jobId: z.string().min(1).max(64) }).strict(), reply: ImportProgress },
  /** Runs `cacheproof-probe predict --store` on an open analysis's traced capture; poll `predict.progress`. */
  'predict.start': { request: PredictRequest, reply: z.object({ jobId: z.string() }) },
  /** A prediction job's progress; once done, the capture analysed again with its new prediction (a failed job answers with its error once). */
  'predict.progress': { request: z.object({ jobId: z.string().min(1).max(64) }).strict(), reply: PredictProgress },
} as const;

export type Channel = keyof typeof CHANNELS;
export type RequestOf<C extends Channel> = z.infer<(typeof CHANNELS)[C]['request']>;
export type ReplyOf<C extends Channel> = z.infer<(typeof CHANNELS)[C]['reply']>;

export function isChannel(name: string): name is Channel {
  return Object.prototype.hasOwnProperty.call(CHANNELS, name);
}

/** The header every browser-host API call must carry (with the session cookie). */
export const API_HEADER = 'x-cacheproof';
/** The URL path prefix of contract calls in the browser host: POST /api/<channel>. */
export const API_PREFIX = '/api/';

/** Error codes of the contract (translated in the renderer's catalogs). */
export const ERROR_CODES = [
  'bad-request',
  'unknown-channel',
  'capture-not-found',
  'capture-not-sqlite',
  'capture-not-cacheproof',
  'capture-too-new',
  'capture-empty',
  'capture-damaged',
  'analysis-failed',
  'analysis-no-measure',
  /** The person stopped the analysis while the capture was being read (`analysis.cancel`). */
  'analysis-cancelled',
  'probe-missing',
  'probe-failed',
  'run-not-found',
  'needs-root',
  'trace-unavailable',
  'no-devices-chosen',
  /** The adapter's config file gives a command as a shell string, not an argument vector. */
  'engine-shell-string',
  /** A program the adapter needs is not installed (not found on PATH). */
  'engine-not-installed',
  /** The adapter's device is not one of its engine's devices here, or not part of the analysis. */
  'engine-wrong-device',
  /** The adapter's config file cannot be read or has a wrong field. */
  'engine-config-invalid',
  /** The probe refused the adapter setting for another reason (its sentence says which). */
  'engine-refused',
  'plan-scenario-invalid',
  'report-cannot-write',
  'report-scenario-invalid',
  'report-scenario-mismatch',
  'report-no-browser',
  'report-job-not-found',
  /** A call this window cannot make (the browser window has no Save dialog: it downloads). */
  'not-supported',
  /** A log the probe cannot import (the probe's sentence names the file, line and column), or a choice it refuses (`-choice-`: a role set, the files' parts, a range). */
  'import-refused', 'import-choice-refused',
  'import-job-not-found',
  /** A Prometheus server (`import prometheus`) that cannot be reached, refuses the credentials or the query: the message names the URL and the query. */
  'import-unreachable', /* then a fleet summary refused (exit 2: the range off the step) or with no node_disk_* series (exit 12) */ 'fleet-summary-refused', 'fleet-summary-no-data',
  /** A host that is not one of the fleet capture's (meta `fleet`), or a capture or folder that holds no fleet. */
  'fleet-not-found',
  /** The probe refused to predict: no block trace in the baseline, a baseline not ended, a size it cannot use (its sentence says which). */
  'predict-refused',
  'predict-job-not-found',
  'internal',
  /** The renderer's HTTP transport lost the browser host (never sent by the host). */
  'network',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
