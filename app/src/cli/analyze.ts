/**
 * `cacheproof analyze CAPTURE [options]` (its options: ANALYZE in declarations.ts, `--help`)
 * Prints the engine's before/after analysis (docs/cli.md, docs/analyze-json.md); `--host`: one
 * host of a fleet capture, as its own capture would be analysed (the fleet view's figures).
 * Reads the capture read-only; writes nothing.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyze, profileWorkload, TARGET_PRESETS, type AnalysisReport, type AnalyzeOptions, type LatencyTargets } from '@cacheproof/engine';
import { formatProfileText } from './profile-text.ts';
import { openCaptureColumnarParallel, type ColumnarCapture } from '../host/capture/columnar.ts';
import { summariesHelper } from '../host/summaries-thread.ts';
import { analysisWorkerPath } from '../host/worker-path.ts';
import { HostError } from '../host/errors.ts';
import { shippedRateLimit } from '../host/drive-catalog.ts';
import { NO_MEASURE_HINT } from '../host/analysis.ts';
import { scopeToHost } from '../host/capture/scope.ts';
import { analysis as catalog, type AnalysisKey } from '../shared/i18n/analysis.ts';
import { translate, type Lang } from '../shared/i18n/types.ts';
import { fmtBytes, fmtLabel, fmtNumber, fmtPercent, fmtSig } from '../shared/i18n/numbers.ts';
import { warningText } from '../shared/i18n/warnings.ts';
import { formatVal } from '../shared/i18n/report.ts';
import { decisionBlock, ioTimeMeasuredMsg, ioTimeSavedVal, latencyChangeVal, layerLatencyNote, layersFact, noChangeVals, perWorkDetail, perWorkVal } from '@cacheproof/engine/report';
import { decisionTexts } from '../shared/i18n/decision-text.ts';
import type { ReportTco } from '@cacheproof/engine/report';
import type { DeviceInfo } from '@cacheproof/engine';
import { sha256File } from '../host/capture/reader.ts';
import { prefilledTco, readScenarioFile, tcoFor } from '../host/report/input.ts';
import { localizeTemplate } from '../shared/i18n/template.ts';
import { parseDuration, parseWindow, SEED_MAX, TARGET_MS_MAX, UsageError } from './args.ts';
import { parseCommand, renderHelp, usageExit, wantsHelp, type Values } from './command-line.ts';
import { ANALYZE, type AnalysisOptionDecls } from './declarations.ts';
import { exitFor } from './exit-codes.ts';
import { EXIT, type CliIO, type Command, type ExitCode } from './io.ts';

function readTargets(value: string): LatencyTargets {
  if (Object.prototype.hasOwnProperty.call(TARGET_PRESETS, value)) return TARGET_PRESETS[value as keyof typeof TARGET_PRESETS];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(value, 'utf8'));
  } catch (err) {
    throw new UsageError(`--targets: '${value}' is neither a preset (${Object.keys(TARGET_PRESETS).join(', ')}) nor a readable JSON file: ${(err as Error).message}.`);
  }
  const out: { readMs?: number; writeMs?: number; transferMs?: number; warnMs?: number } = {};
  if (parsed === null || typeof parsed !== 'object') throw new UsageError(`--targets: ${value} must hold an object like {"readMs": 10, "writeMs": 5}.`);
  for (const [k, v] of Object.entries(parsed)) {
    if (k !== 'readMs' && k !== 'writeMs' && k !== 'transferMs' && k !== 'warnMs') throw new UsageError(`--targets: ${value}: unknown field '${k}' (use readMs, writeMs, transferMs, warnMs).`);
    if (typeof v !== 'number' || !(v > 0) || v > TARGET_MS_MAX) throw new UsageError(`--targets: ${value}: ${k} must be a number of milliseconds greater than 0 and at most ${TARGET_MS_MAX}, got ${JSON.stringify(v)}.`);
    out[k] = v;
  }
  return out;
}

/** Builds engine options from the analysis options of the command line (`analyze`, `report`). */
export function optionsFrom(values: Values<AnalysisOptionDecls>): AnalyzeOptions {
  const o: AnalyzeOptions = {};
  const b = values.baseline;
  if (b !== undefined) o.baseline = parseWindow(b, '--baseline');
  const m = values.measure;
  if (m !== undefined) o.measure = parseWindow(m, '--measure');
  const w = values.warmup;
  if (w !== undefined) o.warmupMs = parseDuration(w, '--warmup');
  const f = values.front;
  if (f !== undefined) o.front = f.split(',').map((s) => s.trim()).filter(Boolean);
  const k = values.backing;
  if (k !== undefined) o.backing = k.split(',').map((s) => s.trim()).filter(Boolean);
  const t = values.targets;
  if (t !== undefined) o.targets = readTargets(t);
  const s = values.seed;
  if (s !== undefined) {
    if (!/^\d+$/.test(s) || Number(s) > SEED_MAX) throw new UsageError(`--seed: '${s}' is not accepted; give a whole number from 0 to ${SEED_MAX}.`);
    o.seed = Number(s);
  }
  return o;
}

export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return rows.map((r) => r.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - [...c].length)).join('  ').trimEnd()).join('\n') + '\n';
}

/** The formatters of the readable table, in one language: counts whole, measured values to 3 significant digits (the dashboard's and the report's precision). */
interface TextFormat {
  t: (key: AnalysisKey, p?: Record<string, string | number>) => string;
  nf: (n: number | null, d?: number) => string;
  sig: (n: number | null) => string;
  pct: (n: number | null) => string;
  ci: (c: { low: number; high: number } | null) => string;
}

function textFormat(lang: Lang): TextFormat {
  const t = (key: AnalysisKey, p?: Record<string, string | number>): string => translate(catalog, lang, key, p);
  const nf = (n: number | null, d = 0): string => (n === null ? t('na') : fmtNumber(lang, n, d));
  const sig = (n: number | null): string => (n === null ? t('na') : fmtSig(lang, n));
  const pct = (n: number | null): string => (n === null ? t('na') : fmtPercent(lang, n, 1));
  const ci = (c: { low: number; high: number } | null): string => (c === null ? '' : t('ci95', { low: pct(c.low), high: pct(c.high) }));
  return { t, nf, sig, pct, ci };
}

/** The readable table, in the chosen language, numbers formatted for its locale. */
export function formatText(r: AnalysisReport, captureFile: string, lang: Lang, tco: ReportTco | null = null): string {
  const f = textFormat(lang);
  const { t, nf, sig } = f;
  const lines: string[] = [];
  lines.push(t('title'));
  // the decision block first (engine decision.ts), the words of the report, the deck and the dashboard
  const d = decisionTexts(decisionBlock({ kind: 'before-after', analysis: r, tco }), lang);
  lines.push(`${d.title}:`, ...d.lines.map((x) => `  ${x}`), `${d.caveatsTitle}:`, ...d.caveats.map((x) => `  - ${x}`), '');
  lines.push(t(`mode.${r.mode}`));
  const lab = (key: AnalysisKey, value: string): string => fmtLabel(lang, t(key), value);
  lines.push(lab('capture', captureFile), lab('host', `${r.host.hostname ?? t('na')} (${r.host.kernel ?? t('na')})`));
  lines.push(lab('baseline', `${r.windows.baseline.start} → ${r.windows.baseline.end}`));
  lines.push(lab('measure', `${r.windows.measure.start} → ${r.windows.measure.end} (${lab('warmup', `${nf(r.windows.warmupExcludedSeconds)} s`)})`));
  lines.push(`${t('front')}: ${r.devices.front.join(', ') || t('na')}   ${t('backing')}: ${r.devices.backing.join(', ') || t('na')}`, '');
  lines.push(table(figureRows(r, lang, f)));
  // a saving whose 95 % interval includes zero: not distinguishable from no change, and what would settle it
  for (const v of noChangeVals(r)) lines.push(formatVal(v, lang));
  // the in-OS cache case: what the disk counters measure and cannot see, and the layers (layers.ts)
  const layerNote = layerLatencyNote(r);
  if (layerNote !== null) lines.push(formatVal({ k: 'msg', m: layerNote }, lang), formatVal(layersFact(r), lang));
  const detail = perWorkDetail(r);
  if (detail !== null) lines.push(formatVal({ k: 'msg', m: detail }, lang));
  lines.push(...predictionLines(r, lang, f));
  const grade = (w: AnalysisReport['health']['baseline']): string => w.checks.map((c) => `${c.metric} < ${nf(c.targetMs)} ms: ${c.meetsTarget === null ? t('na') : c.meetsTarget ? t('meets') : t('breaks')} (${sig(c.averageMs)} ms)`).join('; ');
  lines.push(`${t('health', { preset: r.health.preset ?? 'custom' })}: ${t('before')}: ${grade(r.health.baseline)} | ${t('after')}: ${grade(r.health.measure)}`);
  lines.push(`${t('warnings')}: ${r.warnings.length === 0 ? t('none') : ''}`);
  for (const w of r.warnings) lines.push(`  - ${warningText(w, lang, (v, digits) => nf(v, digits))}`);
  lines.push('', t('method', { seed: r.uncertainty.seed, replicates: r.uncertainty.replicates }));
  return lines.join('\n') + '\n';
}

/** The table of figures: before, after and the change, in the engine's words. */
function figureRows(r: AnalysisReport, lang: Lang, { t, nf, sig, pct, ci }: TextFormat): string[][] {
  const b = r.benefit;
  const gb = (x: number | null): number | null => (x === null ? null : x / 1e9);
  const rows: string[][] = [[t('figure'), t('before'), t('after'), t('change')]];
  rows.push([t('iosToBacking'), nf(b.iosToBacking.before), nf(b.iosToBacking.after), `${t('iosSaved')} ${pct(b.iosSavedPercent.value)} ${ci(b.iosSavedPercent.ci95)}`.trim()]);
  rows.push([t('latency'), sig(b.latencyMs.before), sig(b.latencyMs.after),
    // the engine's words of the change (latency-change.ts), as the dashboard and the report print them
    [formatVal(latencyChangeVal(b.latencyMs), lang), ci(b.latencyMs.reductionPercentCi95)].filter(Boolean).join(', ')]);
  // the share and the absolute, in the engine's words (benefit-words.ts) as the dashboard and the report print them
  // measured (the summed I/O time per hour in each window) first, then the model's estimate, in the engine's words (benefit-words.ts)
  const it = b.ioTimeMeasured;
  const measuredTime = ioTimeMeasuredMsg(it);
  rows.push([t('ioTime'), sig(it.beforePerHourSeconds), sig(it.afterPerHourSeconds), measuredTime === null ? t('na') : formatVal({ k: 'msg', m: measuredTime }, lang)]);
  rows.push([t('ioTimeSaved'), '', '', formatVal(ioTimeSavedVal(b.ioTimeSaved), lang) || t('na')]);
  // the disks' I/Os per unit of the server's work (per-work-words.ts), when the log carries its work
  if (b.perWork.unit !== null) rows.push([t('perWork'), sig(b.perWork.diskIosPerWorkBefore), sig(b.perWork.diskIosPerWorkAfter), formatVal(perWorkVal(r), lang) || t('na')]);
  rows.push([t('normalizedIops'), sig(b.normalizedIops.before), sig(b.normalizedIops.after), '']);
  // no front device: these are the backing drives' own IOPS, never "delivered to the application"
  const backingOnly = r.mode === 'backing-only';
  rows.push([t(backingOnly ? 'backingIops' : 'deliveredIops'), sig(b.deliveredIops.before), sig(b.deliveredIops.after), '']);
  rows.push([t(backingOnly ? 'backingIopsPerSpindle' : 'iopsPerSpindle'), sig(b.deliveredIopsPerSpindle.before), sig(b.deliveredIopsPerSpindle.after), '']);
  rows.push([t('throughput'), sig(b.throughputMBps.before), sig(b.throughputMBps.after), '']);
  rows.push([t('totalWork'), sig(gb(b.totalWork.before.bytes)), sig(gb(b.totalWork.after.bytes)), '']);
  // an in-OS cache (layers.ts): disk counters cannot see what it served, only the disk I/Os avoided (the I/Os saved above)
  if (r.layers.case !== 'in-os-cache') {
    rows.push([t('cacheServedReads'), '', pct(b.cacheServedPercent.reads), '']);
    rows.push([t('cacheServedWrites'), '', pct(b.cacheServedPercent.writes), '']);
  }
  // the cache engine's own account beside the counters (a capture recorded with an adapter): cacheEngine.comparison
  const engine = r.cacheEngine.comparison;
  for (const kind of engine === null ? [] : (['reads', 'writes', 'all'] as const)) {
    const s = (engine as NonNullable<typeof engine>).shares[kind];
    if (s.enginePercent === null) continue;
    rows.push([t('engineServed', { kind: t(`engineKind.${kind}`) }), '', pct(s.enginePercent),
      s.countersPercent === null || s.differencePoints === null ? '' : t('engineVsCounters', { counters: pct(s.countersPercent), diff: `${s.differencePoints > 0 ? '+' : ''}${nf(s.differencePoints, 1)}` })]);
  }
  return rows;
}

/** The trace's prediction beside what was measured, when the capture has one. */
function predictionLines(r: AnalysisReport, lang: Lang, { t, nf, sig, pct }: TextFormat): string[] {
  const p = r.prediction.fromTrace;
  if (p === null) return [];
  const lines: string[] = [];
  lines.push(t('predicted', {
    predicted: pct(p.iosSavedPercent), size: fmtBytes(lang, p.cacheBytes), reads: nf(p.reads), measured: pct(p.measuredIosSavedPercent),
    difference: p.differencePp === null ? t('na') : `${p.differencePp >= 0 ? '+' : '−'}${fmtNumber(lang, Math.abs(p.differencePp), 1)}`,
  }));
  const signed = (v: number | null): string => (v === null ? t('na') : `${v >= 0 ? '+' : '−'}${sig(Math.abs(v))}`);
  const bc = p.backingComparison;
  if (bc.predictedPerSecond !== null) lines.push(t('predictedBacking', { predicted: sig(bc.predictedPerSecond), measured: sig(bc.measuredPerSecond), difference: signed(bc.differencePerSecond) }));
  const rc = p.responseComparison;
  if (rc.predictedMs !== null && p.responseTime !== null) {
    lines.push(t('predictedResponse', { predicted: sig(rc.predictedMs), hit: sig(p.responseTime.hitUs), measured: sig(rc.measuredMs), difference: signed(rc.differenceMs) }));
  }
  return lines;
}

/** A HostError as the command's message and exit code; anything else is a bug and is thrown on. */
function hostErrorExit(err: unknown, io: CliIO): ExitCode {
  if (err instanceof HostError) {
    io.stderr(`cacheproof analyze: ${err.message}\n`);
    return exitFor(err.code);
  }
  throw err;
}

/** The command line's flags, engine options, capture and language, or the usage exit code. */
function parseAnalyzeArgs(args: string[], io: CliIO): { flags: Values<typeof ANALYZE.options>; options: AnalyzeOptions; capturePath: string; lang: Lang } | ExitCode {
  try {
    const parsed = parseCommand(ANALYZE, args);
    const flags = parsed.values;
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one CAPTURE file.');
    return { flags, capturePath: parsed.positionals[0] as string, lang: flags.lang ?? 'en', options: optionsFrom(flags) };
  } catch (err) {
    return usageExit(ANALYZE, err, io);
  }
}

export const analyzeCommand: Command = async (args: string[], io: CliIO) => {
  if (wantsHelp(args)) {
    io.stdout(renderHelp(ANALYZE));
    return EXIT.ok;
  }
  const parsed = parseAnalyzeArgs(args, io);
  if (typeof parsed === 'number') return parsed;
  const { flags, options, capturePath, lang } = parsed;
  // The intervals go to columnar files in a temporary folder (a large capture read in two halves
  // at once, the upper one on a worker thread), read back one device at a time: memory depends
  // on the devices and hours, not on the rows.
  let capture: ColumnarCapture;
  try {
    capture = await openCaptureColumnarParallel(capturePath, analysisWorkerPath());
  } catch (err) {
    return hostErrorExit(err, io);
  }
  // a --scenario file is checked against this capture by its SHA-256 (hashed on a worker thread beside the scan)
  const hashing = flags.profile === true || flags.scenario === undefined ? null : sha256File(capturePath);
  hashing?.catch(() => undefined); // awaited (and its failure reported) only once the analysis is made
  let outcome: ReturnType<typeof analyzeOpened>;
  try {
    outcome = analyzeOpened(capture, flags, options, capturePath, lang, io);
  } catch (err) {
    return hostErrorExit(err, io);
  }
  if (typeof outcome === 'number') return outcome;
  const { result, devices } = outcome;
  if (!result.ok) {
    io.stderr(`cacheproof analyze: ${capturePath}: ${result.error.message}${result.error.code === 'no-measure' ? ` ${NO_MEASURE_HINT}` : ''}\n`);
    return exitFor(result.error.code);
  }
  let tco: ReportTco | null;
  try {
    tco = await decisionTco(result, devices, capturePath, flags.scenario, lang, hashing);
  } catch (err) {
    return hostErrorExit(err, io);
  }
  // --json: the decision block as message keys with values (docs/analyze-json.md § decision), beside the figures
  const json = (): string => JSON.stringify({ ...result, decision: decisionBlock({ kind: 'before-after', analysis: result, tco }) }, null, 2);
  io.stdout(flags.json === true ? json() + '\n' : formatText(result, capturePath, lang, tco));
  return EXIT.ok;
};

/**
 * The opened capture analysed (or, with --profile, profiled and printed: then the exit code),
 * with most devices' summaries on a second thread; closes the capture. Throws HostError.
 */
function analyzeOpened(capture: ColumnarCapture, flags: Values<typeof ANALYZE.options>, options: AnalyzeOptions, capturePath: string, lang: Lang, io: CliIO):
  { result: ReturnType<typeof analyze>; devices: readonly DeviceInfo[] } | ExitCode {
  const helper = summariesHelper(capture, analysisWorkerPath());
  try {
    const host = flags.host;
    // one host of a fleet: its devices alone (the second thread, which reads the devices by the
    // file's names, is for the whole capture only)
    const data = typeof host === 'string' ? scopeToHost(capture, host).data : capture.data;
    if (flags.profile === true) {
      // the baseline alone (a log with no switch, a run stopped before it): no before/after
      const p = profileWorkload(data, { front: options.front, backing: options.backing, baseline: options.baseline, targets: options.targets, rateLimit: shippedRateLimit() });
      if (!p.ok) {
        io.stderr(`cacheproof analyze: ${capturePath}: ${p.error.message}\n`);
        return exitFor(p.error.code);
      }
      const imported = (capture.meta['source'] ?? '').startsWith('import');
      io.stdout(flags.json === true ? JSON.stringify(p, null, 2) + '\n' : formatProfileText(p, capturePath, data.sampleIntervalMs, lang, imported));
      return EXIT.ok;
    }
    const result = typeof host === 'string'
      ? analyze(data, { ...options, rateLimit: shippedRateLimit() })
      : analyze(data, { ...options, rateLimit: shippedRateLimit() }, { summariesElsewhere: helper.hook });
    return { result, devices: data.devices };
  } finally {
    helper.release();
    capture.close();
  }
}

/**
 * The TCO the decision block's verdict comes from: the `--scenario` file (checked against this
 * capture and planned, as `cacheproof report --scenario` does), else the scenario prefilled from
 * this capture (what `report` prints without --scenario and `tco --from-capture` writes), so that
 * analyze's decision block reads as the report's. Throws HostError for a scenario that is invalid
 * or measured from another capture.
 */
async function decisionTco(result: AnalysisReport, devices: readonly DeviceInfo[], capturePath: string, scenarioPath: string | undefined, lang: Lang, hashing: Promise<string> | null): Promise<ReportTco | null> {
  const name = basename(capturePath);
  // the prefill is this capture's by construction: the hash that would name it in measuredFrom is
  // printed nowhere by analyze, so the capture is not read a second time to compute it
  if (scenarioPath === undefined || hashing === null) return prefilledTco(result, devices, name, PREFILL_SELF, lang);
  const read = await readScenarioFile(scenarioPath);
  return tcoFor({ ...read, json: localizeTemplate(read.json, lang) }, result, devices, name, await hashing);
}

/** The capture's stand-in hash for its own prefill (64 hex digits, as measuredFrom takes): the prefill and the capture it is checked against are one. */
const PREFILL_SELF = '0'.repeat(64);
