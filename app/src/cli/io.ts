/** What a CLI command writes to; tests pass a recorder, the binary passes the process streams. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Documented exit codes of `cacheproof` (docs/cli.md). Every command uses these and no others.
 */
export const EXIT = {
  ok: 0,
  /** Internal error (a bug): the message says so and asks for a report. */
  internal: 1,
  /** Bad usage: unknown command, flag or value. */
  usage: 2,
  /** An input file cannot be read or is not what it claims to be (not SQLite, malformed JSON…). */
  badInput: 3,
  /** The input is valid but from a newer schema/format version than this build reads. */
  tooNew: 4,
  /** The request does not match the data (windows outside the capture, unknown device…). */
  mismatch: 5,
  /** An output file cannot be written. */
  cannotWrite: 6,
  /** A tool the command needs is not installed (Chromium, to print a PDF report). */
  unavailable: 7,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A command: parses its own arguments, writes to io, returns an exit code. */
export type Command = (args: string[], io: CliIO) => Promise<ExitCode>;
