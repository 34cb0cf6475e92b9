/**
 * Drive life on the dashboard (issue 16): the cache SSD's years to wear-out at the measured write
 * rate, the HDDs' workload index without and with the cache, and the expected drive failures over
 * the period, each with its unit, window and method, and where the drive figures come from.
 *
 * The figures are the engine's (`planCacheLife` → `backingLife`, `cacheLife`: engine/src/plan/life.ts),
 * computed on the scenario the Planner holds for this analysis (the edited one saved with it, else
 * the prefill from this capture), for the cache configuration the engine picks (`bestCacheConfig`:
 * the one that saves most, the tornado's too): the same figures the Planner, the report and
 * `cacheproof tco --json` print. Nothing is computed here.
 */
import { planCacheLife, type ConfigResult, type PlanResult, type Scenario } from '@cacheproof/engine/plan';
import type { AnalysisView } from '../../shared/contract.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx } from '../screen.ts';
import { plansSaved } from '../planner/state.ts';
import type { Words } from './text.ts';
import { fmtDecimal } from '../../shared/i18n/numbers.ts';

/** The drive-life section; it fills itself once the Planner's scenario is known. */
export function lifeSection(ctx: Ctx, v: AnalysisView, w: Words): HTMLElement {
  const box = el('section', { class: 'dash-life', 'data-testid': TID.dashLife, 'aria-labelledby': 'dash-life-title' },
    el('h3', { class: 'dash-section', id: 'dash-life-title' }, w.d('sec.life')),
    el('p', { role: 'status' }, w.d('life.loading')));
  void (async () => {
    await plansSaved();
    const saved = await ctx.api.savedPlan(v.id);
    let json: unknown = saved.ok ? saved.value : null;
    const source = json === null ? 'prefill' : 'saved';
    if (json === null) {
      const pre = await ctx.api.planFromAnalysis(v.id, ctx.lang);
      if (!pre.ok) {
        box.replaceChildren(box.firstChild ?? '', el('p', {}, w.d('life.failed', { detail: errorText(ctx.lang, pre.error.code) })));
        return;
      }
      json = pre.value;
    }
    // the engine plans the scenario and picks the cache configuration (planCacheLife → bestCacheConfig, the tornado's rule)
    const plan = planCacheLife(json);
    if (!plan.ok) {
      box.replaceChildren(box.firstChild ?? '', el('p', {}, w.d('life.failed', { detail: plan.error.message })));
      return;
    }
    box.replaceChildren(box.firstChild ?? '', ...lifeFigures(plan.value.scenario, plan.value.plan, plan.value.config, source, w));
  })();
  return box;
}

function lifeFigures(s: Scenario, r: PlanResult, c: ConfigResult | null, source: 'saved' | 'prefill', w: Words): HTMLElement[] {
  if (c === null) return [el('p', {}, w.d('life.noCache'))];
  const d = (x: number, digits: number): string => fmtDecimal(w.lang, x, digits);
  const years = r.years;
  const out: HTMLElement[] = [el('p', { class: 'hint' }, w.d('life.intro', { source: w.d(source === 'saved' ? 'life.src.saved' : 'life.src.prefill'), label: c.label, years }))];
  const figure = (id: string, title: string, value: string, unit: string, window: string, method: string): HTMLElement =>
    el('div', { class: 'life-figure', 'data-figure': id },
      el('h4', {}, title),
      el('p', { class: 'life-value', 'data-value': '' }, value),
      el('dl', {},
        el('dt', {}, w.d('life.unit')), el('dd', {}, unit),
        el('dt', {}, w.d('life.window')), el('dd', {}, window),
        el('dt', {}, w.d('life.method')), el('dd', {}, method)));
  const sizing = w.d('life.w.sizing', { year: r.sizedForYear, years });
  const grid = el('div', { class: 'life-grid' });
  const cache = c.cacheLife;
  if (cache !== null)
    grid.append(figure('cacheYearsToWearOut', w.d('life.cacheWear'),
      cache.yearsToWearOut === null ? w.d('life.noWear') : w.d('life.years', { value: d(cache.yearsToWearOut, 1) }),
      w.d('life.u.years'), sizing,
      w.d('life.m.cacheWear', { tbw: d(cache.enduranceTbw ?? 0, 0), tb: d(cache.tbWrittenPerDrivePerYear ?? 0, 1) })));
  const b = c.backingLife;
  if (b.wearIndexBefore !== null && b.wearIndexAfter !== null && b.ratedTbPerYear !== null)
    grid.append(figure('hddWearIndex', w.d('life.hddIndex'), w.d('life.indexValue', { before: d(b.wearIndexBefore, 3), after: d(b.wearIndexAfter, 3) }),
      w.d('life.u.index'), sizing,
      w.d('life.m.hddIndex', { before: d(b.tbPerDrivePerYearBefore ?? 0, 1), after: d(b.tbPerDrivePerYearAfter ?? 0, 1), rating: d(b.ratedTbPerYear, 0) })));
  else if (b.wearIndexBefore === null && b.tbPerDrivePerYearBefore !== null)
    grid.append(figure('hddWearIndex', w.d('life.hddIndex'), w.d('life.noRating'), w.d('life.u.index'), sizing, w.d('life.noRating')));
  const failures = b.expectedFailures + (cache?.expectedFailures ?? 0);
  grid.append(figure('expectedFailures', w.d('life.failures', { years }), d(failures, 2), w.d('life.u.drives'), w.d('life.w.period', { years }),
    w.d('life.m.failures', { backing: d(b.expectedFailures, 2), cache: d(cache?.expectedFailures ?? 0, 2) })));
  out.push(grid);
  // Where the drive figures come from: the catalog (its id in the drive's notes) or typed in.
  for (const id of new Set([b.driveId, ...(cache === null ? [] : [cache.driveId])])) {
    const drive = s.drives.find((x) => x.id === id);
    if (drive === undefined) continue;
    const fromCatalog = drive.notes?.includes(`samples/catalog/drives.json, "${drive.id}"`) === true;
    out.push(el('p', { class: 'hint' }, fromCatalog ? w.d('life.catalog', { drive: drive.label, id: drive.id }) : w.d('life.typed', { drive: drive.label })));
  }
  return out;
}
