/** What the report model is built from (the host gathers it): the analysis, the capture's facts, series, cover and an optional TCO plan. */
import type { AnalysisReport } from '../benefit/result.ts';
import type { DeviceInfo } from '../records/types.ts';
import type { PlanResult } from '../plan/result.ts';
import type { Scenario } from '../plan/scenario.ts';
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
}

export interface ReportTco {
  /** Scenario file name as given. */
  scenarioFile: string;
  scenario: Scenario;
  plan: PlanResult;
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
