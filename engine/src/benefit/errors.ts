/**
 * Expected failures of `analyze`, returned as values (`{ ok: false, error: { code, message } }`),
 * never thrown. The CLI maps codes to exit codes and translates by code; `message` is one
 * English sentence for logs.
 */
export type AnalyzeErrorCode =
  /** The capture has no `baseline` phase and no baseline window was given. */
  | 'no-baseline'
  /** The capture has no `measure`/`warmup`/`switch` phase and no measure window was given. */
  | 'no-measure'
  /** A window is empty after warm-up and trimming (start ≥ end). */
  | 'empty-window'
  /** The baseline and measure windows overlap. */
  | 'windows-overlap'
  /** A window holds no interval of the analyzed devices (it lies outside the captured data). */
  | 'window-outside-data'
  /** A device named in the options is not in the capture. */
  | 'unknown-device'
  /** No device to analyze: no front or backing role in the capture and none given. */
  | 'no-devices'
  /** An option is out of range (negative warm-up, non-finite time, …). */
  | 'invalid-option';

export interface AnalyzeError {
  code: AnalyzeErrorCode;
  message: string;
}

export interface AnalyzeFailure {
  ok: false;
  error: AnalyzeError;
}

/**
 * Builds a failure value.
 *
 * @example
 * fail('unknown-device', 'Device "sdz" is not in the capture.') // { ok: false, error: { code: 'unknown-device', message: … } }
 */
export function fail(code: AnalyzeErrorCode, message: string): AnalyzeFailure {
  return { ok: false, error: { code, message } };
}
