/**
 * The workload profile's PAL-style time slices on the screen: the engine's blocks (report
 * profile-slices.ts: the rule, the table per device and counter, the alerts in time order) drawn as
 * they are, in the person's language. Nothing is computed here.
 */
import { sliceBlocks, type Block } from '@cacheproof/engine/report';
import type { ProfileView } from '../../shared/contract.ts';
import { formatVal, reportText } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';

/** An engine report block drawn as it is (a table with its caption); `testId` names a table's test id. */
export function engineBlock(b: Block, lang: Lang, testId: (tableId: string) => string = (id) => (id === 'profile-alerts' ? TID.profileAlerts : TID.profileSlices)): HTMLElement | null {
  if (b.type === 'subheading') return el('h3', {}, reportText(b.text, lang));
  if (b.type === 'paragraph') return el('p', {}, reportText(b.text, lang));
  if (b.type !== 'table') return null;
  const t = b.table;
  return el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': reportText(t.title, lang) },
    el('table', { 'data-testid': testId(t.id) },
      el('caption', {}, reportText(t.title, lang)),
      el('thead', {}, el('tr', {}, ...t.columns.map((c) => el('th', { scope: 'col', ...(c.align === 'right' ? { class: 'num' } : {}) }, reportText(c.head, lang))))),
      el('tbody', {}, ...t.rows.map((r) => el('tr', {}, ...r.cells.map((v, i) => el('td', t.columns[i]?.align === 'right' ? { class: 'num' } : {}, formatVal(v, lang))))))),
    ...(t.caption === undefined ? [] : [el('p', { class: 'help' }, reportText(t.caption, lang))]));
}

/** The time slices section, with the grade's rule when a sustained critical run made it bad. */
export function slicesSection(p: ProfileView['profile'], lang: Lang): HTMLElement {
  return el('section', { class: 'profile-slices', 'data-testid': TID.profileSlicesSection, 'data-alerts': String(p.slices.alerts.length), 'data-grade-rule': p.health.gradeRule },
    ...sliceBlocks(p).map((b) => engineBlock(b, lang)).filter((x): x is HTMLElement => x !== null));
}
