/**
 * The contract is typed end to end: the analysis result and the workload profile are checked
 * against schemas written from the engine's types (a drift does not compile: see the
 * `@ts-expect-error` lines, checked by `tsc -p app/tsconfig.node.json`), and the exit-code maps
 * are exhaustive and agree with their documentation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { analyze, profileWorkload, type AnalysisReport, type AnalyzeErrorCode } from '@cacheproof/engine';
import { AnalysisReportSchema, WorkloadProfileSchema, type Same } from '../src/shared/analysis-schema.ts';
import { CHANNELS, ERROR_CODES } from '../src/shared/contract.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { PROBE_EXIT, PROBE_EXIT_ERROR, ProbeStatus, probeError } from '../src/host/runs/probe.ts';
import { EXIT_OF_ANALYZE_ERROR, EXIT_OF_ERROR, exitFor } from '../src/cli/exit-codes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples', 'lab', 'lab-sample.capture');

// A schema that lost a field, or typed one differently, is not the engine's type: these must not compile.
// @ts-expect-error a result schema without `devices` is not AnalysisReport
const _missing: Same<z.infer<ReturnType<typeof AnalysisReportSchema.omit<{ devices: true }>>>, AnalysisReport> = true;
// @ts-expect-error a result schema whose `mode` is any string is not AnalysisReport
const _loose: Same<z.infer<ReturnType<typeof AnalysisReportSchema.extend<{ mode: z.ZodString }>>>, AnalysisReport> = true;
void [_missing, _loose];

describe('the analysis result crosses the contract whole and typed', () => {
  const data = openCapture(SAMPLE).data;

  it('the shipped sample: the schema keeps every field of the engine report (nothing stripped, nothing added)', () => {
    const report = analyze(data);
    if (!report.ok) throw new Error(report.error.message);
    const parsed = AnalysisReportSchema.parse(report);
    expect(parsed).toEqual(report);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(report));
  });

  it('backing-only (a named backing device leaves no front): still the engine report, field for field', () => {
    const front = data.devices.find((d) => d.role === 'front')?.name;
    if (front === undefined) throw new Error(`${SAMPLE} has no front device`);
    const report = analyze(data, { backing: [front] });
    if (!report.ok) throw new Error(report.error.message);
    expect(report.mode).toBe('backing-only');
    expect(report.warnings.length).toBeGreaterThan(0);
    expect(AnalysisReportSchema.parse(report)).toEqual(report);
  });

  it('the workload profile likewise', () => {
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    expect(WorkloadProfileSchema.parse(p)).toEqual(p);
  });

  it('refuses a result whose figure has the wrong type, naming the field', () => {
    const report = analyze(data);
    if (!report.ok) throw new Error(report.error.message);
    const bad = JSON.parse(JSON.stringify(report)) as { benefit: { iosSavedPercent: { value: unknown } } };
    bad.benefit.iosSavedPercent.value = '87%';
    const r = AnalysisReportSchema.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path.join('.')).toBe('benefit.iosSavedPercent.value');
  });

  it('closed enumerations: an unknown role, phase or stage is refused at the boundary', () => {
    const series = CHANNELS['run.series'].reply;
    expect(series.safeParse({ series: [{ device: 'sda', role: 'spare', t: [], iops: [], mbps: [], latencyMs: [], means: { iops: null, mbps: null, latencyMs: null } }], phases: [] }).success).toBe(false);
    expect(series.safeParse({ series: [{ device: 'sda', role: 'backing', t: [], iops: [], mbps: [], latencyMs: [], means: { iops: null, mbps: null, latencyMs: null } }], phases: [] }).success).toBe(true);
    const progress = CHANNELS['report.progress'].reply;
    expect(progress.safeParse({ jobId: 'j', percent: 5, stage: 'render', done: false, files: null }).success).toBe(true);
    expect(progress.safeParse({ jobId: 'j', percent: 5, stage: 'rendering', done: false, files: null }).success).toBe(false);
  });
});

/** Rows `| N | … |` of the first table under a heading of a doc. */
function docExitCodes(doc: string, heading: string): number[] {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const from = text.indexOf(heading);
  if (from < 0) throw new Error(`docs/${doc} has no heading '${heading}'`);
  const codes: number[] = [];
  for (const line of text.slice(from).split('\n').slice(1)) {
    const m = /^\|\s*(\d+)\s*\|/.exec(line);
    if (m) codes.push(Number(m[1]));
    else if (codes.length > 0 && !line.startsWith('|')) break;
  }
  return codes;
}

describe('exit codes: exhaustive maps that agree with the docs', () => {
  it('the probe: PROBE_EXIT is the table of docs/probe.md, and each code has its contract error', () => {
    expect(Object.values(PROBE_EXIT).sort((a, b) => a - b)).toEqual(docExitCodes('probe.md', '## Exit codes'));
    expect(Object.keys(PROBE_EXIT_ERROR).sort()).toEqual(Object.keys(PROBE_EXIT).sort());
    const out = (code: number): { code: number; stdout: string; error: string } => ({ code, stdout: '', error: 'the probe said so' });
    expect(probeError('Cannot start', out(PROBE_EXIT.needsRoot)).code).toBe('needs-root');
    expect(probeError('Cannot start', out(PROBE_EXIT.traceUnavailable)).code).toBe('trace-unavailable');
    expect(probeError('Cannot start', out(PROBE_EXIT.unknownDevice)).code).toBe('probe-failed');
    expect(probeError('Cannot start', out(141)).code).toBe('probe-failed'); // killed by SIGPIPE: not a documented code
    expect(probeError('Cannot start', out(PROBE_EXIT.unknownDevice)).message).toBe('Cannot start: the probe said so');
  });

  it('the probe status: an undocumented state or phase is refused at the boundary', () => {
    const st = {
      capture: '/x.capture', state: 'running', recorderAlive: true, pid: '1', phase: 'baseline', percent: 10, etaS: 5, samples: 3,
      lastSampleUtcMs: 1, intervalMs: 1000, devices: [], plan: null, warningCount: 0, warnings: [], error: null, hint: null,
    };
    expect(ProbeStatus.safeParse(st).success).toBe(true);
    expect(ProbeStatus.safeParse({ ...st, state: 'paused' }).success).toBe(false);
    expect(ProbeStatus.safeParse({ ...st, phase: 'cooldown' }).success).toBe(false);
  });

  it('the CLI: every contract and analysis error code has an exit code from docs/cli.md, as its table says', () => {
    const documented = docExitCodes('cli.md', '## Exit codes');
    expect(documented).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Object.keys(EXIT_OF_ERROR).sort()).toEqual([...ERROR_CODES].sort());
    for (const [code, exit] of [...Object.entries(EXIT_OF_ERROR), ...Object.entries(EXIT_OF_ANALYZE_ERROR)]) {
      expect(documented, code).toContain(exit);
      expect(exitFor(code as keyof typeof EXIT_OF_ERROR | AnalyzeErrorCode), code).toBe(exit);
    }
    // The table "Which failure gives which exit code" in docs/cli.md names every code with its exit.
    const text = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    const table = text.slice(text.indexOf('Which failure gives which exit code'));
    const rows = table.split('\n').filter((l) => /^\|.*\|\s*\d+\s*\|$/.test(l));
    const docExit = new Map<string, number>();
    for (const row of rows) {
      const exit = Number(/(\d+)\s*\|$/.exec(row)?.[1]);
      for (const m of row.matchAll(/`([a-z-]+)`/g)) docExit.set(m[1] as string, exit);
    }
    for (const [code, exit] of [...Object.entries(EXIT_OF_ERROR), ...Object.entries(EXIT_OF_ANALYZE_ERROR)]) expect(docExit.get(code), `docs/cli.md: ${code}`).toBe(exit);
    expect(exitFor('capture-damaged')).toBe(3);
    expect(exitFor('capture-too-new')).toBe(4);
    expect(exitFor('windows-overlap')).toBe(5);
  });
});
