/**
 * `cacheproof`: the command-line face of the app (docs/cli.md).
 * Each command lives in its own module and returns a documented exit code.
 */
import { removePendingTemps } from '../host/atomic-write.ts';
import { APP_VERSION } from '../host/version.ts';
import { EXIT, type CliIO, type Command, type ExitCode } from './io.ts';
import { analyzeCommand } from './analyze.ts';
import { makeTco } from './tco.ts';
import { measureCapture } from './measure.ts';
import { MAIN_HELP } from './help.ts';
import { verifyCommand } from './verify.ts';

const COMMANDS: Record<string, Command> = { analyze: analyzeCommand, tco: makeTco({ measureCapture }), report: lazyReport, verify: verifyCommand };

/** The report command loads exceljs and playwright-core: only when it is run (saves ~0.25 s on every other command). */
async function lazyReport(args: string[], io: CliIO): Promise<ExitCode> {
  const { reportCommand } = await import('./report.ts');
  return reportCommand(args, io);
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) {
    const [topic] = rest;
    const command = topic === undefined ? undefined : COMMANDS[topic];
    if (command === undefined) {
      io.stderr(`cacheproof help: unknown command '${topic ?? ''}'. Run 'cacheproof --help' for the list.\n`);
      return EXIT.usage;
    }
    return command(['--help'], io);
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(MAIN_HELP);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`cacheproof ${APP_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`cacheproof: unknown command '${name}'. Run 'cacheproof --help' for the list.\n`);
    return EXIT.usage;
  }
  return command(rest, io);
}

const stdio: CliIO = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) };

if (require.main === module) {
  // Stopped while writing (Ctrl-C, kill): the half-written temporary files go too; the targets were never touched.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      removePendingTemps();
      process.stderr.write(`cacheproof: stopped by ${signal}; nothing was written.\n`);
      process.exit(code);
    });
  }
  runCli(process.argv.slice(2), stdio).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`cacheproof: internal error (please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
