/**
 * The workload profile per calendar day (UTC) on the screen: the engine's per-day tables (report
 * profile-days.ts over `profile.days`, the object `analyze --profile --json` prints and the report
 * draws) drawn as they are, in the person's language: each day's mean, p95 and peak of IOPS, MB/s
 * and response time with the time of each peak. Nothing is computed here.
 */
import { profileDayBlocks, type Block } from '@cacheproof/engine/report';
import type { ProfileView } from '../../shared/contract.ts';
import { formatVal, headWithUnit, reportText } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';

function block(b: Block, lang: Lang): HTMLElement | null {
  if (b.type === 'subheading') return el('h3', {}, reportText(b.text, lang));
  if (b.type === 'paragraph') return el('p', {}, reportText(b.text, lang));
  if (b.type !== 'table') return null;
  const t = b.table;
  const num = (i: number): Record<string, string> => (t.columns[i]?.align === 'right' ? { class: 'num' } : {});
  return el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': reportText(t.title, lang) },
    el('table', { 'data-testid': TID.profileDays, 'data-table': t.id },
      el('caption', {}, reportText(t.title, lang)),
      el('thead', {}, el('tr', {}, ...t.columns.map((c, i) => el('th', { scope: 'col', ...num(i) }, headWithUnit(reportText(c.head, lang), c.unit, lang))))),
      el('tbody', {}, ...t.rows.map((r) => el('tr', {}, ...r.cells.map((v, i) => el('td', num(i), formatVal(v, lang))))))),
    ...(t.caption === undefined ? [] : [el('p', { class: 'help' }, reportText(t.caption, lang))]));
}

/** The per-day section (empty for a window within one day: the figures say it all). */
export function daysSection(p: ProfileView['profile'], lang: Lang): HTMLElement {
  return el('section', { class: 'profile-days', 'data-days': String(p.days.length) },
    ...profileDayBlocks(p).map((b) => block(b, lang)).filter((x): x is HTMLElement => x !== null));
}
