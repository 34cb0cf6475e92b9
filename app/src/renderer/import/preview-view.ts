/**
 * The import preview drawn (import/index.ts asks for it): a block trace's facts, or a log's files,
 * devices with the role the person may change and what each sits on, its time range, interval,
 * phases, counters, what was not imported, notes and needs, and whether it can be imported (a
 * partial log is refused with what to collect). The probe's sentences come as codes with values
 * (`said`), written in the person's language by said.ts; without them its English is shown as is.
 */
import type { ImportPreview, Said } from '../../shared/contract.ts';
import { DEVICE_ROLES } from '../../shared/analysis-schema.ts';
import type { ImportKey } from '../../shared/i18n/import.ts';
import { LOCALE, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { msToSeconds, utcOffsetLabel } from '../../shared/units.ts';
import { el } from '../dom.ts';
import { saidNode } from './said.ts';
import { tracePreview } from './trace.ts';

export type DeviceRole = (typeof DEVICE_ROLES)[number];

/** What drawing a preview needs: the language, the words, and what to do when a device's role changes. */
export interface PreviewDraw {
  lang: Lang;
  u: (key: ImportKey, params?: Record<string, string | number>) => string;
  onRole: (device: string, role: DeviceRole) => void;
}

const intFmtOf = (lang: Lang): Intl.NumberFormat => new Intl.NumberFormat(LOCALE[lang]);
const dateFmtOf = (lang: Lang): Intl.DateTimeFormat => new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** The probe's sentence in the person's language (a code with values), or its English when it sent none. */
function say(lang: Lang, english: string, s: Said | undefined): Node {
  return s === undefined ? el('span', { translate: 'no' }, english) : saidNode(lang, s);
}

/** A titled list; a string item is the probe's English (an older probe without `said`), not translated. */
function list(d: PreviewDraw, title: ImportKey, testId: string | null, items: (string | Node)[]): HTMLElement | null {
  if (items.length === 0) return null;
  const ul = el('ul', testId === null ? {} : { 'data-testid': testId });
  for (const i of items) ul.append(typeof i === 'string' ? el('li', { translate: 'no' }, i) : el('li', {}, i));
  return el('div', {}, el('h4', {}, d.u(title)), ul);
}

/** The files read: format, encoding, time zone (and how it is known), samples, hosts. */
function filesTable(d: PreviewDraw, p: ImportPreview): HTMLElement {
  const { lang, u } = d;
  const intFmt = intFmtOf(lang);
  const fileRows = el('tbody', {});
  for (const [i, f] of p.files.entries()) {
    const tz = f.timeZone ?? (f.utcOffsetMin === null ? '—' : utcOffsetLabel(f.utcOffsetMin));
    fileRows.append(el('tr', {},
      el('th', { scope: 'row', translate: 'no' }, f.name),
      el('td', { translate: 'no' }, f.format),
      el('td', { translate: 'no' }, f.encoding),
      el('td', {}, el('span', { translate: 'no' }, tz), ' (', say(lang, f.timeZoneSource, p.said?.files[i]?.timeZoneSource), ')'),
      el('td', { class: 'num' }, intFmt.format(f.samples)),
      el('td', { translate: 'no' }, f.hosts.join(', '))));
  }
  return el('table', { class: 'home-table' },
    el('thead', {}, el('tr', {}, ...(['pv.file', 'pv.format', 'pv.encoding', 'pv.timeZone', 'pv.samples', 'pv.hosts'] as const).map((k) => el('th', { scope: 'col' }, u(k))))),
    fileRows);
}

/** The devices with their proposed roles (a select each) and what each sits on. */
function devicesTable(d: PreviewDraw, p: ImportPreview): HTMLElement {
  const { lang, u } = d;
  const said = p.said;
  const devRows = el('tbody', {});
  for (const [i, dev] of p.devices.entries()) {
    const pick = el('select', { 'aria-label': `${u('pv.role')}: ${dev.name}` });
    for (const r of DEVICE_ROLES) {
      const o = el('option', { value: r }, u(`role.${r}`));
      if (r === dev.role) o.selected = true;
      pick.append(o);
    }
    pick.addEventListener('change', () => d.onRole(dev.name, pick.value as DeviceRole));
    // what the device sits on: its edge of the device stack (with how it is known), else the probe's pairing
    const at = p.stack.findIndex((e) => e.holder === dev.name);
    const edge = at < 0 ? undefined : p.stack[at];
    const on = edge?.on ?? dev.on;
    devRows.append(el('tr', { 'data-device': dev.name, 'data-role': dev.role, ...(on === null ? {} : { 'data-on': on }), ...(edge === undefined ? {} : { 'data-stack': edge.kind }) },
      el('th', { scope: 'row', translate: 'no' }, dev.name),
      el('td', {}, pick),
      el('td', {}, ...(edge === undefined ? [el('span', { translate: 'no' }, dev.on ?? '—')] : [el('span', { translate: 'no' }, edge.on), ' (', say(lang, edge.kind, said?.stack[at]), ')'])),
      el('td', {}, say(lang, dev.reason, said?.devices[i]))));
  }
  return el('table', { class: 'home-table', 'data-testid': TID.importDevices },
    el('thead', {}, el('tr', {}, ...(['pv.device', 'pv.role', 'pv.on', 'pv.reason'] as const).map((k) => el('th', { scope: 'col' }, u(k))))),
    devRows);
}

/** The time range, the interval and the number of intervals. */
function facts(d: PreviewDraw, p: ImportPreview): HTMLElement {
  const { lang, u } = d;
  const dateFmt = dateFmtOf(lang);
  const numFmt = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 3 });
  const range = p.timeRange === null ? '—' : `${dateFmt.format(new Date(p.timeRange.startUtcMs))} – ${dateFmt.format(new Date(p.timeRange.endUtcMs))}`;
  return el('dl', { class: 'import-facts' },
    el('dt', {}, u('pv.range')), el('dd', { 'data-testid': TID.importRange }, range),
    el('dt', {}, u('pv.interval')), el('dd', { 'data-testid': TID.importInterval, 'data-ms': String(p.intervalMs ?? '') }, p.intervalMs === null ? '—' : u('pv.intervalValue', { seconds: numFmt.format(msToSeconds(p.intervalMs)) })),
    el('dt', {}, u('pv.intervals')), el('dd', { class: 'num' }, intFmtOf(lang).format(p.intervals)));
}

/** Phases, counters, what was not imported, notes and needs: each list only when it has items. */
function lists(d: PreviewDraw, p: ImportPreview): HTMLElement[] {
  const { lang, u } = d;
  const said = p.said;
  const dateFmt = dateFmtOf(lang);
  const phases = p.phases.map((ph, i) => el('span', {}, say(lang, ph.name, said?.phases[i]), `: ${dateFmt.format(new Date(ph.startUtcMs))} – ${dateFmt.format(new Date(ph.endUtcMs))}`));
  return [
    list(d, 'pv.phases', null, phases),
    list(d, 'pv.counters', TID.importCounters, p.counters.map((c) => `${c.source} → ${c.field}`)),
    list(d, 'pv.unmapped', null, p.unmapped.map((x, i) => { const s = said?.unmapped[i]; return s === undefined ? `${x.what}: ${x.why}` : el('span', {}, saidNode(lang, s.what), u('pv.because'), saidNode(lang, s.why)); })),
    list(d, 'pv.notes', TID.importNotes, p.notes.map((n, i) => { const s = said?.notes[i]; return s === undefined ? n : saidNode(lang, s); })),
    list(d, 'pv.needs', null, p.needs.map((n, i) => { const s = said?.needs[i]; return s === undefined ? n : saidNode(lang, s); })),
  ].filter((x): x is HTMLElement => x !== null);
}

/** Why a partial log is refused, in the person's language, with what to collect and the commands that log it (the source's own names). */
function partialRefusal(d: PreviewDraw, x: NonNullable<ImportPreview['partial']>): HTMLElement {
  const { u } = d;
  return el('div', { class: 'err-what', role: 'alert', 'data-testid': TID.importRefusal },
    el('p', {}, u('pv.partial', { has: u(`has.${x.has}`), missing: x.missing.map((k) => u(`miss.${k}`)).join(', ') })),
    el('p', {}, u('pv.partialNeeds', { needed: x.needed })),
    el('p', {}, u('pv.partialHow')),
    el('pre', { translate: 'no' }, x.commands.join('\n')));
}

/** Draws preview `p` in `box` and shows it. */
export function drawPreview(box: HTMLElement, d: PreviewDraw, p: ImportPreview): void {
  const { lang, u } = d;
  box.setAttribute('data-ready', String(p.ready));
  if (p.trace !== undefined) {
    box.replaceChildren(el('h3', { id: 'import-pv-title' }, u('pv.title')), ...tracePreview(lang, p, intFmtOf(lang)));
    box.hidden = false;
    return;
  }
  const hasSwitch = p.phases.some((ph) => ph.name === 'measure');
  box.replaceChildren(
    el('h3', { id: 'import-pv-title' }, u('pv.title')),
    filesTable(d, p),
    el('h4', {}, u('pv.devices')),
    devicesTable(d, p),
    facts(d, p),
    ...lists(d, p),
    // a partial log (queue length or busy time only) is refused here: nothing could be analysed from it
    p.partial == null
      ? el('p', { class: p.ready ? 'help' : 'err-what' }, p.ready ? (hasSwitch ? u('pv.ready') : u('pv.noSwitch')) : u('pv.notReady'))
      : partialRefusal(d, p.partial));
  box.hidden = false;
}
