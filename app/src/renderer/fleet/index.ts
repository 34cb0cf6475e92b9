/**
 * The fleet view (`#/fleet/<path>`): the hosts of a fleet capture or of a folder of one capture
 * per host (a Prometheus import), one row each with the headline figures of its own analysis —
 * I/Os saved, response time before → after, IOPS and MB/s delivered, health — or, for a fleet
 * with no switch, of its workload profile, above them the fleet as one load (the engine's
 * per-moment sum: its peak, when and who, p95, mean, and its chart over time: chart.ts). The host computes them once per session
 * (`fleet.open`); nothing is computed here. The table sorts by any column (the header's button;
 * `aria-sort` says how), and each row opens that host's own dashboard (or profile).
 */
import type { FleetRow, FleetView } from '../../shared/contract.ts';
import { dashboard } from '../../shared/i18n/dashboard.ts';
import { fleet as catalog, type FleetKey } from '../../shared/i18n/fleet.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import { fmtDuration, fmtNumber, fmtPercent, fmtSig, fmtUtc } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';
import { ChartScheduler } from '../dashboard/frame.ts';
import { words } from '../dashboard/text.ts';
import { themedPalette } from '../theme.ts';
import { fleetTimeline } from './chart.ts';
import { fleetReportBox } from './report.ts';
import { msToSeconds } from '../../shared/units.ts';

type Grade = 'good' | 'warning' | 'bad' | 'no-data';
/** Sort order of health: the hosts in trouble first when ascending. */
const GRADE_ORDER: Record<Grade, number> = { bad: 0, warning: 1, good: 2, 'no-data': 3 };

interface Column {
  id: string;
  title: FleetKey;
  /** The value a row sorts by (null last), and what its cell shows. */
  key: (r: FleetRow) => number | string | null;
  cell: (r: FleetRow) => HTMLElement;
}

/** The words and cells every part of the fleet view draws with, in the screen's language. */
interface FleetWords {
  lang: Lang;
  t: (k: FleetKey, p?: Record<string, string | number>) => string;
  na: string;
  num: (v: number | null, digits?: number) => string;
  pair: (a: string, b: string) => string;
  grade: (g: Grade | null) => string;
  /** A figure's cell: the text as read, and the raw values for tests and assistive tools. */
  cell: (text: string, values: Record<string, number | string | null>) => HTMLElement;
}

function fleetWords(lang: Lang): FleetWords {
  const t = (k: FleetKey, p?: Record<string, string | number>): string => translate(catalog, lang, k, p);
  const na = t('na');
  return {
    lang, t, na,
    num: (v, digits = 0) => (v === null ? na : digits < 0 ? fmtSig(lang, v) : fmtNumber(lang, v, digits)),
    pair: (a, b) => t('arrow', { before: a, after: b }),
    grade: (g) => (g === null ? na : translate(dashboard, lang, `grade.${g}`)),
    cell: (text, values) => {
      const attrs: Record<string, string> = { class: 'num' };
      for (const [k, v] of Object.entries(values)) attrs[`data-${k}`] = v === null ? '' : String(v);
      return el('td', attrs, text);
    },
  };
}

/** What the fleet view's parts share: its words, its elements, its chart scheduler, and whether it was left. */
interface FleetScreenState {
  ctx: Ctx;
  w: FleetWords;
  node: HTMLElement;
  status: HTMLElement;
  errorBox: HTMLElement;
  body: HTMLElement;
  scheduler: ChartScheduler;
  disposed: boolean;
}

/** The fleet view: a status line (with the hosts analysed so far) until the host answers, then the fleet drawn, or the error. */
export function fleetScreen(ctx: Ctx, path: string): Screen {
  const w = fleetWords(ctx.lang);
  const t = w.t;
  // the fleet's chart is drawn once the view is in the document (Chart.js sizes it from its box)
  const scheduler = new ChartScheduler(() => node.querySelector(`[data-testid="${TID.fleetChart}"]`)?.setAttribute('data-drawn', 'true'));
  const status = el('p', { role: 'status', 'data-testid': TID.fleetStatus }, t('loading'));
  const errorBox = el('div', { class: 'error', role: 'alert', hidden: '' });
  const body = el('div', {});
  const back = el('button', { type: 'button', 'data-testid': TID.fleetBack }, t('back'));
  back.addEventListener('click', () => ctx.go('import'));
  const node = el('div', { class: 'home fleet', 'data-testid': TID.fleet }, el('h2', { id: 'fleet-title' }, t('title', { n: '…' })), status, errorBox, body, el('div', { class: 'actions' }, back));
  const s: FleetScreenState = { ctx, w, node, status, errorBox, body, scheduler, disposed: false };
  let opened = false;
  pollFleetProgress(s, path, () => opened);
  void ctx.api.openFleet(path).then((res) => {
    opened = true;
    if (s.disposed) return;
    status.textContent = '';
    if (!res.ok) {
      errorBox.replaceChildren(el('p', {}, errorText(ctx.lang, res.error.code)), el('p', { class: 'probe-says', translate: 'no' }, res.error.message));
      errorBox.hidden = false;
      return;
    }
    node.setAttribute('data-drawn', 'true');
    drawFleet(s, res.value);
    scheduler.start();
  });
  return { node, dispose: () => { s.disposed = true; scheduler.dispose(); } };
}

/** How far the hosts are, while they are analysed (a fleet of hundreds takes a minute or more): asked every half second until the fleet is open. */
function pollFleetProgress(s: FleetScreenState, path: string, opened: () => boolean): void {
  const { ctx, w } = s;
  const poll = (): void => {
    void ctx.api.fleetProgress(path).then((p) => {
      if (s.disposed || opened()) return;
      if (p.ok && p.value !== null && p.value.total > 0) s.status.textContent = w.t('loadingDone', { done: fmtNumber(w.lang, p.value.done), total: fmtNumber(w.lang, p.value.total) });
      setTimeout(poll, 500);
    });
  };
  setTimeout(poll, 500);
}

/** The table's columns: host and devices, I/Os saved (not for a profile), latency, IOPS and MB/s before → after (a profile's window alone), health. */
function fleetColumns(w: FleetWords, profile: boolean): Column[] {
  const { lang, na, num, pair, grade, cell } = w;
  const f = (r: FleetRow): NonNullable<FleetRow['figures']> | null => r.figures;
  const cols: Column[] = [
    { id: 'host', title: 'col.host', key: (r) => r.host, cell: (r) => el('th', { scope: 'row', translate: 'no' }, r.host) },
    { id: 'devices', title: 'col.devices', key: (r) => r.devices, cell: (r) => cell(fmtNumber(lang, r.devices), { value: r.devices }) },
  ];
  if (!profile) {
    cols.push({ id: 'saved', title: 'col.saved', key: (r) => f(r)?.iosSavedPercent ?? null, cell: (r) => cell(f(r)?.iosSavedPercent == null ? na : fmtPercent(lang, f(r)?.iosSavedPercent as number), { value: f(r)?.iosSavedPercent ?? null }) });
  }
  const ba = (id: string, title: FleetKey, titleProfile: FleetKey, before: (x: NonNullable<FleetRow['figures']>) => number | null, after: (x: NonNullable<FleetRow['figures']>) => number | null, digits: number): Column => ({
    id,
    title: profile ? titleProfile : title,
    // sorted by what the cache gave (after), or the window's figure for a profile
    key: (r) => (f(r) === null ? null : profile ? before(f(r) as NonNullable<FleetRow['figures']>) : after(f(r) as NonNullable<FleetRow['figures']>)),
    cell: (r) => {
      const x = f(r);
      if (x === null) return cell(na, { before: null, after: null });
      return cell(profile ? num(before(x), digits) : pair(num(before(x), digits), num(after(x), digits)), { before: before(x), after: after(x) });
    },
  });
  cols.push(ba('latency', 'col.latency', 'col.latencyProfile', (x) => x.latencyBeforeMs, (x) => x.latencyAfterMs, -1));
  cols.push(ba('iops', 'col.iops', 'col.iopsProfile', (x) => x.iopsBefore, (x) => x.iopsAfter, 0));
  cols.push(ba('mbps', 'col.mbps', 'col.mbpsProfile', (x) => x.mbpsBefore, (x) => x.mbpsAfter, -1));
  cols.push({
    id: 'health',
    title: profile ? 'col.healthProfile' : 'col.health',
    key: (r) => {
      const x = f(r);
      return x === null ? null : GRADE_ORDER[(profile ? x.healthBefore : x.healthAfter ?? x.healthBefore) as Grade];
    },
    cell: (r) => {
      const x = f(r);
      if (x === null) return cell(na, { before: null, after: null });
      const text = profile ? grade(x.healthBefore) : pair(grade(x.healthBefore), grade(x.healthAfter));
      const td = cell(text, { before: x.healthBefore, after: x.healthAfter });
      td.classList.remove('num');
      return td;
    },
  });
  return cols;
}

/** The fleet as one load: its peak (when, who), p95, mean and the sum of the hosts' own peaks, as the engine computed them. */
function aggregateOf(w: FleetWords, a: NonNullable<FleetView['aggregate']>): HTMLElement {
  const { t, num, lang } = w;
  const card = (title: FleetKey, value: number | null, extra: Record<string, string> = {}, sub?: string): HTMLElement =>
    el('div', { class: 'card', 'data-figure': title.slice(4), 'data-value': value === null ? '' : String(value), ...extra },
      el('h3', {}, t(title)), el('p', { class: 'value' }, num(value)), ...(sub === undefined ? [] : [el('p', { class: 'sub' }, sub)]));
  const section = el('section', { 'data-testid': TID.fleetAggregate, 'aria-labelledby': 'fleet-agg-title' }, el('h3', { id: 'fleet-agg-title' }, t('agg.title')));
  const p = a.peak;
  if (p === null) {
    section.append(el('p', {}, t('agg.none')));
    return section;
  }
  section.append(
    el('div', { class: 'cards' },
      card('agg.peak', p.iops, { 'data-start': p.start, 'data-end': p.end }, t('agg.peakWhen', { start: fmtUtc(lang, p.startMs), end: fmtUtc(lang, p.endMs, false) })),
      card('agg.p95', a.p95Iops),
      card('agg.mean', a.meanIops),
      card('agg.sumOfPeaks', a.sumOfHostPeaksIops, {}, t('agg.sumOfPeaksSub'))),
    el('h4', {}, t('agg.makers')),
    el('ul', { class: 'help' }, ...p.hosts.map((h) => el('li', { 'data-host': h.host, 'data-iops': String(h.iops) }, t('agg.maker', { host: h.host, iops: num(h.iops), percent: fmtPercent(lang, h.percent) })))),
    el('p', { class: 'help' }, t('agg.method', { moments: a.moments, hosts: a.hosts })),
  );
  return section;
}

/** The fleet drawn: its source, the fleet as one load with its chart and report, the hosts' table, the method and each host's windows. */
function drawFleet(s: FleetScreenState, v: FleetView): void {
  const { ctx, w, node } = s;
  const { t, lang, na } = w;
  const profile = v.rows.length > 0 && v.rows.every((r) => r.figures === null || r.figures.kind === 'profile') && v.rows.some((r) => r.figures !== null);
  const cols = fleetColumns(w, profile);
  const preset = v.rows.find((r) => r.figures !== null)?.figures?.healthPreset ?? na;
  const title = node.querySelector('#fleet-title');
  if (title !== null) title.textContent = t('title', { n: v.rows.length });
  const { heads, tbody } = sortableHostRows(s, v, cols);
  const windows = v.rows.filter((r) => r.figures !== null).map((r) => {
    const x = r.figures as NonNullable<FleetRow['figures']>;
    return profile || x.secondsAfter === null
      ? t('windowsProfile', { host: r.host, seconds: fmtDuration(lang, x.secondsBefore) })
      : t('windows', { host: r.host, before: fmtDuration(lang, x.secondsBefore), after: fmtDuration(lang, x.secondsAfter) });
  });
  s.body.replaceChildren(
    el('p', { class: 'intro' }, t(profile ? 'introProfile' : 'intro')),
    el('p', { class: 'help', translate: 'no', 'data-kind': v.kind }, v.pushdown === null
      ? t(v.kind === 'capture' ? 'source.capture' : 'source.folder', { path: v.path })
      : t('source.summary', { url: v.pushdown.url, selector: v.pushdown.selector, step: msToSeconds(v.pushdown.stepMs), queries: v.pushdown.queries, path: v.path })),
    ...(v.aggregate === null ? [] : [aggregateOf(w, v.aggregate), ...[fleetTimeline(v.aggregate, words(lang), themedPalette(), s.scheduler)].filter((x): x is HTMLElement => x !== null), fleetReportBox(ctx, v.path, () => !s.disposed)]),
    el('table', { class: 'home-table fleet-table', 'data-testid': TID.fleetTable, 'data-kind': profile ? 'profile' : 'analysis' },
      el('caption', {}, t('caption')),
      el('thead', {}, el('tr', {}, ...heads, el('th', { scope: 'col' }, t('col.open')))),
      tbody),
    el('p', { class: 'help' }, t(profile ? 'methodProfile' : 'method', { preset })),
    el('ul', { class: 'help' }, ...windows.map((x) => el('li', {}, x))),
  );
}

/** The table's column heads (each a button sorting by it; `aria-sort` says how) and its rows, one per host with the button that opens it. */
function sortableHostRows(s: FleetScreenState, v: FleetView, cols: Column[]): { heads: HTMLElement[]; tbody: HTMLElement } {
  const { t, lang } = s.w;
  let sortBy = 'host';
  let ascending = true;
  const tbody = el('tbody', {});
  const heads = cols.map((c) => {
    const label = t(c.title);
    const b = el('button', { type: 'button', class: 'sort', 'aria-label': t('sortBy', { column: label }) }, label);
    const th = el('th', { scope: 'col', 'data-col': c.id }, b);
    b.addEventListener('click', () => {
      ascending = sortBy === c.id ? !ascending : true;
      sortBy = c.id;
      fill();
    });
    return th;
  });
  const fill = (): void => {
    const col = cols.find((c) => c.id === sortBy) as Column;
    const rows = [...v.rows].sort((a, b) => {
      const x = col.key(a), y = col.key(b);
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
      const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), lang);
      return ascending ? d : -d;
    });
    for (const th of heads) {
      if (th.getAttribute('data-col') === sortBy) th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    }
    tbody.replaceChildren(...rows.map((r) => hostRow(s, v, cols, r)));
  };
  fill();
  return { heads, tbody };
}

/** One host's row: its cells, and the button that opens its dashboard (or profile), or why there is none. */
function hostRow(s: FleetScreenState, v: FleetView, cols: Column[], r: FleetRow): HTMLElement {
  const { t, lang } = s.w;
  // a fleet computed by its server holds no host's series: nothing to open
  const open = v.kind === 'summary'
    ? el('span', { class: 'hint' }, t('noDashboard'))
    : el('button', { type: 'button', 'data-testid': TID.fleetOpen, 'aria-label': t('open', { host: r.host }) }, t('open', { host: r.host }));
  if (v.kind !== 'summary') open.addEventListener('click', () => openHost(s, r));
  const last = el('td', {}, open);
  if (r.error !== null) last.append(el('p', { class: 'err-what' }, t('noFigures', { why: errorText(lang, r.error.code as Parameters<typeof errorText>[1]) })));
  return el('tr', { 'data-host': r.host }, ...cols.map((c) => c.cell(r)), last);
}

/** Opens a host: its profile's route, or its capture opened and its dashboard shown (the error said when it cannot open). */
function openHost(s: FleetScreenState, r: FleetRow): void {
  const { ctx, w, status, errorBox } = s;
  errorBox.hidden = true;
  const scope = r.scope ?? undefined;
  if (r.figures?.kind === 'profile') {
    ctx.go(`profile-file/${encodeURIComponent(r.capture)}${scope === undefined ? '' : `/${encodeURIComponent(scope)}`}`);
    return;
  }
  status.textContent = w.t('loading');
  void ctx.api.openCapture(r.capture, scope).then((res) => {
    if (s.disposed) return;
    status.textContent = '';
    if (res.ok) {
      ctx.remember(res.value);
      ctx.go(`results/${encodeURIComponent(res.value.id)}`);
      return;
    }
    errorBox.replaceChildren(el('p', { class: 'err-what' }, w.t('openFailed')), el('p', {}, errorText(w.lang, res.error.code)), el('p', { class: 'probe-says', translate: 'no' }, res.error.message));
    errorBox.hidden = false;
  });
}
