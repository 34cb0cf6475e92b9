/**
 * Reads the probe's prediction from a capture's `meta.prediction` (docs/simulate.md § predict).
 * A value that is not the probe's JSON is not an error of the capture: the analysis goes on
 * without a prediction and a `prediction-unreadable` warning names the field that is wrong.
 */
import type { StoredPrediction, Warning } from '@cacheproof/engine';
import { StoredPredictionSchema } from '../../shared/prediction-schema.ts';

export interface PredictionRead {
  prediction: StoredPrediction | null;
  warning: Warning | null;
}

/** The stored prediction of `meta` (null when absent), or a warning saying why it cannot be used. */
export function readPrediction(meta: Record<string, string>, file: string): PredictionRead {
  const raw = meta['prediction'];
  if (raw === undefined) return { prediction: null, warning: null };
  const bad = (why: string): PredictionRead => ({
    prediction: null,
    warning: {
      code: 'prediction-unreadable',
      message: `${file}: meta.prediction ${why}; the analysis goes on without a prediction: run 'cacheproof-probe predict ${file} --size SIZE --store' again`,
    },
  });
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return bad(`is not JSON (${(e as Error).message})`);
  }
  const r = StoredPredictionSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? '(the value)' : issue.path.join('.');
    return bad(`has a wrong field ${field}: ${issue?.message ?? 'invalid'}`);
  }
  return { prediction: r.data, warning: null };
}
