/**
 * The probe's stored prediction (`meta.prediction`) set beside an analysis's measured benefit: the
 * one function {@link analyze} builds its `prediction` section with, and the read-back of a
 * prediction the probe stored after the analysis ({@link withStoredPrediction}), so that the view
 * after a prediction reads, figure for figure, as a fresh analysis of the changed capture.
 */
import { withoutNegativeZero } from '../metrics/finite.ts';
import { SETUP_WARNING_CODES } from './analysis-warnings.ts';
import type { AnalysisMode } from './figures.ts';
import { predictionWarnings } from './plausibility.ts';
import { measuredFigure, predictionReport, type PredictionSection, type StoredPrediction } from './prediction.ts';
import type { AnalysisReport, AnalysisWarning } from './result.ts';

/** The measured figures of an analysis's `benefit` a prediction is set beside. */
export type BenefitForPrediction = Pick<AnalysisReport['benefit'], 'iosSavedPercent' | 'iosToBacking' | 'deliveredIops' | 'latencyMs'>;

/**
 * The analysis's `prediction` section: the stored prediction (null or absent: none) beside the
 * benefit's I/Os saved, backing and delivered I/O per second after, and response time after.
 * Example: stored iosSavedPercent 99.2 beside a benefit of 96.5 % → `fromTrace.differencePp` 2.7.
 */
export function predictionBesideBenefit(stored: StoredPrediction | null | undefined, mode: AnalysisMode, benefit: BenefitForPrediction): PredictionSection {
  return predictionReport(stored, {
    iosSaved: benefit.iosSavedPercent,
    backingAfterPerSecond: measuredFigure(benefit.iosToBacking.afterPerSecond, benefit.iosToBacking.reasons['afterPerSecond']),
    frontAfterPerSecond: measuredFigure(benefit.deliveredIops.after, benefit.deliveredIops.reasons['after']),
    latencyAfterMs: measuredFigure(benefit.latencyMs.after, benefit.latencyMs.reasons['after']),
    mode,
  });
}

/** The prediction's own warnings: `prediction-few-requests` (the analysis's) and `prediction-unreadable` (the capture's, with no time). */
function isPredictionWarning(w: AnalysisWarning): boolean {
  return (w.source === 'analysis' && w.code === 'prediction-few-requests') || (w.source === 'capture' && w.code === 'prediction-unreadable' && w.at === undefined);
}

/**
 * An analysis with another stored prediction (a readable one, as the probe stores it): its
 * `prediction` section from {@link predictionBesideBenefit} on the analysis's own benefit, and its
 * warnings with the old prediction's removed and the new one's placed where {@link analyze} puts
 * them (right after the setup warnings). The same object as analysing the capture again with that
 * prediction in its meta, without reading its intervals. Pure; `report` is not changed.
 *
 * @example
 * const after = withStoredPrediction(view.result, stored);
 * after.prediction.fromTrace?.cacheBytes // stored.cacheBytes
 */
export function withStoredPrediction(report: AnalysisReport, stored: StoredPrediction | null): AnalysisReport {
  const kept = report.warnings.filter((w) => !isPredictionWarning(w));
  const setup = new Set<string>(SETUP_WARNING_CODES);
  let at = 0;
  while (at < kept.length && kept[at]?.source === 'analysis' && setup.has(kept[at]?.code ?? '')) at++;
  const warnings = [...kept.slice(0, at), ...predictionWarnings(stored), ...kept.slice(at)];
  return withoutNegativeZero({ ...report, prediction: predictionBesideBenefit(stored, report.mode, report.benefit), warnings });
}
