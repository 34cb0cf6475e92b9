/** The sentence for an expected failure's code, in the person's language (shared by the screens). */
import { common, type CommonKey } from '../shared/i18n/common.ts';
import { translate, type Lang } from '../shared/i18n/types.ts';

/** `err.<code>` from the common catalog; a code the catalog does not know reads as an internal error. */
export function errorText(lang: Lang, code: string): string {
  const key = `err.${code}`;
  return key in common.en ? translate(common, lang, key as CommonKey) : translate(common, lang, 'err.internal');
}
