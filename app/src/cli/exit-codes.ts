/**
 * The exit code of every expected failure the CLI can meet (docs/cli.md, "Which failure gives
 * which exit code"): the contract's error codes (HostError, e.g. a damaged capture) and the
 * engine's analysis error codes. Both maps are exhaustive (`satisfies Record<…>`): a new error
 * code without its exit code is a type error, never a silent fallback.
 */
import type { AnalyzeErrorCode } from '@cacheproof/engine';
import type { ErrorCode } from '../shared/contract.ts';
import { EXIT, type ExitCode } from './io.ts';

/** Exit code of each contract error code. */
export const EXIT_OF_ERROR = {
  'bad-request': EXIT.badInput,
  'unknown-channel': EXIT.internal,
  'capture-not-found': EXIT.badInput,
  'capture-not-sqlite': EXIT.badInput,
  'capture-not-cacheproof': EXIT.badInput,
  'capture-too-new': EXIT.tooNew,
  'capture-empty': EXIT.badInput,
  'capture-damaged': EXIT.badInput,
  'analysis-failed': EXIT.mismatch,
  'analysis-cancelled': EXIT.internal,
  'analysis-no-measure': EXIT.mismatch,
  'probe-missing': EXIT.unavailable,
  'probe-failed': EXIT.internal,
  'run-not-found': EXIT.mismatch,
  'needs-root': EXIT.unavailable,
  'trace-unavailable': EXIT.unavailable,
  'no-devices-chosen': EXIT.usage,
  'engine-shell-string': EXIT.badInput,
  'engine-not-installed': EXIT.unavailable,
  'engine-wrong-device': EXIT.usage,
  'engine-config-invalid': EXIT.badInput,
  'engine-refused': EXIT.usage,
  'report-cannot-write': EXIT.cannotWrite,
  'plan-scenario-invalid': EXIT.badInput,
  'report-scenario-invalid': EXIT.badInput,
  'report-scenario-mismatch': EXIT.mismatch,
  'report-no-browser': EXIT.unavailable,
  'report-job-not-found': EXIT.internal,
  'not-supported': EXIT.internal,
  'import-refused': EXIT.badInput,
  'import-choice-refused': EXIT.usage,
  'import-job-not-found': EXIT.internal,
  'import-unreachable': EXIT.unavailable,
  'fleet-not-found': EXIT.mismatch,
  'fleet-summary-refused': EXIT.usage,
  'fleet-summary-no-data': EXIT.badInput,
  'predict-refused': EXIT.badInput,
  'predict-job-not-found': EXIT.internal,
  internal: EXIT.internal,
  network: EXIT.internal,
} as const satisfies Record<ErrorCode, ExitCode>;

/** Exit code of each analysis error code (engine `analyze`): a bad option is usage, the rest a request the data does not match. */
export const EXIT_OF_ANALYZE_ERROR = {
  'no-baseline': EXIT.mismatch,
  'no-measure': EXIT.mismatch,
  'empty-window': EXIT.mismatch,
  'windows-overlap': EXIT.mismatch,
  'window-outside-data': EXIT.mismatch,
  'unknown-device': EXIT.mismatch,
  'no-devices': EXIT.mismatch,
  'invalid-option': EXIT.usage,
} as const satisfies Record<AnalyzeErrorCode, ExitCode>;

/** Exit code for an expected failure's code (a contract or an analysis error code; the two sets do not overlap). */
export function exitFor(code: ErrorCode | AnalyzeErrorCode): ExitCode {
  return Object.prototype.hasOwnProperty.call(EXIT_OF_ERROR, code) ? EXIT_OF_ERROR[code as ErrorCode] : EXIT_OF_ANALYZE_ERROR[code as AnalyzeErrorCode];
}
