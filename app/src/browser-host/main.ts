/**
 * Entry of the browser host process: `node app/dist/browser-host.cjs [--no-open] [--url-file F] [--port N] [--sample F]`.
 * Serves the renderer and the contract on 127.0.0.1, opens `chromium --app=URL` when a
 * display exists (or prints how to open it), and exits when its parent goes away.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowserHost } from './server.ts';
import { writeSignInFile } from './signin-file.ts';
import { createDispatch } from '../host/dispatch.ts';
import { installBugReporter, reportBug } from '../host/bugs.ts';
import { createHandlers } from '../host/services.ts';
import { reportFileOf } from '../host/report/jobs.ts';
import { parseReportFileHref } from '../shared/contract.ts';
import { dataDir, findRepoRoot, probePath, samplePath } from '../host/paths.ts';

interface Args {
  open: boolean;
  urlFile: string | null;
  port: number;
  sample: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { open: true, urlFile: null, port: 0, sample: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-open') args.open = false;
    else if (a === '--url-file') args.urlFile = argv[++i] ?? null;
    else if (a === '--port') args.port = Number(argv[++i] ?? '0');
    else if (a === '--sample') args.sample = argv[++i] ?? null;
    else {
      process.stderr.write(`cacheproof: unknown option '${a}'. Options: --no-open, --url-file FILE, --port N, --sample FILE.\n`);
      process.exit(2);
    }
  }
  return args;
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
