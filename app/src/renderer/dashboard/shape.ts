/**
 * The load's shape on the dashboard: reads/s, writes/s, the read share and the average queue
 * size per device group and window (mean, p95, peak: the engine's `readWriteQueue`), and the
 * request-size distribution per group, operation and window (`requestSizes`: the block trace's
 * when there is one, else the interval counters', as the report shows it). Nothing is computed
 * here: the bucket labels, the method's name and which distribution is shown are the report's
 * (engine `sizeBucketLabel`, `sizeMethodVal`, `shownSizes`).
 */
import type { AnalysisReport, OpSizes, PeakStat, RequestSizesGroup, SizeBucket } from '@cacheproof/engine';
import type { ChartDataset } from 'chart.js';
import { COLOR, burstyNotes, shownSizes, sizeBucketLabel, sizeMethodVal, sizeRange, sizeVal } from '@cacheproof/engine/report';
import { dashboardShape, type DashboardShapeKey } from '../../shared/i18n/dashboard-shape.ts';
import { formatVal } from '../../shared/i18n/report.ts';
import { translate } from '../../shared/i18n/types.ts';
import { paletteColor } from '../../shared/palette.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { bars } from './compare.ts';
import { figure, type ChartScheduler } from './frame.ts';
import type { Words } from './text.ts';
import { mostCommonBucket } from '@cacheproof/engine';

type Group = 'front' | 'backing';
type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

const tr = (w: Words) => (key: DashboardShapeKey, params?: Record<string, string>): string => translate(dashboardShape, w.lang, key, params);

function groupLabel(w: Words, g: Group, devices: readonly string[]): string {
  return w.d(g === 'front' ? 'series.front' : 'series.backing', { devices: devices.join(', ') });
}

/** A table cell with the engine's number in `data-value` (tests compare it with analyze --json) and its null reason as a tooltip. */
function cell(field: string, v: number | null, text: string, reason?: string): HTMLElement {
  return el('td', { class: 'num', 'data-field': field, 'data-value': v === null ? '' : String(v), ...(v === null && reason !== undefined ? { title: reason } : {}) }, text);
}

/** Reads/s, writes/s, the read share and aqu-sz per group and window (engine `readWriteQueue`). */
export function readWriteQueueTable(r: AnalysisReport, w: Words): HTMLElement {
  const t = tr(w);
  const body = el('tbody', {});
  const groups: [Group, NonNullable<AnalysisReport['readWriteQueue']['front']>][] = [];
  if (r.readWriteQueue.front !== null) groups.push(['front', r.readWriteQueue.front]);
  groups.push(['backing', r.readWriteQueue.backing]);
  for (const [g, q] of groups) {
    for (const k of WINS) {
      const win = q[k];
      const row = (figure: string, label: string, cells: HTMLElement[]): HTMLElement =>
        el('tr', { 'data-group': g, 'data-window': k, 'data-figure': figure },
          el('th', { scope: 'row' }, groupLabel(w, g, q.devices)), el('td', {}, w.d(k === 'baseline' ? 'phase.baseline' : 'phase.measure')), el('td', {}, label), ...cells);
      const stat = (figure: string, label: string, s: PeakStat): HTMLElement => {
        const r = row(figure, label, (['mean', 'p95', 'peak'] as const).map((f) => {
          const v = s[f];
          return cell(f, v, v === null ? w.na : w.num(v), v === null ? w.reason(s.reasons[f]) : undefined);
        }));
        if (s.notes.length > 0) r.dataset['notes'] = s.notes.join(' ');
        return r;
      };
      body.append(
        stat('readsPerSec', t('rwq.reads'), win.readsPerSec),
        stat('writesPerSec', t('rwq.writes'), win.writesPerSec),
        row('readSharePercent', t('rwq.readShare'), [cell('mean', win.readSharePercent, w.pct(win.readSharePercent), w.reason(win.reasons['readSharePercent'])), el('td', {}), el('td', {})]),
        stat('aquSz', t('rwq.queue'), win.aquSz),
      );
    }
  }
  // a figure whose mean lies above its 95th percentile gets the engine's one-line note (the report's words)
  const notes = burstyNotes(r).map((v) => el('li', { 'data-note': 'bursty' }, formatVal(v, w.lang)));
  const cols: DashboardShapeKey[] = ['rwq.col.group', 'rwq.col.window', 'rwq.col.figure', 'rwq.col.mean', 'rwq.col.p95', 'rwq.col.peak'];
  return el('section', { class: 'dash-devices', 'data-testid': TID.dashReadWriteQueue, 'aria-labelledby': 'dash-rwq-title' },
    el('h4', { id: 'dash-rwq-title', title: t('def.rwq') }, t('rwq.title')),
    el('p', { class: 'dash-def' }, t('def.rwq')),
    el('div', { class: 'dash-table-wrap' }, el('table', { class: 'dash-table', 'aria-labelledby': 'dash-rwq-title' },
      el('thead', {}, el('tr', {}, ...cols.map((k) => el('th', { scope: 'col' }, t(k))))),
      body)),
    ...(notes.length > 0 ? [el('ul', { class: 'dash-notes-list' }, ...notes)] : []));
}

interface SizeView {
  value: string;
  label: string;
  group: Group;
  op: 'reads' | 'writes';
  sizes: RequestSizesGroup;
}

/** The request-size distribution: a group and operation at a time (a selector), both windows side by side in the before/after colours. */
export function requestSizesFigure(r: AnalysisReport, w: Words, palette: readonly string[], scheduler: ChartScheduler): HTMLElement {
  const t = tr(w);
  const f = figure(TID.chartSizes, t('chart.sizes'), t('def.chart.sizes'), undefined, w);
  const views = sizeViews(r, w);
  if (views.length === 0) {
    f.notes.append(el('p', { class: 'dash-note', role: 'note' }, t('sizes.none')));
    f.summary.textContent = w.d('summary', { text: t('sizes.none') });
    f.canvas.parentElement?.remove();
    return f.node;
  }
  const selectId = `${TID.chartSizes}-show`;
  const select = el('select', { id: selectId, 'data-testid': TID.dashSizesShow });
  for (const v of views) select.append(el('option', { value: v.value }, v.label));
  f.tools.append(el('label', { for: selectId }, t('sizes.show')), select);
  const [cBefore, cAfter] = [paletteColor(COLOR.before, palette), paletteColor(COLOR.after, palette)];
  const txt = (v: Parameters<typeof formatVal>[0]): string => formatVal(v, w.lang);

  /** What the chart draws for a view: the buckets from the first to the last with I/O, each window's shares, its method. */
  const drawn = (v: SizeView) => {
    const shown = WINS.map((k) => shownSizes(v.sizes[k]));
    const ops = shown.map((d) => d[v.op]);
    const range = sizeRange(ops) as { from: number; to: number };
    const buckets = r.requestSizes.buckets.slice(range.from, range.to + 1);
    const slice = (o: OpSizes | null): (number | null)[] => buckets.map((_, j) => (o === null ? null : (o.percents[range.from + j] ?? null)));
    return { shown, ops, range, labels: buckets.map((b) => txt(sizeBucketLabel(b))), methods: shown.map((d) => txt(sizeMethodVal(d))), values: ops.map(slice) };
  };
  const current = (): SizeView => views.find((v) => v.value === select.value) ?? (views[0] as SizeView);
  const datasets = (d: ReturnType<typeof drawn>): ChartDataset<'bar', (number | null)[]>[] => WINS.map((k, i) => ({
    label: t('sizes.series', { window: w.d(k === 'baseline' ? 'phase.baseline' : 'phase.measure'), method: d.methods[i] ?? '' }),
    data: d.values[i] ?? [], backgroundColor: i === 0 ? cBefore : cAfter,
  }));
  const describe = (v: SizeView, d: ReturnType<typeof drawn>): void => {
    const parts = WINS.map((k, i) => {
      const o = d.ops[i] ?? null;
      const name = w.d(k === 'baseline' ? 'phase.baseline' : 'phase.measure');
      if (o === null) return t('sum.sizesNone', { window: name, reason: w.reason(d.shown[i]?.reasons[v.op]) });
      const best = mostCommonBucket(o.counts, d.range.from, d.range.to);
      return t('sum.sizes', {
        window: name, bucket: txt(sizeBucketLabel(r.requestSizes.buckets[best] as SizeBucket)), pct: w.pct(o.percents[best] ?? null),
        mean: txt(sizeVal(o.meanBytes)), ios: w.count(o.ios), method: d.methods[i] ?? '',
      });
    });
    f.summary.textContent = w.d('summary', { text: `${v.label}. ${parts.join('; ')}` });
    // what is drawn, for the tests that compare it with analyze --json
    f.canvas.dataset['values'] = JSON.stringify({ show: v.value, from: d.range.from, to: d.range.to, labels: d.labels, methods: d.methods, baseline: d.values[0], measure: d.values[1] });
  };
  const first = drawn(current());
  describe(current(), first);
  let chart: ReturnType<typeof bars> | null = null;
  scheduler.add(f.canvas, (firstDraw) => {
    const d = drawn(current());
    chart = bars(f.canvas, firstDraw, {
      labels: d.labels, datasets: datasets(d), xTitle: t('axis.sizeBucket'), yTitle: t('axis.iosShare'), definition: t('def.chart.sizes'), w, fmt: w.pct,
      footer: (i) => {
        const now = drawn(current());
        return WINS.map((k, j) => {
          const o = now.ops[j] ?? null;
          return o === null ? '' : `${w.d(k === 'baseline' ? 'phase.baseline' : 'phase.measure')}: ${t('sizes.tip', { count: w.count(o.counts[now.range.from + i] ?? 0) })}`;
        }).filter((s) => s !== '');
      },
    });
    return chart;
  });
  select.addEventListener('change', () => {
    const v = current();
    const d = drawn(v);
    describe(v, d);
    const c = chart;
    if (!c) return;
    c.data.labels = d.labels;
    c.data.datasets = datasets(d);
    c.canvas.dataset['series'] = JSON.stringify(c.data.datasets.map((x) => ({ label: x.label ?? '', color: x.backgroundColor })));
    c.update('none');
  });
  return f.node;
}

/** The views the selector offers: the app-facing group first, each operation with I/O in a window. */
function sizeViews(r: AnalysisReport, w: Words): SizeView[] {
  const t = tr(w);
  const rs = r.requestSizes;
  const views: SizeView[] = [];
  const app: Group = r.devices.appFacing === 'front' && rs.front !== null ? 'front' : 'backing';
  for (const g of [app, app === 'front' ? 'backing' : 'front'] as const) {
    const sizes = g === 'front' ? rs.front : rs.backing;
    if (sizes === null) continue;
    for (const op of ['reads', 'writes'] as const) {
      if (sizeRange(WINS.map((k) => shownSizes(sizes[k])[op])) === null) continue;
      views.push({ value: `${g}:${op}`, label: t('sizes.option', { group: groupLabel(w, g, sizes.devices), op: t(op === 'reads' ? 'sizes.reads' : 'sizes.writes') }), group: g, op, sizes });
    }
  }
  return views;
}
