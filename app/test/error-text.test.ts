/**
 * Every expected-failure code of the contract has its sentence (what happened, what to do) in
 * every language, translated, with the same placeholders; the screens show it by code.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/shared/contract.ts';
import { common } from '../src/shared/i18n/common.ts';
import { LANGS } from '../src/shared/i18n/types.ts';
import { errorText } from '../src/renderer/error-text.ts';

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

describe('error strings', () => {
  it('has a translated sentence for every contract error code in every language', () => {
    for (const code of ERROR_CODES) {
      const key = `err.${code}`;
      const en = (common.en as Record<string, string | undefined>)[key];
      expect(en, `en: ${key}`).toBeTruthy();
      for (const lang of LANGS) {
        const s = (common[lang] as Record<string, string | undefined>)[key];
        expect(s, `${lang}: ${key}`).toBeTruthy();
        expect(placeholders(s as string), `${lang}: ${key}`).toEqual(placeholders(en as string));
        if (lang !== 'en') expect(s, `${lang}: ${key} is still English`).not.toBe(en);
        expect(errorText(lang, code)).toBe(s);
      }
    }
  });

  it('a damaged capture and a run without a measure window say what to do, not "internal" or "could not be computed"', () => {
    for (const lang of LANGS) {
      expect(errorText(lang, 'capture-damaged')).not.toBe(errorText(lang, 'internal'));
      expect(errorText(lang, 'capture-damaged')).toContain('-wal');
      expect(errorText(lang, 'analysis-no-measure')).not.toBe(errorText(lang, 'analysis-failed'));
    }
  });
});
