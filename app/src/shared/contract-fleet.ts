/**
 * The fleet view's part of the contract (app/src/shared/contract.ts re-exports it): a table of
 * the hosts of a fleet — a fleet capture (meta `fleet`: `cacheproof-probe import prometheus
 * --out`) or a folder of one capture per host (`--out-dir`) — each with its headline figures,
 * read from that host's own analysis (engine `fleetFiguresOfAnalysis`) or, for a log with no
 * switch, its workload profile (`fleetFiguresOfProfile`) (docs/ipc.md, `fleet.open`).
 */
import { z } from 'zod';

const n = z.number().nullable();
const Grade = z.enum(['good', 'warning', 'bad', 'no-data']);

/** engine `FleetFigures`: each the value the host's dashboard shows. */
export const FleetFigures = z.object({
  kind: z.enum(['analysis', 'profile']),
  iosSavedPercent: n,
  latencyBeforeMs: n,
  latencyAfterMs: n,
  iopsBefore: n,
  iopsAfter: n,
  mbpsBefore: n,
  mbpsAfter: n,
  healthBefore: Grade,
  healthAfter: Grade.nullable(),
  healthPreset: z.string(),
  secondsBefore: z.number(),
  secondsAfter: n,
});
export type FleetFigures = z.infer<typeof FleetFigures>;

/** One host: where its dashboard is (`analysis.openCapture` / `openProfile` with `capture` and `host`), its figures or why there are none. */
export const FleetRow = z.object({
  host: z.string(),
  /** The capture that holds the host (the fleet capture, or the host's own capture in a folder). */
  capture: z.string(),
  /** The `host` to open within a fleet capture (null: the capture is the host's own). */
  scope: z.string().nullable(),
  devices: z.number().int().nonnegative(),
  figures: FleetFigures.nullable(),
  /** Why the host has no figures (an expected failure: its code and sentence). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type FleetRow = z.infer<typeof FleetRow>;

/** engine `FleetAggregate`: the per-moment sum of the hosts' IOPS (a fleet with no switch: their profiled windows). */
export const FleetAggregate = z.object({
  hosts: z.number().int().nonnegative(),
  moments: z.number().int().nonnegative(),
  peak: z.object({
    iops: z.number(),
    start: z.string(),
    end: z.string(),
    startMs: z.number(),
    endMs: z.number(),
    hosts: z.array(z.object({ host: z.string(), iops: z.number(), percent: z.number() })),
  }).nullable(),
  p95Iops: n,
  meanIops: n,
  sumOfHostPeaksIops: n,
  series: z.object({ startMs: z.array(z.number()), iops: z.array(z.number()) }),
});
export type FleetAggregate = z.infer<typeof FleetAggregate>;

export const FleetView = z.object({
  /** The fleet capture or the folder, as given. */
  path: z.string(),
  /** `summary`: the fleet's figures computed by its Prometheus (`import prometheus --fleet-summary`): its rows open no dashboard. */
  kind: z.enum(['capture', 'folder', 'summary']),
  rows: z.array(FleetRow),
  /** The fleet as one load (every host a workload profile), else null: a before/after fleet has no one window to sum. */
  aggregate: FleetAggregate.nullable(),
  /** A fleet summary's server, host selector, step, range (epoch ms) and queries; null otherwise. */
  pushdown: z.object({ url: z.string(), selector: z.string(), stepMs: z.number(), startMs: z.number(), endMs: z.number(), queries: z.number() }).nullable(),
});
export type FleetView = z.infer<typeof FleetView>;

export const FleetRequest = z.object({ path: z.string().min(1).max(4096) }).strict();

/** The fleet report of a fleet with no switch (a folder of captures, or a fleet capture): an export job like `report.start`'s, polled with `report.progress`. */
export const FleetReportRequest = z.object({
  path: z.string().min(1).max(4096),
  lang: z.enum(['en', 'fr', 'es', 'ru']),
  format: z.enum(['pdf', 'html', 'xlsx', 'pptx']),
  paper: z.enum(['a4', 'letter']),
}).strict();
export type FleetReportRequest = z.infer<typeof FleetReportRequest>;

/** The fleet's channels (part of CHANNELS, contract.ts). */
/** How far the fleet view being computed is: its hosts analysed, of all. */
export const FleetProgress = z.object({ done: z.number().int().min(0), total: z.number().int().min(0) });
export type FleetProgress = z.infer<typeof FleetProgress>;

export const FLEET_CHANNELS = {
  /** The hosts of a fleet capture or of a folder of one capture per host, each with its headline figures (computed once per session). */
  'fleet.open': { request: FleetRequest, reply: FleetView },
  /** Starts an export job of a fleet's report (a fleet with no switch: docs/report.md § The fleet report); poll `report.progress`. */
  'fleet.report': { request: FleetReportRequest, reply: z.object({ jobId: z.string() }) },
  /** How far the `fleet.open` of this path is (null when none is being computed: not started, done, or failed). */
  'fleet.progress': { request: FleetRequest, reply: z.object({ progress: FleetProgress.nullable() }) },
};
