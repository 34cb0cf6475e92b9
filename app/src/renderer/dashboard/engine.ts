/**
 * The dashboard's cache-engine statistics (analysis `cacheEngine.comparison`, engine
 * compareEngineStats; docs/metrics.md § Engine statistics): a card with the engine's own cache
 * share beside the disk counters' share and their difference, the table of the three shares
 * (reads, writes, all I/O), which counting differences apply, the engine's counters over the
 * measure window, and every step the adapter ran. Nothing is computed here: every number is the
 * analysis'.
 */
import type { AnalysisReport, EngineShare } from '@cacheproof/engine';
import { engineUi, type EngineUiKey } from '../../shared/i18n/engine.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber } from '../format.ts';
import { actionWord, headlineKind } from './engine-words.ts';
import type { Words } from './text.ts';
import { signedText } from '../../shared/units.ts';

const KINDS = ['reads', 'writes', 'all'] as const;

export function engineSection(r: AnalysisReport, w: Words): HTMLElement | null {
  const c = r.cacheEngine.comparison;
  if (c === null) return null;
  const e = (key: EngineUiKey, params?: Record<string, string | number>): string => translate(engineUi, w.lang, key, params);
  const threshold = fmtNumber(w.lang, c.thresholdPoints, 0);
  const reasonOf = (reasons: Record<string, string>, key: string): string => {
    const code = reasons[key];
    return code === undefined ? w.na : e(`reason.${code}` as EngineUiKey);
  };
  const enginePct = (s: EngineShare): string => (s.enginePercent === null ? reasonOf(s.reasons, 'enginePercent') : w.pct(s.enginePercent));
  const countersPct = (s: EngineShare): string => (s.countersPercent === null ? reasonOf(s.reasons, 'countersPercent') : w.pct(s.countersPercent));
  const points = (v: number): string => signedText(v, (x) => fmtNumber(w.lang, x, 1), false);
  const verdict = (s: EngineShare): string => (s.differencePoints === null ? e('verdict.na') : s.exceeds ? e('verdict.exceeds', { threshold }) : e('verdict.within', { threshold }));

  // the card
  const k = headlineKind(c);
  const h = c.shares[k];
  const definition = e('dash.def', { threshold });
  const value = e('card.value', { engine: h.enginePercent === null ? w.na : w.pct(h.enginePercent), counters: h.countersPercent === null ? w.na : w.pct(h.countersPercent) });
  const subs = [
    e('card.kind', { kind: e(`kind.${k}`) }),
    h.differencePoints === null ? `${e('col.engine')}: ${reasonOf(h.reasons, 'enginePercent')}` : e('card.diff', { diff: points(h.differencePoints), threshold }),
    e('card.adapter', { adapter: c.adapter, device: c.device }),
  ];
  const card = el('section', { class: `card${h.exceeds ? ' exceeds' : ''}`, 'data-testid': TID.cardEngineStats, 'data-kind': k, 'data-exceeds': String(h.exceeds), title: definition, tabindex: '0',
    'aria-label': `${e('card.title')}: ${value}. ${subs.join('. ')}. ${definition}` },
  el('h3', {}, e('card.title')),
  el('div', { class: 'value' }, value),
  ...subs.map((x) => el('div', { class: 'sub' }, x)));

  // the shares
  const shares = el('table', { class: 'dash-table', 'data-testid': TID.dashEngineShares },
    el('caption', {}, e('dash.title')),
    el('thead', {}, el('tr', {}, ...[e('col.kind'), e('col.engine'), e('col.counters'), e('col.diff'), e('col.hits'), e('col.verdict')].map((x) => el('th', { scope: 'col' }, x)))));
  const sb = el('tbody', {});
  for (const kind of KINDS) {
    const s = c.shares[kind];
    sb.append(el('tr', { 'data-kind': kind, 'data-exceeds': String(s.exceeds), class: s.exceeds ? 'exceeds' : '' },
      el('th', { scope: 'row' }, e(`kind.${kind}`)),
      el('td', { class: 'num', 'data-field': 'engine' }, enginePct(s)),
      el('td', { class: 'num', 'data-field': 'counters' }, countersPct(s)),
      el('td', { class: 'num', 'data-field': 'diff' }, s.differencePoints === null ? w.na : points(s.differencePoints)),
      el('td', { class: 'num' }, s.engineHits === null || s.engineTotal === null ? w.na : `${fmtNumber(w.lang, s.engineHits, 0)} / ${fmtNumber(w.lang, s.engineTotal, 0)}`),
      el('td', {}, verdict(s))));
  }
  shares.append(sb);

  const notes = c.notes.length === 0 ? null : el('div', {},
    el('h5', {}, e('notes.title')),
    el('ul', { class: 'dash-engine-notes' }, ...c.notes.map((n) => el('li', { 'data-note': n }, e(`note.${n}` as EngineUiKey)))));

  const counters = countersTable(c, w, e, reasonOf);
  const actions = actionsTable(c, w, e);

  return el('section', { class: 'dash-engine', 'data-testid': TID.dashEngine, 'aria-labelledby': 'dash-engine-title' },
    el('h3', { class: 'dash-section', id: 'dash-engine-title', title: definition }, e('dash.title')),
    el('div', { class: 'cards' }, card),
    el('p', { class: 'dash-def' }, definition),
    shares, ...(notes === null ? [] : [notes]), counters, actions);
}

type EngineWords = (key: EngineUiKey, params?: Record<string, string | number>) => string;
type EngineComparison = NonNullable<AnalysisReport['cacheEngine']['comparison']>;

/** The engine's counters as read, with their unit, window and method. */
function countersTable(c: EngineComparison, w: Words, e: EngineWords, reasonOf: (reasons: Record<string, string>, key: string) => string): HTMLElement {
  return c.counters.length === 0
    ? el('p', { 'data-testid': TID.dashEngineCounters }, e('counters.none'))
    : el('table', { class: 'dash-table', 'data-testid': TID.dashEngineCounters },
      el('caption', {}, e('counters.title')),
      el('thead', {}, el('tr', {}, ...[e('col.name'), e('col.value'), e('col.unit'), e('col.window'), e('col.method')].map((x) => el('th', { scope: 'col' }, x)))),
      el('tbody', {}, ...c.counters.map((x) => el('tr', { 'data-name': x.name },
        el('th', { scope: 'row', translate: 'no' }, x.name),
        el('td', { class: 'num' }, x.value === null ? reasonOf(x.reasons, 'value') : fmtNumber(w.lang, x.value, 0)),
        el('td', { translate: 'no' }, x.unit), el('td', { translate: 'no' }, x.window), el('td', {}, e(`method.${x.method}`))))));
}

/** The actions the engine's adapter took (switches), each with its result. */
function actionsTable(c: EngineComparison, w: Words, e: EngineWords): HTMLElement {
  return c.actions.length === 0
    ? el('p', { 'data-testid': TID.dashEngineActions }, e('actions.none'))
    : el('table', { class: 'dash-table', 'data-testid': TID.dashEngineActions },
      el('caption', {}, e('actions.title')),
      el('thead', {}, el('tr', {}, ...[e('col.time'), e('col.action'), e('col.step'), e('col.result')].map((x) => el('th', { scope: 'col' }, x)))),
      el('tbody', {}, ...c.actions.map((a) => el('tr', { 'data-action': a.action, 'data-ok': String(a.ok) },
        el('td', {}, w.utc(a.startMs)),
        el('td', {}, actionWord(w.lang, a.action)),
        el('td', { translate: 'no' }, el('code', {}, a.step)),
        el('td', {}, a.ok
          ? e('live.result.ok', { before: a.modeBefore ?? e('mode.unknown'), after: a.modeAfter ?? e('mode.unknown') })
          : a.exitStatus === null ? e('live.result.failedNoExit') : e('live.result.failed', { exit: a.exitStatus }))))));
}
