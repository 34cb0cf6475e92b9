/**
 * A workload profile's sub-screens, reached from its screen: its Planner (capacity planning
 * without a cache) at `#/profile-planner/<profile route>` and its Export screen (the
 * workload-profile report) at `#/profile-export/<profile route>`. The route carries the profile's
 * own (`profile/<runId>` or `profile-file/<path>[/<host>]`), so that a reload lands here again:
 * the profile is asked of the host once more when this window has not shown it yet. Part of the
 * shell (main.ts), which alone composes screens of different folders.
 */
import type { ErrorCode } from '../shared/contract.ts';
import { translate } from '../shared/i18n/types.ts';
import { profile, type ProfileKey } from '../shared/i18n/profile.ts';
import { TID } from '../shared/testids.ts';
import { el } from './dom.ts';
import { errorText } from './error-text.ts';
import { exportScreen } from './export/index.ts';
import { plannerScreen } from './planner/index.ts';
import { profileRoute, shownProfiles, type ProfileTarget } from './profile/index.ts';
import type { Ctx, Screen } from './screen.ts';

export type ProfileSub = 'planner' | 'export';

/** The profile's id and name: this window's, or the host's answer to opening it again. */
async function profileOf(ctx: Ctx, target: ProfileTarget): Promise<{ ok: true; id: string; name: string } | { ok: false; code: ErrorCode }> {
  const route = profileRoute(target);
  for (const [id, s] of shownProfiles) if (s.route === route) return { ok: true, id, name: s.name };
  const r = 'runId' in target ? await ctx.api.openRunProfile(target.runId) : await ctx.api.openCaptureProfile(target.path, target.host);
  if (!r.ok) return { ok: false, code: r.error.code };
  shownProfiles.set(r.value.id, { name: r.value.name, route });
  return { ok: true, id: r.value.id, name: r.value.name };
}

/** The sub-screen `which` of the profile `target`, with the way back to the profile's screen. */
export function profileSubScreen(ctx: Ctx, which: ProfileSub, target: ProfileTarget): Screen {
  const t = (key: ProfileKey, p?: Record<string, string | number>): string => translate(profile, ctx.lang, key, p);
  const status = el('p', { role: 'status' }, t('loading'));
  const node = el('div', {}, status);
  let inner: Screen | null = null;
  let disposed = false;
  void profileOf(ctx, target).then((p) => {
    if (disposed) return;
    if (!p.ok) {
      node.replaceChildren(el('div', { class: 'error', role: 'alert', 'data-testid': TID.profileError }, errorText(ctx.lang, p.code)));
      return;
    }
    const back = el('button', { type: 'button', 'data-testid': TID.profileBack }, t('toProfile'));
    back.addEventListener('click', () => ctx.go(profileRoute(target)));
    const title = el('h2', { 'data-testid': TID.analysisName }, p.name);
    if (which === 'planner') {
      // a baseline alone: capacity planning without a cache
      inner = plannerScreen(ctx, { id: p.id, name: p.name });
      node.replaceChildren(title, el('p', { class: 'pl-intro' }, t('planIntro', { name: p.name })), el('div', { class: 'actions' }, back), inner.node);
    } else {
      inner = exportScreen(ctx, { id: p.id }, true);
      node.replaceChildren(title, el('div', { class: 'actions' }, back), inner.node);
    }
  });
  return { node, dispose: () => { disposed = true; inner?.dispose?.(); } };
}
