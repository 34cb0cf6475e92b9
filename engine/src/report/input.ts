/** What the report model is built from (the host gathers it): the analysis, the capture's facts, series, cover and an optional TCO plan. */
import type { AnalysisReport } from '../benefit/result.ts';
import type { DeviceInfo } from '../records/types.ts';
import type { PlanResult } from '../plan/result.ts';
import type { Scenario } from '../plan/scenario.ts';
import type { ProvenanceRow } from '../plan/provenance.ts';
import type { ReportSeries } from './series.ts';
import type { CoverInput } from './types.ts';

/** Facts about the capture file and its recorder (the host reads them). */
export interface ReportCapture {
  /** File name as the person knows it (no directory). */
  fileName: string;
  sha256: string;
  sizeBytes: number | null;
  probeVersion: string | null;
  /** The capture's `source` meta (live, import, synthetic…). */
  source: string | null;
  schemaVersion: number | null;
  sampleIntervalMs: number | null;
  devices: DeviceInfo[];
  /** Every file an import read (capture-schema v3 `import_files`); absent or empty for a recorded capture. */
  imports?: ImportedFile[];
}

/** One imported file's provenance, as the capture keeps it (docs/capture-schema.md `import_files`). */
export interface ImportedFile {
  name: string;
  sizeBytes: number;
  sha256: string;
  /** The import KIND (perfmon, esxtop, iostat, …) and the format recognized, in words. */
  kind: string;
  format: string;
  encoding: string;
  /** The zone the file states (null when none) and the source's offset from UTC, minutes (null when unknown). */
  timeZone: string | null;
  utcOffsetMin: number | null;
  /** all, baseline or measure. */
  part: string;
  firstUtcMs: number | null;
  lastUtcMs: number | null;
  samples: number;
}

export interface ReportTco {
  /** Scenario file name as given. */
  scenarioFile: string;
  scenario: Scenario;
  plan: PlanResult;
  /** Where each input came from (engine inputProvenance); the report lists them under the comparison. */
  sources?: ProvenanceRow[];
  /**
   * Which scenario this is, said under the intro: `planner`, edited in the Planner for this
   * analysis; `prefilled`, prefilled from this analysis and not edited (the Planner's starting
   * point, printed by default); absent: a scenario file given by name.
   */
  origin?: 'planner' | 'prefilled';
}

export interface ReportInput {
  analysis: AnalysisReport;
  capture: ReportCapture;
  series: ReportSeries;
  cover: CoverInput;
  appVersion: string;
  /** Generation time, UTC epoch ms. */
  generatedMs: number;
  tco: ReportTco | null;
}
