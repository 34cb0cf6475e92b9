/**
 * `#/results/<id>` (or planner, export) after a reload: the window's views are gone, so the
 * analysis is opened again from its capture when this window opened it before (the recent list
 * keeps its id and path), with the same progress line as Home; otherwise the screen says why it
 * cannot show it and links Home, instead of showing Home without a word.
 */
import { el } from '../dom.ts';
import { TID } from '../../shared/testids.ts';
import { home } from '../../shared/i18n/home.ts';
import { translate } from '../../shared/i18n/types.ts';
import { errorText } from '../error-text.ts';
import type { Ctx, Screen } from '../screen.ts';
import { openWithProgress } from './open-progress.ts';
import { recentAnalysis } from './recent.ts';

/** The screen shown for `route` while its analysis `id` is opened again, or the sentence saying it cannot be. */
export function reopenScreen(ctx: Ctx, route: string, id: string): Screen {
  const t = (key: 'reopen.gone' | 'reopen.home' | 'openFailed', p?: Record<string, string>): string => translate(home, ctx.lang, key, p);
  const node = el('section', { 'data-testid': TID.reopen });
  const gone = (sentence: string): void => {
    node.append(el('p', { class: 'error', role: 'alert' }, sentence), el('p', {}, el('a', { href: '#/home' }, t('reopen.home'))));
  };
  const entry = recentAnalysis(id);
  if (entry === undefined) {
    gone(t('reopen.gone'));
    return { node };
  }
  let live = true;
  void openWithProgress(ctx, entry.isSample ? { sample: true } : { path: entry.captureFile }, entry.name, node,
    () => (entry.isSample ? ctx.api.openSample() : ctx.api.openCapture(entry.captureFile))).then((r) => {
    if (!live) return;
    // the capture may now hold another analysis (a fleet host's view has its own id): never show a different one under this route
    if (r.ok && r.value.id === id) {
      ctx.remember(r.value);
      ctx.go(route);
    } else {
      gone(r.ok ? t('reopen.gone') : `${t('openFailed', { what: entry.name })} ${errorText(ctx.lang, r.error.code)}`);
    }
  });
  return { node, dispose: () => (live = false) };
}
