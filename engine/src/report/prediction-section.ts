/**
 * The report's prediction from the block trace (analysis `prediction.fromTrace`, docs/report.md):
 * predicted beside measured I/Os saved, backing I/O and response time (each difference in its
 * parts), the cache device and its source, the I/Os saved of every policy, the size answers, and
 * the miss-ratio curves (one per policy) as a chart whose x categories are the probe's sizes
 * (log-spaced, so the axis reads as a log scale). Every number is the analysis's own; the chart
 * plots 100 × (1 − readHitRatio), the miss ratio.
 */
import { readMissPercent } from '../benefit/miss-ratio.ts';
import type { PredictionReport } from '../benefit/prediction.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import type { Block, ChartSpec, Msg, SummaryRow, Val } from './types.ts';
import type { ReportKey } from './keys.ts';
import { duration, m, ms, msgv, num, pct, sig, str } from './values.ts';
import { COLOR, policyColor } from './colors.ts';

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
  const mini = miniatureMsg(p);
  if (mini !== null) blocks.push({ type: 'paragraph', text: mini });
  if (p.cacheBytes > p.footprintBytes) blocks.push({ type: 'paragraph', text: m('p.larger', { size: bytes(p.cacheBytes), footprint: bytes(p.footprintBytes) }) });
  blocks.push(...figureBlocks(p));
  blocks.push({ type: 'sentences', items: [
    ...p.sizeAnswers.map((s) => m('p.answer', { size: bytes(s.bytes), percent: pct(s.readHitPercent) })),
    m('p.answerMax', { max: pct(p.maxReadHitPercent) }),
  ] });
  const chosen = p.curve.findIndex((c) => c.bytes === p.cacheBytes);
  // every policy's curve has the sizes of the first (the probe simulates them all at the curve's sizes)
  const missAt = (c: { curve: { bytes: number; readHitRatio: number }[] }, bytesAt: number): number | null => {
    const x = c.curve.find((q) => q.bytes === bytesAt);
    return x === undefined ? null : readMissPercent(x.readHitRatio);
  };
  const chart: ChartSpec = {
    id: 'mrc',
    kind: 'line',
    title: m('ch.mrcTitle'),
    x: { kind: 'category', label: m('ax.cacheSize'), categories: p.curve.map((c) => bytes(c.bytes)) },
    y: { label: m('ax.missRatio'), unit: 'percent', min: 0 },
    series: [
      ...p.policies.map((pc, k) => ({
        name: msgv('ch.mrcPolicy', { policy: str(POLICY_NAMES[pc.policy] ?? pc.policy) }), color: policyColor(pc.policy),
        points: p.curve.map((c, i) => [i, missAt(pc, c.bytes)] as [number, number | null]), ...(k > 0 ? { dashed: true } : {}),
      })),
      { name: msgv('ch.mrcChosen', { size: bytes(p.cacheBytes) }), color: COLOR.category2, points: p.curve.map((c, i) => [i, i === chosen ? readMissPercent(c.readHitRatio) : null]) },
    ],
    summary: m('ch.mrcSummary', {
      first: bytes(p.curve[0]?.bytes ?? 0), firstMiss: pct(readMissPercent(p.curve[0]?.readHitRatio ?? 0)),
      last: bytes(p.curve[p.curve.length - 1]?.bytes ?? 0), lastMiss: pct(readMissPercent(p.curve[p.curve.length - 1]?.readHitRatio ?? 0)),
      size: bytes(p.cacheBytes), miss: pct(readMissPercent(p.readHitRatio)),
    }),
  };
  blocks.push({ type: 'chart', chart });
  const summary: SummaryRow[] = [{
    id: 'predictedIosSaved', label: m('fig.predictedIosSaved'), unit: 'percent', path: 'prediction.fromTrace.iosSavedPercent',
    before: null, after: null, value: p.iosSavedPercent, low: p.sampleRate < 1 ? p.iosSavedPercent - p.iosSavedUncertaintyPp : null,
    high: p.sampleRate < 1 ? p.iosSavedPercent + p.iosSavedUncertaintyPp : null, devices: p.devices.join(', '),
  }];
  if (p.backingIos !== null && p.backingIos.perSecond !== null) {
    const u = p.backingIos.perSecondUncertainty ?? 0;
    summary.push({
      id: 'predictedBackingIops', label: m('fig.predictedBackingIops'), unit: 'iops', path: 'prediction.fromTrace.backingIos.perSecond',
      before: null, after: null, value: p.backingIos.perSecond, low: p.sampleRate < 1 ? p.backingIos.perSecond - u : null, high: p.sampleRate < 1 ? p.backingIos.perSecond + u : null, devices: p.devices.join(', '),
    });
  }
  if (p.responseTime !== null && p.responseComparison.predictedMs !== null) {
    const rt = p.responseTime;
    summary.push({
      id: 'predictedResponseMs', label: m('fig.predictedResponseMs'), unit: 'ms', path: 'prediction.fromTrace.responseComparison.predictedMs',
      before: null, after: null, value: p.responseComparison.predictedMs, low: p.sampleRate < 1 ? (rt.predictedUs - rt.uncertaintyUs) / 1000 : null,
      high: p.sampleRate < 1 ? (rt.predictedUs + rt.uncertaintyUs) / 1000 : null, devices: p.devices.join(', '),
    });
  }
  return { blocks, charts: [chart], summary };
}

/** The report's name of each cache-device preset (a preset this version does not know prints its stored label). */
const PRESET_KEYS: Readonly<Record<string, ReportKey>> = { ram: 'p.dev.ram', 'sata-ssd': 'p.dev.sata-ssd', nvme: 'p.dev.nvme' };

/** Policy names as printed (acronyms, the same in every language). */
/**
 * How the curves of the policies other than LRU were made when the probe replayed a miniature of
 * the trace (`miniature` of the stored prediction): their names, the sample's rate and the expected
 * mean error; null when every request was replayed. The report's prediction section and the
 * miss-ratio chart of the dashboard and the profile say it in these words.
 */
export function miniatureMsg(p: Pick<PredictionReport, 'miniature' | 'cacheBytes'>): Msg | null {
  const mini = p.miniature;
  if (mini === null || mini === undefined || mini.policies.length === 0) return null;
  return m('p.miniature', {
    policies: str(mini.policies.map((x) => POLICY_NAMES[x] ?? x).join(', ')),
    rate: pct(mini.rate * 100, 2),
    error: num(mini.expectedMeanAbsError * 100, 2),
    size: bytes(p.cacheBytes),
  });
}

const POLICY_NAMES: Readonly<Record<string, string>> = { lru: 'LRU', fifo: 'FIFO', clock: 'CLOCK', arc: 'ARC', '2q': '2Q', s3fifo: 'S3-FIFO' };

type Prediction = NonNullable<AnalysisReport['prediction']['fromTrace']>;

/** The cache device, the backing I/O and the response time, each beside the measured one with its difference in parts; the I/Os saved by policy. */
function figureBlocks(p: Prediction): Block[] {
  const out: Block[] = [];
  const sampled = p.sampleRate < 1;
  const bound = (v: Val): Val => (sampled ? msgv('p.bound', { value: v }) : msgv('p.exact'));
  const signedNum = (v: number | null, d: number, why?: string): Val => num(v, d, undefined, why);
  const c = p.cacheDevice;
  if (c !== null) {
    const latency = num(c.readLatencyUs, c.readLatencyUs < 10 ? 2 : 1);
    const key = PRESET_KEYS[c.preset];
    out.push({ type: 'paragraph', text: c.source === null ? m('p.deviceTyped', { latency })
      : m('p.device', { name: key === undefined ? str(c.label ?? c.preset) : msgv(key), latency, source: str(c.source), date: str(c.date ?? '') }) });
  }
  const b = p.backingIos;
  const f = p.frontIos;
  const bc = p.backingComparison;
  if (b !== null && f !== null) {
    out.push({ type: 'paragraph', text: m('p.backing', {
      backing: num(b.total, 0, 'ios'), front: num(f.total, 0, 'ios'), backingRate: sig(b.perSecond, 'iops'), frontRate: sig(f.perSecond, 'iops'),
      seconds: duration(f.seconds), misses: num(b.readMisses, 0), writes: num(b.writes, 0), bound: bound(sig(b.perSecondUncertainty, 'iops')),
      measured: sig(bc.measuredPerSecond, 'iops', bc.reasons['measuredPerSecond']), difference: signedNum(bc.differencePerSecond, 1, bc.reasons['differencePerSecond']),
    }) });
    if (bc.workloadPartPerSecond !== null && bc.hitSharePartPerSecond !== null) {
      out.push({ type: 'paragraph', text: m('p.backingExplain', {
        workload: num(bc.workloadPartPerSecond, 1), share: num(bc.hitSharePartPerSecond, 1),
        predictedFront: sig(bc.predictedFrontPerSecond, 'iops'), measuredFront: sig(bc.measuredFrontPerSecond, 'iops'),
      }) });
    }
  }
  const r = p.responseTime;
  const rc = p.responseComparison;
  if (r === null) out.push({ type: 'paragraph', text: m('p.responseNone') });
  else {
    out.push({ type: 'paragraph', text: m('p.response', {
      predicted: ms(r.predictedUs / 1000), hit: num(r.hitUs, r.hitUs < 10 ? 2 : 1), miss: ms(r.missUs === null ? null : r.missUs / 1000), baseline: ms(r.baselineUs / 1000),
      bound: bound(ms(r.uncertaintyUs / 1000)), measured: ms(rc.measuredMs, rc.reasons['measuredMs']), difference: signedNum(rc.differenceMs, 3, rc.reasons['differenceMs']),
    }) });
    if (rc.hitSharePartMs !== null && rc.otherPartMs !== null) {
      out.push({ type: 'paragraph', text: m('p.responseExplain', { share: num(rc.hitSharePartMs, 3), other: num(rc.otherPartMs, 3) }) });
    }
  }
  if (p.policies.length > 1) {
    out.push({ type: 'paragraph', text: m('p.policies', {
      size: bytes(p.cacheBytes),
      list: { k: 'list', items: p.policies.map((x) => msgv('p.policyItem', { policy: str(POLICY_NAMES[x.policy] ?? x.policy), percent: pct(x.iosSavedPercent) })), sep: ', ' },
    }) });
  }
  return out;
}
