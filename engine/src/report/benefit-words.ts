/**
 * The words of the headline figures that every place says the same way — the dashboard's cards,
 * the report (cards, verdict, summary, short form, PPTX) and `cacheproof analyze`: the I/O time
 * saved as a share and an absolute, and a saving the data cannot tell from noise. Each is a text
 * key with its values (the app's catalogs hold the four languages), computed here once.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Interval95 } from '../benefit/bootstrap.ts';
import type { IoTimeSaved } from '../benefit/figures.ts';
import type { MeasuredIoTime } from '../benefit/io-time.ts';
import type { Msg, Val } from './types.ts';
import { ci, duration, empty, list, m, msgv, num, pct, str } from './values.ts';

/** Text keys of this module; part of REPORT_KEYS (keys.ts). */
export const BENEFIT_WORD_KEYS = [
  'iotime.share', 'iotime.perHour', 'iotime.none', 'iotime.measured', 'iotime.measuredMore', 'fig.ioTimeMeasured',
  'noise.iosSaved', 'noise.latency', 'noise.latency.inOs', 'noise.settle.windows', 'noise.settle.front', 'noise.settle.inOs',
  'lat.inOs', 'm.layers', 'm.layers.inOs', 'm.layers.edges', 'm.layers.edge', 'm.layers.none', 'tin.readHitDiskAvoided', 'card.cacheServedInOs', 'card.notInDiskCounters', 'sum.cacheServedInOs',
] as const;

/** Seconds as words: below 10 s with one decimal ("4.2 s"), else "4 min 53 s" (values.ts `duration`). */
function seconds(s: number): Val {
  return s < 10 ? num(s, 1, 's') : duration(s);
}

/**
 * The measured I/O time in words, the headline of the two (the model below is its estimate):
 * "Measured: the backing drives spent 16 % less time on I/O, 1 min 8 s less per hour (7 min 4 s →
 * 5 min 56 s of I/O time per hour, summed from their counters)" (`iotime.measured`), or
 * `iotime.measuredMore` when they spent more; null when a window has no time to sum.
 */
export function ioTimeMeasuredMsg(t: MeasuredIoTime): Msg | null {
  if (t.savedPerHourSeconds === null || t.savedPercent === null || t.beforePerHourSeconds === null || t.afterPerHourSeconds === null) return null;
  const more = t.savedPerHourSeconds < 0;
  return m(more ? 'iotime.measuredMore' : 'iotime.measured', {
    share: pct(Math.abs(t.savedPercent)), saved: seconds(Math.abs(t.savedPerHourSeconds)),
    before: seconds(t.beforePerHourSeconds), after: seconds(t.afterPerHourSeconds),
  });
}

/** The I/O time sentences, measured first then the model's estimate, each when it has something to say. */
export function ioTimeMsgs(measured: MeasuredIoTime, model: IoTimeSaved): Msg[] {
  return [ioTimeMeasuredMsg(measured), ioTimeSavedMsg(model)].filter((x): x is Msg => x !== null);
}

/** {@link ioTimeMsgs} as values. */
export function ioTimeVals(measured: MeasuredIoTime, model: IoTimeSaved): Val[] {
  return ioTimeMsgs(measured, model).map((x) => ({ k: 'msg', m: x }));
}

/**
 * The I/O time saved model in words, said as an estimate with its method: "Estimate (I/Os kept off
 * the drives × their response time before, Condusiv's method): 81 % less time on I/O, 4 min 53 s less per
 * hour" (`iotime.share`, from `ioTimeSaved.sharePercent` and `perHourSeconds`); the absolute alone
 * when there is no share (`iotime.perHour`); `iotime.none` when nothing was kept off the drives
 * (the engine's reason `none-eliminated`); null when there is no figure to tell.
 */
export function ioTimeSavedMsg(t: IoTimeSaved): Msg | null {
  if (t.perHourSeconds === null) return t.reasons.perHourSeconds === 'none-eliminated' ? m('iotime.none') : null;
  if (t.sharePercent !== null) return m('iotime.share', { share: pct(t.sharePercent), perHour: seconds(t.perHourSeconds) });
  return m('iotime.perHour', { perHour: seconds(t.perHourSeconds) });
}

/** {@link ioTimeSavedMsg} as a value (empty when there is nothing to say). */
export function ioTimeSavedVal(t: IoTimeSaved): Val {
  const x = ioTimeSavedMsg(t);
  return x === null ? empty : { k: 'msg', m: x };
}

/** An interval that holds zero: the data cannot tell the change from no change. */
export function spansZero(c: Interval95 | null): boolean {
  return c !== null && c.low <= 0 && c.high >= 0;
}

/** The savings that the data cannot tell from noise, one sentence each; null where the interval excludes zero (or there is none). */
export interface NoChange {
  iosSaved: Msg | null;
  latency: Msg | null;
}

/**
 * "I/Os saved 12.0 % is not distinguishable from no change over windows this long: its 95 %
 * interval, −2.2 % – 24.3 %, includes zero. What would settle it: …" — for the I/Os saved
 * (`benefit.iosSavedPercent.ci95`) and for the response-time reduction
 * (`benefit.latencyMs.reductionPercentCi95`), each when its 95 % interval includes zero. What
 * would settle it: longer or matched windows, and in backing-only mode a front device (the
 * windows are then compared per second, so a change of load reads as a saving).
 */
export function noChange(a: AnalysisReport): NoChange {
  const b = a.benefit;
  // the in-OS cache case (layers.ts): no front device can exist, and the disks' response time cannot
  // show the application's gain however long the windows, so the latency's settle says what would
  const inOs = a.layers.case === 'in-os-cache';
  const settle = msgv(inOs ? 'noise.settle.windows' : a.mode === 'backing-only' ? 'noise.settle.front' : 'noise.settle.windows');
  const settleLatency = inOs ? msgv('noise.settle.inOs') : settle;
  const saved = b.iosSavedPercent;
  const lat = b.latencyMs;
  return {
    iosSaved: saved.value !== null && spansZero(saved.ci95) ? m('noise.iosSaved', { value: pct(saved.value), ci: ci(saved.ci95, 'pct'), settle }) : null,
    latency: lat.reductionPercent !== null && spansZero(lat.reductionPercentCi95)
      ? m(inOs ? 'noise.latency.inOs' : 'noise.latency', { value: pct(lat.reductionPercent), ci: ci(lat.reductionPercentCi95, 'pct'), settle: settleLatency }) : null,
  };
}

/** {@link noChange}'s sentences as values, I/Os saved first (empty list when every interval excludes zero). */
export function noChangeVals(a: AnalysisReport): Val[] {
  const n = noChange(a);
  return [n.iosSaved, n.latency].filter((x): x is Msg => x !== null).map((x) => ({ k: 'msg', m: x }));
}

/** What the disk counters of the in-OS cache case measure and cannot see, said under the response time (layers.ts); null otherwise. */
export function layerLatencyNote(a: AnalysisReport): Msg | null {
  return a.layers.case === 'in-os-cache' ? m('lat.inOs') : null;
}

/** The method's "Layers" fact: the in-OS cache case in words (the import's layer explanation), else each pairing the capture records. */
export function layersFact(a: AnalysisReport): Val {
  const l = a.layers;
  if (l.case === 'in-os-cache') {
    const pairs = l.edges.filter((e) => e.kind === 'perfmon-volume' && e.slaveCounted && !e.holderCounted);
    return msgv('m.layers.inOs', { volumes: list([...new Set(pairs.map((e) => e.holder))]), disks: list([...new Set(pairs.map((e) => e.slave))]) });
  }
  if (l.edges.length === 0) return msgv('m.layers.none');
  return { k: 'list', items: l.edges.map((e) => msgv('m.layers.edge', { holder: str(e.holder), slave: str(e.slave), kind: str(e.kind) })), sep: '; ' };
}
