/**
 * The report's prediction from the block trace (analysis `prediction.fromTrace`, docs/report.md):
 * predicted beside measured I/Os saved, the size answers, and the miss-ratio curve as a chart
 * whose x categories are the probe's sizes (log-spaced, so the axis reads as a log scale). Every
 * number is the analysis's own; the chart plots 100 × (1 − readHitRatio), the miss ratio.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Block, ChartSpec, SummaryRow, Val } from './types.ts';
import { duration, m, msgv, num, pct, str } from './values.ts';
import { COLOR } from './colors.ts';

const bytes = (v: number): Val => ({ k: 'bytes', v });

/** The blocks, chart and summary row of the prediction; nothing when the analysis has none. */
export function predictionBlocks(a: AnalysisReport): { blocks: Block[]; charts: ChartSpec[]; summary: SummaryRow[] } {
  const p = a.prediction.fromTrace;
  if (p === null) return { blocks: [], charts: [], summary: [] };
  const measured = p.measuredIosSavedPercent;
  const blocks: Block[] = [
    { type: 'subheading', text: m('p.title') },
    { type: 'paragraph', text: m('p.compare', {
      predicted: pct(p.iosSavedPercent),
      measured: pct(measured, 1, p.reasons['measuredIosSavedPercent']),
      difference: p.differencePp === null ? msgv('na') : num(p.differencePp, 1),
    }) },
    { type: 'paragraph', text: m('p.method', {
      size: bytes(p.cacheBytes), devices: str(p.devices.join(', ')), reads: num(p.reads, 0), writes: num(p.writesCount, 0),
      warmup: duration(p.warmupS), block: bytes(p.blockBytes), footprint: bytes(p.footprintBytes),
    }) },
  ];
  if (p.sampleRate < 1) blocks.push({ type: 'paragraph', text: m('p.sampled', { rate: pct(p.sampleRate * 100), pp: num(p.iosSavedUncertaintyPp, 1) }) });
  if (p.cacheBytes > p.footprintBytes) blocks.push({ type: 'paragraph', text: m('p.larger', { size: bytes(p.cacheBytes), footprint: bytes(p.footprintBytes) }) });
  blocks.push({ type: 'sentences', items: [
    ...p.sizeAnswers.map((s) => m('p.answer', { size: bytes(s.bytes), percent: pct(s.readHitPercent) })),
    m('p.answerMax', { max: pct(p.maxReadHitPercent) }),
  ] });
  const chosen = p.curve.findIndex((c) => c.bytes === p.cacheBytes);
  const chart: ChartSpec = {
    id: 'mrc',
    kind: 'line',
    title: m('ch.mrcTitle'),
    x: { kind: 'category', label: m('ax.cacheSize'), categories: p.curve.map((c) => bytes(c.bytes)) },
    y: { label: m('ax.missRatio'), unit: 'percent', min: 0 },
    series: [
      { name: msgv('ch.mrcSeries'), color: COLOR.front, points: p.curve.map((c, i) => [i, 100 * (1 - c.readHitRatio)]) },
      { name: msgv('ch.mrcChosen', { size: bytes(p.cacheBytes) }), color: COLOR.category2, points: p.curve.map((c, i) => [i, i === chosen ? 100 * (1 - c.readHitRatio) : null]) },
    ],
    summary: m('ch.mrcSummary', {
      first: bytes(p.curve[0]?.bytes ?? 0), firstMiss: pct(100 * (1 - (p.curve[0]?.readHitRatio ?? 0))),
      last: bytes(p.curve[p.curve.length - 1]?.bytes ?? 0), lastMiss: pct(100 * (1 - (p.curve[p.curve.length - 1]?.readHitRatio ?? 0))),
      size: bytes(p.cacheBytes), miss: pct(100 * (1 - p.readHitRatio)),
    }),
  };
  blocks.push({ type: 'chart', chart });
  const summary: SummaryRow[] = [{
    id: 'predictedIosSaved', label: m('fig.predictedIosSaved'), unit: 'percent', path: 'prediction.fromTrace.iosSavedPercent',
    before: null, after: null, value: p.iosSavedPercent, low: p.sampleRate < 1 ? p.iosSavedPercent - p.iosSavedUncertaintyPp : null,
    high: p.sampleRate < 1 ? p.iosSavedPercent + p.iosSavedUncertaintyPp : null, devices: p.devices.join(', '),
  }];
  return { blocks, charts: [chart], summary };
}
