/**
 * The new-analysis wizard: one step per screen (`#/new/devices`, `#/new/engine`, `#/new/plan`,
 * `#/new/review`) with Back and Next. Next stays disabled, with the reason written beside it,
 * while the step is not valid; the draft survives Back, Next, a language change and a reload.
 * The last step starts the probe detached (`api.startRun`) and goes to the run's Live screen.
 */
import { translate } from '../../shared/i18n/types.ts';
import { wizard, type WizardKey } from '../../shared/i18n/wizard.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { Ctx, Screen } from '../screen.ts';
import { devicesStep } from './devices.ts';
import { engineStep } from './engine.ts';
import { planStep } from './plan.ts';
import { reviewStep } from './review.ts';
import { isStep, STEPS, type Draft, type Step } from './state.ts';
import { getDraft, saveDraft } from './store.ts';

/** What a step gives the wizard frame. */
export interface StepView {
  node: HTMLElement;
  /** Why the step cannot be left forward yet (shown beside the disabled Next), or null. */
  blocker(): string | null;
  /** The review step's Start: replaces Next. Resolves when the step has finished its work. */
  submit?(): Promise<void>;
  /** The label of the forward button when it is not "Next". */
  submitLabel?: string;
  dispose?(): void;
}

export interface StepCtx {
  ctx: Ctx;
  draft: Draft;
  w(key: WizardKey, params?: Record<string, string | number>): string;
  /** The step changed the draft: saves it and re-checks the Next button. */
  changed(): void;
}

const TITLES: Record<Step, WizardKey> = { devices: 'step.devices', engine: 'step.engine', plan: 'step.plan', review: 'step.review' };

/** The step named by the route, or the first step for anything else. */
export function wizardScreen(ctx: Ctx, stepName: string | undefined): Screen {
  const step: Step = isStep(stepName) ? stepName : 'devices';
  const index = STEPS.indexOf(step);
  const w = (key: WizardKey, params?: Record<string, string | number>): string => translate(wizard, ctx.lang, key, params);
  const draft = getDraft();

  const nextBtn = el('button', { type: 'submit', class: 'primary', 'data-testid': TID.wizardNext, 'aria-describedby': 'wiz-next-why' });
  const why = el('p', { class: 'wiz-why', id: 'wiz-next-why', 'data-testid': TID.wizardNextWhy, 'aria-live': 'polite' });
  let view: StepView | null = null;
  let busy = false;
  const refresh = (): void => {
    const blocker = view?.blocker() ?? null;
    nextBtn.disabled = busy || blocker !== null;
    why.textContent = blocker ?? '';
    why.hidden = blocker === null;
  };
  const sctx: StepCtx = { ctx, draft, w, changed: () => { saveDraft(); refresh(); } };
  const steps: Record<Step, (s: StepCtx) => StepView> = { devices: devicesStep, engine: engineStep, plan: planStep, review: reviewStep };
  view = steps[step](sctx);
  nextBtn.textContent = view.submitLabel ?? w('next');

  const backBtn = el('button', { type: 'button', 'data-testid': TID.wizardBack }, index === 0 ? w('backHome') : w('back'));
  backBtn.addEventListener('click', () => ctx.go(index === 0 ? 'home' : `new/${STEPS[index - 1] ?? 'devices'}`));

  const title = el('h3', { id: 'wiz-step-title', tabindex: '-1', 'data-testid': TID.wizardStep, 'data-step': step },
    w('stepOf', { n: index + 1, total: STEPS.length, title: w(TITLES[step]) }));
  const form = el('form', { class: 'wiz-form', novalidate: '', 'aria-labelledby': 'wiz-step-title' },
    title,
    view.node,
    el('div', { class: 'wiz-nav' }, backBtn, nextBtn, why));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = view;
    if (busy || v === null || v.blocker() !== null) return;
    if (v.submit) {
      busy = true;
      refresh();
      void v.submit().finally(() => {
        busy = false;
        refresh();
      });
      return;
    }
    ctx.go(`new/${STEPS[index + 1] ?? 'review'}`);
  });

  const list = el('ol', { class: 'wiz-steps', 'aria-label': w('stepsLabel') });
  for (const s of STEPS) {
    const li = el('li', {}, w(TITLES[s]));
    if (s === step) li.setAttribute('aria-current', 'step');
    list.append(li);
  }
  const node = el('div', { class: 'wizard', 'data-testid': TID.wizard },
    el('h2', {}, w('title')),
    list,
    form);
  refresh();
  // Keyboard and screen-reader users land on the new step's title, not at the top of the page.
  queueMicrotask(() => {
    if (node.isConnected) title.focus({ preventScroll: true });
  });
  return { node, dispose: () => view?.dispose?.() };
}
