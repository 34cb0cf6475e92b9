/** The sentence for an expected failure's code, in the person's language (shared by the screens). */
import type { ErrorCode } from '../shared/contract.ts';
import { common, type CommonKey } from '../shared/i18n/common.ts';
import { translate, type Lang } from '../shared/i18n/types.ts';

/** Compile-time check: every contract error code has its sentence (`err.<code>`) in the common catalog. */
type Untranslated = Exclude<`err.${ErrorCode}`, CommonKey>;
const EVERY_CODE_HAS_ITS_TEXT: [Untranslated] extends [never] ? true : Untranslated = true;
void EVERY_CODE_HAS_ITS_TEXT;

/**
 * `err.<code>` from the common catalog. A code outside the contract (a reply from a newer or
 * older host) reads as an internal error rather than as nothing.
 */
export function errorText(lang: Lang, code: ErrorCode): string {
  const key = `err.${code}`;
  return key in common.en ? translate(common, lang, key as CommonKey) : translate(common, lang, 'err.internal');
}
