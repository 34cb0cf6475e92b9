/**
 * The command lines of the scripts and benches (scripts/args.mjs, issue 38): parseArgs over one
 * declaration, strict. The helper gives the defaults, converts and checks numbers, checks
 * positionals; and every converted script, run for real, prints its usage line made from its
 * declaration on `--help` (exit 0) and refuses an unknown option with that line (exit 2) before
 * doing any work.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { commandLine, usageLine } from '../scripts/args.mjs';

type Parse = (command: string, options: Record<string, unknown>, o?: Record<string, unknown>) => { values: Record<string, unknown>; positionals: string[] };
const parse = commandLine as Parse;
const root = join(import.meta.dirname, '..');

const BENCH = {
  hours: { type: 'string', default: '24', number: true },
  runs: { type: 'string', default: '3', number: true },
  formats: { type: 'string', default: 'pdf,xlsx,csv' },
  seed: { type: 'string', value: 'S', number: 'positive', asText: true },
  'no-blocks': { type: 'boolean', default: false },
};

describe('commandLine', () => {
  it('gives each option its declared default, numbers as numbers', () => {
    expect(parse('bench', BENCH, { args: [] }).values).toEqual({ hours: 24, runs: 3, formats: 'pdf,xlsx,csv', 'no-blocks': false });
  });

  it('takes --name VALUE and --name=VALUE, a switch, and keeps a number declared as text as given', () => {
    const { values } = parse('bench', BENCH, { args: ['--hours', '168', '--runs=1', '--no-blocks', '--formats', 'csv', '--seed', '18446744073709551557'] });
    expect(values).toEqual({ hours: 168, runs: 1, formats: 'csv', 'no-blocks': true, seed: '18446744073709551557' });
  });

  it('takes declared positionals only', () => {
    expect(parse('npm test --', {}, { args: ['unit', 'e2e'], positionals: 'STEP', choices: ['unit', 'e2e'] }).positionals).toEqual(['unit', 'e2e']);
  });

  it('makes the usage line from the declaration', () => {
    expect(usageLine('node bench/x.mjs', BENCH)).toBe('Usage: node bench/x.mjs [--hours 24] [--runs 3] [--formats pdf,xlsx,csv] [--seed S] [--no-blocks]');
    expect(usageLine('npm test --', {}, 'STEP')).toBe('Usage: npm test -- [STEP…]');
  });
});

/** Runs `node SCRIPT ...args` and returns its exit code and output. */
function run(script: string, ...args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(root, script), ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const SCRIPTS: [string, string][] = [
  ['bench/analyze/run.mjs', 'Usage: node bench/analyze/run.mjs [--hours 24,168] [--devices 16] [--runs 3] [--fresh] [--no-blocks]'],
  ['bench/cachesim/run.mjs', 'Usage: node bench/cachesim/run.mjs [--salts 40] [--shards-only] [--mini-only] [--min-refs 10000000] [--day-requests 4700000]'],
  ['bench/dashboard/run.mjs', 'Usage: node bench/dashboard/run.mjs [--hours 24] [--devices 16] [--runs 5] [--fresh] [--no-blocks]'],
  ['bench/fleet/run.mjs', 'Usage: node bench/fleet/run.mjs [--hosts 500] [--days 7] [--step 60] [--chunk 100] [--no-pull] [--pull-limit 0] [--backfill-only]'],
  ['bench/import/run.mjs', 'Usage: node bench/import/run.mjs [--mb 500] [--runs 3]'],
  ['bench/report/run.mjs', 'Usage: node bench/report/run.mjs [--hours 24] [--devices 16] [--runs 3] [--formats pdf,xlsx,csv] [--all-intervals] [--no-blocks]'],
  ['scripts/test.mjs', 'Usage: npm test -- [STEP…]'],
  ['scripts/start.mjs', 'Usage: npm start -- [--no-open] [--url-file FILE] [--port N] [--sample FILE]'],
  ['scripts/typecheck.mjs', 'Usage: npm run typecheck -- [PROJECT…]'],
  ['scripts/fuzz.mjs', 'Usage: npm run fuzz -- [--minutes 3] [--seed S] [--input-seconds B]'],
];

describe.each(SCRIPTS)('%s', (script, usage) => {
  it('--help prints its usage line (exit 0); an unknown option is refused with it (exit 2)', () => {
    expect(run(script, '--help')).toEqual({ status: 0, out: `${usage}\n`, err: '' });
    const bad = run(script, '--no-such-option');
    expect(bad.status).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain("Unknown option '--no-such-option'");
    expect(bad.err).toContain(usage);
  });
});

describe('values checked before any work', () => {
  it('a number that is not one, a missing value, a step that does not exist: exit 2 with the sentence', () => {
    expect(run('bench/report/run.mjs', '--runs', 'three')).toMatchObject({ status: 2, err: expect.stringContaining("--runs needs a number (got 'three')") });
    expect(run('scripts/fuzz.mjs', '--minutes', '0')).toMatchObject({ status: 2, err: expect.stringContaining("--minutes needs a positive number (got '0')") });
    expect(run('bench/import/run.mjs', '--mb')).toMatchObject({ status: 2, err: expect.stringContaining("Option '--mb <value>' argument missing") });
    expect(run('scripts/test.mjs', 'lnt')).toMatchObject({ status: 2, err: expect.stringContaining("unknown STEP 'lnt'") });
  });
});
