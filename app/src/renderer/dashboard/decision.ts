/**
 * The decision block at the top of the results (issue 36): the engine's `decisionBlock`
 * (engine/src/report/decision.ts) drawn with the words every report format prints
 * (shared/i18n/decision-text.ts). It draws at once from the analysis (I/Os saved, response time,
 * caveats; the verdict says no scenario is known yet), then again with the TCO verdict, payback and
 * drive life once the Planner's scenario for this analysis is known (the edited one saved with it,
 * else the prefill from this capture: the scenario the drive-life section plans, life.ts).
 * Nothing is computed here: the engine plans the scenario and words the block.
 */
import { decisionBlock, type DecisionBlock, type ReportTco } from '@cacheproof/engine/report';
import { inputProvenance, planCacheLife } from '@cacheproof/engine/plan';
import type { AnalysisView } from '../../shared/contract.ts';
import { decisionTexts } from '../../shared/i18n/decision-text.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { Ctx } from '../screen.ts';
import { plansSaved } from '../planner/state.ts';

function draw(box: HTMLElement, d: DecisionBlock, ctx: Ctx, withTco: boolean): void {
  const t = decisionTexts(d, ctx.lang);
  box.dataset['tco'] = withTco ? 'true' : 'false';
  box.replaceChildren(
    el('h3', { class: 'dash-section', id: 'dash-decision-title' }, t.title),
    ...t.lines.map((x, i) => el('p', { class: i === 0 ? 'decision-verdict' : 'decision-line' }, x)),
    el('h4', {}, t.caveatsTitle),
    el('ul', { class: 'decision-caveats' }, ...t.caveats.map((x) => el('li', {}, x))),
  );
}

/** The planned scenario as the report's TCO input; where the inputs come from without the capture's measurement (prices and assumed hit shares are known from the scenario itself). */
async function plannedTco(ctx: Ctx, v: AnalysisView): Promise<ReportTco | null> {
  await plansSaved();
  const saved = await ctx.api.savedPlan(v.id);
  let json: unknown = saved.ok ? saved.value : null;
  if (json === null) {
    const pre = await ctx.api.planFromAnalysis(v.id, ctx.lang);
    if (!pre.ok) return null;
    json = pre.value;
  }
  const plan = planCacheLife(json);
  if (!plan.ok) return null;
  const { scenario } = plan.value;
  return { scenarioFile: scenario.title, scenario, plan: plan.value.plan, sources: inputProvenance(scenario, null, false), origin: saved.ok && saved.value !== null ? 'planner' : 'prefilled' };
}

/** The section, first on the dashboard; it draws again with the TCO verdict once the scenario is planned. */
export function decisionSection(ctx: Ctx, v: AnalysisView): HTMLElement {
  const box = el('section', { class: 'dash-decision', 'data-testid': TID.dashDecision, 'aria-labelledby': 'dash-decision-title' });
  draw(box, decisionBlock({ kind: 'before-after', analysis: v.result, tco: null }), ctx, false);
  void (async () => {
    const tco = await plannedTco(ctx, v);
    if (tco !== null) draw(box, decisionBlock({ kind: 'before-after', analysis: v.result, tco }), ctx, true);
  })();
  return box;
}
