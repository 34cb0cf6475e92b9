/**
 * The workload profile: a run's baseline alone, for a run stopped before the cache was switched
 * on (the host's `run.openProfile`), or a capture file's (`analysis.openProfile`: an imported log
 * with no switch, for capacity planning without a cache); engine `profileWorkload`. Window summary figures of the
 * application-facing devices and a row per device, each with its unit and window; no
 * before/after, and the screen says so. Every figure comes from the host: nothing is computed here.
 */
import type { ProfileView } from '../../shared/contract.ts';
import { profile as catalog, type ProfileKey } from '../../shared/i18n/profile.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import { fmtDuration, fmtNumber, fmtPercent, fmtSig, fmtUtc } from '../format.ts';
import { fmtDate } from '../../shared/i18n/numbers.ts';
import { dashboard, type DashboardKey } from '../../shared/i18n/dashboard.ts';
import type { Ctx, Screen } from '../screen.ts';
import { themedPalette } from '../theme.ts';
import { ChartScheduler } from '../dashboard/frame.ts';
import { words } from '../dashboard/text.ts';
import { exportUi, formatVal } from '../../shared/i18n/report.ts';
import { profileTimeline } from './charts.ts';
import { capacitySection, hoursSection } from './hours.ts';
import { slicesSection } from './slices.ts';
import { daysSection } from './days.ts';
import { profilePrediction } from './prediction.ts';
import { warningText } from '../../shared/i18n/warnings.ts';
import { busiestDeviceMsg } from '@cacheproof/engine/report';
import { upperLayerSection } from './layer.ts';
import { bytesInUnit, msToSeconds } from '../../shared/units.ts';

/** Whose baseline: a run's (`#/profile/<runId>`) or a capture file's (`#/profile-file/<path>[/<host>]`: one host of a fleet capture). */
export type ProfileTarget = { runId: string } | { path: string; host?: string };

/**
 * Profiles shown in this window, by id: their name and the route back to them. The Planner
 * (`#/planner/<id>`) plans for one of them as for an analysis: capacity planning without a cache.
 */
export const shownProfiles = new Map<string, { name: string; route: string }>();

/** The target a profile's route names (its segments after `profile` or `profile-file`, decoded), or null when they name none. */
export function profileTargetOf(segments: readonly string[]): ProfileTarget | null {
  const [kind, first, host] = segments;
  if (first === undefined) return null;
  if (kind === 'profile') return { runId: first };
  if (kind === 'profile-file') return host === undefined ? { path: first } : { path: first, host };
  return null;
}

/** The route of a profile's screen. */
export function profileRoute(target: ProfileTarget): string {
  if ('runId' in target) return `profile/${encodeURIComponent(target.runId)}`;
  return `profile-file/${encodeURIComponent(target.path)}${target.host === undefined ? '' : `/${encodeURIComponent(target.host)}`}`;
}

type ProfileText = (key: ProfileKey, p?: Record<string, string | number>) => string;

/** The profile screen: a status line until the host answers, then the profile drawn and its Planner and Export buttons, or the error. */
export function profileScreen(ctx: Ctx, target: ProfileTarget): Screen {
  const lang = ctx.lang;
  const t: ProfileText = (key, p) => translate(catalog, lang, key, p);
  let disposed = false;
  // the time charts are drawn once the screen is in the document (Chart.js sizes them from their box)
  const scheduler = new ChartScheduler(() => { node.dataset['drawn'] = 'true'; });
  const status = el('p', { role: 'status' }, t('loading'));
  const back = el('button', { type: 'button', 'data-testid': TID.profileBack }, t('back'));
  if (!('runId' in target)) back.textContent = t('toImport');
  back.addEventListener('click', () => ctx.go('runId' in target ? `run/${encodeURIComponent(target.runId)}` : 'import'));
  const body = el('div', {});
  const node = el('div', { class: 'profile', 'data-testid': TID.profile, 'data-drawn': 'false' }, status, body, el('div', { class: 'actions' }, back));

  const opening = 'runId' in target ? ctx.api.openRunProfile(target.runId) : ctx.api.openCaptureProfile(target.path, target.host);
  void opening.then((r) => {
    if (disposed) return;
    status.hidden = true;
    if (r.ok) {
      body.replaceChildren(...profileBody(ctx, target, r.value, scheduler));
      scheduler.start();
      // the hardware for this workload: the Planner, prefilled from the profile (no cache measured)
      shownProfiles.set(r.value.id, { name: r.value.name, route: profileRoute(target) });
      // Home lists it among the recent analyses, and its row opens this route again
      ctx.rememberProfile(r.value, profileRoute(target));
      back.before(...profileActions(ctx, target));
    }
    else body.replaceChildren(el('div', { class: 'error', role: 'alert', 'data-testid': TID.profileError }, errorText(lang, r.error.code)));
  });
  return { node, dispose: () => { disposed = true; scheduler.dispose(); } };
}

/** The Planner and Export buttons of an opened profile; their routes carry the capture (this screen's route), so that a reload lands on them again. */
function profileActions(ctx: Ctx, target: ProfileTarget): HTMLElement[] {
  const t: ProfileText = (key, p) => translate(catalog, ctx.lang, key, p);
  const plan = el('button', { type: 'button', class: 'primary', 'data-testid': TID.profilePlan }, t('plan'));
  plan.addEventListener('click', () => ctx.go(`profile-planner/${profileRoute(target)}`));
  // its report (the Export screen of the profile: the workload-profile report)
  const exp = el('button', { type: 'button', 'data-testid': TID.profileExport }, translate(exportUi, ctx.lang, 'nav'));
  exp.addEventListener('click', () => ctx.go(`profile-export/${profileRoute(target)}`));
  return [plan, exp];
}

/** A figure or "n/a", with its digits. */
function numText(lang: Lang, t: ProfileText, v: number | null, digits: number): string {
  return v === null ? t('na') : fmtNumber(lang, v, digits);
}

/** The profile drawn: title, window and devices, the summary cards, warnings, charts, per-hour, per-day and per-device tables, health and slices. */
function profileBody(ctx: Ctx, target: ProfileTarget, v: ProfileView, scheduler: ChartScheduler): HTMLElement[] {
  const lang = ctx.lang;
  const t: ProfileText = (key, params) => translate(catalog, lang, key, params);
  const p = v.profile;
  const group = p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
  const windowText = t('window', { start: fmtUtc(lang, p.window.startMs), end: fmtUtc(lang, p.window.endMs), duration: fmtDuration(lang, p.window.seconds) });
  const devicesText = t('devices', { devices: `${group.join(', ') || t('none')} (${t(p.devices.appFacing)})` });
  // busy % per device, the busiest named beside the group's average (the engine's words, report/profile-busy.ts)
  const busiest = busiestDeviceMsg(p);
  return [
    // titled by the host and its dates, not the file name (the file is on the window line and in the report's appendix)
    el('h2', { 'data-testid': TID.profileTitle }, t('title', { name: v.host.hostname === null ? v.name : `${v.host.hostname}, ${fmtDate(lang, p.window.startMs)} – ${fmtDate(lang, p.window.endMs)}` })),
    el('p', {}, el('span', { class: 'badge mode mode-backing-only', 'data-testid': TID.profileBadge }, t('badge'))),
    el('p', {}, t('runId' in target ? 'intro' : 'introImport')),
    el('p', { 'data-testid': TID.profileWindow }, windowText),
    el('p', {}, devicesText),
    profileCards(lang, t, v, windowText),
    warningsSection(lang, p),
    profileTimeline(v, words(lang), themedPalette(), scheduler),
    ...[profilePrediction(ctx, v, words(lang), themedPalette(), scheduler, () => ctx.go(profileRoute(target)))].filter((x): x is HTMLElement => x !== null),
    hoursSection(p, lang),
    // each calendar day's mean, p95 and peak, as the report's per-day tables (engine report/profile-days.ts)
    daysSection(p, lang),
    perDeviceTable(lang, t, p),
    ...(busiest === null ? [] : [el('p', { 'data-testid': TID.profileBusiestDevice }, formatVal({ k: 'msg', m: busiest }, lang))]),
    // the volumes above the counted disks: what the applications saw, beside the disks, not added (report/profile-layer.ts)
    ...upperLayerSection(p, lang),
    capacitySection(p, lang),
    healthSection(lang, t, v),
    // PAL-style time slices and the alerts list (engine report/profile-slices.ts)
    slicesSection(p, lang),
    el('p', { class: 'help' }, t('method')),
  ];
}

/** The window's summary cards of the application-facing devices: IOPS, its p95, MB/s, latency, read share and request size. */
function profileCards(lang: Lang, t: ProfileText, v: ProfileView, windowText: string): HTMLElement {
  const m = v.profile.appFacing.means;
  const num = (x: number | null, digits: number): string => numText(lang, t, x, digits);
  const card = (testId: string, title: string, value: string, unit: string, sub: string): HTMLElement =>
    el('section', { class: 'card', 'data-testid': testId, tabindex: '0', 'aria-label': `${title}: ${value} ${unit}. ${sub}` },
      el('h3', {}, title), el('div', { class: 'value' }, `${value} ${unit}`.trim()), el('div', { class: 'sub' }, sub));
  // the interval's length when the capture says it, else said to be unknown (never "n/a-s")
  const p95Title = v.sampleIntervalMs === null ? t('card.p95Unknown') : t('card.p95', { interval: fmtNumber(lang, msToSeconds(v.sampleIntervalMs), 0) });
  const p95 = v.profile.appFacing.percentiles.iops?.p95 ?? null;
  return el('div', { class: 'cards' },
    card(TID.profileCardIops, t('card.iops'), num(m.iops, 1), t('unit.iops'), windowText),
    card(TID.profileCardP95, p95Title, num(p95, 1), t('unit.iops'), windowText),
    card(TID.profileCardMbps, t('card.mbps'), num(m.mbps, 2), t('unit.mbps'), windowText),
    card(TID.profileCardLatency, t('card.latency'), num(m.awaitMs, 3), t('unit.ms'), windowText),
    card(TID.profileCardReadShare, t('card.readShare'), m.readSharePercent === null ? t('na') : fmtPercent(lang, m.readSharePercent), '', windowText),
    card(TID.profileCardRequestSize, t('card.requestSize'), m.avgRequestBytes === null ? t('na') : fmtNumber(lang, bytesInUnit(m.avgRequestBytes, 1024), 1), t('unit.kib'), windowText));
}

/** A row per device: its role, mean IOPS, MB/s, latency, read share, busy and the intervals it covers. */
function perDeviceTable(lang: Lang, t: ProfileText, p: ProfileView['profile']): HTMLElement {
  const num = (x: number | null, digits: number): string => numText(lang, t, x, digits);
  const row = (d: ProfileView['profile']['perDevice'][number]): HTMLElement => el('tr', {},
    el('th', { scope: 'row' }, d.device),
    el('td', {}, t((`role.${d.role}` as ProfileKey) in catalog.en ? (`role.${d.role}` as ProfileKey) : 'role.other')),
    el('td', { class: 'num' }, num(d.summary.means.iops, 1)),
    el('td', { class: 'num' }, num(d.summary.means.mbps, 2)),
    el('td', { class: 'num' }, num(d.summary.means.awaitMs, 3)),
    el('td', { class: 'num' }, d.summary.means.readSharePercent === null ? t('na') : fmtPercent(lang, d.summary.means.readSharePercent)),
    el('td', { class: 'num' }, d.summary.means.utilPercent === null ? t('na') : fmtPercent(lang, d.summary.means.utilPercent)),
    el('td', { class: 'num' }, fmtNumber(lang, d.summary.okIntervals)));
  return el('div', { class: 'table-scroll' }, el('table', { 'data-testid': TID.profileTable },
    el('caption', {}, t('table.caption')),
    el('thead', {}, el('tr', {}, ...(['col.device', 'col.role', 'col.iops', 'col.mbps', 'col.latency', 'col.readShare', 'col.busy', 'col.coverage'] as const).map((k, i) => el('th', { scope: 'col', ...(i > 1 ? { class: 'num' } : {}) }, t(k))))),
    el('tbody', {}, ...p.perDevice.map(row))));
}

/** The profile's warnings (role overrides and plausibility: a log too short for a day, rates no device reaches, …), translated by code, next to the figures they qualify. */
function warningsSection(lang: Lang, p: ProfileView['profile']): HTMLElement {
  const d = (key: DashboardKey): string => translate(dashboard, lang, key);
  const list = el('ul', { class: 'warnings', 'data-testid': TID.profileWarnings });
  if (p.warnings.length === 0) list.append(el('li', {}, d('noWarnings')));
  for (const x of p.warnings) list.append(el('li', { 'data-code': x.code }, warningText(x, lang)));
  return el('section', { 'aria-labelledby': 'profile-warnings-title' }, el('h3', { id: 'profile-warnings-title' }, d('warnings')), list);
}

/** Health against the latency targets over the window, graded by the engine (as the dashboard shows each window's). */
function healthSection(lang: Lang, t: ProfileText, v: ProfileView): HTMLElement {
  const h = v.profile.health;
  const d = (key: DashboardKey, p?: Record<string, string | number>): string => translate(dashboard, lang, key, p);
  const ms = (x: number | null): string => (x === null ? t('na') : `${fmtSig(lang, x)} ${t('unit.ms')}`);
  const targets = ([['readMs', 'health.target.readMs'], ['writeMs', 'health.target.writeMs'], ['transferMs', 'health.target.transferMs']] as const)
    .flatMap(([k, key]) => (h.targets[k] === undefined ? [] : [d(key, { value: ms(h.targets[k] ?? null) })]));
  const rows = h.window.checks.map((c) => el('tr', { 'data-metric': c.metric },
    el('th', { scope: 'row' }, d(`metric.${c.metric}`)),
    el('td', { class: 'num' }, ms(c.targetMs)),
    el('td', { class: 'num' }, ms(c.averageMs)),
    el('td', {}, c.meetsTarget === null ? t('na') : d(c.meetsTarget ? 'health.meets' : 'health.breaks')),
    el('td', { class: 'num' }, c.breakingPercent === null ? t('na')
      : d('health.breakingCell', { count: fmtNumber(lang, c.intervalsBreaking), checked: fmtNumber(lang, c.intervalsChecked), percent: fmtPercent(lang, c.breakingPercent) }))));
  return el('section', { 'data-testid': TID.profileHealth, 'data-grade': h.window.grade },
    el('h3', {}, d('health.title')),
    el('p', {}, d('health.targets', { preset: h.preset, targets: targets.join(', '), devices: h.devices.join(', ') })),
    el('p', {}, d('health.grade', { window: t('health.window'), grade: d(`grade.${h.window.grade}`) })),
    h.window.checks.length === 0 ? el('p', {}, d('health.noCheck'))
      : el('table', {},
        el('thead', {}, el('tr', {}, ...(['health.col.metric', 'health.col.target', 'health.col.average', 'health.col.result', 'health.col.breaking'] as const).map((k, i) => el('th', { scope: 'col', ...(i === 1 || i === 2 || i === 4 ? { class: 'num' } : {}) }, d(k))))),
        el('tbody', {}, ...rows)),
    el('p', { class: 'help' }, d('def.health')));
}
