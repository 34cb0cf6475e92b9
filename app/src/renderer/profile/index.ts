/**
 * The workload profile: a run's baseline alone, for a run stopped before the cache was switched
 * on (the host's `run.openProfile`, engine `profileWorkload`). Window summary figures of the
 * application-facing devices and a row per device, each with its unit and window; no
 * before/after, and the screen says so. Every figure comes from the host: nothing is computed here.
 */
import type { ProfileView } from '../../shared/contract.ts';
import { profile as catalog, type ProfileKey } from '../../shared/i18n/profile.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import { fmtDuration, fmtNumber, fmtPercent, fmtUtc } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';

export function profileScreen(ctx: Ctx, runId: string): Screen {
  const lang = ctx.lang;
  const t = (key: ProfileKey, p?: Record<string, string | number>): string => translate(catalog, lang, key, p);
  let disposed = false;
  const status = el('p', { role: 'status' }, t('loading'));
  const back = el('button', { type: 'button', 'data-testid': TID.profileBack }, t('back'));
  back.addEventListener('click', () => ctx.go(`run/${encodeURIComponent(runId)}`));
  const body = el('div', {});
  const node = el('div', { class: 'profile', 'data-testid': TID.profile }, status, body, el('div', { class: 'actions' }, back));

  const num = (v: number | null, digits: number): string => (v === null ? t('na') : fmtNumber(lang, v, digits));
  const card = (testId: string, title: string, value: string, unit: string, sub: string): HTMLElement =>
    el('section', { class: 'card', 'data-testid': testId, tabindex: '0', 'aria-label': `${title}: ${value} ${unit}. ${sub}` },
      el('h3', {}, title), el('div', { class: 'value' }, `${value} ${unit}`.trim()), el('div', { class: 'sub' }, sub));

  const show = (v: ProfileView): void => {
    const p = v.profile;
    const m = p.appFacing.means;
    const group = p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
    const windowText = t('window', { start: fmtUtc(lang, p.window.startMs), end: fmtUtc(lang, p.window.endMs), duration: fmtDuration(lang, p.window.seconds) });
    const devicesText = t('devices', { devices: `${group.join(', ') || t('none')} (${t(p.devices.appFacing)})` });
    const interval = v.sampleIntervalMs === null ? t('na') : fmtNumber(lang, v.sampleIntervalMs / 1000, 0);
    const p95 = p.appFacing.percentiles.iops?.p95 ?? null;
    const row = (d: ProfileView['profile']['perDevice'][number]): HTMLElement => el('tr', {},
      el('th', { scope: 'row' }, d.device),
      el('td', {}, t((`role.${d.role}` as ProfileKey) in catalog.en ? (`role.${d.role}` as ProfileKey) : 'role.other')),
      el('td', { class: 'num' }, num(d.summary.means.iops, 1)),
      el('td', { class: 'num' }, num(d.summary.means.mbps, 2)),
      el('td', { class: 'num' }, num(d.summary.means.awaitMs, 3)),
      el('td', { class: 'num' }, d.summary.means.readSharePercent === null ? t('na') : fmtPercent(lang, d.summary.means.readSharePercent)),
      el('td', { class: 'num' }, fmtNumber(lang, d.summary.okIntervals)));
    body.replaceChildren(
      el('h2', {}, t('title', { name: v.name })),
      el('p', {}, el('span', { class: 'badge mode mode-backing-only', 'data-testid': TID.profileBadge }, t('badge'))),
      el('p', {}, t('intro')),
      el('p', { 'data-testid': TID.profileWindow }, windowText),
      el('p', {}, devicesText),
      el('div', { class: 'cards' },
        card(TID.profileCardIops, t('card.iops'), num(m.iops, 1), t('unit.iops'), windowText),
        card(TID.profileCardP95, t('card.p95', { interval }), num(p95, 1), t('unit.iops'), windowText),
        card(TID.profileCardMbps, t('card.mbps'), num(m.mbps, 2), t('unit.mbps'), windowText),
        card(TID.profileCardLatency, t('card.latency'), num(m.awaitMs, 3), t('unit.ms'), windowText),
        card(TID.profileCardReadShare, t('card.readShare'), m.readSharePercent === null ? t('na') : fmtPercent(lang, m.readSharePercent), '', windowText),
        card(TID.profileCardRequestSize, t('card.requestSize'), m.avgRequestBytes === null ? t('na') : fmtNumber(lang, m.avgRequestBytes / 1024, 1), t('unit.kib'), windowText)),
      el('table', { 'data-testid': TID.profileTable },
        el('caption', {}, t('table.caption')),
        el('thead', {}, el('tr', {}, ...(['col.device', 'col.role', 'col.iops', 'col.mbps', 'col.latency', 'col.readShare', 'col.coverage'] as const).map((k) => el('th', { scope: 'col' }, t(k))))),
        el('tbody', {}, ...p.perDevice.map(row))),
      el('p', { class: 'help' }, t('method')));
  };

  void ctx.api.openRunProfile(runId).then((r) => {
    if (disposed) return;
    status.hidden = true;
    if (r.ok) show(r.value);
    else body.replaceChildren(el('div', { class: 'error', role: 'alert', 'data-testid': TID.profileError }, errorText(lang, r.error.code)));
  });
  return { node, dispose: () => { disposed = true; } };
}
