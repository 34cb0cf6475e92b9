/**
 * The one contract between the UI and the host: every channel, its request schema and its
 * reply schema. Both shells (Electron IPC in app/src/main + preload, and the loopback HTTP
 * browser host) carry exactly this map; nothing else crosses the boundary.
 * Documented in docs/ipc.md.
 */
import { z } from 'zod';

const Empty = z.object({}).strict();

export const AppInfo = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  probeVersion: z.string().nullable(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** Headline figures are the engine's `analyze` JSON (docs/analyze-json.md), kept loose here and typed in the renderer. */
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
  result: z.looseObject({ mode: z.string() }),
  /** Per-device time series for charts (already decimated by the host when long). */
  series: z.array(
    z.object({
      device: z.string(),
      role: z.string(),
      /** Interval end times, UTC epoch ms. */
      t: z.array(z.number()),
      iops: z.array(z.number().nullable()),
      latencyMs: z.array(z.number().nullable()),
      mbps: z.array(z.number().nullable()),
    }),
  ),
  phases: z.array(z.object({ name: z.string(), startMs: z.number(), endMs: z.number().nullable() })),
});
export type AnalysisView = z.infer<typeof AnalysisView>;

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
}).strict();
export type RunPlan = z.infer<typeof RunPlan>;

/** A run started from the wizard (or found on disk): the probe's status plus what the app knows. */
export const RunStatus = z.object({
  id: z.string(),
  name: z.string(),
  captureFile: z.string(),
  /** running · waiting-switch (manual switch due) · done · stopped · probe-died · failed */
  state: z.enum(['starting', 'running', 'waiting-switch', 'done', 'stopped', 'probe-died', 'failed']),
  /** baseline · switch · warmup · measure · done */
  phase: z.string(),
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
});
export type RunStatus = z.infer<typeof RunStatus>;

/** Live chart points since a time: per device, interval end times (UTC ms) and iostat figures. */
export const LiveSeries = z.object({
  series: z.array(z.object({
    device: z.string(),
    role: z.string(),
    t: z.array(z.number()),
    iops: z.array(z.number().nullable()),
    mbps: z.array(z.number().nullable()),
    latencyMs: z.array(z.number().nullable()),
  })),
  phases: z.array(z.object({ name: z.string(), startMs: z.number(), endMs: z.number().nullable() })),
});
export type LiveSeries = z.infer<typeof LiveSeries>;

const RunRef = z.object({ runId: z.string().min(1).max(64) }).strict();

/** Channel map: name → request and reply schemas. */
export const CHANNELS = {
  'app.info': { request: Empty, reply: AppInfo },
  'analysis.openSample': { request: Empty, reply: AnalysisView },
  'analysis.openCapture': {
    request: z.object({ path: z.string().min(1).max(4096) }).strict(),
    reply: AnalysisView,
  },
  /** The scenario `cacheproof tco --from-capture` writes, for an analysis opened in this session. */
  'plan.fromAnalysis': {
    request: z.object({ analysisId: z.string().min(1).max(64) }).strict(),
    reply: z.object({ scenario: ScenarioDraft }),
  },
  /** Block devices with their stacking and guessed roles (needs the probe). */
  'devices.list': { request: Empty, reply: z.object({ devices: z.array(DeviceEntry) }) },
  /** Starts the probe detached with this plan; the run outlives the window. */
  'run.start': { request: z.object({ plan: RunPlan }).strict(), reply: RunStatus },
  /** Every run this installation knows (running first), for Home and re-attaching. */
  'run.list': { request: Empty, reply: z.object({ runs: z.array(RunStatus) }) },
  'run.status': { request: RunRef, reply: RunStatus },
  /** Live chart data since `sinceMs` (UTC ms; 0 = the last hour). */
  'run.series': { request: z.object({ runId: z.string().min(1).max(64), sinceMs: z.number() }).strict(), reply: LiveSeries },
  /** The person confirms they switched the cache on: records the moment (`probe mark switch`). */
  'run.confirmSwitch': { request: RunRef, reply: RunStatus },
  /** Stops the recorder cleanly; everything recorded stays in the capture. */
  'run.stop': { request: RunRef, reply: RunStatus },
  /** Analyses a run's capture (finished or not) and returns it like analysis.openCapture. */
  'run.open': { request: RunRef, reply: AnalysisView },
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
  'analysis-failed',
  'probe-missing',
  'probe-failed',
  'run-not-found',
  'needs-root',
  'no-devices-chosen',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
