/**
 * Every warning code an analysis can carry (`AnalysisReport.warnings[].code`), so that the app can
 * translate warnings by code and a test can check that every code has strings in every language.
 * The English `message` of each warning stays in the output for scripts and as a fallback.
 */

/**
 * Codes the analysis itself raises (`source: "analysis"`), with the `params` each carries
 * (docs/metrics.md § Warnings). `analyze` only accepts codes from this list, so adding a warning
 * means adding its code here (and its strings in app/src/shared/i18n/warnings.ts).
 *
 * @example
 * ANALYSIS_WARNING_CODES.includes('low-coverage') // true
 */
export const ANALYSIS_WARNING_CODES = [
  /** No front device: per-second comparison; no params. */
  'backing-only-mode',
  /** params: metric (a WorkloadShape key), changePercent, thresholdPercent. */
  'workload-drift',
  /** params: baselineSeconds, measureSeconds. */
  'unequal-windows',
  /** params: baselineSeconds, measureSeconds. */
  'short-window',
  /** params: device, window ('baseline' | 'measure'), count. */
  'interval-reset',
  'interval-wrap',
  'interval-gap',
  'interval-clock-jump',
  'interval-incomplete',
  /** params: device, window, coveragePercent. */
  'low-coverage',
  /** params: value (percent). */
  'negative-ios-saved',
  /** params: kind ('reads' | 'writes'), value (percent). */
  'negative-cache-served',
  /** The capture guessed `device` as front; the options named it backing, which wins. params: device. */
  'front-named-backing',
  /** The capture guessed `device` as backing; the options named it front, which wins. params: device. */
  'backing-named-front',
  /** The engine's own cache share and the counters' differ by more than 5 points. params: kind ('reads' | 'writes' | 'all'), enginePercent, countersPercent, differencePoints (absolute), thresholdPoints. */
  'engine-counters-differ',
  /** A window under 1 h (with short-window). params: baselineSeconds, measureSeconds. */
  'very-short-window',
  /** The profiled window is under 24 h / under 1 h (plausibility.ts). params: seconds. */
  'short-log',
  'very-short-log',
  /** A volume's growth fitted over less than 24 h. params: volume, fitHours. */
  'capacity-short-fit',
  /** The stored prediction counted fewer than 1,000 requests. params: requests, minimumRequests. */
  'prediction-few-requests',
  /** Intervals over 10 × the catalog's fastest drive. params: devices, iops, limitIops, driveIops, drive, count. */
  'implausible-iops',
  'implausible-mbps',
  /** A device's traced requests over their own issue-time span exceed that limit. params: device, requests, spanMs, iops, mbPerSec, limitIops, driveIops, drive. */
  'trace-times-collapsed',
  /** The busiest hour covers less than its whole clock hour. params: coveredMinutes. */
  'busiest-hour-partial',
  /** The highest-IOPS interval is the range's last. params: end (ISO), iops. */
  'peak-at-range-end',
] as const;

/** A code the analysis raises. */
export type AnalysisWarningCode = (typeof ANALYSIS_WARNING_CODES)[number];

/**
 * Codes the recorder writes to a capture's `warnings` table (docs/capture-schema.md), which the
 * analysis passes through (`source: "capture"`) when they fall inside a window. They carry no
 * params: the device, if any, is in `device`, and `message` holds the recorder's English detail.
 */
export const CAPTURE_WARNING_CODES = [
  'reset', 'wrap', 'clock-jump', 'gap', 'device-appeared', 'device-vanished', 'disk-full', 'resumed', 'early-switch', 'error',
  'trace-lost', 'trace-unparsed', 'trace-error', 'trace-cleanup', 'trace-no-requests',
  'switch-failed', 'switch-interrupted', 'restore-failed', 'engine-stats', 'prediction-unreadable', 'trace-latency-unreadable', 'index-failed',
] as const;

/** A code the recorder writes. */
export type CaptureWarningCode = (typeof CAPTURE_WARNING_CODES)[number];

/** Every code an analysis report's warnings can have (captures written by other tools may add others). */
export const WARNING_CODES: readonly (AnalysisWarningCode | CaptureWarningCode)[] = [...ANALYSIS_WARNING_CODES, ...CAPTURE_WARNING_CODES];

/** Any known warning code. */
export type WarningCode = AnalysisWarningCode | CaptureWarningCode;
