// `npm start`: installs what is missing, then opens CacheProof on the bundled sample.
// Tries Electron first; when no Electron runtime can start, says so in one line and serves
// the same UI through the loopback browser host (opened with `chromium --app=URL`).
// `npm start -- --no-open` serves without opening a window. The options are the browser host's,
// declared once in app/src/browser-host/options.json (--url-file FILE, --port N, --sample FILE go to
// it as given; it checks their values).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ensureAppBuild, ensureJsDeps, ensureProbe, root, say } from './ensure.mjs';
import { commandLine } from './args.mjs';

const args = process.argv.slice(2);
// --no-open is start's own too; `--help` is commandLine's
const { help: _help, ...hostOptions } = JSON.parse(readFileSync(join(root, 'app', 'src', 'browser-host', 'options.json'), 'utf8'));
const { values: opts } = commandLine('npm start --', hostOptions, { args });
const noOpen = opts['no-open'];

try {
  ensureJsDeps();
  ensureProbe();
  await ensureAppBuild();
} catch (err) {
  say(`Cannot start: ${err.message}`);
  process.exit(1);
}

function electronBinary() {
  try {
    const require = createRequire(join(root, 'package.json'));
    // Electron 45 fetches its runtime lazily on first use; do that in a child with a time limit.
    const r = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (r.status === 0 && r.stdout) return { path: r.stdout };
    const reason = (r.stderr || '').split('\n').find((l) => /Error|failed/i.test(l)) ?? 'no runtime';
    require.resolve('electron');
    return { reason: reason.trim().slice(0, 160) };
  } catch (err) {
    return { reason: err.message.split('\n')[0] };
  }
}

function forward(child) {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
}

if (!noOpen && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
  const electron = electronBinary();
  if (electron.path) {
    say('Opening CacheProof (Electron)…');
    forward(spawn(electron.path, [join(root, 'app', 'dist', 'main.cjs')], { stdio: 'inherit' }));
  } else {
    say(`Electron runtime unavailable (${electron.reason}); using the browser host instead.`);
    forward(spawn(process.execPath, [join(root, 'app', 'dist', 'browser-host.cjs'), ...args], { stdio: 'inherit' }));
  }
} else {
  if (!noOpen) say('No display found; serving CacheProof on loopback instead of opening a window.');
  forward(spawn(process.execPath, [join(root, 'app', 'dist', 'browser-host.cjs'), ...args], { stdio: 'inherit' }));
}
