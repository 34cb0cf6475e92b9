/**
 * The `--help` text of `cacheproof` and of each command (docs/cli.md): usage lines, then every
 * option with its value and range in aligned columns. `cacheproof COMMAND --help` (or `-h`, or
 * `cacheproof help COMMAND`) prints it on standard output and exits 0.
 */
import { APP_VERSION } from '../host/version.ts';
import { XLSX_INTERVAL_ROWS_LIMIT } from '../host/report/limits.ts';
import { COVER_DATE_RANGE, DURATION_MAX_TEXT, SEED_MAX, TARGET_MS_MAX } from './args.ts';

/** Help lines are wrapped at this many characters (a description continues under itself). */
export const HELP_WIDTH = 100;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && [...line].length + 1 + [...word].length > width) {
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
  const width = Math.max(...rows.map(([a]) => [...a].length));
  const column = indent.length + width + 2;
  const out: string[] = [];
  for (const [a, b] of rows) {
    const [first = '', ...more] = wrap(b, Math.max(30, HELP_WIDTH - column));
    out.push(`${indent}${a}${' '.repeat(width - [...a].length)}  ${first}`.trimEnd());
    for (const m of more) out.push(`${' '.repeat(column)}${m}`);
  }
  return out.join('\n');
}

const ANALYSIS_OPTIONS: [string, string][] = [
  ['--baseline FROM..TO', 'baseline window, ISO-8601 times with a zone (2026-11-02T00:00:00Z..2026-11-03T00:00:00Z)'],
  ['--measure FROM..TO', 'measure window, as --baseline'],
  ['--warmup DURATION', `warm-up excluded after the switch: 90s, 15m, 1h30m, 2d; 0 to ${DURATION_MAX_TEXT}`],
  ['--front DEV[,DEV]', 'front (application-facing) device(s); default: role front'],
  ['--backing DEV[,DEV]', 'backing devices; default: role backing'],
  ['--targets PRESET|FILE', `latency targets: exchange-db, exchange-log, sqlserver-data, sqlserver-log, sharepoint, generic, or a JSON file {"readMs": 10, "writeMs": 5} (each > 0 and ≤ ${TARGET_MS_MAX} ms)`],
  ['--seed N', `bootstrap seed, a whole number 0 to ${SEED_MAX} (default 20240601)`],
];

const HELP_ROW: [string, string] = ['-h, --help', 'this help'];

export const MAIN_HELP = `cacheproof ${APP_VERSION} — storage cache benefit analyzer

Usage: cacheproof COMMAND [options]    (cacheproof COMMAND --help: the command's options)

Commands:
${twoColumns([
  ['analyze CAPTURE [--json] [options]', 'before/after benefit figures of a capture'],
  ['tco SCENARIO [--json] [--lang L]', 'TCO and drive life per configuration (docs/tco-scenario.md)'],
  ['tco --from-capture CAPTURE --out SCENARIO', 'a scenario prefilled from a capture\'s analysis'],
  ['report CAPTURE --format F --out FILE', 'the proof-of-concept report: pdf, html, xlsx, csv or pptx (docs/report.md)'],
  ['verify CAPTURE FIO.json --device DEV', 'fio\'s totals beside the capture\'s, and their difference'],
  ['help [COMMAND]', 'this help, or a command\'s'],
  ['-V, --version', 'the version'],
])}

Exit codes: 0 ok, 1 internal error, 2 bad usage, 3 unreadable input, 4 input too new,
5 request does not match the data, 6 output not writable, 7 a needed tool is missing (docs/cli.md).
`;

export const ANALYZE_HELP = `Usage: cacheproof analyze CAPTURE [--json] [options]

Prints the before/after benefit figures of a capture (docs/cli.md, docs/analyze-json.md).
The capture is opened read-only; nothing is written.

Options:
${twoColumns([
  ['--json', 'print the JSON object instead of the table'],
  ['--lang en|fr|es|ru', 'language and number format of the table (default en)'],
  ['--host HOST', 'one host of a fleet capture (cacheproof-probe import prometheus of several hosts), analysed as its own capture would be: the figures of its row in the fleet view'],
  ['--profile', 'the baseline alone as a workload profile, no before/after (a log imported with no switch, a run stopped before it): capacity planning without a cache'],
  ...ANALYSIS_OPTIONS,
  HELP_ROW,
])}
`;

export const REPORT_HELP = `Usage: cacheproof report CAPTURE --format pdf|html|xlsx|csv|pptx --out FILE [options]

Writes the proof-of-concept report of a capture (docs/report.md), atomically: nothing is left on
error, and an output that is one of the inputs is refused.

Options:
${twoColumns([
  ['--format pdf|html|xlsx|csv|pptx', 'required; csv writes FILE (summary) and FILE-intervals.csv; pptx a few slides (verdict, headline figures, chart, TCO)'],
  ['--out FILE', 'required; the file to write'],
  ['--lang en|fr|es|ru', 'language of the texts, numbers and dates (default en)'],
  ['--paper a4|letter', 'PDF paper size (default a4)'],
  ['--form full|short', 'full (default): cover, contents with page numbers and every section; short: two pages for managers (verdict, headline cards, one chart, the TCO bottom line); PDF and HTML only'],
  ['--all-intervals', `XLSX: write the per-interval sheets even above ${XLSX_INTERVAL_ROWS_LIMIT.toLocaleString('en')} interval rows (slow; CSV always has them)`],
  ['--scenario FILE', 'the TCO scenario of the TCO and drive-life section (docs/tco-scenario.md); default: the one prefilled from the capture'],
  ['--cover FILE', `cover details, JSON {"title", "customer", "server", "author", "date": "YYYY-MM-DD"} (each text ≤ 200 characters; date ${COVER_DATE_RANGE})`],
  ...ANALYSIS_OPTIONS,
  HELP_ROW,
])}
`;

export const TCO_HELP = `Usage: cacheproof tco SCENARIO [--json] [--lang en|fr|es|ru]
       cacheproof tco --from-capture CAPTURE --out SCENARIO [--lang en|fr|es|ru]

Prices the configurations of a TCO scenario (docs/tco-scenario.md: every field and its range),
or writes a scenario prefilled from a capture's analysis.

Options:
${twoColumns([
  ['--json', 'print { "format": "cacheproof-tco-result", "version": 1, "result": … }'],
  ['--lang en|fr|es|ru', 'language of the text, the messages and the prefilled labels (default en)'],
  ['--from-capture CAPTURE', 'prefill a scenario from this capture (needs --out)'],
  ['--out SCENARIO', 'the scenario file to write (atomically; never the CAPTURE itself)'],
  HELP_ROW,
])}
`;

/** Whether the arguments ask for help (`--help` or `-h` anywhere). */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}
