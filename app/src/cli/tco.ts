/**
 * `cacheproof tco SCENARIO [--json] [--lang en|fr|es|ru]`: prints, per configuration of a TCO
 * scenario (docs/tco-scenario.md), the sizing, the line-item cost table and the drive life,
 * then the comparison against the reference configuration.
 *
 * `cacheproof tco --from-capture CAPTURE --out SCENARIO [--lang en|fr|es|ru]` writes a scenario
 * prefilled from a measured workload, the template's title and drive and configuration labels in
 * the language (the same scenario the Planner screen gets from `plan.fromAnalysis`); it needs a
 * `measureCapture` dependency (see {@link makeTco}), which the CLI dispatcher passes.
 *
 * Exit codes (io.ts): 0 ok; 2 bad usage; 3 unreadable file, malformed JSON, invalid scenario or
 * a workload the configurations cannot hold; 4 scenario from a newer version; 6 --out not writable.
 */
import { readFile } from 'node:fs/promises';
import {
  parseScenario,
  planScenario,
  savingsSensitivity,
  tcoComparisonTable,
  type MeasuredFrom,
  type MeasuredWorkload,
  type PlanError,
  type PlanResult,
  type Scenario,
} from '@cacheproof/engine/plan';
import { translate, type Lang } from '../shared/i18n/types.ts';
import { localizeTemplate } from '../shared/i18n/template.ts';
import { formatTcoDecimal, formatTcoNumber, tco as catalog, type TcoKey } from '../shared/i18n/tco.ts';
import { writeFileAtomic } from '../host/atomic-write.ts';
import { UsageError } from './args.ts';
import { parseCommand, renderHelp, usageExit, wantsHelp } from './command-line.ts';
import { TCO } from './declarations.ts';
import { clashingInput, clashSentence } from '../host/same-file.ts';
import { prefillFromMeasurement } from '../host/plan.ts';
import { EXIT, type CliIO, type Command, type ExitCode } from './io.ts';
import { configurationSentences, configWarningSentences, costPerSentence, driveLifeSentence, lineItemDetail, planSummarySentences, sensitivitySentences } from '../shared/i18n/planner.ts';
import { fmtBytes } from '../shared/i18n/numbers.ts';
import { verdictText } from '../shared/i18n/verdict.ts';
import { TCO_COLUMN_KEYS, tcoCellText } from '../shared/i18n/tco-table.ts';

/** What `tco --from-capture` needs from the analysis: a capture path in, a measured workload (or a failure) out. */
export type MeasureCapture = (capturePath: string) => Promise<{ ok: true; value: MeasuredWorkload; measuredFrom?: MeasuredFrom; from?: 'analysis' | 'profile'; /** the analysis's name, the prefilled scenario's title (analysisName) */ name?: string } | { ok: false; exitCode: ExitCode; message: string }>;

export interface TcoDeps {
  measureCapture?: MeasureCapture;
}

interface TcoArgs {
  scenarioPath: string | null;
  json: boolean;
  lang: Lang;
  fromCapture: string | null;
  out: string | null;
}

/** The arguments of `cacheproof tco`, parsed by its declaration (TCO in declarations.ts); a misuse is a {@link UsageError}. */
function tcoArgs(args: string[]): TcoArgs {
  const { values, positionals } = parseCommand(TCO, args);
  for (const name of ['from-capture', 'out'] as const) if (values[name] === '') throw new UsageError(`--${name} needs a file path.`);
  if (positionals.length > 1) throw new UsageError(`one scenario file only (got ${positionals[0] ?? ''} and ${positionals[1] ?? ''}).`);
  const a: TcoArgs = { scenarioPath: positionals[0] ?? null, json: values.json === true, lang: values.lang ?? 'en', fromCapture: values['from-capture'] ?? null, out: values.out ?? null };
  if (a.fromCapture !== null) {
    if (a.out === null) throw new UsageError('--from-capture needs --out SCENARIO.');
    if (a.scenarioPath !== null) throw new UsageError('--from-capture takes no SCENARIO argument.');
  } else if (a.scenarioPath === null) throw new UsageError('a SCENARIO file is required.');
  return a;
}

/** Builds the command with its dependencies; {@link tco} is the one without `--from-capture` support. */
export function makeTco(deps: TcoDeps = {}): Command {
  return async (args: string[], io: CliIO): Promise<ExitCode> => {
    if (wantsHelp(args)) {
      io.stdout(renderHelp(TCO));
      return EXIT.ok;
    }
    let a: TcoArgs;
    try {
      a = tcoArgs(args);
    } catch (err) {
      return usageExit(TCO, err, io);
    }
    const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(catalog, a.lang, key, params);

    if (a.fromCapture !== null && a.out !== null) return fromCapture(a.fromCapture, a.out, a.lang, deps, io, t);

    const file = a.scenarioPath ?? '';
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      io.stderr(`${t('err.cannot-read', { file, detail: errText(err) })}\n`);
      return EXIT.badInput;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      io.stderr(`${t('err.not-json', { file, detail: errText(err) })}\n`);
      return EXIT.badInput;
    }
    // The template's labels in the language asked for (user-written labels are kept), as `cacheproof report --scenario` prints them.
    const scenario = parseScenario(localizeTemplate(json, a.lang));
    if (!scenario.ok) {
      io.stderr(`${file}: ${errorSentence(scenario.error, a.lang)}\n`);
      return scenario.error.code === 'too-new' ? EXIT.tooNew : EXIT.badInput;
    }
    const plan = planScenario(scenario.value);
    if (!plan.ok) {
      io.stderr(`${file}: ${errorSentence(plan.error, a.lang)}\n`);
      return EXIT.badInput;
    }
    // The tornado (engine savingsSensitivity, ±20 % per input); null when there is nothing to compare.
    const sens = savingsSensitivity(scenario.value);
    const sensitivity = sens.ok ? sens.value : null;
    if (a.json) io.stdout(`${JSON.stringify({ format: 'cacheproof-tco-result', version: 1, result: plan.value, sensitivity }, null, 2)}\n`);
    else io.stdout(renderTcoText(plan.value, scenario.value, a.lang));
    return EXIT.ok;
  };
}

/** `cacheproof tco` as the dispatcher registers it (no `--from-capture` until the analysis is wired through makeTco). */
export const tco: Command = makeTco();

async function fromCapture(capture: string, outPath: string, lang: Lang, deps: TcoDeps, io: CliIO, t: (key: TcoKey, params?: Record<string, string | number>) => string): Promise<ExitCode> {
  if (deps.measureCapture === undefined) {
    io.stderr(`${t('err.no-capture-support')}\n`);
    return EXIT.usage;
  }
  const clash = clashingInput(outPath, [{ what: 'CAPTURE', path: capture }]);
  if (clash !== null) {
    io.stderr(`${clashSentence(outPath, 'the scenario', clash)}\n`);
    return EXIT.cannotWrite;
  }
  const m = await deps.measureCapture(capture);
  if (!m.ok) {
    io.stderr(`${m.message}\n`);
    return m.exitCode;
  }
  // measuredFrom names the capture (file name and SHA-256), so that a report can check the pair exactly;
  // the one prefill every report of a capture plans too (host/plan.ts)
  const scenario = prefillFromMeasurement(m.value, lang, m.name, m.measuredFrom);
  try {
    // Atomic: a full disk or a failed write leaves an existing SCENARIO as it was, never a 0-byte file.
    await writeFileAtomic(outPath, `${JSON.stringify(scenario, null, 2)}\n`);
  } catch (err) {
    io.stderr(`${t('err.cannot-write', { file: outPath, detail: errText(err) })}\n`);
    return EXIT.cannotWrite;
  }
  io.stdout(`${t('written', { file: outPath })}\n`);
  // what the prefill could not measure, said at once (the scenario keeps the example's figures there)
  if (m.value.backingCapacityBytes === null) io.stderr(`${t('note.capacityExample', { capacity: fmtBytes(lang, scenario.workload.capacityBytes) })}\n`);
  if (m.from === 'profile') io.stderr(`${t('note.profile')}\n`);
  return EXIT.ok;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One translated sentence for an engine error, falling back to the engine's English message. */
export function errorSentence(error: PlanError, lang: Lang): string {
  const key = `err.${error.code}` as TcoKey;
  if (!(key in catalog.en)) return error.message;
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(error.params)) params[k] = typeof v === 'number' ? formatTcoDecimal(lang, v, 1) : v;
  return translate(catalog, lang, key, params);
}

/** Lays rows out in columns separated by two spaces; `right[i]` right-aligns column i. */
function columns(rows: string[][], right: boolean[]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => {
        const pad = (widths[i] ?? 0) - [...cell].length;
        return right[i] === true ? ' '.repeat(pad) + cell : cell + ' '.repeat(pad);
      })
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The text report of `cacheproof tco`: header (period, sizing year, demand, energy), then per
 * configuration its sizing, line items (whole USD), total, cost per IOPS and per TB, drive
 * life and warnings, then the comparison table. Numbers use the language's locale.
 */
export function renderTcoText(r: PlanResult, s: Scenario, lang: Lang): string {
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(catalog, lang, key, params);
  const n = (x: number, digits = 0): string => formatTcoNumber(lang, x, digits);
  const out: string[] = [];
  out.push(t('title', { title: r.title }));
  // the bottom line first: the engine's verdict and its sizing basis (the same sentence as the Planner and the report)
  out.push(verdictText(r.verdict, lang), '');
  out.push(...planSummarySentences(r, s, lang));

  for (const [i, c] of r.configurations.entries()) {
    const conf = s.configurations[i];
    if (conf === undefined) continue;
    out.push('');
    out.push(t('configHeader', { label: c.label, id: c.id }));
    out.push(...configurationSentences(r, s, i, lang));
    const rows: string[][] = [[t('col.item'), t('col.detail'), t('col.amount')]];
    for (const line of c.lines) rows.push([t(`line.${line.id}`), lineItemDetail(line, lang), n(line.costUsd)]);
    rows.push([t('upfront'), '', n(c.upfrontUsd)]);
    rows.push([t('total', { years: r.years }), '', n(c.totalUsd)]);
    out.push(...columns(rows, [false, false, true]));
    out.push(costPerSentence(c, lang));
    out.push(driveLifeSentence(c, r.years, lang, false));
    if (c.cacheLife !== null) out.push(driveLifeSentence(c, r.years, lang, true));
    out.push(...configWarningSentences(c, lang));
  }

  // the comparison: the engine's table model (the Planner and the report draw the same one)
  const table = tcoComparisonTable(r);
  out.push('');
  out.push(t('cmpHeader', { label: table.referenceLabel }));
  const rows: string[][] = [table.columns.map((c) => t(TCO_COLUMN_KEYS[c.id])), ...table.rows.map((row) => row.cells.map((cell) => tcoCellText(cell, table.years, lang)))];
  out.push(...columns(rows, table.columns.map((c) => c.align === 'right')));
  const sens = savingsSensitivity(s);
  if (sens.ok) out.push('', ...sensitivitySentences(sens.value, r, lang));
  return `${out.join('\n')}\n`;
}

