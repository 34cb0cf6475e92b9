/**
 * Entry of the browser host process: `node app/dist/browser-host.cjs [options]` (OPTIONS below, `--help`).
 * Serves the renderer and the contract on 127.0.0.1, opens `chromium --app=URL` when a
 * display exists (or prints how to open it), and exits when its parent goes away.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { parseArgs as parseNodeArgs } from 'node:util';
import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowserHost } from './server.ts';
import { writeSignInFile } from './signin-file.ts';
import { createDispatch } from '../host/dispatch.ts';
import { installBugReporter, reportBug } from '../host/bugs.ts';
import { createHandlers } from '../host/services.ts';
import { reportFileOf } from '../host/report/jobs.ts';
import { parseReportFileHref } from '../shared/contract.ts';
import optionsJson from './options.json';
import { dataDir, findRepoRoot, probePath, samplePath } from '../host/paths.ts';

interface Args {
  open: boolean;
  urlFile: string | null;
  port: number;
  sample: string | null;
}

/**
 * The browser host's command line, declared once (ARCHITECTURE.md, process rules) in
 * options.json, which `npm start` (scripts/start.mjs) reads too: `node:util` `parseArgs` parses
 * with it (strict: an unknown option, a value given to a switch or a missing value is refused,
 * exit 2) and `--help` and the usage line are made from it.
 */
interface OptionSpec { type: 'boolean' | 'string'; short?: string; value?: string; description: string }
const OPTIONS = optionsJson as { 'no-open': OptionSpec & { type: 'boolean' }; 'url-file': OptionSpec & { type: 'string' }; port: OptionSpec & { type: 'string' }; sample: OptionSpec & { type: 'string' }; help: OptionSpec & { type: 'boolean' } };

const synopsis = (name: string, o: { type: string; value?: string }): string => `--${name}${o.type === 'string' ? ` ${o.value ?? ''}` : ''}`;
const USAGE = `Usage: node app/dist/browser-host.cjs ${Object.entries(OPTIONS).filter(([n]) => n !== 'help').map(([n, o]) => `[${synopsis(n, o)}]`).join(' ')}`;

function helpText(): string {
  const rows = Object.entries(OPTIONS).map(([n, o]) => ['short' in o ? `-${o.short}, ${synopsis(n, o)}` : synopsis(n, o), o.description] as const);
  const width = Math.max(...rows.map(([a]) => a.length));
  return `${USAGE}\n\nServes CacheProof's screens and contract on 127.0.0.1 behind a per-launch token, and opens them in a\nChromium app window when a display exists (docs/ipc.md).\n\nOptions:\n${rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join('\n')}\n`;
}

function usageExit(message: string): never {
  process.stderr.write(`cacheproof browser host: ${message} ${USAGE} (--help: every option)\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText());
    process.exit(0);
  }
  let values;
  try {
    values = parseNodeArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    // parseArgs names the option in its first sentence ("Option '--no-open' does not take an argument")
    const first = (err instanceof Error ? err.message : String(err)).split(/\.(?:\s|$)|\n/)[0] ?? '';
    usageExit(`${first.replace(/ argument is ambiguous$/, ' needs a value, not another option')}.`);
  }
  const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65_535)) usageExit(`--port: '${values.port ?? ''}' is not a port; give a whole number from 0 to 65535.`);
  return { open: values['no-open'] !== true, urlFile: values['url-file'] ?? null, port, sample: values.sample ?? null };
}

function findBrowser(): string | null {
  for (const c of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) if (existsSync(c)) return c;
  return null;
}

async function main(): Promise<void> {
  installBugReporter('browser-host');
  const args = parseArgs(process.argv.slice(2));
  const root = findRepoRoot(__dirname);
  const sample = args.sample ?? (root ? samplePath(root) : null);
  const staticDir = join(__dirname, 'renderer');
  const dispatch = createDispatch(
    createHandlers({ shell: 'browser', sample: sample && existsSync(sample) ? sample : null, probe: probePath(root) }),
    reportBug,
  );
  const token = process.env['CACHEPROOF_TOKEN'] ?? randomBytes(32).toString('base64url');
  // finished exports are downloaded straight from the host's disk (never as bytes inside JSON)
  const download = (pathname: string): ReturnType<typeof reportFileOf> => {
    const at = parseReportFileHref(pathname);
    return at === null ? null : reportFileOf(at.jobId, at.index);
  };
  const host = await startBrowserHost({ staticDir, dispatch, token, port: args.port, download });

  if (args.urlFile) writeSignInFile(args.urlFile, host.authUrl);
  process.stdout.write(`CacheProof is serving on ${host.origin} (loopback only).\n`);

  const display = Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);
  const browser = findBrowser();
  if (args.open && display && browser) {
    const profile = join(dataDir(), 'browser-profile');
    mkdirSync(profile, { recursive: true });
    const child = spawn(browser, [`--app=${host.authUrl}`, `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-component-update'], { stdio: 'ignore' });
    child.on('exit', () => {
      void host.close().then(() => process.exit(0));
    });
    process.stdout.write('Opened CacheProof in a Chromium app window; close the window to quit.\n');
  } else if (args.urlFile) {
    process.stdout.write(`Open the sign-in link stored in ${args.urlFile} (readable by you only).\n`);
  } else if (process.stdout.isTTY) {
    // Shown on the person's own terminal only; never written to logs.
    process.stdout.write(`Open this link in a browser on this machine: ${host.authUrl}\n`);
  } else {
    const file = join(dataDir(), 'browser-host.url');
    writeSignInFile(file, host.authUrl);
    process.stdout.write(`Open the sign-in link stored in ${file} (readable by you only).\n`);
  }

  // Exit when the parent goes away (the terminal, npm start, or the test runner).
  const parent = process.ppid;
  const timer = setInterval(() => {
    let alive = true;
    try {
      process.kill(parent, 0);
    } catch {
      alive = false;
    }
    if (!alive || process.ppid !== parent) {
      clearInterval(timer);
      void host.close().finally(() => process.exit(0));
    }
  }, 1000);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      void host.close().finally(() => process.exit(0));
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`cacheproof: the browser host could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
