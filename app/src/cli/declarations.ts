/**
 * The command lines of `cacheproof`, each declared once (command-line.ts): its parser, its usage
 * line and its `--help` come from here, and docs/cli.md is checked against these declarations
 * (app/test/cli-declarations.test.ts). This module loads nothing heavy: `cacheproof analyze`
 * must not load the report's exporters to know the report's options.
 */
import { TARGET_PRESETS } from '@cacheproof/engine';
import { APP_VERSION } from '../host/version.ts';
import { XLSX_INTERVAL_ROWS_LIMIT } from '../host/report/limits.ts';
import type { ReportForm, ReportFormat } from '../host/report/export.ts';
import type { Paper } from '../host/report/html.ts';
import { LANGS } from '../shared/i18n/types.ts';
import { COVER_DATE_RANGE, DURATION_MAX_TEXT, SEED_MAX, TARGET_MS_MAX } from './args.ts';
import { groupedWhole, HELP_OPTION, optionRows, optionSynopsis, twoColumns, type CommandDecl, type OptionDecl, type OptionDecls } from './command-line.ts';

/** Every value of a union, listed: a value missing from `list` is a type error (`[]` is `never`). */
function all<T extends string>() {
  return <const L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : never)): L => list;
}

/** The report's formats, papers and forms (export.ts holds the same lists, with the exporters; the test compares them). */
export const REPORT_FORMAT_CHOICES = all<ReportFormat>()(['pdf', 'html', 'xlsx', 'csv', 'pptx']);
export const PAPER_CHOICES = all<Paper>()(['a4', 'letter']);
export const REPORT_FORM_CHOICES = all<ReportForm>()(['full', 'short']);

const lang = (what: string) => ({ type: 'string', choices: LANGS, description: `${what} (default en)` }) as const;

/** The analysis options `analyze` and `report` share (engine AnalyzeOptions). */
const ANALYSIS_OPTIONS = {
  baseline: { type: 'string', value: 'FROM..TO', description: 'baseline window, ISO-8601 times with a zone (2026-11-02T00:00:00Z..2026-11-03T00:00:00Z); default: the capture\'s baseline phase' },
  measure: { type: 'string', value: 'FROM..TO', description: 'measure window, as --baseline; default: the capture\'s measure phase' },
  warmup: { type: 'string', value: 'DURATION', description: `warm-up excluded after the switch: 90s, 15m, 1h30m, 2d or bare seconds; 0 to ${DURATION_MAX_TEXT}` },
  front: { type: 'string', value: 'DEV[,DEV]', description: 'front (application-facing) device(s); default: role front' },
  backing: { type: 'string', value: 'DEV[,DEV]', description: 'backing devices; default: role backing' },
  targets: { type: 'string', value: 'PRESET|FILE', description: `latency targets: ${Object.keys(TARGET_PRESETS).join(', ')}, or a JSON file {"readMs": 10, "writeMs": 5} (each > 0 and ≤ ${TARGET_MS_MAX} ms)` },
  seed: { type: 'string', value: 'N', description: `bootstrap seed, a whole number 0 to ${SEED_MAX} (default 20240601)` },
} as const satisfies OptionDecls;
export type AnalysisOptionDecls = typeof ANALYSIS_OPTIONS;

export const ANALYZE = {
  command: 'cacheproof analyze',
  summary: 'before/after benefit figures of a capture',
  about: [
    'Prints the before/after benefit figures of a capture (docs/cli.md, docs/analyze-json.md). The capture is opened read-only; nothing is written.',
  ],
  forms: [{ args: 'CAPTURE' }],
  options: {
    json: { type: 'boolean', description: 'print the JSON object instead of the table' },
    lang: lang('language and number format of the table'),
    host: { type: 'string', value: 'HOST', description: 'one host of a fleet capture (cacheproof-probe import prometheus of several hosts), analysed as its own capture would be: the figures of its row in the fleet view' },
    profile: { type: 'boolean', description: 'the baseline alone as a workload profile, no before/after (a log imported with no switch, a run stopped before it): capacity planning without a cache' },
    scenario: { type: 'string', value: 'FILE', description: 'the TCO scenario the decision block\'s verdict and payback come from (docs/tco-scenario.md); default: the one prefilled from the capture, as cacheproof report prints it' },
    ...ANALYSIS_OPTIONS,
    ...HELP_OPTION,
  },
} as const satisfies CommandDecl;

export const REPORT = {
  command: 'cacheproof report',
  summary: 'the proof-of-concept report: pdf, html, xlsx, csv or pptx (docs/report.md)',
  about: [
    'Writes the proof-of-concept report of a capture (docs/report.md), atomically: nothing is left on error, and an output that is one of the inputs is refused.',
  ],
  forms: [{ args: 'CAPTURE' }],
  options: {
    format: { type: 'string', choices: REPORT_FORMAT_CHOICES, required: true, description: 'required; csv writes FILE (summary) and FILE-intervals.csv; pptx a few slides (verdict, headline figures, chart, TCO)' },
    out: { type: 'string', value: 'FILE', required: true, description: 'required; the file to write' },
    lang: lang('language of the texts, numbers and dates'),
    paper: { type: 'string', choices: PAPER_CHOICES, description: 'PDF paper size (default a4)' },
    form: { type: 'string', choices: REPORT_FORM_CHOICES, description: 'full (default): cover, contents with page numbers and every section; short: two pages for managers (verdict, headline cards, one chart, the TCO bottom line); PDF and HTML only' },
    'all-intervals': { type: 'boolean', description: `XLSX: write the per-interval sheets even above ${groupedWhole(XLSX_INTERVAL_ROWS_LIMIT)} interval rows (slow; CSV always has them)` },
    scenario: { type: 'string', value: 'FILE', description: 'the TCO scenario of the TCO and drive-life section (docs/tco-scenario.md); default: the one prefilled from the capture' },
    cover: { type: 'string', value: 'FILE', description: `cover details, JSON {"title", "customer", "server", "author", "date": "YYYY-MM-DD"} (each text ≤ 200 characters; date ${COVER_DATE_RANGE})` },
    profile: { type: 'boolean', description: 'the workload-profile report (the figures of analyze --profile: IOPS at p95 and peak, throughput, read share, request size, health against the targets), no before/after; a capture with a baseline alone gets it without this flag' },
    ...ANALYSIS_OPTIONS,
    ...HELP_OPTION,
  },
} as const satisfies CommandDecl;

export const TCO = {
  command: 'cacheproof tco',
  summary: 'TCO and drive life per configuration (docs/tco-scenario.md)',
  about: [
    'Prices the configurations of a TCO scenario (docs/tco-scenario.md: every field and its range), or writes a scenario prefilled from a capture\'s analysis.',
  ],
  forms: [
    { args: 'SCENARIO', options: ['json', 'lang'], required: [] },
    { args: '', options: ['from-capture', 'out', 'lang'], required: ['from-capture', 'out'], summary: 'a scenario prefilled from a capture\'s analysis' },
  ],
  options: {
    json: { type: 'boolean', description: 'print { "format": "cacheproof-tco-result", "version": 1, "result": … }' },
    lang: lang('language of the text, the messages and the prefilled labels'),
    'from-capture': { type: 'string', value: 'CAPTURE', description: 'prefill a scenario from this capture (needs --out)' },
    out: { type: 'string', value: 'SCENARIO', description: 'the scenario file to write (atomically; never the CAPTURE itself)' },
    ...HELP_OPTION,
  },
} as const satisfies CommandDecl;

export const VERIFY = {
  command: 'cacheproof verify',
  summary: 'fio\'s totals beside the capture\'s, and their difference',
  about: [
    'Prints fio\'s totals (fio 2.x or 3.x --output-format=json; text before the JSON is skipped) beside the capture\'s totals of the same device, and the capture\'s difference from fio. fio\'s job totals are its own I/O counts: with direct, aligned I/O on a device only fio used, the capture must equal them exactly (buffered I/O, merging and the page cache make them differ). fio\'s disk_util is its periodic sample of /proc/diskstats (every 250 ms), which can stop short of the run\'s last requests.',
  ],
  forms: [{ args: 'CAPTURE FIO.json' }],
  options: {
    device: { type: 'string', value: 'DEV', required: true, description: 'required; the capture\'s device (and fio\'s disk_util name) to compare: the device fio ran on, as the capture names it' },
    window: { type: 'string', value: 'FROM..TO', description: 'the capture\'s window to total, ISO-8601 with a zone; default: the whole capture' },
    json: { type: 'boolean', description: 'print { "format": "cacheproof-verify", "version": 1, … } instead of the table' },
    ...HELP_OPTION,
  },
} as const satisfies CommandDecl;

/** Every subcommand of `cacheproof`, by the name that runs it. */
export const COMMAND_DECLS = { analyze: ANALYZE, tco: TCO, report: REPORT, verify: VERIFY } as const satisfies Record<string, CommandDecl>;

/** `cacheproof` itself: the options it takes before (instead of) a command. */
export const MAIN = {
  command: 'cacheproof',
  summary: 'storage cache benefit analyzer',
  about: [],
  forms: [{ args: 'COMMAND [options]', options: [] }],
  options: {
    ...HELP_OPTION,
    version: { type: 'boolean', short: 'V', description: 'the version' },
  },
} as const satisfies CommandDecl;

/**
 * `cacheproof --help`: the commands, one row per usage form with its arguments and required
 * options (a choice by its name: `--format FORMAT`), and `cacheproof`'s own options.
 */
export function mainHelp(): string {
  const commands: [string, string][] = [];
  for (const [name, decl] of Object.entries(COMMAND_DECLS) as [string, CommandDecl][]) {
    decl.forms.forEach((form, i) => {
      const required = (form.required ?? Object.entries(decl.options).filter(([, o]) => o.required === true).map(([n]) => n))
        .map((n) => {
          const o = decl.options[n] as OptionDecl;
          return o.value === undefined && o.choices !== undefined ? `--${n} ${n.toUpperCase()}` : optionSynopsis(n, o);
        });
      commands.push([[name, form.args, ...required].filter((s) => s !== '').join(' '), form.summary ?? (i === 0 ? decl.summary : '')]);
    });
  }
  commands.push(['help [COMMAND]', 'this help, or a command\'s']);
  return `${MAIN.command} ${APP_VERSION} — ${MAIN.summary}

Usage: cacheproof COMMAND [options]    (cacheproof COMMAND --help: the command's options)

Commands:
${twoColumns(commands)}

Options:
${twoColumns(optionRows(MAIN.options))}

Exit codes: 0 ok, 1 internal error, 2 bad usage, 3 unreadable input, 4 input too new,
5 request does not match the data, 6 output not writable, 7 a needed tool is missing (docs/cli.md).
`;
}
