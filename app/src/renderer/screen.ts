/**
 * What every screen receives from the shell (main.ts) and what it gives back. Screens live in
 * their own folders (dashboard/, home/, wizard/, live/, profile/, planner/, export/) and never
 * reach into each other; they move between themselves only through `ctx.go(route)`.
 */
import type { CacheProofApi } from '../shared/api.ts';
import type { AnalysisView, AppInfo, ProfileView } from '../shared/contract.ts';
import type { Lang } from '../shared/i18n/types.ts';

/** The app's one palette, indexed by meaning (shared/palette.ts; black last: the dark theme swaps it for white). */
export { PALETTE } from '../shared/palette.ts';

export interface Ctx {
  api: CacheProofApi;
  lang: Lang;
  info: AppInfo | null;
  palette: readonly string[];
  /** Navigate to a route such as `results/<analysisId>` (the hash without `#/`). */
  go(route: string): void;
  /** Remember an analysis opened by this screen so that other screens can show it by id. */
  remember(view: AnalysisView): void;
  /** Remember a workload profile opened by this screen for Home's recent analyses, with the route that opens it again. */
  rememberProfile(view: ProfileView, route: string): void;
  /** An analysis opened earlier in this window, by id. */
  view(id: string): AnalysisView | undefined;
}

export interface Screen {
  node: HTMLElement;
  /** Called when the screen is left: destroy charts, stop timers. */
  dispose?(): void;
}
