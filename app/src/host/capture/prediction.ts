/**
 * Reads what the probe stored from a capture's block trace: the prediction (`meta.prediction`,
 * docs/simulate.md § predict) and the latency histograms (`meta.trace_latency`). A value that is
 * not the probe's JSON is not an error of the capture: the analysis goes on without it and a
 * `prediction-unreadable` / `trace-latency-unreadable` warning names the field that is wrong.
 */
import type { StoredPrediction, StoredTraceLatency, Warning } from '@cacheproof/engine';
import type { z } from 'zod';
import { StoredPredictionSchema, StoredTraceLatencySchema } from '../../shared/prediction-schema.ts';

export interface PredictionRead {
  prediction: StoredPrediction | null;
  warning: Warning | null;
}

/** The stored prediction of `meta` (null when absent), or a warning saying why it cannot be used. */
export function readPrediction(meta: Record<string, string>, file: string): PredictionRead {
  return readStored(meta, 'prediction', StoredPredictionSchema, 'prediction-unreadable', `cacheproof-probe predict ${file} --size SIZE --store`, file);
}

/** The stored latency histograms of `meta` (null when absent), or a warning saying why they cannot be used. */
export function readTraceLatency(meta: Record<string, string>, file: string): { latency: StoredTraceLatency | null; warning: Warning | null } {
  const r = readStored(meta, 'trace_latency', StoredTraceLatencySchema, 'trace-latency-unreadable', `cacheproof-probe latency ${file} --store`, file);
  return { latency: r.prediction, warning: r.warning };
}

function readStored<T>(meta: Record<string, string>, key: string, schema: z.ZodType<T>, code: string, again: string, file: string): { prediction: T | null; warning: Warning | null } {
  const raw = meta[key];
  if (raw === undefined) return { prediction: null, warning: null };
  const bad = (why: string): { prediction: null; warning: Warning } => ({
    prediction: null,
    warning: { code, message: `${file}: meta.${key} ${why}; the analysis goes on without it: run '${again}' again` },
  });
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return bad(`is not JSON (${(e as Error).message})`);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? '(the value)' : issue.path.join('.');
    return bad(`has a wrong field ${field}: ${issue?.message ?? 'invalid'}`);
  }
  return { prediction: r.data, warning: null };
}
