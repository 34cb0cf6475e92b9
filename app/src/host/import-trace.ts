/**
 * A block trace on the Import screen (docs/import.md § Block traces, docs/ipc.md `import.*`):
 * `cacheproof-probe import-trace KIND FILE --out … --json` — Windows' own exports (WPA Disk Usage
 * CSV, `xperf -a dumper`, `tracerpt` CSV, PerfView's dump) and the Linux and public traces the
 * probe reads (docs/simulate.md) — then the prediction of the cache the person chose, through the
 * dashboard's own path (host/predict.ts: `cacheproof-probe predict CAPTURE … --store --json`, the
 * probe's progress lines), so the capture opens with `meta.prediction` as a prediction made later
 * on the dashboard would leave it. The probe writes each file whole or not at all; its sentence
 * (file, line, what to export instead) becomes the `import-refused` error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ImportPreview, type ImportRequest } from '../shared/contract.ts';
import { HostError } from './errors.ts';
import { runPredict } from './predict.ts';
import { importTraceArgs, predictCommand } from './probe-argv.ts';
import { PROBE_EXIT, probeError, runProbe, type ProbeOutput } from './runs/probe.ts';

/** The longest an `import-trace` may take (a day's export of a busy server is a few GB). */
const TRACE_TIMEOUT_MS = 60 * 60_000;
/** The share of the progress bar the import takes; the prediction fills the rest with the probe's own progress. */
export const TRACE_IMPORT_SHARE = 30;

/** `import-trace --json`'s summary (docs/simulate.md). */
interface TraceSummary {
  records: number;
  imported: number;
  skipped: number;
  skippedByReason: Record<string, number>;
  skippedExamples: { line: number; column: string; reason: string }[];
  devices: string[];
  flushes: number;
  spanMs: number | null;
  firstUtcMs: number | null;
  lastUtcMs: number | null;
}


/** A refusal of the file (exit 12: the probe's sentence names it and, when known, the line) or of the call (exit 2). */
function refusedTrace(out: ProbeOutput): HostError {
  if (out.code === PROBE_EXIT.notImportable) return new HostError('import-refused', out.error || `import-trace: exit code ${out.code}`);
  if (out.code === PROBE_EXIT.usage) return new HostError('import-choice-refused', out.error || `import-trace: exit code ${out.code}`);
  return probeError('import-trace', out);
}

/** Runs `import-trace` into `out`; the summary, or the refusal thrown. */
export async function runImportTrace(probe: string, r: ImportRequest, out: string): Promise<TraceSummary> {
  const o = await runProbe(probe, importTraceArgs(r, out), TRACE_TIMEOUT_MS);
  if (o.code !== 0) throw refusedTrace(o);
  return JSON.parse(o.stdout) as TraceSummary;
}

/**
 * The preview of a trace: the file imported into a capture in a temporary folder (removed after),
 * as the import would write it — what the probe read, kept and skipped (with examples), the
 * devices, the flushes and the time span — or its refusal. No cache size is needed: the request
 * may carry none (the prediction is the import's).
 */
export async function previewTrace(probe: string, r: ImportRequest, sizeBytes: number): Promise<ImportPreview> {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-trace-preview-'));
  try {
    const s = await runImportTrace(probe, r, join(dir, 'preview.capture'));
    const path = resolve(r.files[0] as string);
    return ImportPreview.parse({
      kind: r.kind,
      files: [{ name: basename(path), path, sizeBytes, format: r.kind, encoding: '—', timeZone: null, utcOffsetMin: null, timeZoneSource: '—', part: 'all', hosts: [], samples: s.records }],
      hosts: [],
      devices: [],
      stack: [],
      timeRange: null,
      intervalMs: null,
      intervals: 0,
      phases: [],
      counters: [],
      unmapped: [],
      notes: [],
      needs: [],
      ready: s.imported > 0,
      trace: { records: s.records, imported: s.imported, skipped: s.skipped, skippedByReason: s.skippedByReason, skippedExamples: s.skippedExamples, devices: s.devices, flushes: s.flushes, spanMs: s.spanMs, firstUtcMs: s.firstUtcMs, lastUtcMs: s.lastUtcMs },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The import job's work for a trace: `import-trace` into `out`, then the prediction stored in it
 * (`predict … --store`, host/predict.ts), calling `onProgress(percent)` as the probe reports.
 * A failed prediction removes nothing: the capture stays, and the error says why.
 */
export async function importAndPredict(probe: string, r: ImportRequest, out: string, onProgress: (percent: number) => void): Promise<void> {
  if (r.prediction === undefined) throw new HostError('bad-request', 'A block trace import needs the cache to predict.');
  await runImportTrace(probe, r, out);
  onProgress(TRACE_IMPORT_SHARE);
  const p = await runPredict(probe, predictCommand(out, r.prediction, undefined), (share) => onProgress(TRACE_IMPORT_SHARE + share * (100 - TRACE_IMPORT_SHARE - 1)));
  if (p.code === PROBE_EXIT.notImportable || p.code === PROBE_EXIT.usage) throw new HostError('predict-refused', p.error || `predict: exit code ${p.code}`);
  if (p.code !== 0) throw probeError('predict', p);
}
