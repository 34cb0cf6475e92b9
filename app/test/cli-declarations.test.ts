/**
 * Every command line of `cacheproof` is declared once (app/src/cli/declarations.ts): this walks
 * every subcommand and checks that its `--help` lists every option the parser declares, that the
 * parser takes every declared option and refuses misuse (a value given to a switch, a value
 * missing, a value not allowed) with one sentence naming the option and exit 2, and that
 * docs/cli.md documents exactly the declared options, both ways. The browser host's own
 * declaration is checked through its built entry (`--help`, a switch given a value).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { EXIT } from '../src/cli/io.ts';
import { groupedWhole, optionSynopsis, usageLines, type CommandDecl, type OptionDecl } from '../src/cli/command-line.ts';
import { COMMAND_DECLS, MAIN, PAPER_CHOICES, REPORT_FORM_CHOICES, REPORT_FORMAT_CHOICES } from '../src/cli/declarations.ts';
import { PAPERS, REPORT_FORMATS, REPORT_FORMS } from '../src/host/report/export.ts';
import { ensureBuiltCli, ROOT } from './support/built-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-decl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COMMANDS = Object.entries(COMMAND_DECLS) as [string, CommandDecl][];

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

/** How `--help` writes an option: `-h, --help`, `--lang en|fr|es|ru`. */
function helpEntry(name: string, o: OptionDecl): string {
  return o.short === undefined ? optionSynopsis(name, o) : `-${o.short}, ${optionSynopsis(name, o)}`;
}

/** A value each kind of option accepts (before any file is opened), by its placeholder. */
function sampleValue(name: string, o: OptionDecl): string {
  if (o.choices !== undefined) return o.choices[0] as string;
  const byPlaceholder: Record<string, string> = { 'FROM..TO': '2026-11-02T00:00:00Z..2026-11-03T00:00:00Z', DURATION: '1h', 'PRESET|FILE': 'generic', N: '1' };
  return byPlaceholder[o.value ?? ''] ?? join(dir, `${name}.value`);
}

/** Arguments that satisfy a usage form (its positionals as missing files, its required options), so only the option under test varies. */
function formArgs(decl: CommandDecl, formIndex: number): string[] {
  const form = decl.forms[formIndex] as CommandDecl['forms'][number];
  const positionals = form.args === '' ? [] : form.args.split(' ').map((p) => join(dir, `missing-${p}`));
  const required = form.required ?? Object.keys(decl.options).filter((n) => decl.options[n]?.required === true);
  return [...positionals, ...required.flatMap((n) => [`--${n}`, sampleValue(n, decl.options[n] as OptionDecl)])];
}

/** One sentence on standard error naming the option, exit 2, nothing on standard output. */
function expectUsageError(r: { code: number; out: string; err: string }, what: string, flag: string): void {
  expect(r.code, `${what}: ${r.err}`).toBe(EXIT.usage);
  expect(r.out, what).toBe('');
  expect(r.err.trim().split('\n'), what).toHaveLength(1);
  expect(r.err, what).toContain(flag);
}

describe('every subcommand: --help lists every declared option; the parser takes them and refuses misuse', () => {
  it('the report\'s choices are the exporters\' lists', () => {
    expect([...REPORT_FORMAT_CHOICES]).toEqual([...REPORT_FORMATS]);
    expect([...PAPER_CHOICES]).toEqual([...PAPERS]);
    expect([...REPORT_FORM_CHOICES]).toEqual([...REPORT_FORMS]);
  });

  it('help texts group a whole number\'s digits as toLocaleString(\'en\') does (without loading ICU), and refuse a fraction', () => {
    for (const n of [0, 7, -7, 999, 1000, -1000, 12_345, 200_000, 1_234_567, -9_876_543, Number.MAX_SAFE_INTEGER]) {
      expect(groupedWhole(n), String(n)).toBe(n.toLocaleString('en'));
    }
    expect(() => groupedWhole(1.5)).toThrow(RangeError);
    expect(() => groupedWhole(Number.NaN)).toThrow(RangeError);
  });

  it('cacheproof --help, -h and help: exit 0, every command and every option of cacheproof itself', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], []]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(EXIT.ok);
      expect(r.err).toBe('');
      for (const [name, decl] of COMMANDS) {
        expect(r.out, name).toMatch(new RegExp(`^  ${name} `, 'm'));
        expect(r.out, name).toContain(decl.summary.split(' ').slice(0, 3).join(' '));
      }
      for (const [name, o] of Object.entries(MAIN.options)) expect(r.out, name).toContain(helpEntry(name, o));
    }
    const v = await cli('--version');
    expect(v.code).toBe(EXIT.ok);
    expect(v.out).toMatch(/^cacheproof \S+\n$/);
    expectUsageError(await cli('--version=yes'), '--version=yes', '--version');
    expectUsageError(await cli('--frobnicate'), '--frobnicate', '--frobnicate');
  });

  for (const [name, decl] of COMMANDS) {
    it(`cacheproof ${name} --help and cacheproof help ${name}: exit 0, every option with its value; the usage line names every option`, async () => {
      const help = await cli(name, '--help');
      expect(help.code).toBe(EXIT.ok);
      expect(help.err).toBe('');
      expect(help.out).toMatch(new RegExp(`^Usage: cacheproof ${name} `));
      expect((await cli('help', name)).out).toBe(help.out);
      expect((await cli(name, '-h')).out).toBe(help.out);
      const options = help.out.slice(help.out.indexOf('\nOptions:\n'));
      for (const [n, o] of Object.entries(decl.options)) expect(options, n).toMatch(new RegExp(`^  ${escape(helpEntry(n, o))}  `, 'm'));
      // the options block lists nothing undeclared
      const listed = [...options.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]);
      expect(listed.sort()).toEqual(Object.keys(decl.options).sort());
      const usage = usageLines(decl).join(' ');
      for (const [n, o] of Object.entries(decl.options)) if (n !== 'help') expect(usage, n).toContain(optionSynopsis(n, o));
    });

    it(`cacheproof ${name}: every declared option is taken; a switch given a value, a value missing or not allowed is exit 2 naming the option`, async () => {
      const before = readdirSync(dir).sort();
      for (const [i, form] of decl.forms.entries()) {
        const base = formArgs(decl, i);
        for (const n of form.options ?? Object.keys(decl.options).filter((k) => k !== 'help')) {
          const o = decl.options[n] as OptionDecl;
          const taken = await cli(name, ...base, ...(o.type === 'boolean' ? [`--${n}`] : [`--${n}`, sampleValue(n, o)]));
          // the missing input is what stops it, not the command line
          expect(taken.code, `${name} --${n}: ${taken.err}`).not.toBe(EXIT.usage);
          expect(taken.code, `${name} --${n}: ${taken.err}`).not.toBe(EXIT.ok);
          if (o.type === 'boolean') {
            for (const value of ['false', 'true', '']) expectUsageError(await cli(name, ...base, `--${n}=${value}`), `${name} --${n}=${value}`, `--${n}`);
            continue;
          }
          expectUsageError(await cli(name, ...base, `--${n}`), `${name} ${base.join(' ')} --${n}`, `--${n}`);
          expectUsageError(await cli(name, `--${n}`, '--help-me', ...base), `${name} --${n} --help-me`, `--${n}`);
          if (o.choices !== undefined) {
            const r = await cli(name, ...base, `--${n}`, 'nope');
            expectUsageError(r, `${name} --${n} nope`, `--${n}: 'nope' is not one of ${o.choices.join(', ')}.`);
          }
        }
      }
      expectUsageError(await cli(name, ...formArgs(decl, 0), '--frobnicate'), `${name} --frobnicate`, `unknown option '--frobnicate'`);
      expect(readdirSync(dir).sort()).toEqual(before);
    });
  }
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The sections of docs/cli.md by heading (`## …`), each with its text. */
function sections(text: string): { heading: string; body: string }[] {
  return text.split(/^## /m).slice(1).map((s) => ({ heading: s.slice(0, s.indexOf('\n')), body: s.slice(s.indexOf('\n') + 1) }));
}

/** The options a section documents: the code spans of its options table's first column, as written. */
function documentedOptions(body: string): string[] {
  const lines = body.split('\n');
  const start = lines.findIndex((l) => /^\| option \| meaning \|$/.test(l));
  if (start < 0) return [];
  const spans: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const first = line.slice(1).split(/(?<!\\)\|/)[0] ?? '';
    for (const m of first.matchAll(/`([^`]+)`/g)) spans.push((m[1] as string).replace(/\\\|/g, '|'));
  }
  return spans;
}

/** The option a span names: `--lang en|fr|es|ru` → lang; `-h` → help (by its short alias). */
function optionOfSpan(span: string, decl: CommandDecl): string {
  const word = span.split(' ')[0] as string;
  if (word.startsWith('--')) return word.slice(2).replace(/=.*$/, '');
  return Object.entries(decl.options).find(([, o]) => o.short !== undefined && `-${o.short}` === word)?.[0] ?? word;
}

describe('docs/cli.md documents exactly the declared options of every command', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const all: [string, CommandDecl][] = [['', MAIN], ...COMMANDS];
  for (const [name, decl] of all) {
    it(`${decl.command}: its section's options table lists every declared option, and every option the section names is declared`, () => {
      const own = sections(doc).filter((s) => new RegExp(`^\`${escape(decl.command)}${name === '' ? '`' : '[ `]'}`).test(s.heading));
      expect(own.map((s) => s.heading), decl.command).toHaveLength(1);
      const { heading, body } = own[0] as { heading: string; body: string };
      const spans = documentedOptions(body);
      const documented = new Set(spans.map((s) => optionOfSpan(s, decl)));
      expect([...documented].sort(), `${decl.command}: options table`).toEqual(Object.keys(decl.options).sort());
      // a span with a value is written as the declaration writes it (`--lang en|fr|es|ru`)
      for (const span of spans.filter((s) => s.startsWith('--') && s.includes(' '))) {
        const n = optionOfSpan(span, decl);
        expect(span, `${decl.command}: ${span}`).toBe(optionSynopsis(n, decl.options[n] as OptionDecl));
      }
      // the heading, every `cacheproof NAME …` example and every span opening with an option name only declared options
      const mentioned = [
        ...[...heading.matchAll(/--[\w-]+/g)].map((m) => m[0]),
        ...[...body.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)
          .filter((s) => (name !== '' && s.startsWith(`cacheproof ${name} `)) || /^--[\w-]/.test(s))
          .flatMap((s) => [...s.matchAll(/(?:^| )(--[\w-]+)/g)].map((m) => m[1] as string)),
      ];
      for (const flag of mentioned) expect(Object.keys(decl.options), `${decl.command}: ${flag} in docs/cli.md`).toContain(flag.slice(2));
    });
  }
});

describe('the browser host\'s command line, declared in app/src/browser-host/main.ts', () => {
  beforeAll(() => ensureBuiltCli(), 300_000);
  const bin = join(ROOT, 'app', 'dist', 'browser-host.cjs');
  const run = (...args: string[]): { code: number | null; out: string; err: string } => {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CACHEPROOF_DATA_DIR: join(dir, 'data') } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  it('--help lists every option, exit 0; a switch given a value, an unknown option or a bad port is exit 2 naming it', () => {
    const help = run('--help');
    expect(help.code, help.err).toBe(0);
    for (const entry of ['--no-open', '--url-file FILE', '--port N', '--sample FILE', '-h, --help']) expect(help.out).toContain(entry);
    expect(help.out).toMatch(/^Usage: node app\/dist\/browser-host\.cjs \[--no-open\] \[--url-file FILE\] \[--port N\] \[--sample FILE\]\n/);
    for (const [args, flag] of [[['--no-open=false'], '--no-open'], [['--frobnicate'], '--frobnicate'], [['--port', 'x'], '--port'], [['--port', '70000'], '--port'], [['--url-file'], '--url-file']] as const) {
      const r = run(...args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err, args.join(' ')).toContain(flag);
    }
  });
});
