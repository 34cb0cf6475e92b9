/**
 * While the host reads and analyses a capture being opened (on a worker thread, host/session.ts),
 * the screen says where it is — reading (intervals of about the total) or analysing (device n of
 * N) — with a bar and a Stop button (`analysis.cancel`: the open then fails with
 * `analysis-cancelled`). Polls `analysis.progress` every 300 ms until the open answers.
 */
import { openingProgress } from '@cacheproof/engine';
import type { AnalysisTarget, AnalysisView } from '../../shared/contract.ts';
import { home } from '../../shared/i18n/home.ts';
import { translate } from '../../shared/i18n/types.ts';
import type { Result } from '../../shared/result.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtPercent } from '../format.ts';
import type { Ctx } from '../screen.ts';
import { prewarmCharts } from '../dashboard/prewarm.ts';

/** How often the host is asked where the analysis is. */
export const PROGRESS_POLL_MS = 300;

/**
 * Runs `open` and shows its progress in `where` until it answers (the progress line is removed
 * then). `what` names the capture in the sentence.
 */
export async function openWithProgress(ctx: Ctx, target: AnalysisTarget, what: string, where: HTMLElement, open: () => Promise<Result<AnalysisView>>): Promise<Result<AnalysisView>> {
  const t = (key: 'progress.read' | 'progress.analyze' | 'progress.cancel', p?: Record<string, string | number>): string => translate(home, ctx.lang, key, p);
  const bar = el('progress', { max: '100', 'aria-label': what });
  const text = el('span', {});
  const stop = el('button', { type: 'button', 'data-testid': TID.openCancel }, t('progress.cancel'));
  const line = el('p', { class: 'open-progress', role: 'status', 'data-testid': TID.openProgress, hidden: '' }, text, ' ', bar, ' ', stop);
  stop.addEventListener('click', () => {
    stop.disabled = true;
    void ctx.api.cancelAnalysis(target);
  });
  where.append(line);
  let answered = false;
  const poll = async (): Promise<void> => {
    while (!answered) {
      await new Promise((r) => setTimeout(r, PROGRESS_POLL_MS));
      if (answered) return;
      const p = await ctx.api.analysisProgress(target);
      if (answered || !p.ok || p.value === null) continue;
      const { stage, done, total } = p.value;
      // reading is most of the time: it fills the bar to 80 %, the devices the rest
      const { barValue, readPercent } = openingProgress(stage, done, total);
      bar.value = barValue;
      text.textContent = stage === 'read'
        ? t('progress.read', { what, percent: fmtPercent(ctx.lang, readPercent, 0), total: fmtNumber(ctx.lang, total) })
        : t('progress.analyze', { what, done: fmtNumber(ctx.lang, done), total: fmtNumber(ctx.lang, total) });
      line.dataset['stage'] = stage;
      line.hidden = false;
    }
  };
  void poll();
  try {
    const reply = open();
    // the charts' code compiled while the host analyses (dashboard/prewarm.ts)
    prewarmCharts();
    return await reply;
  } finally {
    answered = true;
    line.remove();
  }
}
