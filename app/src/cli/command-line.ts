/**
 * One declaration per command line (ARCHITECTURE.md, process rules): a command declares each of
 * its options once (name, type, value placeholder, description, allowed values), and from that
 * declaration `node:util` `parseArgs` parses, and the usage line and the `--help` text are made.
 * docs/cli.md is checked against the same declarations (app/test/cli-declarations.test.ts).
 */
import { parseArgs } from 'node:util';
import { UsageError } from './args.ts';
import { EXIT, type CliIO } from './io.ts';

export interface OptionDecl {
  /** `boolean`: a switch, which takes no value (`--json=false` is a usage error); `string`: one value. */
  readonly type: 'boolean' | 'string';
  /** A one-letter alias (`h` for `-h`). */
  readonly short?: string;
  /** The value's placeholder in the usage line and help (`FROM..TO`); default: the allowed values joined by `|`. */
  readonly value?: string;
  /** The only values accepted; another is a usage error naming the option and these. */
  readonly choices?: readonly string[];
  /** Written bare (not in brackets) in the usage line, and its absence is a usage error. */
  readonly required?: boolean;
  readonly description: string;
}

export type OptionDecls = Readonly<Record<string, OptionDecl>>;

/** One way to call a command: its positional arguments and which options go with them. */
export interface UsageForm {
  /** The positional arguments as the usage line writes them (`CAPTURE`, `CAPTURE FIO.json`, or ''). */
  readonly args: string;
  /** The options of this form, in order; default: every declared option but `help`. */
  readonly options?: readonly string[];
  /** The options this form needs (bare in its usage line); default: those declared `required`. */
  readonly required?: readonly string[];
  /** This form's line in the list of commands, when it differs from the command's summary. */
  readonly summary?: string;
}

export interface CommandDecl<O extends OptionDecls = OptionDecls> {
  /** The words before the arguments: `cacheproof analyze`. */
  readonly command: string;
  /** One line for the list of commands (`cacheproof --help`). */
  readonly summary: string;
  /** Paragraphs under the usage line of `--help`. */
  readonly about: readonly string[];
  readonly forms: readonly UsageForm[];
  readonly options: O;
}

/** `-h, --help`, which every command declares. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', description: 'this help' } } as const satisfies OptionDecls;

/** Whether the arguments ask for help (`--help` or `-h` anywhere): help is printed whatever the other arguments. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** The value of one option: `true` for a switch given, one of the allowed values, or the string. */
type Value<D extends OptionDecl> = D['type'] extends 'boolean' ? true : D extends { readonly choices: readonly (infer C extends string)[] } ? C : string;
/** The values parsed from the command line; a required option is always there (parseCommand checks it). */
export type Values<O extends OptionDecls> = { [K in keyof O as O[K] extends { readonly required: true } ? K : never]: Value<O[K]> } & {
  [K in keyof O as O[K] extends { readonly required: true } ? never : K]?: Value<O[K]>;
};

/** Help lines are wrapped at this many characters (a description continues under itself). */
export const HELP_WIDTH = 100;

const len = (s: string): number => [...s].length;

/**
 * A whole number with its digits grouped by three with commas, exactly as `toLocaleString('en')`
 * writes it (`200,000`), for help texts: the first Intl call of a process loads ICU's locale data,
 * about 30 ms of CPU, which `cacheproof --help` and `analyze --json` otherwise never need.
 *
 * @example groupedWhole(200_000) === '200,000'
 */
export function groupedWhole(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`groupedWhole: ${n} is not a whole number`);
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** `--name`, or `-h, --help` with its short alias. */
export function optionName(name: string, o: OptionDecl): string {
  return o.short === undefined ? `--${name}` : `-${o.short}, --${name}`;
}

/** The option as the usage line and help write it: `--lang en|fr|es|ru`, `--json`. */
export function optionSynopsis(name: string, o: OptionDecl): string {
  if (o.type === 'boolean') return `--${name}`;
  return `--${name} ${o.value ?? o.choices?.join('|') ?? 'VALUE'}`;
}

function own(options: OptionDecls, name: string): OptionDecl | undefined {
  return Object.prototype.hasOwnProperty.call(options, name) ? options[name] : undefined;
}

/**
 * Parses `args` against the declaration with `parseArgs` (its tokens, checked here so that every
 * refusal is one sentence naming the option): an undeclared option, a value given to a switch
 * (`--json=false`), a string option without its value (`--lang` at the end, or followed by
 * another option), a value outside the allowed ones, or a required option left out, is a
 * {@link UsageError}. An option given twice keeps its last value.
 */
export function parseCommand<O extends OptionDecls>(decl: CommandDecl<O>, args: readonly string[]): { values: Values<O>; positionals: string[] } {
  const config: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, o] of Object.entries(decl.options)) config[name] = o.short === undefined ? { type: o.type } : { type: o.type, short: o.short };
  const { tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const o = own(decl.options, t.name);
    if (o === undefined || (t.rawName.startsWith('--') ? t.rawName !== `--${t.name}` : t.rawName !== `-${o.short ?? ''}`)) {
      throw new UsageError(`unknown option '${t.rawName}'.`);
    }
    const flag = `--${t.name}`;
    if (o.type === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`${flag} is a switch and takes no value (got '${t.rawName}=${t.value}'); give ${flag} alone, or leave it out.`);
      values[t.name] = true;
      continue;
    }
    // parseArgs, not strict, takes the next argument as the value even when it is another option
    if (t.value === undefined || (t.inlineValue !== true && t.value.startsWith('--'))) throw new UsageError(`${flag} needs a value: ${optionSynopsis(t.name, o)}.`);
    if (o.choices !== undefined && !o.choices.includes(t.value)) throw new UsageError(`${flag}: '${t.value}' is not one of ${o.choices.join(', ')}.`);
    values[t.name] = t.value;
  }
  for (const [name, o] of Object.entries(decl.options)) {
    if (o.required === true && values[name] === undefined) {
      throw new UsageError(o.choices === undefined ? `${optionSynopsis(name, o)} is required.` : `--${name} is required (one of ${o.choices.join(', ')}).`);
    }
  }
  return { values: values as Values<O>, positionals };
}

/** The items of a form's usage line: the command, its arguments, required options, then optional ones in brackets. */
function formItems(decl: CommandDecl, form: UsageForm): string[] {
  const names = form.options ?? Object.keys(decl.options).filter((n) => n !== 'help');
  const required = form.required ?? names.filter((n) => own(decl.options, n)?.required === true);
  const item = (n: string): string => {
    const o = own(decl.options, n);
    if (o === undefined) throw new Error(`${decl.command}: the usage form names '${n}', which is not declared`);
    return optionSynopsis(n, o);
  };
  return [decl.command, ...(form.args === '' ? [] : [form.args]), ...required.map(item), ...names.filter((n) => !required.includes(n)).map((n) => `[${item(n)}]`)];
}

/** Every usage line of the command, unwrapped: `cacheproof analyze CAPTURE [--json] …`. */
export function usageLines(decl: CommandDecl): string[] {
  return decl.forms.map((f) => formItems(decl, f).join(' '));
}

/** The usage error as the command prints it: one line, the sentence then the usage. */
export function usageError(decl: CommandDecl, message: string): string {
  return `${decl.command}: ${message} Usage: ${usageLines(decl).join(' | ')} (${decl.command} --help: every option)\n`;
}

/**
 * A command's arguments refused: for a {@link UsageError}, its sentence and the usage line on
 * stderr and the usage exit code; anything else (a bug) is thrown on.
 *
 * @example
 * try { flags = parseCommand(ANALYZE, args).values; } catch (err) { return usageExit(ANALYZE, err, io); }
 */
export function usageExit(decl: CommandDecl, err: unknown, io: CliIO): typeof EXIT.usage {
  if (!(err instanceof UsageError)) throw err;
  io.stderr(usageError(decl, err.message));
  return EXIT.usage;
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
export function wrap(text: string, width: number, separator = ' '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(separator)) {
    if (line !== '' && len(line) + 1 + len(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/**
 * Rows laid out in two columns: the first padded to the widest, two spaces, the second wrapped
 * at {@link HELP_WIDTH} with its continuation lines starting in the same column.
 */
export function twoColumns(rows: readonly (readonly [string, string])[], indent = '  '): string {
  const width = Math.max(...rows.map(([a]) => len(a)));
  const column = indent.length + width + 2;
  const out: string[] = [];
  for (const [a, b] of rows) {
    const [first = '', ...more] = wrap(b, Math.max(30, HELP_WIDTH - column));
    out.push(`${indent}${a}${' '.repeat(width - len(a))}  ${first}`.trimEnd());
    for (const m of more) out.push(`${' '.repeat(column)}${m}`);
  }
  return out.join('\n');
}

/** The option rows of `--help`: every declared option, `--help` last. */
export function optionRows(options: OptionDecls): [string, string][] {
  const rows = Object.entries(options).map(([n, o]): [string, string, boolean] => [
    o.short === undefined ? optionSynopsis(n, o) : `-${o.short}, ${optionSynopsis(n, o)}`,
    o.description,
    n === 'help',
  ]);
  return [...rows.filter((r) => !r[2]), ...rows.filter((r) => r[2])].map(([a, b]) => [a, b]);
}

/**
 * The `--help` text: the usage lines (each wrapped at {@link HELP_WIDTH} between items, continuing
 * under its first argument), the paragraphs, then every option in aligned columns.
 */
export function renderHelp(decl: CommandDecl): string {
  const usage: string[] = [];
  decl.forms.forEach((form, i) => {
    const [command, ...rest] = formItems(decl, form);
    const lead = `${i === 0 ? 'Usage: ' : '       '}${command ?? ''} `;
    const lines = wrap(rest.join('\u0000'), HELP_WIDTH - len(lead), '\u0000');
    usage.push(`${lead}${lines[0] ?? ''}`.trimEnd(), ...lines.slice(1).map((l) => `${' '.repeat(len(lead))}${l}`));
  });
  const about = decl.about.map((p) => wrap(p, HELP_WIDTH).join('\n'));
  return `${usage.join('\n')}\n\n${about.join('\n\n')}\n\nOptions:\n${twoColumns(optionRows(decl.options))}\n`;
}
