/**
 * The prediction's part of the contract (app/src/shared/contract.ts re-exports it): the cache a
 * person asks the probe to predict — its size, its device (a preset of
 * samples/catalog/cache-devices.json or a typed read latency) and the policies to simulate — for
 * the wizard's plan (`RunPlan.prediction`) and the dashboard's `predict.*` jobs (docs/ipc.md).
 */
import { z } from 'zod';
import presetsJson from '../../../samples/catalog/cache-devices.json';

/** Replacement policies the probe simulates (`cacheproof-probe predict --policy`), in its order. */
export const CACHE_POLICIES = ['lru', 'fifo', 'clock', 'arc', '2q', 's3fifo'] as const;
export type CachePolicy = (typeof CACHE_POLICIES)[number];

/** The cache-device presets (`--cache-device ID`), as samples/catalog/cache-devices.json lists them. */
export const CACHE_DEVICE_IDS = ['ram', 'sata-ssd', 'nvme'] as const;
export type CacheDeviceId = (typeof CACHE_DEVICE_IDS)[number];

/** A preset as the screens show it: its read latency (µs) and where the figure comes from. */
export interface CacheDevicePreset {
  id: CacheDeviceId;
  readLatencyUs: number;
  source: string;
  url: string | null;
  date: string;
  basis: string | null;
}

/** The presets, in the file's order (the one source of their figures, shared with the probe). */
export const CACHE_DEVICE_PRESETS: readonly CacheDevicePreset[] = presetsJson.devices.map((d) => {
  const id = CACHE_DEVICE_IDS.find((x) => x === d.id);
  if (id === undefined) throw new Error(`samples/catalog/cache-devices.json: unknown preset ${d.id}`);
  const f = d.readLatencyUs as { value: number; source: string; url?: string; date: string; basis?: string };
  return { id, readLatencyUs: f.value, source: f.source, url: f.url ?? null, date: f.date, basis: f.basis ?? null };
});

/** Bytes of the smallest cache the probe accepts (one 4 KiB block) and of the largest one asked here (1 PiB). */
export const CACHE_BYTES_MIN = 4096;
export const CACHE_BYTES_MAX = 2 ** 50;

/** What a prediction assumes: the cache's size, its device, and the policies whose curves are drawn (the first gives the figures). */
export const PredictionChoice = z.object({
  cacheBytes: z.number().int().min(CACHE_BYTES_MIN).max(CACHE_BYTES_MAX),
  cacheDevice: z.union([
    z.object({ preset: z.enum(CACHE_DEVICE_IDS) }).strict(),
    /** A read latency the person typed, µs. */
    z.object({ latencyUs: z.number().gt(0).max(10_000_000) }).strict(),
  ]),
  /** Default: every policy, LRU first. */
  policies: z.array(z.enum(CACHE_POLICIES)).min(1).max(CACHE_POLICIES.length).optional(),
}).strict();
export type PredictionChoice = z.infer<typeof PredictionChoice>;

/** Stages of a prediction job: the probe reads the trace, simulates, then the host analyses the capture again. */
export const PREDICT_STAGES = ['read', 'simulate', 'analyze', 'done'] as const;
export type PredictStage = (typeof PREDICT_STAGES)[number];

/** `predict.start`: an analysis opened in this session and the cache to predict. */
export const PredictRequest = z.object({ analysisId: z.string().min(1).max(64), choice: PredictionChoice }).strict();
export type PredictRequest = z.infer<typeof PredictRequest>;

/** A prediction job's state (the finished analysis is added by contract.ts). */
export const PredictJobState = z.object({
  jobId: z.string(),
  percent: z.number().min(0).max(100),
  stage: z.enum(PREDICT_STAGES),
  done: z.boolean(),
});

/** States of a run's automatic prediction (host/runs/supervisor.ts). */
export const RUN_PREDICTION_STATES = ['waiting', 'running', 'done', 'failed'] as const;

/**
 * A run's automatic prediction (`RunPlan.prediction`): `waiting` for the baseline to end (and the
 * tracer's last requests to land), `running` (`cacheproof-probe predict --store`), `done` with the
 * probe's headline figures, or `failed` with the probe's sentence. The figures are the probe's
 * (its JSON), shown on the Live screen; the dashboard reads the full prediction from the analysis.
 */
export const RunPrediction = z.object({
  state: z.enum(RUN_PREDICTION_STATES),
  choice: PredictionChoice,
  /** Predicted I/Os saved, %. */
  iosSavedPercent: z.number().nullable(),
  /** Predicted backing I/O per second. */
  backingPerSecond: z.number().nullable(),
  /** Predicted average response time, µs, and the baseline's own (no cache), µs. */
  responseTimeUs: z.number().nullable(),
  baselineResponseUs: z.number().nullable(),
  /** The probe's sentence when it failed (English). */
  error: z.string().nullable(),
  /** When it finished (UTC ms). */
  atMs: z.number().nullable(),
}).strict();
export type RunPrediction = z.infer<typeof RunPrediction>;
