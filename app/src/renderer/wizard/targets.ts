/** The custom latency targets' fields in the wizard's Plan step (the draft and its checks: targets-model.ts). */
import { fmtNumber, parseLocaleNumber } from '../../shared/i18n/numbers.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { StepCtx } from './index.ts';
import { customTargetsOf, MAX_TARGET_MS, type CustomTargetsDraft, type TargetFieldName } from './targets-model.ts';

const FIELDS: { name: TargetFieldName; label: 'custom.read' | 'custom.write' | 'custom.warn' }[] = [
  { name: 'read', label: 'custom.read' },
  { name: 'write', label: 'custom.write' },
  { name: 'warn', label: 'custom.warn' },
];

/** The three fields, each with its help and its error sentence; `changed` after every keystroke. */
export function customTargetsFieldset(w: StepCtx['w'], lang: Lang, c: CustomTargetsDraft, changed: () => void): { node: HTMLElement; show: (visible: boolean) => void } {
  const errs = new Map<TargetFieldName, HTMLElement>();
  const inputs = new Map<TargetFieldName, HTMLInputElement>();
  const paint = (): void => {
    const r = customTargetsOf(c);
    for (const f of FIELDS) {
      const e = r.ok ? undefined : r.errors[f.name];
      const err = errs.get(f.name);
      const input = inputs.get(f.name);
      if (err) err.textContent = e === undefined ? '' : w(`custom.err.${e}`, { max: fmtNumber(lang, MAX_TARGET_MS) });
      if (input) input.setAttribute('aria-invalid', e === undefined ? 'false' : 'true');
    }
  };
  const node = el('fieldset', { class: 'wiz-group wiz-custom-targets', 'data-testid': TID.wizCustomTargets }, el('legend', {}, w('custom.title')), el('p', { class: 'help' }, w('custom.help')));
  for (const f of FIELDS) {
    const id = `wiz-custom-${f.name}`;
    const input = el('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', size: '8', value: c[f.name].text, 'aria-describedby': `${id}-error`, 'data-testid': `${TID.wizCustomTargets}-${f.name}` });
    input.addEventListener('input', () => {
      c[f.name] = { text: input.value, ms: parseLocaleNumber(lang, input.value) };
      paint();
      changed();
    });
    const err = el('p', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' });
    errs.set(f.name, err);
    inputs.set(f.name, input);
    node.append(el('div', { class: 'wiz-field' }, el('label', { for: id }, w(f.label)), el('div', { class: 'wiz-dur' }, input, el('span', {}, 'ms')), err));
  }
  paint();
  return { node, show: (visible) => { node.hidden = !visible; } };
}
