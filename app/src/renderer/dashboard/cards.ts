/**
 * Headline cards: what the server did — I/Os saved from the backing drives, response time before →
 * after (reduction and speed-up), throughput and IOPS delivered, and the share served by the
 * cache — each with its 95% interval (or why there is none), the window(s) and the device(s) it
 * was measured on; the card's tooltip (title) is the figure's definition. IOPS at queue depth 1
 * (1000 ÷ ms) is a rate no server delivered: it is in the details ({@link figureDetails}) with its
 * definition, never a headline.
 */
import type { AnalysisReport } from '@cacheproof/engine';
import { ioTimeVals, layerLatencyNote, noChange, perWorkVals, type Msg } from '@cacheproof/engine/report';
import { formatVal } from '../../shared/i18n/report.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { latencyChangeText, type Words } from './text.ts';

type Interval = { low: number; high: number } | null;

function card(testId: string, title: string, definition: string, value: string, subs: string[]): HTMLElement {
  const lines = subs.filter((s) => s.length > 0);
  return el('section', { class: 'card', 'data-testid': testId, title: definition, tabindex: '0', 'aria-label': `${title}: ${value}. ${lines.join('. ')}. ${definition}` },
    el('h3', {}, title),
    el('div', { class: 'value' }, value),
    ...lines.map((s) => el('div', { class: 'sub' }, s)));
}

/** The windows actually compared, in UTC, with their lengths. */
export function windowLine(r: AnalysisReport, w: Words): string {
  const b = r.windows.baseline, m = r.windows.measure;
  const sameDay = (a: string, z: string): boolean => a.slice(0, 10) === z.slice(0, 10);
  return w.d('windowLine', {
    b0: w.utc(Date.parse(b.start)), b1: w.utc(Date.parse(b.end), !sameDay(b.start, b.end)), bs: w.duration(b.seconds),
    m0: w.utc(Date.parse(m.start)), m1: w.utc(Date.parse(m.end), !sameDay(m.start, m.end)), ms: w.duration(m.seconds),
  });
}

function ci(w: Words, interval: Interval, fmt: (n: number) => string, reason: unknown): string {
  if (interval) return w.d('ci95', { low: fmt(interval.low), high: fmt(interval.high) });
  return w.d('ciUnavailable', { reason: w.reason(reason) });
}

function list(names: readonly string[], w: Words): string {
  return names.length > 0 ? names.join(', ') : w.d('none');
}

export function cards(r: AnalysisReport, w: Words): HTMLElement {
  const b = r.benefit;
  const win = windowLine(r, w);
  const appFacing = r.devices.appFacing === 'front' ? r.devices.front : r.devices.backing;
  const appDevice = w.d('deviceLine', { devices: list(appFacing, w) });
  const backingDevice = w.d('deviceLine', { devices: list(r.devices.backing, w) });
  const lat = b.latencyMs;
  const gainCi = lat.speedupCi95;
  const num = (n: number): string => w.num(n);
  // no front device: the figures are the backing drives' own, never "the application's" or "delivered"
  const bo = r.mode === 'backing-only';
  // a saving whose 95 % interval includes zero says so first, with what would settle it (the engine's words)
  const noise = noChange(r);
  const said = (x: Msg | null): string => (x === null ? '' : formatVal({ k: 'msg', m: x }, w.lang));
  return el('div', { class: 'cards' },
    card(TID.cardIosSaved, w.d('card.iosSaved'), w.d('def.iosSaved'), w.pct(b.iosSavedPercent.value), [
      said(noise.iosSaved),
      ci(w, b.iosSavedPercent.ci95, (n) => w.pct(n), b.iosSavedPercent.reasons['ci95']),
      w.d('iosToBacking', { before: w.count(b.iosToBacking.before), after: w.count(b.iosToBacking.after) }),
      // the I/O time the counters measured, then Condusiv's "I/O time saved" model as an estimate, in the engine's words (benefit-words.ts)
      ...ioTimeVals(b.ioTimeMeasured, b.ioTimeSaved).map((v) => formatVal(v, w.lang)),
      // the disks' I/Os per unit of the server's work, when the log carries it (per-work-words.ts): "the server did 75 % more work with 12 % fewer disk I/Os"
      ...perWorkVals(r).map((v) => formatVal(v, w.lang)),
      w.d(`methodIosSaved.${b.iosSavedPercent.method}`),
      backingDevice, win,
    ]),
    card(TID.cardLatency, w.d('card.latency'), w.d(bo ? 'def.latencyBacking' : 'def.latency'), `${w.ms(lat.before)} → ${w.ms(lat.after)}`, [
      // the engine's words (latency-change.ts): slower after the switch is "increased by 50 %, 1.5× slower", as in the report
      latencyChangeText(lat, w.lang),
      said(noise.latency),
      // the in-OS cache case: these are the disks' response times, not the application's (layers.ts)
      said(layerLatencyNote(r)),
      ci(w, lat.reductionPercentCi95, (n) => w.pct(n), lat.reasons['reductionPercentCi95']),
      gainCi ? w.d('ci95Speedup', { low: num(gainCi.low), high: num(gainCi.high) }) : '',
      appDevice, win,
    ]),
    card(TID.cardThroughput, w.d('card.throughput'), w.d(bo ? 'def.throughputBacking' : 'def.throughput'),
      `${w.mbps(b.throughputMBps.before)} → ${w.mbps(b.throughputMBps.after)}`, [
        // the work the server did (IOPS delivered), beside the bytes: the same work before and after is no gain
        w.d(bo ? 'deliveredBacking' : 'delivered', { before: w.iops(b.deliveredIops.before), after: w.iops(b.deliveredIops.after) }),
        w.d('ciNotComputed'), appDevice, win]),
    card(TID.cardCacheServed, w.d('card.cacheServed'), w.d('def.cacheServed'),
      `${w.d('reads')} ${w.pct(b.cacheServedPercent.reads)} · ${w.d('writes')} ${w.pct(b.cacheServedPercent.writes)}`, [
        r.mode === 'backing-only' ? w.d('reason.backing-only-mode') : w.d('ciNotComputed'),
        w.d('devicesLine', { front: list(r.devices.front, w), backing: list(r.devices.backing, w) }), win,
      ]),
  );
}

/**
 * The figures behind the headline: IOPS at queue depth 1 (normalized, 1000 ÷ average ms) before →
 * after with its definition beside it and its ratio (the speed-up of one request, with the
 * speed-up's interval) — how fast one request is served, not more work done.
 */
export function figureDetails(r: AnalysisReport, w: Words): HTMLElement {
  const b = r.benefit;
  const lat = b.latencyMs;
  const speed = lat.speedup;
  const gainCi = lat.speedupCi95;
  const num = (n: number): string => w.num(n);
  const gain = speed !== null && gainCi ? w.d('ci95Gain', { value: num(speed), low: num(gainCi.low), high: num(gainCi.high) })
    : speed !== null ? w.d('gain', { value: num(speed) }) : ci(w, null, num, lat.reasons['speedupCi95']);
  return el('section', { class: 'dash-details', 'data-testid': TID.dashFigureDetails },
    el('h3', { class: 'dash-section' }, w.d('details.title')),
    el('table', { class: 'dash-table' },
      el('tbody', {},
        el('tr', { 'data-testid': TID.detailNormalizedIops },
          el('th', { scope: 'row' }, w.d('card.normalizedIops')),
          el('td', { class: 'value' }, `${w.iops(b.normalizedIops.before)} → ${w.iops(b.normalizedIops.after)}`),
          el('td', {}, `${w.d('def.normalizedIops')} ${w.d(r.mode === 'backing-only' ? 'details.normalizedNoteBacking' : 'details.normalizedNote', { gain })}`)))));
}
