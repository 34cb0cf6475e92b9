/**
 * `cacheproof`: the command-line face of the app (docs/cli.md).
 * Each command lives in its own module and returns a documented exit code.
 */
import { removePendingTemps } from '../host/atomic-write.ts';
import { APP_VERSION } from '../host/version.ts';
import { UsageError } from './args.ts';
import { parseCommand } from './command-line.ts';
import { EXIT, type CliIO, type Command } from './io.ts';
import { COMMAND_DECLS, MAIN, mainHelp } from './declarations.ts';

/**
 * Every command of COMMAND_DECLS (declarations.ts) runs here: the two lists cannot differ. Each
 * command's module is loaded when that command runs, not before: `cacheproof --help` and the
 * usage errors load none, and a command loads only its own (report's exceljs and
 * playwright-core, analyze's capture reader and catalogs), which saves their start-up time on
 * every other command.
 */
const COMMANDS: Record<keyof typeof COMMAND_DECLS, Command> = {
  analyze: async (args, io) => (await import('./analyze.ts')).analyzeCommand(args, io),
  tco: async (args, io) => {
    const [{ makeTco }, { measureCapture }] = await Promise.all([import('./tco.ts'), import('./measure.ts')]);
    return makeTco({ measureCapture })(args, io);
  },
  report: async (args, io) => (await import('./report.ts')).reportCommand(args, io),
  verify: async (args, io) => (await import('./verify.ts')).verifyCommand(args, io),
};

function commandNamed(name: string | undefined): Command | undefined {
  return name !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name as keyof typeof COMMANDS] : undefined;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) {
    const [topic] = rest;
    const command = commandNamed(topic);
    if (command === undefined) {
      io.stderr(`cacheproof help: unknown command '${topic ?? ''}'. Run 'cacheproof --help' for the list.\n`);
      return EXIT.usage;
    }
    return command(['--help'], io);
  }
  if (name === undefined || name === 'help') {
    io.stdout(mainHelp());
    return EXIT.ok;
  }
  if (name.startsWith('-')) {
    // cacheproof's own options (MAIN in declarations.ts): --help, --version
    let values;
    try {
      values = parseCommand(MAIN, argv).values;
    } catch (err) {
      if (err instanceof UsageError) {
        io.stderr(`cacheproof: ${err.message} Run 'cacheproof --help' for the commands and options.\n`);
        return EXIT.usage;
      }
      throw err;
    }
    if (values.version === true && values.help !== true) io.stdout(`cacheproof ${APP_VERSION}\n`);
    else io.stdout(mainHelp());
    return EXIT.ok;
  }
  const command = commandNamed(name);
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
