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
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
