/**
 * The one contract between the UI and the host: every channel, its request schema and its
 * reply schema. Both shells (Electron IPC in app/src/main + preload, and the loopback HTTP
 * browser host) carry exactly this map; nothing else crosses the boundary.
 * Documented in docs/ipc.md.
 */
import { z } from 'zod';
import { CALENDAR_DATE_RANGE, isCalendarDateText } from './calendar.ts';
import { AnalysisReportSchema, DeviceRoleSchema, WorkloadProfileSchema } from './analysis-schema.ts';

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
  captureSha256: z.string(),
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
  phases: AnalysisView.shape.phases,
});
export type ProfileView = z.infer<typeof ProfileView>;

/**
 * A TCO scenario as the host prefills it (docs/tco-scenario.md). Kept loose here: a scenario
 * prefilled from an idle capture may not be valid yet (0 IOPS), and the renderer checks every
 * edit with the engine's `parseScenario` (one implementation of the rules).
 */
export const ScenarioDraft = z.looseObject({ format: z.literal('cacheproof-tco'), version: z.number() });
export type ScenarioDraft = z.infer<typeof ScenarioDraft>;

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

/** What the wizard asks the probe to do (durations in seconds; 0 warm-up allowed). */
export const RunPlan = z.object({
  name: z.string().min(1).max(200),
  front: z.string().min(1).max(64).nullable(),
  backing: z.array(z.string().min(1).max(64)).max(64),
  baselineSeconds: z.number().int().min(1).max(30 * 86400),
  warmupSeconds: z.number().int().min(0).max(30 * 86400),
  measureSeconds: z.number().int().min(1).max(30 * 86400),
  intervalMs: z.number().int().min(1000).max(3600_000),
  /** How the cache is switched: `manual` (the person switches, the app records the moment). */
  switch: z.object({ kind: z.literal('manual') }),
  /** Latency targets preset for health grading (engine presets) */
  targets: z.string().min(1).max(64),
  /**
   * Also record a block trace of the chosen devices: every request (offset, size, read/write,
   * response time), `cacheproof-probe record --trace` (root and tracefs; docs/probe.md).
   * Absent in runs started before the option existed: no trace.
   */
  trace: z.boolean().optional(),
}).strict();
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
  /** The block trace so far (requests recorded, events the kernel dropped), or null when the run does not trace. */
  trace: z.object({ requests: z.number(), lost: z.number() }).nullable(),
});
export type RunStatus = z.infer<typeof RunStatus>;

/** Live chart points since a time: per device, interval end times (UTC ms) and iostat figures. */
export const LiveSeries = z.object({
  series: z.array(z.object({
    device: z.string(),
    role: DeviceRoleSchema,
    t: z.array(z.number()),
    iops: z.array(z.number().nullable()),
    mbps: z.array(z.number().nullable()),
    latencyMs: z.array(z.number().nullable()),
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
  format: z.enum(['pdf', 'html', 'xlsx', 'csv']),
  paper: z.enum(['a4', 'letter']),
  cover: ReportCover,
  /** A TCO scenario (checked with the engine's parseScenario and against the capture), or null for no TCO section. */
  scenario: z.looseObject({}).nullable(),
}).strict();
export type ReportRequest = z.infer<typeof ReportRequest>;

/** One file of a finished export, for the renderer to save (base64 bytes). */
export const ReportFile = z.object({ name: z.string(), mime: z.string(), base64: z.string() });
export type ReportFile = z.infer<typeof ReportFile>;

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

/** Channel map: name → request and reply schemas. */
export const CHANNELS = {
  'app.info': { request: Empty, reply: AppInfo },
  'analysis.openSample': { request: Empty, reply: AnalysisView },
  'analysis.openCapture': {
    request: z.object({ path: z.string().min(1).max(4096) }).strict(),
    reply: AnalysisView,
  },
  /** The scenario `cacheproof tco --from-capture [--lang]` writes, for an analysis opened in this session; template labels in `lang` (default en). */
  'plan.fromAnalysis': {
    request: z.object({ analysisId: z.string().min(1).max(64), lang: z.enum(['en', 'fr', 'es', 'ru']).optional() }).strict(),
    reply: z.object({ scenario: ScenarioDraft }),
  },
  /** The drive catalog shipped with the app (samples/catalog/drives.json, docs/tco-scenario.md "Drive catalog"), for the Planner's drive picker; the renderer checks it with the engine's parseCatalog. */
  'plan.catalog': { request: Empty, reply: z.object({ catalog: z.looseObject({ format: z.literal('cacheproof-drive-catalog') }) }) },
  /** The scenario saved with an analysis's capture (the Planner's last valid edit), or null when none is saved. */
  'plan.saved': {
    request: z.object({ analysisId: z.string().min(1).max(64) }).strict(),
    reply: z.object({ scenario: ScenarioDraft.nullable() }),
  },
  /** Saves (or, with null, forgets) the edited scenario of an analysis's capture in the data folder; an invalid scenario is `plan-scenario-invalid`. */
  'plan.save': {
    request: z.object({ analysisId: z.string().min(1).max(64), scenario: ScenarioDraft.nullable() }).strict(),
    reply: z.object({ saved: z.boolean() }),
  },
  /** Block devices with their stacking and guessed roles (needs the probe). */
  'devices.list': { request: Empty, reply: z.object({ devices: z.array(DeviceEntry) }) },
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
  'probe-missing',
  'probe-failed',
  'run-not-found',
  'needs-root',
  'trace-unavailable',
  'no-devices-chosen',
  'plan-scenario-invalid',
  'report-cannot-write',
  'report-scenario-invalid',
  'report-scenario-mismatch',
  'report-no-browser',
  'report-job-not-found',
  'internal',
  /** The renderer's HTTP transport lost the browser host (never sent by the host). */
  'network',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
