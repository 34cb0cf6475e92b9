/**
 * The workload profile's busiest hour (its sentence), its hour × day IOPS heatmap and the
 * volumes' capacity, as the engine gives them (`profile.hours`, engine/src/benefit/hours.ts;
 * `profile.capacity`, engine/src/benefit/capacity.ts). Nothing is computed here: cells are
 * shaded by their share of the engine's highest hour, figures only formatted.
 */
import type { ProfileView } from '../../shared/contract.ts';
import { profileCharts, type ProfileChartsKey } from '../../shared/i18n/profile-charts.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtUtc } from '../format.ts';
import { fmtDate } from '../../shared/i18n/numbers.ts';
import { heatLevel, heatShare } from '@cacheproof/engine/report';
import { bytesInUnit } from '../../shared/units.ts';

type Profile = ProfileView['profile'];

/** The busiest hour in a sentence and the hour × day IOPS table (a heatmap: each cell's tint is its IOPS over the highest cell's). */
export function hoursSection(p: Profile, lang: Lang): HTMLElement {
  const c = (key: ProfileChartsKey, params?: Record<string, string>): string => translate(profileCharts, lang, key, params);
  const h = p.hours;
  const b = h.busiest;
  const sentence = b === null
    ? el('p', { 'data-testid': TID.profileBusiest }, c('hours.none'))
    : el('p', { 'data-testid': TID.profileBusiest, 'data-start-ms': String(b.startMs), 'data-iops': String(b.iops) },
      c('hours.busiest', { start: fmtUtc(lang, b.startMs), end: fmtUtc(lang, b.endMs, false), iops: fmtNumber(lang, b.iops, 1) }));
  // shaded as in every report format: the engine's share of the busiest hour, in its steps (engine report/heat.ts)
  const top = b === null ? null : b.iops;
  const hours = Array.from({ length: 24 }, (_, i) => i);
  const rows = h.days.map((day, d) => el('tr', {},
    el('th', { scope: 'row' }, fmtDate(lang, day)),
    ...hours.map((hr) => {
      const v = h.iops[d]?.[hr] ?? null;
      const share = heatShare(v, top);
      const level = share === null ? '' : String(heatLevel(share));
      return el('td', { class: 'num heat', 'data-level': level, 'data-iops': v === null ? '' : String(v) }, v === null ? '' : fmtNumber(lang, v, 0));
    })));
  return el('section', { class: 'profile-hours' },
    el('h3', {}, c('hours.title')),
    sentence,
    h.days.length === 0 ? el('p', {}, c('hours.none')) : el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': c('hours.caption') },
      el('table', { class: 'heatmap', 'data-testid': TID.profileHeatmap },
        el('caption', {}, c('hours.caption')),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, c('hours.day')), ...hours.map((hr) => el('th', { scope: 'col', class: 'num' }, String(hr).padStart(2, '0'))))),
        el('tbody', {}, ...rows))),
    el('p', { class: 'help' }, c('hours.def')));
}

/** Capacity per volume over the whole log, or "not in this log". */
export function capacitySection(p: Profile, lang: Lang): HTMLElement {
  const c = (key: ProfileChartsKey, params?: Record<string, string>): string => translate(profileCharts, lang, key, params);
  const cap = p.capacity;
  const gb = (x: number | null): string => (x === null ? '—' : `${fmtNumber(lang, bytesInUnit(x, 1e9), 1)} ${c('unit.gb')}`);
  if (!cap.inLog || cap.volumes.length === 0) {
    return el('section', { class: 'profile-capacity', 'data-testid': TID.profileCapacity, 'data-in-log': 'false' }, el('h3', {}, c('cap.title')), el('p', {}, c('cap.none')));
  }
  const rows = cap.volumes.map((v) => el('tr', { 'data-volume': v.volume },
    el('th', { scope: 'row' }, v.mount === null ? v.volume : `${v.volume} (${v.mount})`),
    el('td', { class: 'num' }, gb(v.sizeBytes)),
    el('td', { class: 'num' }, gb(v.usedBytes)),
    el('td', { class: 'num' }, gb(v.freeBytes)),
    el('td', { class: 'num' }, v.growthBytesPerDay === null ? (v.reasons.growthBytesPerDay === 'short-fit' ? c('cap.withheld') : '—') : `${fmtNumber(lang, bytesInUnit(v.growthBytesPerDay, 1e9), 2)} ${c('unit.gbPerDay')}`),
    el('td', { class: 'num' }, v.daysToFull === null ? c(v.reasons.daysToFull === 'short-fit' ? 'cap.withheld' : 'cap.notFilling') : `${fmtNumber(lang, v.daysToFull, 0)} ${c('unit.days')}`)));
  return el('section', { class: 'profile-capacity', 'data-testid': TID.profileCapacity, 'data-in-log': 'true' },
    el('h3', {}, c('cap.title')),
    el('table', {},
      el('caption', {}, c('cap.caption')),
      el('thead', {}, el('tr', {}, ...(['cap.volume', 'cap.size', 'cap.used', 'cap.free', 'cap.growth', 'cap.daysToFull'] as const).map((k, i) => el('th', { scope: 'col', ...(i > 0 ? { class: 'num' } : {}) }, c(k))))),
      el('tbody', {}, ...rows)),
    el('p', { class: 'help' }, c('cap.def')));
}
