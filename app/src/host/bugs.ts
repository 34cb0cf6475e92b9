/**
 * The one bug reporter of a host process (the Electron main, the browser host, the CLI): every
 * exception that is not an expected failure (a HostError) ends here, from a channel handler
 * (`dispatch`), a background job (report export, a finished run's analysis) or an unhandled
 * rejection. It is written to stderr and appended to `bugs.log` in the app's data folder, so a
 * person can send it; the UI only ever shows the `internal` code with its sentence.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from './paths.ts';

/** Where the bug log of this process goes (null: stderr only). Set once at start by the process's entry. */
let logFile: string | null = null;
let processName = 'cacheproof';

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/**
 * Reports a bug: one block on stderr and in the bug log (time, process, where, stack). Never
 * throws: a reporter that fails must not hide the bug it reports.
 */
export function reportBug(where: string, err: unknown): void {
  const block = `${new Date().toISOString()} ${processName}: bug in ${where}: ${describe(err)}\n`;
  try {
    process.stderr.write(`cacheproof: bug in ${where}: ${describe(err)}\n`);
  } catch {
    // stderr closed: the log file still gets it.
  }
  if (logFile === null) return;
  try {
    mkdirSync(join(logFile, '..'), { recursive: true });
    appendFileSync(logFile, block, { mode: 0o600 });
  } catch {
    // A full disk or a read-only data folder: stderr had it.
  }
}

/** The bug log's path for this process, or null when it writes to stderr only. */
export function bugLogPath(): string | null {
  return logFile;
}

/** Names this process in the bug log and sets the log's path (null: stderr only). */
export function setBugLog(name: string, path: string | null): void {
  processName = name;
  logFile = path;
}

/**
 * Installs the process's bug handlers: unhandled promise rejections and uncaught exceptions are
 * reported (and an uncaught exception then ends the process with exit 1, since its state is
 * unknown). `name` labels the log lines; the log goes to `<data folder>/bugs.log`.
 */
export function installBugReporter(name: string, env: NodeJS.ProcessEnv = process.env): void {
  setBugLog(name, join(dataDir(env), 'bugs.log'));
  process.on('unhandledRejection', (reason) => reportBug('an unhandled promise rejection', reason));
  process.on('uncaughtException', (err) => {
    reportBug('an uncaught exception', err);
    process.exit(1);
  });
}
