/**
 * The results dashboard for one analysis: mode badge, the decision block (decision.ts), headline cards (cards.ts), the time
 * charts with shaded phases and zoom (timeline.ts: IOPS, response time, reads and writes, queue
 * size), before/after bars (compare.ts), request sizes (shape.ts), health,
 * drift and warnings (health.ts), drive life from the Planner's scenario (life.ts). Every figure comes from the engine's analyze output in
 * `AnalysisView.result` (docs/analyze-json.md) and the host's chart series.
 *
 * Performance marks: whoever asks the host to open an analysis sets
 * `performance.mark('cacheproof:open-request')`; this screen sets
 * `performance.mark('cacheproof:dashboard-drawn')` when its last chart has drawn for the first
 * time (and `data-drawn="true"` on its root), which bench/dashboard reads.
 */
import type { AnalysisView } from '../../shared/contract.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtDuration } from '../format.ts';
import { fmtLabel } from '../../shared/i18n/numbers.ts';
import type { Ctx, Screen } from '../screen.ts';
import { themedPalette } from '../theme.ts';
import { cards, figureDetails } from './cards.ts';
import { distributionFigure, hourlyFigure, ioFigure } from './compare.ts';
import { ChartScheduler } from './frame.ts';
import { driftSection, healthSection, warningsSection } from './health.ts';
import { lifeSection } from './life.ts';
import { decisionSection } from './decision.ts';
import { devicesSection } from './devices.ts';
import { predictionSection } from './prediction.ts';
import { traceLatencySection } from './trace-latency.ts';
import { words } from './text.ts';
import { timeline } from './timeline.ts';
import { engineSection } from './engine.ts';
import { requestSizesFigure } from './shape.ts';
import { msToSeconds } from '../../shared/units.ts';

/** The mark set when the dashboard's last chart has drawn. */
export const DRAWN_MARK = 'cacheproof:dashboard-drawn';

/** The dashboard for one analysis (the caller puts the title and the screen tabs above it). */
export function dashboardScreen(ctx: Ctx, v: AnalysisView): Screen {
  const w = words(ctx.lang);
  const r = v.result;
  const palette = themedPalette();
  const node = el('div', { class: 'dashboard', 'data-testid': TID.dashboard, 'data-drawn': 'false' });
  const scheduler = new ChartScheduler(() => {
    node.dataset['drawn'] = 'true';
    performance.mark(DRAWN_MARK);
  });
  const mode = r.mode === 'backing-only' ? w.d('modeBackingOnly') : w.d('modeFrontBacking');
  const hostBits = [v.host.hostname ?? w.na, v.host.kernel === null ? '' : `${w.d('kernel')} ${v.host.kernel}`,
    v.sampleIntervalMs === null ? '' : w.d('interval', { value: fmtDuration(ctx.lang, msToSeconds(v.sampleIntervalMs)) })].filter((s) => s.length > 0);
  node.append(
    el('p', { class: 'dash-head' },
      el('span', { class: `badge mode mode-${r.mode}`, 'data-testid': TID.modeBadge, 'data-mode': r.mode, title: w.d('def.mode'), tabindex: '0' }, mode),
      ` ${fmtLabel(ctx.lang, w.d('host'), hostBits.join(' · '))}`),
    // the decision block first (engine decision.ts): the words of the report, the deck and the CLI
    decisionSection(ctx, v),
    cards(r, w),
    figureDetails(r, w),
    ...[engineSection(r, w)].filter((x): x is HTMLElement => x !== null),
    el('h3', { class: 'dash-section' }, w.d('sec.charts')),
    timeline(v, r, w, palette, scheduler),
    el('div', { class: 'dash-grid' },
      hourlyFigure(r, w, palette, scheduler),
      distributionFigure(r, w, palette, scheduler),
      ioFigure(r, w, palette, scheduler),
      requestSizesFigure(r, w, palette, scheduler)),
    lifeSection(ctx, v, w),
    ...[traceLatencySection(r, w, palette, scheduler)].filter((x): x is HTMLElement => x !== null),
    ...[predictionSection(ctx, v, w, palette, scheduler)].filter((x): x is HTMLElement => x !== null),
    el('h3', { class: 'dash-section' }, w.d('sec.health')),
    devicesSection(r, w),
    healthSection(r, w),
    driftSection(r, w),
    warningsSection(r, w),
  );
  // Chart.js sizes a chart from its box: draw once the screen is in the document.
  scheduler.start();
  return { node, dispose: () => scheduler.dispose() };
}
