/**
 * Block traces on the Import screen (docs/import.md § Block traces): the format list grouped
 * into counter logs and block traces, the cache to predict (the wizard's and the dashboard's own
 * fields, predict/fields.ts) and the trace's preview — what `import-trace` read, kept and skipped
 * (the probe's examples, as it wrote them), the disks, the flushes and the time span. The preview
 * needs no cache size; only Import, which predicts it, does. The host imports the file
 * and predicts through the probe; nothing is computed here.
 */
import { isTraceKind, LOG_KINDS, TRACE_KINDS, type ImportKind, type ImportPreview } from '../../shared/contract.ts';
import { importUi } from '../../shared/i18n/import.ts';
import { importTraceUi, type ImportTraceKey } from '../../shared/i18n/import-trace.ts';
import { msToSeconds } from '../../shared/units.ts';
import { LOCALE, translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { choiceOf, defaultChoiceDraft, type ChoiceDraft } from '../predict/choice.ts';
import { choiceFields } from '../predict/fields.ts';
import { parseUtc } from './prometheus.ts';

/** The cache to predict as typed, kept across visits to the screen. */
const draft: ChoiceDraft = defaultChoiceDraft();

/** The format `<select>`: counter logs, then block traces, each in its group. */
export function kindSelect(lang: Lang, selected: ImportKind): HTMLSelectElement {
  const tr = (k: ImportTraceKey): string => translate(importTraceUi, lang, k);
  const kind = el('select', { id: 'import-kind', 'data-testid': TID.importKind });
  const logs = el('optgroup', { label: tr('group.logs') });
  for (const k of LOG_KINDS) logs.append(el('option', { value: k }, translate(importUi, lang, `kind.${k}`)));
  const traces = el('optgroup', { label: tr('group.traces') });
  for (const k of TRACE_KINDS) traces.append(el('option', { value: k }, tr(`kind.${k}`)));
  kind.append(logs, traces);
  kind.value = selected;
  return kind;
}

/** The trace's start as typed, kept across visits to the screen. */
let typedStart = '';

/** The trace's own fields: when it started (for a format that counts from its start) and the cache to predict, with their help. */
export function traceFields(lang: Lang, changed: () => void): { node: HTMLElement; choice: () => ReturnType<typeof choiceOf>; paint: () => void; start: () => number | null } {
  const tr = (k: ImportTraceKey): string => translate(importTraceUi, lang, k);
  const fields = choiceFields(lang, draft, changed, 'import-predict', TID.importPredictChoice);
  const start = el('input', { id: 'import-trace-start', type: 'text', spellcheck: 'false', autocomplete: 'off', 'data-testid': TID.importTraceStart, value: typedStart, 'aria-describedby': 'import-trace-start-help' });
  start.addEventListener('input', () => { typedStart = start.value; changed(); });
  const node = el('div', { class: 'import-trace' },
    el('label', { for: 'import-trace-start' }, tr('start')), start,
    el('p', { class: 'help', id: 'import-trace-start-help' }, tr('startHelp')),
    fields.node,
    el('p', { class: 'help' }, tr('choiceHelp')));
  // UTC ms; null when empty; NaN when not a time
  return { node, choice: () => choiceOf(draft), paint: fields.paint, start: () => parseUtc(start.value) };
}

/** Whether the chosen format is a block trace. */
export const traceChosen = (kind: string): boolean => isTraceKind(kind);

/** Seconds of a trace's span, to the millisecond. */
const secFmt = (lang: Lang): Intl.NumberFormat => new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 3 });

/** The preview of a trace: what the probe read, kept and skipped, the disks and the flushes. */
export function tracePreview(lang: Lang, p: ImportPreview, intFmt: Intl.NumberFormat): HTMLElement[] {
  const t = p.trace;
  if (t === undefined) return [];
  const tr = (k: ImportTraceKey, params?: Record<string, string | number>): string => translate(importTraceUi, lang, k, params);
  const facts = el('dl', { class: 'import-facts', 'data-testid': TID.importTraceFacts },
    el('dt', {}, tr('pv.records')), el('dd', { class: 'num', 'data-key': 'records', 'data-value': String(t.records) }, intFmt.format(t.records)),
    el('dt', {}, tr('pv.imported')), el('dd', { class: 'num', 'data-key': 'imported', 'data-value': String(t.imported) }, intFmt.format(t.imported)),
    el('dt', {}, tr('pv.skipped')), el('dd', { class: 'num', 'data-key': 'skipped', 'data-value': String(t.skipped) }, intFmt.format(t.skipped)),
    el('dt', {}, tr('pv.flushes')), el('dd', { class: 'num', 'data-key': 'flushes', 'data-value': String(t.flushes) }, intFmt.format(t.flushes)),
    el('dt', {}, tr('pv.devices')), el('dd', { translate: 'no', 'data-key': 'devices' }, t.devices.join(', ')),
    el('dt', {}, tr('pv.span')), el('dd', { class: 'num', 'data-key': 'span', 'data-value': String(t.spanMs ?? '') }, t.spanMs === null ? '—' : tr('pv.spanValue', { seconds: secFmt(lang).format(msToSeconds(t.spanMs)) })));
  if (t.firstUtcMs !== null && t.lastUtcMs !== null) {
    const d = new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
    facts.append(el('dt', {}, tr('pv.when')), el('dd', { 'data-key': 'when' }, `${d.format(new Date(t.firstUtcMs))} – ${d.format(new Date(t.lastUtcMs))}`));
  }
  const out: HTMLElement[] = [facts];
  if (t.skippedExamples.length > 0) {
    const ul = el('ul', {});
    for (const x of t.skippedExamples) ul.append(el('li', {}, tr('pv.example', { line: intFmt.format(x.line), column: x.column, reason: x.reason })));
    out.push(el('div', {}, el('h4', {}, tr('pv.examples')), ul));
  }
  out.push(el('p', { class: p.ready ? 'help' : 'err-what' }, p.ready ? tr('pv.ready') : tr('pv.notReady')));
  return out;
}
