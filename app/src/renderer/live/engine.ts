/**
 * The Live screen's cache-engine lines (runs with an adapter, docs/adapters.md): the engine, its
 * mode, where the scheduled switch stands, the adapter's sentence after a failure, and the last
 * step the adapter ran (from the capture's `engine_actions`).
 */
import type { RunStatus } from '../../shared/contract.ts';
import { engineUi, type EngineUiKey } from '../../shared/i18n/engine.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtTime } from '../format.ts';
import { actionWord } from '../dashboard/engine-words.ts';

export function engineLines(lang: Lang): { node: HTMLElement; update(s: RunStatus): void } {
  const e = (key: EngineUiKey, params?: Record<string, string | number>): string => translate(engineUi, lang, key, params);
  const state = el('p', { class: 'live-samples' });
  const failure = el('p', { class: 'live-engine-error', translate: 'no' });
  const action = el('p', { class: 'live-samples', 'data-testid': TID.liveEngineAction });
  const node = el('div', { class: 'live-engine', 'data-testid': TID.liveEngine, hidden: '', role: 'status' }, state, failure, action);
  return {
    node,
    update(s) {
      const g = s.engine;
      node.hidden = g === null;
      if (g === null) return;
      node.dataset['switch'] = g.switch;
      node.dataset['mode'] = g.mode ?? '';
      state.textContent = `${e('live.engine', { adapter: g.adapter, device: g.device, mode: g.mode ?? e('mode.unknown') })} ${e(`live.switch.${g.switch}`)}`;
      failure.hidden = g.error === null;
      failure.textContent = g.error === null ? '' : e('live.error', { error: g.error });
      const a = g.lastAction;
      if (a === null) {
        action.textContent = e('live.noAction');
        return;
      }
      const result = a.ok
        ? e('live.result.ok', { before: a.modeBefore ?? e('mode.unknown'), after: a.modeAfter ?? e('mode.unknown') })
        : a.exitStatus === null ? e('live.result.failedNoExit') : e('live.result.failed', { exit: a.exitStatus });
      action.dataset['action'] = a.action;
      action.dataset['ok'] = String(a.ok);
      action.textContent = e('live.lastAction', { action: actionWord(lang, a.action), time: fmtTime(lang, a.atMs), step: a.step, result });
    },
  };
}
