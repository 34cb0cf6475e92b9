/**
 * The probe's sentences in the person's language (issue 37): a preview's `said` (codes with
 * values, native/crates/import/src/said.rs) written from the catalog i18n/probe-said.ts. Names and
 * paths are kept as written, numbers are written in the locale, an inner sentence (a stack edge's
 * kind) is translated too. Nothing is computed here.
 */
import type { Said, SaidValue } from '../../shared/contract.ts';
import { probeSaid } from '../../shared/i18n/probe-said.ts';
import { numberText, saidText } from '../../shared/i18n/said-text.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';

/** A value as nodes: a name or path marked not to translate, a number in the locale, inner sentences translated. */
function valueNodes(lang: Lang, v: SaidValue): (Node | string)[] {
  if (typeof v === 'number') return [numberText(lang, v)];
  if (typeof v === 'string') return [el('span', { translate: 'no', class: 'said-value' }, v)];
  if (Array.isArray(v)) return v.flatMap((x, i) => (i === 0 ? [saidNode(lang, x)] : [', ', saidNode(lang, x)]));
  return [saidNode(lang, v)];
}

/** The sentence of `s` in `lang` as a `<span>`, each name or path in it marked `translate="no"`. */
export function saidNode(lang: Lang, s: Said): HTMLElement {
  const template = (probeSaid[lang] as Record<string, string>)[s.code];
  const node = el('span', { 'data-said': s.code });
  if (template === undefined) {
    node.append(saidText(lang, s));
    return node;
  }
  // the template's words, with each {value} replaced by its nodes
  for (const part of template.split(/(\{\w+\})/u)) {
    const name = /^\{(\w+)\}$/u.exec(part)?.[1];
    const v = name === undefined ? undefined : s.values[name];
    if (v === undefined) node.append(part);
    else node.append(...valueNodes(lang, v));
  }
  return node;
}
