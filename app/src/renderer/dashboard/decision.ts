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
import { planCacheLife, type ProvenanceRow } from '@cacheproof/engine/plan';
import type { AnalysisView, ScenarioDraft } from '../../shared/contract.ts';
import { decisionTexts } from '../../shared/i18n/decision-text.ts';
import { localizeTemplate } from '../../shared/i18n/template.ts';
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

/**
 * The planned scenario as the report's TCO input, named as the report names it (planner.tco.json,
 * prefilled.tco.json: report/jobs.ts), with where its inputs come from against this capture's
 * measurement from the host (`plan.sources`, the report's provenance: a capacity the capture does
 * not record is named as the example's), so the block reads as the report's.
 */
async function plannedTco(ctx: Ctx, v: AnalysisView): Promise<ReportTco | null> {
  await plansSaved();
  const saved = await ctx.api.savedPlan(v.id);
  let json: ScenarioDraft | null = saved.ok ? saved.value : null;
  const origin = json === null ? 'prefilled' : 'planner';
  if (json === null) {
    const pre = await ctx.api.planFromAnalysis(v.id, ctx.lang);
    if (!pre.ok) return null;
    json = pre.value;
  }
  // the template's labels in the screen's language, as the report writes them (user-written labels are kept)
  json = localizeTemplate(json, ctx.lang) as ScenarioDraft;
  const plan = planCacheLife(json);
  if (!plan.ok) return null;
  const sources = await ctx.api.planSources(v.id, json);
  if (!sources.ok) return null;
  const { scenario } = plan.value;
  return { scenarioFile: `${origin}.tco.json`, scenario, plan: plan.value.plan, sources: sources.value as ProvenanceRow[], origin };
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
