/**
 * The DOM-free parts of the engine statistics on screen: the words of an adapter action, the
 * share the dashboard's card leads with, and the adapter's actions as timeline markers.
 */
import { switchedByAdapter, type AnalysisReport, type EngineStatsReport } from '@cacheproof/engine';
import { engineUi, type EngineUiKey } from '../../shared/i18n/engine.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import type { Words } from './text.ts';

/** The words of an adapter action (`enable`, `disable`, `restore`), or the action's own word. */
export function actionWord(lang: Lang, action: string): string {
  return action === 'enable' || action === 'disable' || action === 'restore' ? translate(engineUi, lang, `action.${action}`) : action;
}

const KINDS = ['reads', 'writes', 'all'] as const;

/** The share the card leads with: all I/O when the engine gives it, else reads, else writes, else all. */
export function headlineKind(c: EngineStatsReport): (typeof KINDS)[number] {
  return KINDS.find((k) => k === 'all' && c.shares.all.enginePercent !== null)
    ?? KINDS.find((k) => c.shares[k].enginePercent !== null)
    ?? 'all';
}

/** Timeline markers for the adapter's actions (phase shading marks the moment of each). */
export function engineMarkers(r: AnalysisReport, w: Words): { atMs: number; label: string }[] {
  const c = r.cacheEngine.comparison;
  if (c === null) return [];
  const e = (key: EngineUiKey, params?: Record<string, string | number>): string => translate(engineUi, w.lang, key, params);
  // one marker per action (its first step), labelled with the mode it left the engine in
  const seen = new Set<string>();
  const out: { atMs: number; label: string }[] = [];
  for (const a of c.actions) {
    if (seen.has(a.action)) continue;
    seen.add(a.action);
    const lastOfAction = [...c.actions].reverse().find((x) => x.action === a.action) ?? a;
    const ok = c.actions.filter((x) => x.action === a.action).every((x) => x.ok);
    out.push({ atMs: a.startMs, label: ok ? e('marker', { action: actionWord(w.lang, a.action), after: lastOfAction.modeAfter ?? e('mode.unknown') }) : e('markerFailed', { action: actionWord(w.lang, a.action) }) });
  }
  return out;
}

/** The switch's marker on the timeline: who switched, the adapter named (engine switchedByAdapter), or plain "Switch" (manual). */
export function switchMarkerLabel(r: AnalysisReport, w: Words): string {
  const by = switchedByAdapter(r.cacheEngine);
  return by === null ? w.d('phase.switch') : w.d('phase.switchAdapter', { adapter: by });
}
