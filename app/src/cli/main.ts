/**
 * `cacheproof`: the command-line face of the app (docs/cli.md).
 * Each command lives in its own module and returns a documented exit code.
 */
import { APP_VERSION } from '../host/version.ts';
import { EXIT, type CliIO, type Command, type ExitCode } from './io.ts';
import { analyzeCommand } from './analyze.ts';
import { makeTco } from './tco.ts';
import { measureCapture } from './measure.ts';

const USAGE = `cacheproof ${APP_VERSION} — storage cache benefit analyzer

Usage:
  cacheproof analyze CAPTURE [--json] [options]   before/after benefit figures (docs/cli.md)
  cacheproof tco SCENARIO [--json] [--lang en|fr|es|ru]     TCO and drive life per configuration (docs/tco-scenario.md)
  cacheproof tco --from-capture CAPTURE --out SCENARIO [--lang …]
                                                  a scenario prefilled from a capture's analysis, labels in the language
  cacheproof report CAPTURE --format pdf|html|xlsx|csv --out FILE [--lang …] [--scenario FILE] [--cover cover.json]
                                                  the proof-of-concept report (docs/report.md)
  cacheproof --version
  cacheproof --help
`;

const COMMANDS: Record<string, Command> = { analyze: analyzeCommand, tco: makeTco({ measureCapture }), report: lazyReport };

/** The report command loads exceljs and playwright-core: only when it is run (saves ~0.25 s on every other command). */
async function lazyReport(args: string[], io: CliIO): Promise<ExitCode> {
  const { reportCommand } = await import('./report.ts');
  return reportCommand(args, io);
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
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
