/**
 * `cacheproof report CAPTURE --format pdf|html|xlsx|csv|pptx --out FILE [options]` (its options:
 * REPORT in declarations.ts, `--help`)
 * Writes the proof-of-concept report of a capture (docs/report.md). The figures are those of
 * `cacheproof analyze` with the same options. Nothing is written on error (one sentence on
 * standard error, documented exit code).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AnalyzeOptions } from '@cacheproof/engine';
import type { CoverInput } from '@cacheproof/engine/report';
import { exportReport, type ReportForm, type ReportFormat } from '../host/report/export.ts';
import { coverFrom, readScenarioFile } from '../host/report/input.ts';
import type { Paper } from '../host/report/html.ts';
import { overflowSentence } from '../host/report/pdf.ts';
import { HostError } from '../host/errors.ts';
import type { NamedInput } from '../host/same-file.ts';
import { probePath, probeVersion, findRepoRoot } from '../host/paths.ts';
import { APP_VERSION } from '../host/version.ts';
import { ReportCover } from '../shared/contract.ts';
import type { Lang } from '../shared/i18n/types.ts';
import { optionsFrom } from './analyze.ts';
import { exitFor } from './exit-codes.ts';
import { UsageError } from './args.ts';
import { parseCommand, renderHelp, usageExit, wantsHelp, type Values } from './command-line.ts';
import { REPORT } from './declarations.ts';
import { EXIT, type CliIO, type Command } from './io.ts';
import { localizeTemplate } from '../shared/i18n/template.ts';

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
    io.stdout(renderHelp(REPORT));
    return EXIT.ok;
  }
  let capturePath: string;
  let format: ReportFormat;
  let out: string;
  let lang: Lang = 'en';
  let paper: Paper = 'a4';
  let form: ReportForm = 'full';
  let options: AnalyzeOptions;
  let flags: Values<typeof REPORT.options>;
  try {
    // the declaration checks --format, --lang, --paper and --form against their allowed values
    const parsed = parseCommand(REPORT, args);
    flags = parsed.values;
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one CAPTURE file.');
    capturePath = parsed.positionals[0] as string;
    format = flags.format;
    if (flags.out === '') throw new UsageError('--out FILE is required.');
    out = flags.out;
    lang = flags.lang ?? lang;
    paper = flags.paper ?? paper;
    if (flags.form !== undefined) {
      form = flags.form;
      if (form === 'short' && format !== 'pdf' && format !== 'html') throw new UsageError(`--form short is a two-page PDF or HTML; for --format ${format} leave --form out (the ${format} export is always the full report${format === 'pptx' ? '; the deck is already short' : ''}).`);
    }
    options = optionsFrom(flags);
  } catch (err) {
    return usageExit(REPORT, err, io);
  }
  try {
    const coverPath = flags.cover;
    const cover = typeof coverPath === 'string' ? readCover(coverPath) : {};
    const scenarioPath = flags.scenario;
    const read = typeof scenarioPath === 'string' ? await readScenarioFile(scenarioPath) : null;
    // The template's labels are written in the report's language (user-written labels are kept).
    // Without --scenario, the TCO section prints the scenario prefilled from this capture (labelled so), as the Export screen does.
    const scenario = read === null ? { prefill: lang } : { ...read, json: localizeTemplate(read.json, lang) };
    const root = (process.argv[1] === undefined ? null : findRepoRoot(dirname(process.argv[1]))) ?? findRepoRoot(process.cwd());
    const inputs: NamedInput[] = [];
    if (typeof scenarioPath === 'string') inputs.push({ what: '--scenario', path: scenarioPath });
    if (typeof coverPath === 'string') inputs.push({ what: '--cover', path: coverPath });
    const targets = flags.targets;
    if (typeof targets === 'string') inputs.push({ what: '--targets', path: targets });
    // on a terminal, one line saying the stage and how far (a fleet of hundreds of hosts takes minutes); nothing in a pipe
    let shown = '';
    const progress = process.stderr.isTTY === true ? (percent: number, stage: string): void => {
      const line = `cacheproof report: ${stage} ${percent} %`;
      if (line !== shown) io.stderr(`\r${line}\u001b[K`);
      shown = line;
    } : undefined;
    const result = await exportReport({
      format, form, lang, paper, out, inputs, allIntervals: flags['all-intervals'] === true,
      load: { capturePath, cover, scenario, analyzeOptions: options, appVersion: APP_VERSION, probeVersion: probeVersion(probePath(root)), generatedMs: Date.now(), profile: flags.profile === true },
    }, progress).finally(() => { if (shown !== '') io.stderr('\r\u001b[K'); });
    if (result.kind === 'profile' && flags.profile !== true) io.stderr(`cacheproof report: ${capturePath} holds a baseline alone (no measure window): wrote its workload-profile report (cacheproof report --profile).\n`);
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
