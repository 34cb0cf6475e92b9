// `npm test`: installs what is missing, then lint, type checks, the Electron security scan,
// unit tests (vitest), the end-to-end suite (Playwright on the browser host), then the Rust tests (cargo).
// Ends with one summary line counting every test of every runner. `npm test -- STEP…` runs only
// those steps (lint, typecheck, electronegativity, unit, e2e, native).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { checkMachine, ensureAppBuild, ensureDebianPackages, ensureJsDeps, ensureProbe, root, say } from './ensure.mjs';
import { commandLine } from './args.mjs';
import { runLanes, streamBinaries, testBinaries } from './cargo-lanes.mjs';

const STEPS = ['lint', 'typecheck', 'electronegativity', 'unit', 'native', 'e2e'];
const { positionals: only } = commandLine('npm test --', {}, { positionals: 'STEP', choices: STEPS });
const want = (step) => only.length === 0 || only.includes(step);
const reports = join(root, 'test-results');
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(name, cmd, args, opts = {}) {
  say(`── ${name}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', env: { ...process.env, ...opts.env }, maxBuffer: 64 << 20 });
  if (opts.capture) process.stdout.write(r.stdout ?? '');
  const ok = r.status === 0;
  say(`── ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!ok) failedSteps.push(name);
  return { ok, stdout: r.stdout ?? '' };
}

/**
 * A step run beside others: its output is kept and printed whole when it ends, with the same
 * lines as step(). Resolves when it has ended (a failure is recorded as step() records it).
 */
function stepBeside(name, cmd, args) {
  const t0 = Date.now();
  say(`── ${name} (beside the next step): ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let ended = false;
    const end = (ok, why) => {
      if (ended) return;
      ended = true;
      process.stdout.write(out);
      say(`── ${name}: ${ok ? 'ok' : `FAILED (${why})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      if (!ok) failedSteps.push(name);
      resolve(ok);
    };
    child.on('error', (err) => end(false, err.message));
    child.on('close', (code, signal) => end(code === 0, `exit ${code ?? signal}`));
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

const manifest = ['--manifest-path', join(root, 'native', 'Cargo.toml')];
// The Rust tests' build (about 235 CPU-seconds on a fresh clone, native/Cargo.toml) starts first and runs in the
// background at the lowest priority through the installs and the steps before cargo test: npm
// install waits on the network, lint and the type checks use one core, vitest waits on real I/O,
// and the end-to-end suite, which runs before cargo test for that reason, waits on Chromium and
// the host (on a busy machine the build takes over 12 minutes: vitest alone did not cover it).
// (Its profile, release-tests, has its own target folder and lock: the release build of the probe
// runs beside it.) Its messages go to test-results/cargo-test-build.jsonl, which the cargo test
// step reads to start each test binary as soon as it is built; its diagnostics go to
// test-results/cargo-test-build.log, and a build that fails shows its errors again in that step.
const testBuild = want('native') ? backgroundBuild() : null;

function backgroundBuild() {
  const t0 = Date.now();
  const messages = join(reports, 'cargo-test-build.jsonl');
  // straight into files: the steps run with spawnSync, and a pipe would fill while Node waits
  const out = openSync(messages, 'w');
  const log = openSync(join(reports, 'cargo-test-build.log'), 'w');
  // its own process group, so that the cargo test step can raise the priority of cargo and its rustc together
  const child = spawn('nice', ['-n', '19', 'cargo', 'test', '--profile', 'release-tests', '--no-run', '--message-format=json-render-diagnostics', ...manifest], {
    cwd: root, stdio: ['ignore', out, log], detached: true,
  });
  closeSync(out);
  closeSync(log);
  const stop = () => {
    try { process.kill(-child.pid); } catch { /* already ended */ }
  };
  // in a group of its own it no longer gets the terminal's Ctrl-C: this process passes it on
  const interrupted = (signal) => {
    stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', stop);
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const done = new Promise((resolve) => {
    child.on('error', (err) => resolve({ ok: false, seconds: 0, why: err.message }));
    child.on('close', (code) => {
      process.off('exit', stop);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      resolve({ ok: code === 0, seconds: (Date.now() - t0) / 1000, why: `exit ${code}` });
    });
  });
  // Once the steps reach it, the build is what they wait for: nice 10, above a job the machine runs at
  // nice 19 beside the suite, below the tests that run meanwhile (renice needs root; without it the build stays at 19).
  const hurry = () => spawnSync('renice', ['-n', '10', '-g', String(child.pid)], { stdio: 'ignore' }).status === 0;
  return { done, messages, hurry };
}

// package-lock.json as committed: nothing in the run may rewrite it (test/lockfile.test.ts checks it
// after the install; this checks it again once every step has run)
const lockPath = join(root, 'package-lock.json');
const lockHash = () => (existsSync(lockPath) ? createHash('sha256').update(readFileSync(lockPath)).digest('hex') : 'absent');
const lockAtStart = lockHash();

try {
  ensureJsDeps();
  ensureDebianPackages();
  checkMachine();
  ensureProbe();
  await ensureAppBuild();
} catch (err) {
  say(`Cannot run the tests: ${err.message}`);
  process.exit(1);
}

if (want('lint')) step('lint', bin('eslint'), ['.', '--max-warnings', '0']);
// no Rust source file over 500 lines (ESLint's max-lines holds the TypeScript to it)
if (want('lint')) step('line limit', process.execPath, [join(root, 'scripts', 'line-limit.mjs')]);
// the four TypeScript projects, as tsc -p checks each, in one process that parses each shared file once
if (want('typecheck')) step('typecheck', process.execPath, [join(root, 'scripts', 'typecheck.mjs')]);
if (want('electronegativity')) step('electronegativity', process.execPath, [join(root, 'scripts', 'electronegativity.mjs')]);

if (want('unit')) {
  const out = join(reports, 'vitest.json');
  rmSync(out, { force: true });
  step('unit tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += j.numPassedTests ?? 0;
    totals.failed += j.numFailedTests ?? 0;
    totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  }
}

if (want('e2e')) {
  const out = join(reports, 'playwright.json');
  rmSync(out, { force: true });
  step('end-to-end (Playwright, browser host)', bin('playwright'), ['test', '-c', join(root, 'e2e', 'playwright.config.ts')], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  if (existsSync(out)) {
    const s = JSON.parse(readFileSync(out, 'utf8')).stats ?? {};
    totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    totals.failed += s.unexpected ?? 0;
    totals.skipped += s.skipped ?? 0;
  }
}

if (want('native')) {
  // --all: with --manifest-path and more than one package, cargo fmt finds no target without it
  // (it formats the package whose manifest is the one given, and the workspace root is none).
  step('cargo fmt --check', 'cargo', ['fmt', '--all', '--check', ...manifest]);
  // --show-output: a Rust test that cannot run here prints `SKIP <test>: <reason>` and returns
  // (cargo counts it as passed); those lines are counted as skipped. In CI (CI=true) and with
  // CACHEPROOF_REQUIRE_ALL=1 such a test fails instead (native/crates/core/src/testenv.rs).
  // (the release-tests profile: release without link-time optimization, native/Cargo.toml)
  // The test binaries run in three lanes side by side (scripts/cargo-lanes.mjs): those that use
  // the machine's devices one at a time, as cargo would run them, beside those of Prometheus and
  // those of files; most of the Rust tests' time is waiting, not CPU. Each starts as soon as the
  // background build has built it, so that the lanes run while it builds the rest.
  say(`── cargo test: the binaries of cargo test --profile release-tests ${manifest.join(' ')}, in lanes, each with --show-output as soon as it is built`);
  const t0 = Date.now();
  const hurried = testBuild.hurry();
  const lanes = runLanes(streamBinaries(testBuild.messages, testBuild.done), ['--show-output']);
  const built = await testBuild.done;
  say(`── cargo test build (background since the start${hurried ? ', at nice 10 from this step' : ''}): ${built.ok ? 'ok' : `FAILED (${built.why})`} in ${built.seconds.toFixed(1)} s, ${((Date.now() - t0) / 1000).toFixed(1)} s after this step began`);
  // clippy (about 50 CPU-seconds) runs beside the lanes, which mostly wait, at nice 10 so that it
  // takes only the CPU they leave: on a machine busy elsewhere the steps get one core, and clippy
  // before the lanes added its whole time to the run. It works in target/release, where the probe's
  // build left the build scripts' output; the lanes run the release-tests binaries.
  const clippy = built.ok ? stepBeside('cargo clippy', 'nice', ['-n', '10', 'cargo', 'clippy', '--quiet', '--release', '--all-targets', ...manifest, '--', '-D', 'warnings']) : null;
  const r = await lanes;
  if (!built.ok) {
    // the build's errors, rendered again (they are also in test-results/cargo-test-build.log)
    const again = testBinaries(root, manifest);
    r.ok = false;
    r.failed.push(again.ok ? `the background build (${built.why}; it built when run again)` : again.why);
  }
  say(`── cargo test: ${r.ok ? 'ok' : `FAILED (${r.failed.join(', ')})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await clippy;
  if (!r.ok) failedSteps.push('cargo test');
  for (const m of r.stdout.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
    totals.passed += Number(m[1]);
    totals.failed += Number(m[2]);
    totals.skipped += Number(m[3]);
  }
  const skips = [...r.stdout.matchAll(/^SKIP\b/gm)].length;
  totals.passed -= skips;
  totals.skipped += skips;
}

if (lockHash() !== lockAtStart) {
  say('── package-lock.json: FAILED: a step rewrote it; npm ci never writes it, so something ran npm install (git diff package-lock.json shows what)');
  failedSteps.push('package-lock.json unchanged');
}

if (failedSteps.length > 0) say(`Failed steps: ${failedSteps.join(', ')}`);
// A failed step that ran no counted test (lint, a type check) still counts as a failure.
const failed = totals.failed + (failedSteps.length > 0 && totals.failed === 0 ? failedSteps.length : 0);
process.stdout.write(`tests: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped\n`);
process.exit(failedSteps.length > 0 ? 1 : 0);
