/**
 * `cacheproof report CAPTURE --format pdf|html|xlsx|csv --out FILE [--lang en|fr|es|ru]
 *  [--paper a4|letter] [--form full|short] [--scenario FILE] [--cover cover.json] [analysis options]`
 * Writes the proof-of-concept report of a capture (docs/report.md). The figures are those of
 * `cacheproof analyze` with the same options. Nothing is written on error (one sentence on
 * standard error, documented exit code).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import type { CoverInput } from '@cacheproof/engine/report';
import { exportReport, isReportFormat, PAPERS, REPORT_FORMATS, REPORT_FORMS, type ReportForm, type ReportFormat } from '../host/report/export.ts';
import { coverFrom, readScenarioFile } from '../host/report/input.ts';
import type { Paper } from '../host/report/html.ts';
import { overflowSentence } from '../host/report/pdf.ts';
import { HostError } from '../host/errors.ts';
import type { NamedInput } from '../host/same-file.ts';
import { probePath, probeVersion, findRepoRoot } from '../host/paths.ts';
import { APP_VERSION } from '../host/version.ts';
import { ReportCover } from '../shared/contract.ts';
import { isLang, type Lang } from '../shared/i18n/types.ts';
import { optionsFrom } from './analyze.ts';
import { exitFor } from './exit-codes.ts';
import { parseFlags, UsageError } from './args.ts';
import { REPORT_HELP, wantsHelp } from './help.ts';
import { EXIT, type CliIO, type Command } from './io.ts';
import { localizeTemplate } from '../shared/i18n/template.ts';

const FLAGS = {
  '--format': 'value', '--out': 'value', '--lang': 'value', '--paper': 'value', '--form': 'value', '--scenario': 'value', '--cover': 'value',
  '--all-intervals': 'bool',
  '--baseline': 'value', '--measure': 'value', '--warmup': 'value', '--front': 'value', '--backing': 'value', '--targets': 'value', '--seed': 'value',
} as const;

const USAGE = 'Usage: cacheproof report CAPTURE --format pdf|html|xlsx|csv --out FILE [--lang en|fr|es|ru] [--paper a4|letter] [--scenario FILE] [--cover cover.json] [--all-intervals] [--baseline FROM..TO] [--measure FROM..TO] [--warmup DURATION] [--front DEV] [--backing DEV,DEV] [--targets PRESET|FILE] [--seed N] (cacheproof report --help: every option)';

/** Reads and checks a cover file; a problem is one sentence naming the file and field. */
export function readCover(path: string): CoverInput {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new HostError('bad-request', `--cover: ${path} is not a readable JSON file: ${(err as Error).message}.`);
  }
  const parsed = ReportCover.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : issue?.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : '';
    const what = issue?.code === 'unrecognized_keys' ? 'unknown field (use title, customer, server, author, date)' : (issue?.message ?? 'invalid');
    throw new HostError('bad-request', `--cover: ${path}: ${field === '' ? 'the file' : field}: ${what}.`);
  }
  return coverFrom(parsed.data);
}

export const reportCommand: Command = async (args: string[], io: CliIO) => {
  if (wantsHelp(args)) {
    io.stdout(REPORT_HELP);
    return EXIT.ok;
  }
  let capturePath: string;
  let format: ReportFormat;
  let out: string;
  let lang: Lang = 'en';
  let paper: Paper = 'a4';
  let form: ReportForm = 'full';
  let options: AnalyzeOptions;
  let flags: Map<string, string | true>;
  try {
    const parsed = parseFlags(args, FLAGS);
    flags = parsed.flags;
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one CAPTURE file.');
    capturePath = parsed.positionals[0] as string;
    const f = flags.get('--format');
    if (typeof f !== 'string') throw new UsageError(`--format is required (one of ${REPORT_FORMATS.join(', ')}).`);
    if (!isReportFormat(f)) throw new UsageError(`--format: '${f}' is not one of ${REPORT_FORMATS.join(', ')}.`);
    format = f;
    const o = flags.get('--out');
    if (typeof o !== 'string' || o === '') throw new UsageError('--out FILE is required.');
    out = o;
    const l = flags.get('--lang');
    if (typeof l === 'string') {
      if (!isLang(l)) throw new UsageError(`--lang: '${l}' is not one of en, fr, es, ru.`);
      lang = l;
    }
    const p = flags.get('--paper');
    if (typeof p === 'string') {
      if (!(PAPERS as readonly string[]).includes(p)) throw new UsageError(`--paper: '${p}' is not one of ${PAPERS.join(', ')}.`);
      paper = p as Paper;
    }
    const fm = flags.get('--form');
    if (typeof fm === 'string') {
      if (!(REPORT_FORMS as readonly string[]).includes(fm)) throw new UsageError(`--form: '${fm}' is not one of ${REPORT_FORMS.join(', ')}.`);
      form = fm as ReportForm;
      if (form === 'short' && format !== 'pdf' && format !== 'html') throw new UsageError(`--form short is a two-page PDF or HTML; for --format ${format} leave --form out (the ${format} export is always the full report${format === 'pptx' ? '; the deck is already short' : ''}).`);
    }
    options = optionsFrom(flags);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`cacheproof report: ${err.message} ${USAGE}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  try {
    const coverPath = flags.get('--cover');
    const cover = typeof coverPath === 'string' ? readCover(coverPath) : {};
    const scenarioPath = flags.get('--scenario');
    const read = typeof scenarioPath === 'string' ? await readScenarioFile(scenarioPath) : null;
    // The template's labels are written in the report's language (user-written labels are kept).
    // Without --scenario, the TCO section prints the scenario prefilled from this capture (labelled so), as the Export screen does.
    const scenario = read === null ? { prefill: lang } : { ...read, json: localizeTemplate(read.json, lang) };
    const root = (process.argv[1] === undefined ? null : findRepoRoot(dirname(process.argv[1]))) ?? findRepoRoot(process.cwd());
    const inputs: NamedInput[] = [];
    if (typeof scenarioPath === 'string') inputs.push({ what: '--scenario', path: scenarioPath });
    if (typeof coverPath === 'string') inputs.push({ what: '--cover', path: coverPath });
    const targets = flags.get('--targets');
    if (typeof targets === 'string') inputs.push({ what: '--targets', path: targets });
    const result = await exportReport({
      format, form, lang, paper, out, inputs, allIntervals: flags.has('--all-intervals'),
      load: { capturePath, cover, scenario, analyzeOptions: options, appVersion: APP_VERSION, probeVersion: probeVersion(probePath(root)), generatedMs: Date.now() },
    });
    for (const o of result.overflow) io.stderr(`cacheproof report: warning: ${overflowSentence(o)}\n`);
    io.stdout(`${result.files.map((f) => `Wrote ${f}`).join('\n')}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof HostError) {
      io.stderr(`cacheproof report: ${err.message}\n`);
      return exitFor(err.code);
    }
    throw err;
  }
};
